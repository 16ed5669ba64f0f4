/**
 * The Radius gateway sign-in against loopback stand-ins: the method choice, the browser login (discovery, PKCE,
 * the callback on 127.0.0.1:1456, the token exchange, what auth.json keeps), the device-code login (polls until
 * approved, pi's messages for expiry and denial), refresh through AuthStorage (rotated token, revoked token → one
 * line naming /login) and the request key. The only test file that uses port 1456.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRadiusOAuth, normalizeRadiusGatewayUrl } from "../../../../src/ai/auth/oauth/radius.ts";
import {
	type AuthEvent,
	type AuthPrompt,
	AuthStorage,
	LOGIN_CANCELLED,
	loginWithOAuth,
	type ProviderAuthInteraction,
} from "../../../../src/ai/index.ts";
import { makeTempDir } from "../../../helpers/tmp.ts";
import { virtualClock } from "../../../support/oauth-device-server.ts";
import { startOAuthServer } from "../../../support/oauth-server.ts";

const server = startOAuthServer({ accessToken: (n) => `radius-at-${n}-secret` });
server.route("GET", "/v1/oauth", () =>
	Response.json({ authorizationEndpoint: "https://radius.pi.dev/oauth/authorize" }),
);

let previousOrigin: string | undefined;
beforeAll(() => {
	previousOrigin = process.env.PI_OAUTH_TEST_ORIGIN;
	process.env.PI_OAUTH_TEST_ORIGIN = server.url;
});
afterAll(() => {
	if (previousOrigin === undefined) delete process.env.PI_OAUTH_TEST_ORIGIN;
	else process.env.PI_OAUTH_TEST_ORIGIN = previousOrigin;
	server.stop();
});

interface Scripted {
	interaction: ProviderAuthInteraction;
	controller: AbortController;
	events: AuthEvent[];
	prompts: AuthPrompt[];
	authUrl: Promise<string>;
}

/** Answers the method choice with `method`; other prompts are never answered (the browser callback wins). */
function scripted(method: string): Scripted {
	const controller = new AbortController();
	const events: AuthEvent[] = [];
	const prompts: AuthPrompt[] = [];
	let gotUrl: (url: string) => void = () => {};
	const authUrl = new Promise<string>((resolve) => {
		gotUrl = resolve;
	});
	return {
		controller,
		events,
		prompts,
		authUrl,
		interaction: {
			signal: controller.signal,
			notify(event) {
				events.push(event);
				if (event.type === "auth_url") gotUrl(event.url);
			},
			prompt(prompt) {
				prompts.push(prompt);
				if (prompt.type === "select") return Promise.resolve(method);
				return new Promise((_resolve, reject) =>
					prompt.signal?.addEventListener("abort", () => reject(new Error("withdrawn")), { once: true }),
				);
			},
		},
	};
}

test("gateway URLs are normalised as pi does", () => {
	expect(normalizeRadiusGatewayUrl("radius.example.com/")).toBe("https://radius.example.com");
	expect(normalizeRadiusGatewayUrl("HTTP://127.0.0.1:9//")).toBe("HTTP://127.0.0.1:9");
});

