/**
 * The RFC 8628 polling loop: intervals (default 5 s, at least 1 s), slow_down (server interval or +5 s), expiry
 * (pi-ai's two timeout messages), refusals, and cancellation. A virtual clock records every wait.
 */
import { describe, expect, test } from "bun:test";
import {
	DEVICE_FLOW_TIMED_OUT,
	DEVICE_FLOW_TIMED_OUT_AFTER_SLOW_DOWN,
	type DevicePoll,
	pollDeviceAuthorization,
	systemClock,
} from "../../../../src/ai/auth/oauth/device-code.ts";
import { virtualClock } from "../../../support/oauth-device-server.ts";

function scripted(results: DevicePoll<string>[]) {
	let polls = 0;
	return {
		get polls() {
			return polls;
		},
		poll: async () => {
			polls++;
			return results.shift() ?? { status: "complete", value: "token" };
		},
	};
}

const signal = new AbortController().signal;

describe("pollDeviceAuthorization", () => {
	test("waits one interval first, polls through pending, returns the value", async () => {
		const clock = virtualClock();
		const script = scripted([{ status: "pending" }, { status: "pending" }]);
		const value = await pollDeviceAuthorization({
			intervalSeconds: 2,
			waitBeforeFirstPoll: true,
			signal,
			clock,
			...script,
		});
		expect(value).toBe("token");
		expect(script.polls).toBe(3);
		expect(clock.sleeps).toEqual([2000, 2000, 2000]);
	});

	test("no interval means 5 s; below 1 s is raised to 1 s", async () => {
		const a = virtualClock();
		await pollDeviceAuthorization({ signal, clock: a, ...scripted([{ status: "pending" }]) });
		expect(a.sleeps).toEqual([5000]);
		const b = virtualClock();
		await pollDeviceAuthorization({ intervalSeconds: 0.2, signal, clock: b, ...scripted([{ status: "pending" }]) });
		expect(b.sleeps).toEqual([1000]);
	});

	test("slow_down takes the server's interval, else adds 5 s", async () => {
		const clock = virtualClock();
		const script = scripted([
			{ status: "slow_down" },
			{ status: "pending" },
			{ status: "slow_down", intervalSeconds: 3 },
			{ status: "slow_down", intervalSeconds: 0 },
		]);
		await pollDeviceAuthorization({ intervalSeconds: 1, signal, clock, ...script });
		expect(clock.sleeps).toEqual([6000, 6000, 3000, 8000]);
	});

	test("a failed poll throws its message", async () => {
		const clock = virtualClock();
		const run = pollDeviceAuthorization({ signal, clock, ...scripted([{ status: "failed", message: "denied" }]) });
		await expect(run).rejects.toThrow("denied");
	});

	test("expiry: pi's timeout message, the clock-drift one after slow_down; the last wait is cut to the deadline", async () => {
		const clock = virtualClock();
		const pending = Array.from({ length: 10 }, () => ({ status: "pending" }) as const);
		await expect(
			pollDeviceAuthorization({
				intervalSeconds: 4,
				expiresInSeconds: 10,
				waitBeforeFirstPoll: true,
				signal,
				clock,
				...scripted(pending),
			}),
		).rejects.toThrow(DEVICE_FLOW_TIMED_OUT);
		expect(clock.sleeps).toEqual([4000, 4000, 2000]);
		const slow = virtualClock();
		await expect(
			pollDeviceAuthorization({
				intervalSeconds: 1,
				expiresInSeconds: 10,
				signal,
				clock: slow,
				...scripted(Array.from({ length: 5 }, () => ({ status: "slow_down" }) as const)),
			}),
		).rejects.toThrow(DEVICE_FLOW_TIMED_OUT_AFTER_SLOW_DOWN);
	});

	test("cancelling during the wait ends the login at once with 'Login cancelled'", async () => {
		const controller = new AbortController();
		const started = Date.now();
		const run = pollDeviceAuthorization({
			intervalSeconds: 30,
			waitBeforeFirstPoll: true,
			signal: controller.signal,
			clock: systemClock,
			poll: async () => ({ status: "complete", value: "never" }),
		});
		setTimeout(() => controller.abort(), 20);
		await expect(run).rejects.toThrow("Login cancelled");
		expect(Date.now() - started).toBeLessThan(2000);
	});
});
