/**
 * OpenRouter's PKCE login with its one-shot loopback callback, raced with the paste-the-redirect prompt, against the
 * stand-in's key endpoint (which checks the S256 verifier). Expected values are facts read from pi-ai 0.87.1's
 * dist/auth/oauth/openrouter.js.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { codeFromInput, createOpenRouterOAuth } from "../../../../src/ai/auth/oauth/openrouter.ts";
import type { AuthEvent, AuthPrompt } from "../../../../src/ai/auth/provider-auth-types.ts";
import { runInPi, runnablePi } from "../../../helpers/side-by-side.ts";
import { type OAuthDeviceServer, startOAuthDeviceServer } from "../../../support/oauth-device-server.ts";

let server: OAuthDeviceServer;
beforeEach(() => {
	server = startOAuthDeviceServer();
});
afterEach(() => server.stop());

/** An interaction whose manual prompt answers `paste` (after the auth URL is shown) or waits until its signal aborts. */
function interaction(onUrl: (url: URL) => void | Promise<void>, paste?: () => string) {
	const controller = new AbortController();
	const events: AuthEvent[] = [];
	const prompts: AuthPrompt[] = [];
	let promptSettled: "aborted" | "answered" | undefined;
	return {
		controller,
		events,
		prompts,
		promptSettled: () => promptSettled,
		value: {
			signal: controller.signal,
			notify: (event: AuthEvent) => {
				events.push(event);
				if (event.type === "auth_url") void onUrl(new URL(event.url));
			},
			prompt: (prompt: AuthPrompt) => {
				prompts.push(prompt);
				if (paste) {
					promptSettled = "answered";
					return new Promise<string>((resolve) => setTimeout(() => resolve(paste()), 5));
				}
				return new Promise<string>((_, reject) =>
					prompt.signal?.addEventListener("abort", () => {
						promptSettled = "aborted";
						reject(new Error("prompt closed"));
					}),
				);
			},
		},
	};
}

const deps = () => ({ env: { PI_OAUTH_TEST_ORIGIN: server.origin } });

describe("OpenRouter login", () => {
	test("browser callback: PKCE authorize URL, key exchange, stored key, a 404 page for a stray path, closed afterwards", async () => {
		let callbackUrl = "";
		let page = "";
		const run = interaction(async (url) => {
			expect(url.origin + url.pathname).toBe("https://openrouter.ai/auth");
			expect(url.searchParams.get("code_challenge_method")).toBe("S256");
			callbackUrl = url.searchParams.get("callback_url") ?? "";
			const stray = await fetch(`${new URL(callbackUrl).origin}/favicon.ico`);
			expect(stray.status).toBe(404);
			expect(await stray.text()).toContain("OAuth callback route not found.");
			const code = server.approveOpenRouter(url.searchParams.get("code_challenge") ?? "");
			const response = await fetch(`${callbackUrl}?code=${code}`);
			page = `${response.status} ${await response.text()}`;
		});
		const auth = createOpenRouterOAuth(deps());
		const credential = await auth.login(run.value);
		expect(callbackUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback\/[0-9a-f-]{36}$/);
		expect(credential).toEqual({
			type: "oauth",
			access: expect.stringMatching(/^sk-or-v1-/),
			refresh: "",
			expires: Number.MAX_SAFE_INTEGER,
		});
		await Bun.sleep(10);
		expect(page).toStartWith("200 ");
		expect(page).toContain("Signed in to OpenRouter. You may now close this page.");
		expect(run.events.map((e) => e.type)).toEqual(["progress", "auth_url"]);
		expect(run.events[0]).toEqual({
			type: "progress",
			message: `Listening for OpenRouter OAuth callback on ${callbackUrl}`,
		});
		expect(run.prompts[0]).toMatchObject({
			type: "manual_code",
			message: "Complete sign-in in your browser, or paste the authorization code / redirect URL here:",
			placeholder: callbackUrl,
		});
		expect(run.promptSettled()).toBe("aborted");
		const [exchange] = server.requestsTo("/api/v1/auth/keys");
		expect(Object.keys(exchange?.body ?? {}).sort()).toEqual(["code", "code_challenge_method", "code_verifier"]);
		// the callback server is closed once the login is over
		await expect(fetch(callbackUrl)).rejects.toThrow();
		expect(await auth.toAuth(credential)).toEqual({ apiKey: credential.access });
		expect(await auth.refresh(credential, new AbortController().signal)).toBe(credential);
	});

	test("pasted redirect URL (browser on another machine)", async () => {
		let code = "";
		const run = interaction(
			(url) => {
				code = server.approveOpenRouter(url.searchParams.get("code_challenge") ?? "");
			},
			() => `http://127.0.0.1:9/oauth/callback/x?code=${code}`,
		);
		const credential = await createOpenRouterOAuth(deps()).login(run.value);
		expect(credential.access).toStartWith("sk-or-v1-");
		expect(run.events.at(-1)).toEqual({ type: "progress", message: "Exchanging authorization code for an API key..." });
	});

	test("denied in the browser, a wrong verifier, an empty paste, cancelling", async () => {
		const denied = interaction(async (url) => {
			await fetch(`${url.searchParams.get("callback_url")}?error=access_denied`);
		});
		await expect(createOpenRouterOAuth(deps()).login(denied.value)).rejects.toThrow(
			"OpenRouter authorization failed: access_denied",
		);
		const wrong = interaction(async (url) => {
			const code = server.approveOpenRouter("not-the-challenge");
			await fetch(`${url.searchParams.get("callback_url")}?code=${code}`);
		});
		await expect(createOpenRouterOAuth(deps()).login(wrong.value)).rejects.toThrow(
			"OpenRouter OAuth key exchange failed (HTTP 403): Invalid code verifier",
		);
		const empty = interaction(
			() => {},
			() => "  ",
		);
		await expect(createOpenRouterOAuth(deps()).login(empty.value)).rejects.toThrow("Missing authorization code");
		const cancelled = interaction(() => {});
		setTimeout(() => cancelled.controller.abort(), 20);
		await expect(createOpenRouterOAuth(deps()).login(cancelled.value)).rejects.toThrow("Login cancelled");
	});

	test("pasted input: URL, query string or bare code", () => {
		expect(codeFromInput("http://localhost/cb?code=abc&state=1")).toBe("abc");
		expect(codeFromInput("code=xyz&state=2")).toBe("xyz");
		expect(codeFromInput(" bare ")).toBe("bare");
		expect(codeFromInput("")).toBeUndefined();
	});
});