describe("browser login", () => {
	test("the method choice, PKCE on 127.0.0.1:1456, the exchange, and auth.json as pi writes it", async () => {
		const dir = makeTempDir("pi-radius-");
		const storage = new AuthStorage(join(dir, "auth.json"));
		const run = scripted("browser");
		const done = loginWithOAuth(storage, "radius", run.interaction);
		const url = new URL(await run.authUrl);
		const select = run.prompts[0];
		expect(select?.type).toBe("select");
		expect(select?.message).toBe("Sign in to Radius:");
		expect(select?.type === "select" ? select.options.map((o) => o.id) : []).toEqual(["browser", "device-code"]);
		expect(url.origin).toBe(server.url);
		expect(url.pathname).toBe("/oauth/authorize");
		expect(Object.fromEntries(url.searchParams)).toMatchObject({
			response_type: "code",
			client_id: "pi-gateway",
			redirect_uri: "http://127.0.0.1:1456/oauth/callback",
			scope: "gateway offline_access",
			code_challenge_method: "S256",
			handoff: "url",
		});
		expect(run.events.find((e) => e.type === "progress")).toEqual({
			type: "progress",
			message: "Listening for OAuth callback on http://127.0.0.1:1456/oauth/callback",
		});
		expect(run.events.find((e) => e.type === "auth_url")).toMatchObject({ instructions: "Continue in your browser." });
		const page = await fetch(server.approve(url.toString()));
		expect(page.status).toBe(200);
		const before = Date.now();
		const credential = await done;
		expect(Object.keys(credential).sort()).toEqual(["access", "expires", "refresh", "type"]);
		expect(credential.access).toMatch(/^radius-at-\d+-secret$/);
		// expires_in 3600 s, stored one minute early.
		expect(credential.expires).toBeGreaterThan(before + 3_540_000 - 5_000);
		expect(credential.expires).toBeLessThanOrEqual(Date.now() + 3_540_000);
		const path = join(dir, "auth.json");
		expect(JSON.parse(readFileSync(path, "utf8")).radius).toEqual(credential);
		expect(statSync(path).mode & 0o777).toBe(0o600);
		const discovery = server.requests.find((r) => r.path === "/v1/oauth");
		expect(discovery?.method).toBe("GET");
		const exchange = server.requests.findLast((r) => r.fields.grant_type === "authorization_code");
		expect(exchange?.path).toBe("/v1/oauth/token");
		expect(exchange?.contentType).toContain("application/x-www-form-urlencoded");
		expect(exchange?.fields.client_id).toBe("pi-gateway");
		expect(await storage.getApiKey("radius")).toBe(credential.access);
		// The callback port is free again.
		await expect(fetch("http://127.0.0.1:1456/oauth/callback")).rejects.toThrow();
	});

	test("a custom gateway (trailing slash) and name; toAuth gives the access token as the API key", async () => {
		const gatewayServer = startOAuthServer({ accessToken: () => "custom-at" });
		gatewayServer.route("GET", "/v1/oauth", () =>
			Response.json({ authorizationEndpoint: `${gatewayServer.url}/authorize` }),
		);
		try {
			const oauth = createRadiusOAuth({ name: "Acme Radius", gateway: `${gatewayServer.url}/` }, { env: {} });
			const run = scripted("browser");
			const done = oauth.login(run.interaction);
			const url = await run.authUrl;
			expect(run.prompts[0]?.message).toBe("Sign in to Acme Radius:");
			await fetch(gatewayServer.approve(url));
			const credential = await done;
			expect(credential.access).toBe("custom-at");
			expect(await oauth.toAuth(credential)).toEqual({ apiKey: "custom-at" });
		} finally {
			gatewayServer.stop();
		}
	});

	test("a bad discovery answer and an unknown method are one-line errors", async () => {
		const bad = startOAuthServer();
		bad.route("GET", "/v1/oauth", () => Response.json({ nope: true }));
		try {
			const oauth = createRadiusOAuth({ name: "Radius", gateway: bad.url }, { env: {} });
			await expect(oauth.login(scripted("browser").interaction)).rejects.toThrow(
				`Invalid Radius OAuth config from ${bad.url}`,
			);
			await expect(oauth.login(scripted("sms").interaction)).rejects.toThrow("Unknown Radius sign-in method: sms");
		} finally {
			bad.stop();
		}
	});

	test("cancelling closes the callback port and stores nothing", async () => {
		const dir = makeTempDir("pi-radius-");
		const storage = new AuthStorage(join(dir, "auth.json"));
		const run = scripted("browser");
		const done = loginWithOAuth(storage, "radius", run.interaction);
		await run.authUrl;
		run.controller.abort();
		await expect(done).rejects.toThrow(LOGIN_CANCELLED);
		expect(existsSync(join(dir, "auth.json"))).toBe(false);
		await expect(fetch("http://127.0.0.1:1456/oauth/callback")).rejects.toThrow();
	});
});

