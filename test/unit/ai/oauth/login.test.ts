/**
 * The built-in account logins in-process against the loopback authorization server: PKCE and the callback server,
 * the pasted-redirect fallback, what is stored in auth.json (pi's fields, mode 0600), cancelling, and refreshes
 * (one per expiry, revoked refresh token → one line naming the provider and /login).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parsePastedAuthorization } from "../../../../src/ai/auth/oauth/browser-login.ts";
import { pkceChallenge } from "../../../../src/ai/auth/oauth/pkce.ts";
import {
	type AuthEvent,
	type AuthPrompt,
	AuthStorage,
	LOGIN_CANCELLED,
	loginWithOAuth,
	type ProviderAuthInteraction,
} from "../../../../src/ai/index.ts";
import { makeTempDir } from "../../../helpers/tmp.ts";
import { startOAuthServer } from "../../../support/oauth-server.ts";

function jwt(claims: Record<string, unknown>): string {
	const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
	return `${part({ alg: "none" })}.${part(claims)}.sig`;
}

const server = startOAuthServer({
	accessToken: (n, clientId) =>
		clientId?.startsWith("app_")
			? jwt({ "https://api.openai.com/auth": { chatgpt_account_id: `acct-${n}` } })
			: `sk-ant-oat01-test-${n}`,
});
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

/** An interaction whose answers come from `answer` (undefined: never answers, like a user who does not paste). */
function scripted(answer: (prompt: AuthPrompt, authUrl: string) => Promise<string> | undefined): Scripted {
	const controller = new AbortController();
	const events: AuthEvent[] = [];
	const prompts: AuthPrompt[] = [];
	let gotUrl: (url: string) => void = () => {};
	const authUrl = new Promise<string>((resolve) => {
		gotUrl = resolve;
	});
	let url = "";
	return {
		controller,
		events,
		prompts,
		authUrl,
		interaction: {
			signal: controller.signal,
			notify(event) {
				events.push(event);
				if (event.type === "auth_url") {
					url = event.url;
					gotUrl(event.url);
				}
			},
			prompt(prompt) {
				prompts.push(prompt);
				const reply = answer(prompt, url);
				if (reply) return reply;
				return new Promise((_resolve, reject) =>
					prompt.signal?.addEventListener("abort", () => reject(new Error("withdrawn")), { once: true }),
				);
			},
		},
	};
}

/** What the browser does after approving: follow the redirect to the loopback callback. */
async function browserReturn(redirect: string): Promise<Response> {
	return fetch(redirect.replace("//localhost:", "//127.0.0.1:"));
}

describe("PKCE and pasted input", () => {
	test("S256 challenge: base64url of the verifier's SHA-256, unpadded (value from Python's hashlib)", async () => {
		expect(await pkceChallenge("dBjftJeZ4CVP-mJ0kzpBGJHdWeoOq_y1oEiSh1Dd54A")).toBe(
			"Qe8T37T5fIPJM3vRg8ARTI6PDtJ2lP-gyEfxt-e_YjY",
		);
	});
	test("a redirect URL, a query, code#state and a bare code", () => {
		expect(parsePastedAuthorization(" http://localhost:1455/auth/callback?code=c1&state=s1 ")).toEqual({
			code: "c1",
			state: "s1",
		});
		expect(parsePastedAuthorization("code=c2&state=s2")).toEqual({ code: "c2", state: "s2" });
		expect(parsePastedAuthorization("c3#s3")).toEqual({ code: "c3", state: "s3" });
		expect(parsePastedAuthorization("c4")).toEqual({ code: "c4" });
		expect(parsePastedAuthorization("   ")).toEqual({});
	});
});

