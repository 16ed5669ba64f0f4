/**
 * The browser step of an authorization-code login: show the authorize URL, then take the code from whichever
 * comes first — the browser reaching our loopback callback, or the user pasting the final redirect URL (or the
 * bare code) for a browser on another machine. Cancelling (the interaction's signal) ends both.
 */
import type { ProviderAuthInteraction } from "../provider-auth-types.ts";
import { type CallbackResult, callbackHost, startCallbackServer } from "./callback-server.ts";
import { LOGIN_CANCELLED } from "./cancel.ts";

export { LOGIN_CANCELLED };

export interface BrowserLoginOptions {
	providerName: string;
	/** The URL to open, given the redirect URI the callback server listens on. */
	authorizeUrl: (redirectUri: string) => string;
	/** The registered redirect URI; default `http://<callback host>:<bound port><path>` (for port 0). */
	redirectUri?: string;
	port: number;
	path: string;
	/** Undefined when the provider's flow has no `state`. */
	state: string | undefined;
	instructions: string;
	env?: Record<string, string | undefined>;
}

export interface AuthorizationCode {
	code: string;
	state: string | undefined;
	redirectUri: string;
}

/**
 * What a user pasted: a redirect URL, a `code=…&state=…` query, `code#state` (what Anthropic's page shows), or the
 * bare code.
 */
export function parsePastedAuthorization(input: string): { code?: string; state?: string } {
	const value = input.trim();
	if (!value) return {};
	if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
		try {
			const url = new URL(value);
			const params = url.searchParams.has("code") ? url.searchParams : new URLSearchParams(url.hash.slice(1));
			return defined({ code: params.get("code"), state: params.get("state") });
		} catch {
			return {};
		}
	}
	if (value.includes("code=")) {
		const params = new URLSearchParams(value.replace(/^[?#]/, ""));
		return defined({ code: params.get("code"), state: params.get("state") });
	}
	const hash = value.indexOf("#");
	if (hash >= 0) return defined({ code: value.slice(0, hash), state: value.slice(hash + 1) });
	return { code: value };
}

function defined(parts: { code: string | null; state: string | null }): { code?: string; state?: string } {
	return { ...(parts.code ? { code: parts.code } : {}), ...(parts.state ? { state: parts.state } : {}) };
}

export async function waitForAuthorizationCode(
	interaction: ProviderAuthInteraction,
	options: BrowserLoginOptions,
): Promise<AuthorizationCode> {
	const { signal } = interaction;
	if (signal.aborted) throw new Error(LOGIN_CANCELLED);
	const server = await startCallbackServer({
		port: options.port,
		path: options.path,
		expectedState: options.state,
		providerName: options.providerName,
		...(options.env ? { env: options.env } : {}),
	});
	const redirectUri = options.redirectUri ?? `http://${callbackHost(options.env)}:${server.port}${options.path}`;
	const manual = new AbortController();
	const onAbort = () => server.cancel();
	signal.addEventListener("abort", onAbort, { once: true });
	try {
		interaction.notify({
			type: "auth_url",
			url: options.authorizeUrl(redirectUri),
			instructions: options.instructions,
		});
		if (!server.listening) {
			interaction.notify({
				type: "progress",
				message: `Cannot receive the browser callback (${server.bindError}); paste the redirect URL instead.`,
			});
		}
		type Outcome = { kind: "callback"; value: CallbackResult | null } | { kind: "pasted"; value: string };
		const pasted = interaction
			.prompt({
				type: "manual_code",
				message: "Finish signing in in your browser, or paste the redirect URL (or the code) here:",
				placeholder: redirectUri,
				signal: manual.signal,
			})
			.then((value): Outcome => ({ kind: "pasted", value }));
		// Withdrawn (rejected) once the callback wins; nobody waits for it then.
		pasted.catch(() => {});
		const callback = server.result.then((value): Outcome => ({ kind: "callback", value }));
		// Without a listening server only the pasted input (or a cancel) can finish the login.
		const outcome = await Promise.race(server.listening ? [callback, pasted] : [pasted, callback.then(() => pasted)]);
		if (signal.aborted) throw new Error(LOGIN_CANCELLED);
		if (outcome.kind === "callback") {
			if (outcome.value) return { ...outcome.value, redirectUri };
			throw new Error(LOGIN_CANCELLED);
		}
		const parsed = parsePastedAuthorization(outcome.value);
		if (!parsed.code) throw new Error("No authorization code in what was pasted");
		if (options.state !== undefined && parsed.state !== undefined && parsed.state !== options.state) {
			throw new Error("The pasted URL belongs to another sign-in (state mismatch)");
		}
		return { code: parsed.code, state: parsed.state ?? options.state, redirectUri };
	} catch (error) {
		if (signal.aborted) throw new Error(LOGIN_CANCELLED);
		throw error;
	} finally {
		signal.removeEventListener("abort", onAbort);
		manual.abort();
		server.cancel();
		await server.close();
	}
}
