/**
 * The RFC 8628 device-authorization polling loop shared by the device-code logins (GitHub Copilot, Kimi Coding,
 * Meta, xAI). A login shows the user code, then polls the provider's token endpoint: `pending` waits one interval,
 * `slow_down` lengthens the interval (to the server's `interval` when it sends one, else by five seconds), the
 * device code's lifetime bounds the whole wait, and the login's abort signal cancels it at once. The messages are
 * pi-ai 0.87.1's, since the login UI shows them as they are.
 */

import { LOGIN_CANCELLED } from "./cancel.ts";

export { LOGIN_CANCELLED };
export const DEVICE_FLOW_TIMED_OUT = "Device flow timed out";
export const DEVICE_FLOW_TIMED_OUT_AFTER_SLOW_DOWN =
	"Device flow timed out after one or more slow_down responses. This is often caused by clock drift in WSL or VM environments. Please sync or restart the VM clock and try again.";

/** Never poll faster than once a second, whatever the server says. */
const MIN_INTERVAL_MS = 1000;
/** RFC 8628 §3.2: without an `interval`, poll every five seconds. */
const DEFAULT_INTERVAL_SECONDS = 5;
/** RFC 8628 §3.5: each `slow_down` adds five seconds. */
const SLOW_DOWN_STEP_MS = 5000;

/** Time as the loop sees it; tests pass a virtual clock so intervals and expiry need no real waiting. */
export interface DeviceFlowClock {
	now(): number;
	/** Waits `ms`, or rejects with `Error("Login cancelled")` as soon as `signal` aborts. */
	sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const systemClock: DeviceFlowClock = {
	now: () => Date.now(),
	sleep: (ms, signal) =>
		new Promise<void>((resolve, reject) => {
			if (signal.aborted) return reject(new Error(LOGIN_CANCELLED));
			const onAbort = () => {
				clearTimeout(timer);
				reject(new Error(LOGIN_CANCELLED));
			};
			const timer = setTimeout(() => {
				signal.removeEventListener("abort", onAbort);
				resolve();
			}, ms);
			signal.addEventListener("abort", onAbort, { once: true });
		}),
};

/** What one poll of the token endpoint found. */
export type DevicePoll<T> =
	| { status: "complete"; value: T }
	| { status: "pending" }
	| { status: "slow_down"; intervalSeconds?: number }
	| { status: "failed"; message: string };

export interface DevicePollOptions<T> {
	/** The `interval` of the device authorization response (seconds). */
	intervalSeconds?: number;
	/** The `expires_in` of the device authorization response (seconds); no deadline when absent. */
	expiresInSeconds?: number;
	/** Wait one interval before the first poll (every built-in login does: the user cannot have approved yet). */
	waitBeforeFirstPoll?: boolean;
	signal: AbortSignal;
	poll(): Promise<DevicePoll<T>>;
	clock?: DeviceFlowClock;
}

function intervalFrom(seconds: number): number {
	return Math.max(MIN_INTERVAL_MS, Math.floor(seconds * 1000));
}

function isPositive(value: unknown): value is number {
	return typeof value === "number" && Number.isFinite(value) && value > 0;
}

/** Polls until the user approves (the poll's value), the server refuses, the code expires or the login is cancelled. */
export async function pollDeviceAuthorization<T>(options: DevicePollOptions<T>): Promise<T> {
	const clock = options.clock ?? systemClock;
	const { signal } = options;
	const deadline =
		typeof options.expiresInSeconds === "number"
			? clock.now() + options.expiresInSeconds * 1000
			: Number.POSITIVE_INFINITY;
	let intervalMs = intervalFrom(options.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS);
	let slowDowns = 0;
	const wait = async (): Promise<boolean> => {
		const left = deadline - clock.now();
		if (left <= 0) return false;
		await clock.sleep(Math.min(intervalMs, left), signal);
		return true;
	};
	if (options.waitBeforeFirstPoll) await wait();
	while (clock.now() < deadline) {
		if (signal.aborted) throw new Error(LOGIN_CANCELLED);
		const result = await options.poll();
		switch (result.status) {
			case "complete":
				return result.value;
			case "failed":
				throw new Error(result.message);
			case "slow_down":
				slowDowns++;
				intervalMs = isPositive(result.intervalSeconds)
					? intervalFrom(result.intervalSeconds)
					: Math.max(MIN_INTERVAL_MS, intervalMs + SLOW_DOWN_STEP_MS);
				break;
			case "pending":
				break;
		}
		if (!(await wait())) break;
	}
	throw new Error(slowDowns > 0 ? DEVICE_FLOW_TIMED_OUT_AFTER_SLOW_DOWN : DEVICE_FLOW_TIMED_OUT);
}
