/**
 * OpenRouter login, as pi-ai 0.87.1 does it: PKCE (S256) against openrouter.ai/auth with a one-shot loopback
 * callback on an ephemeral port (`PI_OAUTH_CALLBACK_HOST`, default 127.0.0.1, path `/oauth/callback/<uuid>`), raced
 * with a prompt where a user on another machine pastes the redirect URL or the code. The code is exchanged for a
 * permanent, user-controlled API key: auth.json keeps `{ type: "oauth", access: <key>, refresh: "", expires:
 * Number.MAX_SAFE_INTEGER }`; refreshing keeps it as it is; the key is the request's API key.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { OAuthAuth, ProviderAuthInteraction } from "../provider-auth-types.ts";
import type { OAuthCredential } from "../types.ts";
import { LOGIN_CANCELLED } from "./device-code.ts";
import { type FetchLike, type JsonObject, requestJson } from "./device-http.ts";

export const OPENROUTER_AUTHORIZE_URL = "https://openrouter.ai/auth";
export const OPENROUTER_KEYS_URL = "https://openrouter.ai/api/v1/auth/keys";

export interface OpenRouterDeps {
	fetch?: FetchLike;
	env?: Record<string, string | undefined>;
	/** How long the callback waits (default five minutes). */
	loginTimeoutMs?: number;
	/** How long the key exchange may take (default 30 s). */
	exchangeTimeoutMs?: number;
}

interface Resolved {
	fetch: FetchLike;
	env: Record<string, string | undefined>;
	loginTimeoutMs: number;
	exchangeTimeoutMs: number;
}

function base64url(bytes: Uint8Array): string {
	let binary = "";
	for (const byte of bytes) binary += String.fromCharCode(byte);
	return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A PKCE verifier (32 random bytes) and its S256 challenge. */
async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
	const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
	const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
	return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

/** The code in a pasted redirect URL, query string or bare code. */
export function codeFromInput(input: string): string | undefined {
	const value = input.trim();
	if (!value) return undefined;
	try {
		return new URL(value).searchParams.get("code") ?? undefined;
	} catch {
		// not a URL
	}
	if (value.includes("code=")) return new URLSearchParams(value).get("code") ?? undefined;
	return value;
}

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, detail?: string): string {
	const more = detail ? `<p>${escapeHtml(detail)}</p>` : "";
	return `<!doctype html><html><head><meta charset="utf-8"><title>pi</title></head><body style="font-family:sans-serif;margin:4em auto;max-width:36em"><h1>${escapeHtml(title)}</h1>${more}</body></html>`;
}

function sendPage(response: ServerResponse, status: number, html: string): void {
	response.statusCode = status;
	response.setHeader("content-type", "text/html; charset=utf-8");
	response.setHeader("cache-control", "no-store");
	response.end(html);
}

function errorDetail(body: JsonObject | null): string | undefined {
	if (!body) return undefined;
	for (const key of ["error_description", "message", "error"])
		if (typeof body[key] === "string") return body[key] as string;
	const nested = body.error;
	if (nested && typeof nested === "object" && !Array.isArray(nested)) {
		const message = (nested as JsonObject).message;
		if (typeof message === "string") return message;
	}
	return undefined;
}

async function exchange(deps: Resolved, code: string, verifier: string, signal: AbortSignal): Promise<OAuthCredential> {
	if (signal.aborted) throw new Error(LOGIN_CANCELLED);
	const timeout = AbortSignal.timeout(deps.exchangeTimeoutMs);
	let reply: Awaited<ReturnType<typeof requestJson>>;
	try {
		reply = await requestJson(deps, OPENROUTER_KEYS_URL, {
			method: "POST",
			headers: { accept: "application/json", "content-type": "application/json" },
			body: JSON.stringify({ code, code_verifier: verifier, code_challenge_method: "S256" }),
			signal: AbortSignal.any([signal, timeout]),
		});
	} catch (error) {
		if (signal.aborted) throw new Error(LOGIN_CANCELLED);
		if (timeout.aborted) throw new Error("OpenRouter OAuth token exchange timed out");
		throw error;
	}
	if (reply.ok && reply.json === null) throw new Error("OpenRouter OAuth returned invalid JSON");
	if (!reply.ok) {
		const detail = errorDetail(reply.json);
		throw new Error(`OpenRouter OAuth key exchange failed (HTTP ${reply.status})${detail ? `: ${detail}` : ""}`);
	}
	const key = reply.json?.key;
	if (typeof key !== "string" || !key) throw new Error('OpenRouter OAuth response carries no "key"');
	return { type: "oauth", access: key, refresh: "", expires: Number.MAX_SAFE_INTEGER };
}

interface Callback {
	url: string;
	/** The credential from the browser's callback; null when the wait was given up for a pasted code. */
	credential: Promise<OAuthCredential | null>;
	/** Stops waiting unless a callback is already being exchanged. */
	giveUp(): void;
	close(): void;
}