describe("Anthropic login", () => {
	test("the browser callback: tokens stored as pi stores them, mode 0600, our page shown", async () => {
		const dir = makeTempDir("pi-oauth-");
		const storage = new AuthStorage(join(dir, "auth.json"));
		const run = scripted(() => undefined);
		const done = loginWithOAuth(storage, "anthropic", run.interaction);
		const url = new URL(await run.authUrl);
		expect(url.origin).toBe(server.url);
		expect(url.pathname).toBe("/oauth/authorize");
		expect(url.searchParams.get("client_id")).toBe("9d1c250a-e61b-44d9-88ed-5944d1962f5e");
		expect(url.searchParams.get("redirect_uri")).toBe("http://localhost:53692/callback");
		expect(url.searchParams.get("code")).toBe("true");
		expect(url.searchParams.get("scope")).toContain("user:inference");
		const page = await browserReturn(server.approve(url.toString()));
		expect(page.status).toBe(200);
		expect(await page.text()).toContain("Signed in to Anthropic");
		const before = Date.now();
		const credential = await done;
		expect(Object.keys(credential).sort()).toEqual(["access", "expires", "refresh", "type"]);
		expect(credential.access).toMatch(/^sk-ant-oat01-test-/);
		// expires_in 3600 s, stored five minutes early.
		expect(credential.expires).toBeGreaterThan(before + 3300_000 - 5_000);
		expect(credential.expires).toBeLessThanOrEqual(Date.now() + 3300_000);
		const path = join(dir, "auth.json");
		expect(JSON.parse(readFileSync(path, "utf8")).anthropic).toEqual(credential);
		expect(statSync(path).mode & 0o777).toBe(0o600);
		const exchange = server.requests.findLast((r) => r.fields.grant_type === "authorization_code");
		expect(exchange?.path).toBe("/v1/oauth/token");
		expect(exchange?.contentType).toContain("application/json");
		// The manual prompt was offered at the same time and withdrawn.
		expect(run.prompts.map((p) => p.type)).toEqual(["manual_code"]);
	});

	test("the pasted redirect URL finishes the login while the callback server waits", async () => {
		const dir = makeTempDir("pi-oauth-");
		const storage = new AuthStorage(join(dir, "auth.json"));
		const run = scripted((prompt, url) =>
			prompt.type === "manual_code" ? Promise.resolve(server.approve(url)) : undefined,
		);
		const credential = await loginWithOAuth(storage, "anthropic", run.interaction);
		expect(storage.get("anthropic")).toEqual(credential);
	});

	test("a pasted URL of another sign-in is refused and nothing is stored", async () => {
		const dir = makeTempDir("pi-oauth-");
		const path = join(dir, "auth.json");
		writeFileSync(path, '{"other":{"type":"api_key","key":"k"}}\n', { mode: 0o600 });
		const storage = new AuthStorage(path);
		const run = scripted((prompt) =>
			prompt.type === "manual_code" ? Promise.resolve("http://localhost:53692/callback?code=x&state=wrong") : undefined,
		);
		await expect(loginWithOAuth(storage, "anthropic", run.interaction)).rejects.toThrow("state mismatch");
		expect(readFileSync(path, "utf8")).toBe('{"other":{"type":"api_key","key":"k"}}\n');
	});

	test("cancelling closes the callback port and leaves auth.json missing", async () => {
		const dir = makeTempDir("pi-oauth-");
		const storage = new AuthStorage(join(dir, "auth.json"));
		const run = scripted(() => undefined);
		const done = loginWithOAuth(storage, "anthropic", run.interaction);
		await run.authUrl;
		run.controller.abort();
		await expect(done).rejects.toThrow(LOGIN_CANCELLED);
		expect(existsSync(join(dir, "auth.json"))).toBe(false);
		// The port is free again for the next login.
		await expect(fetch("http://127.0.0.1:53692/callback")).rejects.toThrow();
	});
});

describe("OpenAI Codex login", () => {
	test("browser login stores accountId from the token's claims", async () => {
		const dir = makeTempDir("pi-oauth-");
		const storage = new AuthStorage(join(dir, "auth.json"));
		const run = scripted((prompt) => (prompt.type === "select" ? Promise.resolve("browser") : undefined));
		const done = loginWithOAuth(storage, "openai-codex", run.interaction);
		const url = new URL(await run.authUrl);
		expect(url.searchParams.get("client_id")).toBe("app_EMoamEEZ73f0CkXaXp7hrann");
		expect(url.searchParams.get("redirect_uri")).toBe("http://localhost:1455/auth/callback");
		expect(url.searchParams.get("originator")).toBe("pi");
		expect(url.searchParams.get("codex_cli_simplified_flow")).toBe("true");
		const page = await browserReturn(server.approve(url.toString()));
		expect(page.status).toBe(200);
		const credential = await done;
		expect(credential.accountId).toMatch(/^acct-\d+$/);
		expect(storage.get("openai-codex")).toEqual(credential);
		const exchange = server.requests.findLast((r) => r.fields.grant_type === "authorization_code");
		expect(exchange?.contentType).toContain("application/x-www-form-urlencoded");
	});
});

describe("OpenAI Codex device-code login", () => {
	test("the user code is shown, pending polls are waited out, the returned code is exchanged", async () => {
		const dir = makeTempDir("pi-oauth-");
		const storage = new AuthStorage(join(dir, "auth.json"));
		const verifier = "device-verifier-0123456789-abcdefghijklmnopqrstuvwxyz";
		let polls = 0;
		server.route("POST", "/api/accounts/deviceauth/usercode", (_request, fields) =>
			fields.client_id === "app_EMoamEEZ73f0CkXaXp7hrann"
				? Response.json({ device_auth_id: "dev-1", user_code: "ABCD-1234", interval: "1" })
				: Response.json({ error: "invalid_client" }, { status: 400 }),
		);
		server.route("POST", "/api/accounts/deviceauth/token", async () => {
			polls++;
			if (polls === 1) return Response.json({ error: { code: "deviceauth_authorization_pending" } }, { status: 400 });
			const authorize = new URL(`${server.url}/oauth/authorize`);
			authorize.searchParams.set("client_id", "app_EMoamEEZ73f0CkXaXp7hrann");
			authorize.searchParams.set("redirect_uri", "https://auth.openai.com/deviceauth/callback");
			authorize.searchParams.set("code_challenge", await pkceChallenge(verifier));
			authorize.searchParams.set("code_challenge_method", "S256");
			const code = new URL(server.approve(authorize.toString())).searchParams.get("code");
			return Response.json({ authorization_code: code, code_verifier: verifier });
		});
		const run = scripted((prompt) => (prompt.type === "select" ? Promise.resolve("device_code") : undefined));
		const credential = await loginWithOAuth(storage, "openai-codex", run.interaction);
		expect(run.events.find((e) => e.type === "device_code")).toMatchObject({
			userCode: "ABCD-1234",
			verificationUri: "https://auth.openai.com/codex/device",
		});
		expect(polls).toBe(2);
		expect(credential.accountId).toMatch(/^acct-/);
		expect(storage.get("openai-codex")).toEqual(credential);
	}, 15_000);
});