describe("device-code login", () => {
	/** A gateway whose token endpoint answers device polls from `steps`, then issues tokens. */
	function deviceGateway(steps: Record<string, unknown>[], device: Record<string, unknown> = {}) {
		const gateway = startOAuthServer();
		let polls = 0;
		gateway.route("POST", "/v1/oauth/device", (_request, fields) =>
			fields.client_id === "pi-gateway" && fields.scope === "gateway offline_access"
				? Response.json({
						device_code: "dc-1",
						user_code: "RAD-1234",
						verification_uri: "https://radius.pi.dev/device",
						expires_in: 600,
						interval: 2,
						...device,
					})
				: Response.json({ error: "invalid_client" }, { status: 400 }),
		);
		gateway.route("POST", "/v1/oauth/token", (_request, fields) => {
			if (fields.grant_type !== "urn:ietf:params:oauth:grant-type:device_code" || fields.device_code !== "dc-1")
				return Response.json({ error: "unsupported_grant_type" }, { status: 400 });
			const step = steps[polls++];
			if (step) return Response.json(step, { status: 400 });
			return Response.json({
				access_token: "dev-at-secret",
				refresh_token: "dev-rt",
				expires_in: 120,
				scope: "gateway offline_access",
			});
		});
		return { gateway, polls: () => polls };
	}

	test("the code is shown, pending and slow_down are waited out, the tokens come back with their scope", async () => {
		const { gateway, polls } = deviceGateway([{ error: "authorization_pending" }, { error: "slow_down" }]);
		try {
			const clock = virtualClock();
			const oauth = createRadiusOAuth(
				{ name: "Radius", gateway: "https://radius.pi.dev" },
				{ env: { PI_OAUTH_TEST_ORIGIN: gateway.url }, clock },
			);
			const run = scripted("device-code");
			const credential = await oauth.login(run.interaction);
			expect(run.events.find((e) => e.type === "device_code")).toEqual({
				type: "device_code",
				userCode: "RAD-1234",
				verificationUri: "https://radius.pi.dev/device",
				intervalSeconds: 2,
				expiresInSeconds: 600,
			});
			expect(polls()).toBe(3);
			// Polled at once, then every interval; slow_down adds five seconds.
			expect(clock.sleeps).toEqual([2000, 7000]);
			expect(credential).toMatchObject({
				type: "oauth",
				access: "dev-at-secret",
				refresh: "dev-rt",
				scope: "gateway offline_access",
			});
			expect(typeof credential.expires).toBe("number");
		} finally {
			gateway.stop();
		}
	});

	test("expired and denied codes end the login with pi's messages", async () => {
		for (const [error, message] of [
			["expired_token", "Device authorization expired."],
			["access_denied", "Device authorization was denied."],
		] as const) {
			const { gateway } = deviceGateway([{ error }]);
			try {
				const oauth = createRadiusOAuth(
					{ name: "Radius", gateway: "radius.pi.dev" },
					{ env: { PI_OAUTH_TEST_ORIGIN: gateway.url }, clock: virtualClock() },
				);
				await expect(oauth.login(scripted("device-code").interaction)).rejects.toThrow(message);
			} finally {
				gateway.stop();
			}
		}
	});

	test("a device answer without its required fields is refused", async () => {
		const { gateway } = deviceGateway([], { user_code: undefined });
		try {
			const oauth = createRadiusOAuth(
				{ name: "Radius", gateway: "radius.pi.dev" },
				{ env: { PI_OAUTH_TEST_ORIGIN: gateway.url }, clock: virtualClock() },
			);
			await expect(oauth.login(scripted("device-code").interaction)).rejects.toThrow(
				"Radius OAuth device authorization response is missing required fields",
			);
		} finally {
			gateway.stop();
		}
	});
});

describe("refresh through AuthStorage", () => {
	const expired = (refresh: string) => ({ type: "oauth", refresh, access: "radius-old", expires: Date.now() - 1000 });

	test("an expired token is refreshed with pi's client id and the rotated token stored", async () => {
		const dir = makeTempDir("pi-radius-");
		const path = join(dir, "auth.json");
		const refresh = server.issueRefreshToken();
		writeFileSync(path, JSON.stringify({ radius: expired(refresh) }));
		const storage = new AuthStorage(path);
		expect(storage.canRefresh("radius")).toBe(true);
		await storage.refreshOAuthIfExpired("radius");
		const stored = JSON.parse(readFileSync(path, "utf8")).radius;
		expect(stored.access).toMatch(/^radius-at-\d+-secret$/);
		expect(stored.refresh).not.toBe(refresh);
		const request = server.requests.findLast((r) => r.fields.grant_type === "refresh_token");
		expect(request?.path).toBe("/v1/oauth/token");
		expect(request?.fields).toEqual({ grant_type: "refresh_token", client_id: "pi-gateway", refresh_token: refresh });
		expect(await storage.getApiKey("radius")).toBe(stored.access);
	});

	test("a revoked refresh token: one line naming /login, auth.json unchanged, no secret in it", async () => {
		const dir = makeTempDir("pi-radius-");
		const path = join(dir, "auth.json");
		const refresh = server.issueRefreshToken();
		server.revoke(refresh);
		const text = JSON.stringify({ radius: expired(refresh) });
		writeFileSync(path, text);
		const storage = new AuthStorage(path);
		const error = await storage.refreshOAuthIfExpired("radius").then(
			() => undefined,
			(e: Error) => e,
		);
		expect(error?.message).toContain('The saved login for "radius" is no longer valid');
		expect(error?.message).toContain("/login radius");
		expect(error?.message).not.toContain(refresh);
		expect(readFileSync(path, "utf8")).toBe(text);
	});
});