async function listen(deps: Resolved, verifier: string, signal: AbortSignal): Promise<Callback> {
	if (signal.aborted) throw new Error(LOGIN_CANCELLED);
	const { createServer } = await import("node:http");
	const host = deps.env.PI_OAUTH_CALLBACK_HOST || "127.0.0.1";
	const path = `/oauth/callback/${crypto.randomUUID()}`;
	let settle!: (result: OAuthCredential | null | Error) => void;
	const credential = new Promise<OAuthCredential | null>((resolve, reject) => {
		settle = (result) => (result instanceof Error ? reject(result) : resolve(result));
	});
	let claimed = false;
	let settled = false;
	let timer: ReturnType<typeof setTimeout> | undefined;
	const onAbort = () => finish(new Error(LOGIN_CANCELLED));
	const close = () => {
		clearTimeout(timer);
		signal.removeEventListener("abort", onAbort);
		server.close();
	};
	const finish = (result: OAuthCredential | null | Error) => {
		if (settled) return;
		settled = true;
		close();
		settle(result);
	};
	const handle = async (request: IncomingMessage, response: ServerResponse) => {
		const url = new URL(request.url ?? "/", `http://${host}`);
		if (request.method !== "GET" || url.pathname !== path)
			return sendPage(response, 404, page("OAuth callback route not found."));
		if (claimed || settled) return sendPage(response, 409, page("This OAuth callback has already been used."));
		const denied = url.searchParams.get("error");
		if (denied) {
			const description = url.searchParams.get("error_description") ?? denied;
			sendPage(response, 400, page("OpenRouter authorization was denied.", description));
			return finish(new Error(`OpenRouter authorization failed: ${description}`));
		}
		const code = url.searchParams.get("code");
		if (!code) return sendPage(response, 400, page("OpenRouter returned no authorization code."));
		claimed = true;
		try {
			const result = await exchange(deps, code, verifier, signal);
			sendPage(response, 200, page("Signed in to OpenRouter. You may now close this page."));
			finish(result);
		} catch (error) {
			const failure = error instanceof Error ? error : new Error(String(error));
			sendPage(response, 502, page("OpenRouter key exchange failed.", failure.message));
			finish(failure);
		}
	};
	const server: Server = createServer((request, response) => void handle(request, response));
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(0, host, () => {
			server.removeListener("error", reject);
			resolve();
		});
	});
	server.on("error", (error) => finish(error));
	signal.addEventListener("abort", onAbort, { once: true });
	if (signal.aborted) {
		close();
		throw new Error(LOGIN_CANCELLED);
	}
	timer = setTimeout(() => finish(new Error("OpenRouter OAuth login timed out")), deps.loginTimeoutMs);
	const address = server.address();
	if (!address || typeof address === "string") {
		close();
		throw new Error("Could not determine the OpenRouter OAuth callback port");
	}
	return {
		url: `http://${host}:${address.port}${path}`,
		credential,
		giveUp: () => {
			if (!claimed) finish(null);
		},
		close,
	};
}

async function login(deps: Resolved, interaction: ProviderAuthInteraction): Promise<OAuthCredential> {
	const { verifier, challenge } = await pkcePair();
	const callback = await listen(deps, verifier, interaction.signal);
	const manualAbort = new AbortController();
	let pasted: string | undefined;
	let promptError: Error | undefined;
	try {
		const authorize = new URL(OPENROUTER_AUTHORIZE_URL);
		authorize.search = new URLSearchParams({
			callback_url: callback.url,
			code_challenge: challenge,
			code_challenge_method: "S256",
		}).toString();
		interaction.notify({ type: "progress", message: `Listening for OpenRouter OAuth callback on ${callback.url}` });
		interaction.notify({
			type: "auth_url",
			url: authorize.toString(),
			instructions:
				"Complete sign-in in your browser. If the browser is on another machine, paste the final redirect URL here.",
		});
		const manual = interaction
			.prompt({
				type: "manual_code",
				message: "Complete sign-in in your browser, or paste the authorization code / redirect URL here:",
				placeholder: callback.url,
				signal: manualAbort.signal,
			})
			.then(
				(input) => {
					pasted = input;
				},
				(error) => {
					promptError = error instanceof Error ? error : new Error(String(error));
				},
			)
			.finally(() => callback.giveUp());
		const fromBrowser = await callback.credential;
		if (promptError) throw promptError;
		if (fromBrowser) return fromBrowser;
		await manual;
		if (promptError) throw promptError;
		const code = pasted ? codeFromInput(pasted) : undefined;
		if (!code) throw new Error("Missing authorization code");
		interaction.notify({ type: "progress", message: "Exchanging authorization code for an API key..." });
		return await exchange(deps, code, verifier, interaction.signal);
	} finally {
		manualAbort.abort();
		callback.close();
	}
}

/** The OpenRouter login; `deps` replaces fetch, the environment or the timeouts (tests). */
export function createOpenRouterOAuth(deps?: OpenRouterDeps): OAuthAuth {
	const resolved: Resolved = {
		fetch: deps?.fetch ?? ((url, init) => fetch(url, init)),
		env: deps?.env ?? process.env,
		loginTimeoutMs: deps?.loginTimeoutMs ?? 5 * 60 * 1000,
		exchangeTimeoutMs: deps?.exchangeTimeoutMs ?? 30_000,
	};
	return {
		name: "OpenRouter OAuth",
		loginLabel: "Sign in with OpenRouter",
		login: (interaction) => login(resolved, interaction),
		refresh: async (credential) => credential,
		toAuth: async (credential) => ({ apiKey: credential.access }),
	};
}

export const openRouterOAuth: OAuthAuth = createOpenRouterOAuth();