const PI_BODY = `async (mod, input) => {
	const realFetch = globalThis.fetch;
	globalThis.fetch = (url, init) => {
		const target = new URL(String(url));
		return realFetch(target.hostname === "openrouter.ai" ? input.origin + target.pathname + target.search : String(url), init);
	};
	const oauth = await mod.loadOpenRouterOAuth();
	const events = [];
	const prompts = [];
	const controller = new AbortController();
	const credential = await oauth.login({
		signal: controller.signal,
		notify: (event) => {
			events.push(event);
			if (event.type !== "auth_url") return;
			const url = new URL(event.url);
			void (async () => {
				const approve = await realFetch(input.origin + "/test/approve-openrouter?challenge=" + url.searchParams.get("code_challenge"));
				const { code } = await approve.json();
				await realFetch(url.searchParams.get("callback_url") + "?code=" + code);
			})();
		},
		prompt: (prompt) => {
			prompts.push({ type: prompt.type, message: prompt.message, placeholder: prompt.placeholder });
			return new Promise((_, reject) => prompt.signal.addEventListener("abort", () => reject(new Error("closed"))));
		},
	});
	return { credential, events, prompts, auth: await oauth.toAuth(credential) };
}`;

/** Callback URLs carry a random port and uuid; the authorize URL a random challenge. */
function masked(value: unknown): unknown {
	return JSON.parse(
		JSON.stringify(value)
			.replace(/127\.0\.0\.1(:|%3A)\d+/g, "127.0.0.1$1PORT")
			.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "UUID")
			.replace(/code_challenge=[\w-]+/g, "code_challenge=C")
			.replace(/sk-or-v1-\d+-[\w]+/g, "KEY"),
	);
}

const pi = runnablePi();
const skip = "error" in pi ? pi.error : undefined;
if (skip) console.log(`skipping OpenRouter vs pi-ai: ${skip}`);

describe.skipIf(!!skip)("OpenRouter login vs pi-ai 0.87.1", () => {
	test("same notifications, prompt, key request and stored credential", async () => {
		const theirs = await runInPi("@earendil-works/pi-ai/dist/auth/oauth/load.js", { origin: server.origin }, PI_BODY);
		const theirRequests = server.requestsTo("/api/v1/auth/keys");
		const ours = startOAuthDeviceServer();
		try {
			const run = interaction(async (url) => {
				const code = ours.approveOpenRouter(url.searchParams.get("code_challenge") ?? "");
				await fetch(`${url.searchParams.get("callback_url")}?code=${code}`);
			});
			const auth = createOpenRouterOAuth({ env: { PI_OAUTH_TEST_ORIGIN: ours.origin } });
			const credential = await auth.login(run.value);
			const prompts = run.prompts.map((p) => ({
				type: p.type,
				message: p.message,
				placeholder: "placeholder" in p ? p.placeholder : undefined,
			}));
			const mine = { credential, events: run.events, prompts, auth: await auth.toAuth(credential) };
			expect(masked(mine)).toEqual(masked(theirs));
			const shape = (r: { body: Record<string, unknown>; headers: Record<string, string> }) => ({
				keys: Object.keys(r.body),
				method: r.body.code_challenge_method,
				type: r.headers["content-type"],
				accept: r.headers.accept,
			});
			expect(ours.requestsTo("/api/v1/auth/keys").map(shape)).toEqual(theirRequests.map(shape));
		} finally {
			ours.stop();
		}
	}, 30_000);
});