describe("OpenRouter login", () => {
	test("a callback on a free port and random path; the code becomes a non-expiring key", async () => {
		const dir = makeTempDir("pi-oauth-");
		const storage = new AuthStorage(join(dir, "auth.json"));
		let challenge = "";
		server.route("POST", "/api/v1/auth/keys", async (_request, fields) =>
			fields.code === "or-code" && (await pkceChallenge(fields.code_verifier ?? "")) === challenge
				? Response.json({ key: "sk-or-v1-test" })
				: Response.json({ error: { message: "bad code" } }, { status: 403 }),
		);
		const run = scripted(() => undefined);
		const done = loginWithOAuth(storage, "openrouter", run.interaction);
		const url = new URL(await run.authUrl);
		expect(url.pathname).toBe("/auth");
		challenge = url.searchParams.get("code_challenge") ?? "";
		const callback = url.searchParams.get("callback_url") ?? "";
		expect(callback).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback\/[0-9a-f-]{36}$/);
		expect((await fetch(`${callback}?code=or-code`)).status).toBe(200);
		expect(await done).toEqual({
			type: "oauth",
			access: "sk-or-v1-test",
			refresh: "",
			expires: Number.MAX_SAFE_INTEGER,
		});
		expect(storage.getApiKey("openrouter")).toBe("sk-or-v1-test");
	});
});

describe("refresh through AuthStorage", () => {
	const expired = (refresh: string) => ({
		type: "oauth",
		refresh,
		access: "sk-ant-oat01-old",
		expires: Date.now() - 1000,
	});

	test("an expired token is refreshed once and stored; the new token is the request key", async () => {
		const dir = makeTempDir("pi-oauth-");
		const path = join(dir, "auth.json");
		writeFileSync(path, JSON.stringify({ anthropic: expired(server.issueRefreshToken()) }));
		const storage = new AuthStorage(path);
		expect(storage.canRefresh("anthropic")).toBe(true);
		const count = server.refreshCount();
		await storage.refreshOAuthIfExpired("anthropic");
		await storage.refreshOAuthIfExpired("anthropic");
		expect(server.refreshCount()).toBe(count + 1);
		const stored = JSON.parse(readFileSync(path, "utf8")).anthropic;
		expect(stored.access).toMatch(/^sk-ant-oat01-test-/);
		expect(storage.getApiKey("anthropic")).toBe(stored.access);
		expect(statSync(path).mode & 0o777).toBe(0o600);
	});

	test("a token another process refreshed meanwhile is taken without a refresh request", async () => {
		const dir = makeTempDir("pi-oauth-");
		const path = join(dir, "auth.json");
		writeFileSync(path, JSON.stringify({ anthropic: expired("rt-stale") }));
		const storage = new AuthStorage(path);
		const fresh = { type: "oauth", refresh: "rt-new", access: "sk-ant-oat01-other", expires: Date.now() + 3_600_000 };
		writeFileSync(path, JSON.stringify({ anthropic: fresh }));
		const count = server.refreshCount();
		await storage.refreshOAuthIfExpired("anthropic");
		expect(server.refreshCount()).toBe(count);
		expect(storage.getApiKey("anthropic")).toBe("sk-ant-oat01-other");
	});

	test("a revoked refresh token: one line naming the provider and /login, auth.json unchanged", async () => {
		const dir = makeTempDir("pi-oauth-");
		const path = join(dir, "auth.json");
		const refresh = server.issueRefreshToken();
		server.revoke(refresh);
		const text = JSON.stringify({ anthropic: expired(refresh) });
		writeFileSync(path, text);
		const storage = new AuthStorage(path);
		const error = await storage.refreshOAuthIfExpired("anthropic").then(
			() => undefined,
			(e: Error) => e,
		);
		expect(error?.message).toBe(
			'The saved login for "anthropic" is no longer valid (the refresh token was refused: invalid_grant); log in again with /login anthropic (or `pi login anthropic`)',
		);
		expect(error?.message).not.toContain(refresh);
		expect(readFileSync(path, "utf8")).toBe(text);
	});
});
