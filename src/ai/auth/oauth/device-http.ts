/**
 * The HTTP side of the device-code logins: one request helper (every URL through `oauthEndpoint`, the login's
 * abort signal plus an optional timeout, the body read once as text and as a JSON object), the check that a
 * verification URL is safe to open in a browser, and the injectable pieces (fetch, clock, environment) the tests
 * replace.
 */
import type { ProviderAuthInteraction } from "../provider-auth-types.ts";
import {
	type DeviceFlowClock,
	type DevicePoll,
	LOGIN_CANCELLED,
	pollDeviceAuthorization,
	systemClock,
} from "./device-code.ts";
import { oauthEndpoint } from "./endpoints.ts";

export type JsonObject = Record<string, unknown>;
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** What a device-code login depends on; every field defaults to the real thing. */
export interface DeviceLoginDeps {
	fetch?: FetchLike;
	clock?: DeviceFlowClock;
	/** Environment for endpoint overrides (`PI_OAUTH_TEST_ORIGIN`, `KIMI_CODE_OAUTH_HOST`); default `process.env`. */
	env?: Record<string, string | undefined>;
}

export interface ResolvedDeps {
	fetch: FetchLike;
	clock: DeviceFlowClock;
	env: Record<string, string | undefined>;
}

export function resolveDeps(deps: DeviceLoginDeps | undefined): ResolvedDeps {
	return {
		fetch: deps?.fetch ?? ((url, init) => fetch(url, init)),
		clock: deps?.clock ?? systemClock,
		env: deps?.env ?? process.env,
	};
}

export interface JsonReply {
	ok: boolean;
	status: number;
	statusText: string;
	headers: Headers;
	/** The body when it is a JSON object, else null. */
	json: JsonObject | null;
	text: string;
}

export interface RequestOptions {
	method?: "GET" | "POST";
	headers?: Record<string, string>;
	/** Sent form-encoded. */
	form?: Record<string, string>;
	/** Sent as the raw body (JSON requests). */
	body?: string;
	signal: AbortSignal;
	timeoutMs?: number;
	/** Thrown instead of the fetch error when `signal` aborted (default "Login cancelled"). */
	cancelMessage?: string;
}

function asObject(text: string): JsonObject | null {
	try {
		const value: unknown = JSON.parse(text);
		return value && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : null;
	} catch {
		return null;
	}
}

/** Requests `url` (through `oauthEndpoint`); network failures throw, HTTP errors come back as data. */
export async function requestJson(
	deps: Pick<ResolvedDeps, "fetch" | "env">,
	url: string,
	options: RequestOptions,
): Promise<JsonReply> {
	const { signal } = options;
	const cancelled = () => new Error(options.cancelMessage ?? LOGIN_CANCELLED);
	if (signal.aborted) throw cancelled();
	const requestSignal = options.timeoutMs ? AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)]) : signal;
	const headers = { ...options.headers };
	let body: string | undefined = options.body;
	if (options.form) {
		headers["Content-Type"] = "application/x-www-form-urlencoded";
		body = new URLSearchParams(options.form).toString();
	}
	try {
		const response = await deps.fetch(oauthEndpoint(url, deps.env), {
			method: options.method ?? (body === undefined ? "GET" : "POST"),
			headers,
			...(body === undefined ? {} : { body }),
			signal: requestSignal,
		});
		const text = await response.text();
		return {
			ok: response.ok,
			status: response.status,
			statusText: response.statusText,
			headers: response.headers,
			json: asObject(text),
			text,
		};
	} catch (error) {
		if (signal.aborted) throw cancelled();
		throw error;
	}
}

/** `value` as a URL string when it is an http(s) URL (or https only), else undefined: only those are opened. */
export function trustedUrl(value: unknown, httpsOnly = false): string | undefined {
	if (typeof value !== "string" || !value) return undefined;
	try {
		const url = new URL(value);
		if (url.protocol === "https:" || (!httpsOnly && url.protocol === "http:")) return url.href;
	} catch {
		// not a URL
	}
	return undefined;
}

export function positiveNumber(value: unknown): number | undefined {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

export function nonEmptyString(value: unknown): string | undefined {
	return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** The standard device-token errors every provider treats alike; undefined for anything else. */
export function standardPoll(
	json: JsonObject | null,
): { status: "pending" } | { status: "slow_down"; intervalSeconds?: number } | undefined {
	if (json?.error === "authorization_pending") return { status: "pending" };
	if (json?.error === "slow_down") return { status: "slow_down", intervalSeconds: positiveNumber(json.interval) };
	return undefined;
}

/** The code a device authorization reply handed out, as shown to the user. */
export interface DeviceCodeShown {
	userCode: string;
	verificationUri: string;
	intervalSeconds: number | undefined;
	expiresInSeconds: number | undefined;
}

/**
 * Shows the user code and where to enter it, then polls the token endpoint (first after one interval: the user
 * cannot have approved yet) until `poll` settles, the code expires or the login is cancelled.
 */
export function showCodeAndPoll<T>(
	deps: ResolvedDeps,
	interaction: ProviderAuthInteraction,
	code: DeviceCodeShown,
	poll: () => Promise<DevicePoll<T>>,
): Promise<T> {
	const { userCode, verificationUri, intervalSeconds, expiresInSeconds } = code;
	interaction.notify({ type: "device_code", userCode, verificationUri, intervalSeconds, expiresInSeconds });
	return pollDeviceAuthorization<T>({
		intervalSeconds,
		expiresInSeconds,
		waitBeforeFirstPoll: true,
		signal: interaction.signal,
		clock: deps.clock,
		poll,
	});
}
