/**
 * OpenRouter sign-in (pi-ai 0.87.1's flow): PKCE through openrouter.ai/auth with a `callback_url` on a free
 * loopback port and a random path (no `state`), then the code is exchanged at `/api/v1/auth/keys` for an API key.
 * The key never expires: it is stored as `{type:"oauth", access: <key>, refresh: "", expires:
 * Number.MAX_SAFE_INTEGER}`, refreshing returns it unchanged, and it is the request key.
 */
import type { ModelAuth, OAuthAuth, ProviderAuthInteraction } from "../provider-auth-types.ts";
import type { OAuthCredential } from "../types.ts";
import { waitForAuthorizationCode } from "./browser-login.ts";
import { LOGIN_CANCELLED } from "./cancel.ts";
import { oauthEndpoint } from "./endpoints.ts";
import { createPkce } from "./pkce.ts";

const AUTHORIZE_URL = "https://openrouter.ai/auth";
const KEYS_URL = "https://openrouter.ai/api/v1/auth/keys";

async function exchange(code: string, verifier: string, signal: AbortSignal): Promise<OAuthCredential> {
	let response: Response;
	try {
		response = await fetch(oauthEndpoint(KEYS_URL), {
			method: "POST",
			headers: { accept: "application/json", "content-type": "application/json" },
			body: JSON.stringify({ code, code_verifier: verifier, code_challenge_method: "S256" }),
			signal: AbortSignal.any([signal, AbortSignal.timeout(30_000)]),
		});
	} catch (error) {
		if (signal.aborted) throw new Error(LOGIN_CANCELLED);
		throw new Error(`OpenRouter key exchange: cannot reach openrouter.ai: ${(error as Error).message}`);
	}
	const body = (await response.json().catch(() => ({}))) as { key?: unknown; error?: { message?: unknown } | unknown };
	if (!response.ok) {
		const error = body.error as { message?: unknown } | string | undefined;
		const detail = typeof error === "string" ? error : typeof error?.message === "string" ? error.message : "";
		throw new Error(`OpenRouter key exchange failed: HTTP ${response.status}${detail ? ` (${detail})` : ""}`);
	}
	if (typeof body.key !== "string" || body.key === "") throw new Error('OpenRouter key exchange answer has no "key"');
	return { type: "oauth", access: body.key, refresh: "", expires: Number.MAX_SAFE_INTEGER };
}

async function login(interaction: ProviderAuthInteraction): Promise<OAuthCredential> {
	const { verifier, challenge } = await createPkce();
	const code = await waitForAuthorizationCode(interaction, {
		providerName: "OpenRouter",
		authorizeUrl: (redirectUri) => {
			const url = new URL(oauthEndpoint(AUTHORIZE_URL));
			url.searchParams.set("callback_url", redirectUri);
			url.searchParams.set("code_challenge", challenge);
			url.searchParams.set("code_challenge_method", "S256");
			return url.toString();
		},
		port: 0,
		path: `/oauth/callback/${crypto.randomUUID()}`,
		state: undefined,
		instructions: "Open the URL and approve access. On another machine's browser, paste the final redirect URL here.",
	});
	interaction.notify({ type: "progress", message: "Exchanging the authorization code for an API key…" });
	return exchange(code.code, verifier, interaction.signal);
}

export const openRouterOAuth: OAuthAuth = {
	name: "OpenRouter OAuth",
	loginLabel: "Sign in with OpenRouter",
	login,
	async refresh(credential: OAuthCredential): Promise<OAuthCredential> {
		return credential;
	},
	async toAuth(credential: OAuthCredential): Promise<ModelAuth> {
		return { apiKey: credential.access };
	},
};
