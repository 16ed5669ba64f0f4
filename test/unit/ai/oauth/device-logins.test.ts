/**
 * xAI, Kimi Code and Meta device-code logins against the loopback stand-in: what each login sends (client id,
 * scope, grant), what it shows (the device_code event), the waits it makes, the credential auth.json gets, the auth
 * a request gets (`toAuth`), refresh and a revoked refresh, and the refusals. The expected values are facts read
 * from pi-ai 0.87.1's dist/auth/oauth/*.js (its flows cannot be pointed at a stand-in: they take no endpoint
 * override), not a side-by-side run.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createKimiCodingOAuth } from "../../../../src/ai/auth/oauth/kimi-coding.ts";
import { createMetaOAuth } from "../../../../src/ai/auth/oauth/meta.ts";
import { createXaiOAuth } from "../../../../src/ai/auth/oauth/xai.ts";
import {
	type OAuthDeviceServer,
	scriptedInteraction,
	startOAuthDeviceServer,
	USER_CODE,
	virtualClock,
} from "../../../support/oauth-device-server.ts";

const GRANT = "urn:ietf:params:oauth:grant-type:device_code";
let server: OAuthDeviceServer;
let clock: ReturnType<typeof virtualClock>;
const deps = () => ({ env: { PI_OAUTH_TEST_ORIGIN: server.origin }, clock });
const PENDING_PENDING_SLOW_SUCCESS = [
	{ error: "authorization_pending" },
	{ error: "authorization_pending" },
	{ error: "slow_down" },
] as const;

beforeEach(() => {
	server = startOAuthDeviceServer();
	clock = virtualClock();
});
afterEach(() => server.stop());

describe("xAI", () => {
	test("login: device code with the Grok CLI client, pending twice, slow_down, tokens", async () => {
		server.script([...PENDING_PENDING_SLOW_SUCCESS]);
		const run = scriptedInteraction();
		const credential = await createXaiOAuth(deps()).login(run.interaction);
		const [device] = server.requestsTo("/oauth2/device/code");
		expect(device?.body).toEqual({
			client_id: "b1a00492-073a-47ea-816f-4c329264a828",
			scope: "openid profile email offline_access grok-cli:access api:access",
			referrer: "pi",
		});
		expect(device?.headers.accept).toBe("application/json");
		expect(run.events).toEqual([
			{
				type: "device_code",
				userCode: USER_CODE,
				verificationUri: `https://accounts.x.ai/device?user_code=${USER_CODE}`,
				intervalSeconds: 5,
				expiresInSeconds: 900,
			},
		]);
		const polls = server.requestsTo("/oauth2/token");
		expect(polls).toHaveLength(4);
		expect(polls[0]?.body).toEqual({
			grant_type: GRANT,
			client_id: "b1a00492-073a-47ea-816f-4c329264a828",
			device_code: "dev-code-123",
		});
		expect(clock.sleeps).toEqual([5000, 5000, 5000, 10000]);
		expect(Object.keys(credential).sort()).toEqual(["access", "expires", "refresh", "type"]);
		expect(credential.type).toBe("oauth");
		expect(credential.access).toStartWith("at-");
		expect(credential.refresh).toStartWith("rt-");
		expect(credential.expires).toBe(clock.now() + 3600_000 - 300_000);
		expect(await createXaiOAuth(deps()).toAuth(credential)).toEqual({ apiKey: credential.access });
	});

	test("expired and denied device codes end with pi's messages", async () => {
		server.script([{ error: "expired_token" }]);
		await expect(createXaiOAuth(deps()).login(scriptedInteraction().interaction)).rejects.toThrow(
			"xAI device code expired",
		);
		server.script([{ error: "access_denied" }]);
		await expect(createXaiOAuth(deps()).login(scriptedInteraction().interaction)).rejects.toThrow(
			"xAI device authorization was denied",
		);
	});

	test("refresh rotates; a revoked refresh token fails without echoing it", async () => {
		const auth = createXaiOAuth(deps());
		const first = await auth.login(scriptedInteraction().interaction);
		const second = await auth.refresh(first, new AbortController().signal);
		expect(second.refresh).not.toBe(first.refresh);
		expect(second.access).not.toBe(first.access);
		expect(server.requestsTo("/oauth2/token").at(-1)?.body).toEqual({
			grant_type: "refresh_token",
			client_id: "b1a00492-073a-47ea-816f-4c329264a828",
			refresh_token: first.refresh,
		});
		server.revoke(second.refresh);
		const error = await auth.refresh(second, new AbortController().signal).catch((e: Error) => e);
		expect(String(error)).toContain("xAI OAuth token refresh failed (HTTP 400): invalid_grant: refresh token revoked");
		expect(String(error)).not.toContain(second.refresh);
	});

	test("a refresh that does not rotate keeps the stored refresh token; no expires_in means one hour", async () => {
		const auth = createXaiOAuth(deps());
		const first = await auth.login(scriptedInteraction().interaction);
		server.rotateRefreshTokens(false);
		const second = await auth.refresh(first, new AbortController().signal);
		expect(second.refresh).toBe(first.refresh);
		expect(second.access).not.toBe(first.access);
		expect(second.expires).toBe(clock.now() + 3600_000 - 300_000);
	});

	test("cancelling while waiting for approval ends with 'Login cancelled' and stops polling", async () => {
		server.script(Array.from({ length: 50 }, () => ({ error: "authorization_pending" })));
		const run = scriptedInteraction();
		const { signal } = run.controller;
		const slow = {
			now: clock.now,
			sleep: async (ms: number, s: AbortSignal) => {
				if (server.requestsTo("/oauth2/token").length === 2) run.controller.abort();
				return clock.sleep(ms, s);
			},
		};
		await expect(createXaiOAuth({ ...deps(), clock: slow }).login(run.interaction)).rejects.toThrow("Login cancelled");
		expect(signal.aborted).toBe(true);
		expect(server.requestsTo("/oauth2/token")).toHaveLength(2);
	});
});

describe("Kimi Code", () => {
	test("login against KIMI_CODE_OAUTH_HOST: complete verification URI, tokens, Bearer header auth", async () => {
		server.script([...PENDING_PENDING_SLOW_SUCCESS]);
		const run = scriptedInteraction();
		const auth = createKimiCodingOAuth({ env: { KIMI_CODE_OAUTH_HOST: `${server.origin}//` }, clock });
		const credential = await auth.login(run.interaction);
		expect(server.requestsTo("/api/oauth/device_authorization")[0]?.body).toEqual({
			client_id: "17e5f671-d194-4dfb-9706-5516cb48c098",
		});
		expect(server.requestsTo("/api/oauth/token")[0]?.body).toEqual({
			client_id: "17e5f671-d194-4dfb-9706-5516cb48c098",
			device_code: "dev-code-123",
			grant_type: GRANT,
		});
		expect(run.events).toEqual([
			{
				type: "device_code",
				userCode: USER_CODE,
				verificationUri: `https://www.kimi.com/code/authorize_device?user_code=${USER_CODE}`,
				intervalSeconds: 5,
				expiresInSeconds: 900,
			},
		]);
		expect(clock.sleeps).toEqual([5000, 5000, 5000, 10000]);
		expect(Object.keys(credential).sort()).toEqual(["access", "expires", "refresh", "type"]);
		expect(credential.expires).toBe(clock.now() + 3600_000);
		expect(await auth.toAuth(credential)).toEqual({ headers: { Authorization: `Bearer ${credential.access}` } });
	});

	test("missing interval/expiry fall back to 5 s and 15 min", async () => {
		server.stop();
		server = startOAuthDeviceServer({ device: { interval: undefined, expires_in: undefined } });
		const run = scriptedInteraction();
		await createKimiCodingOAuth(deps()).login(run.interaction);
		expect(run.events[0]).toMatchObject({ intervalSeconds: 5, expiresInSeconds: 900 });
	});

	test("expired, denied, revoked refresh", async () => {
		const auth = createKimiCodingOAuth(deps());
		server.script([{ error: "expired_token" }]);
		await expect(auth.login(scriptedInteraction().interaction)).rejects.toThrow(
			"Kimi Code device authorization expired. Please restart login.",
		);
		server.script([{ error: "access_denied" }]);
		await expect(auth.login(scriptedInteraction().interaction)).rejects.toThrow("Kimi Code login was denied.");
		const credential = await auth.login(scriptedInteraction().interaction);
		const next = await auth.refresh(credential, new AbortController().signal);
		expect(next.refresh).not.toBe(credential.refresh);
		server.revoke(next.refresh);
		const error = await auth.refresh(next, new AbortController().signal).catch((e: Error) => e);
		expect(String(error)).toContain("Kimi Code token refresh unauthorized (status 400): refresh token revoked");
		expect(String(error)).not.toContain(next.refresh);
	});
});

describe("Kimi Code refresh retries", () => {
	test("429 and 5xx are retried 1 s, 2 s, 4 s apart; then the last status is reported", async () => {
		const auth = createKimiCodingOAuth(deps());
		const credential = await auth.login(scriptedInteraction().interaction);
		clock.sleeps.length = 0;
		server.failNext("/api/oauth/token", 503, 2);
		const next = await auth.refresh(credential, new AbortController().signal);
		expect(next.refresh).not.toBe(credential.refresh);
		expect(clock.sleeps).toEqual([1000, 2000]);
		clock.sleeps.length = 0;
		server.failNext("/api/oauth/token", 429, 4);
		const error = await auth.refresh(next, new AbortController().signal).catch((e: Error) => e);
		expect(clock.sleeps).toEqual([1000, 2000, 4000]);
		expect(String(error)).toContain("Kimi Code token refresh failed with status 429");
		expect(String(error)).not.toContain(next.refresh);
	});
});

describe("Meta", () => {
	test("login: identity token from the device flow, exchanged for a day-long Model API key", async () => {
		server.script([...PENDING_PENDING_SLOW_SUCCESS]);
		const run = scriptedInteraction();
		const auth = createMetaOAuth(deps());
		const credential = await auth.login(run.interaction);
		expect(server.requestsTo("/oidc/device/authorization/")[0]?.body).toEqual({ client_id: "1031625952748946" });
		expect(server.requestsTo("/oidc/device/token/")[0]?.body).toEqual({
			grant_type: GRANT,
			device_code: "dev-code-123",
			client_id: "1031625952748946",
		});
		const [mint] = server.requestsTo("/muse-code/key");
		expect(mint?.method).toBe("POST");
		expect(mint?.headers["x-api-version"]).toBe("1.0.0");
		expect(mint?.headers["content-type"]).toBe("application/json");
		expect(mint?.body).toEqual({});
		expect(run.events.map((e) => e.type)).toEqual(["device_code", "progress"]);
		expect(run.events[1]).toEqual({ type: "progress", message: "Enabling Meta Model API access..." });
		expect(credential.refresh).toStartWith("meta-identity-");
		expect(credential.access).toStartWith("meta-key-");
		expect(mint?.headers.authorization).toBe(`Bearer ${credential.refresh}`);
		expect(credential.expires).toBe(clock.now() + 24 * 3600_000);
		expect(await auth.toAuth(credential)).toEqual({ apiKey: credential.access });
	});

	test("refresh mints a new key; a dead identity token asks for /login meta", async () => {
		const auth = createMetaOAuth(deps());
		const credential = await auth.login(scriptedInteraction().interaction);
		const next = await auth.refresh(credential, new AbortController().signal);
		expect(next.refresh).toBe(credential.refresh);
		expect(next.access).not.toBe(credential.access);
		server.revoke(credential.refresh);
		const error = await auth.refresh(next, new AbortController().signal).catch((e: Error) => e);
		expect(String(error)).toContain(
			"Meta session expired (status 401). Run `/login meta` to sign in again.: invalid identity token",
		);
		expect(String(error)).not.toContain(credential.refresh);
	});

	test("expired and denied", async () => {
		server.script([{ error: "expired_token" }]);
		await expect(createMetaOAuth(deps()).login(scriptedInteraction().interaction)).rejects.toThrow(
			"Meta device authorization expired. Please restart login.",
		);
		server.script([{ error: "access_denied" }]);
		await expect(createMetaOAuth(deps()).login(scriptedInteraction().interaction)).rejects.toThrow(
			"Meta login was denied.",
		);
	});
});
