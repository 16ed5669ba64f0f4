/**
 * ChatGPT Plus/Pro sign-in for OpenAI Codex (pi-ai 0.87.1's flow): authorization code with PKCE through
 * auth.openai.com, the loopback callback on port 1455 (`/auth/callback`), form-encoded token requests; or, chosen
 * at the start, the device-code login for machines without a browser (openai-codex-device.ts). The stored
 * credential is `{type:"oauth", access, refresh, expires, accountId}`: `accountId` is the ChatGPT account id read
 * from the access token's claims (the Codex API sends it as a header), `expires` the token's own expiry.
 */
import type { ModelAuth, OAuthAuth, ProviderAuthInteraction } from "../provider-auth-types.ts";
import type { OAuthCredential } from "../types.ts";
import { waitForAuthorizationCode } from "./browser-login.ts";
import { oauthEndpoint } from "./endpoints.ts";
import { createPkce, randomState } from "./pkce.ts";
import { requestToken, type TokenResponse } from "./token-request.ts";

export const CODEX_CLIENT_ID = "app_EMoamEEZ73f0CkXaXp7hrann";
export const CODEX_TOKEN_URL = "https://auth.openai.com/oauth/token";
const AUTHORIZE_URL = "https://auth.openai.com/oauth/authorize";
const CALLBACK_PORT = 1455;
const CALLBACK_PATH = "/auth/callback";
const REDIRECT_URI = `http://localhost:${CALLBACK_PORT}${CALLBACK_PATH}`;
const SCOPE = "openid profile email offline_access";
const CLAIMS = "https://api.openai.com/auth";

/** The ChatGPT account id in an access token (a JWT), or undefined. */
export function codexAccountId(accessToken: string): string | undefined {
	const payload = accessToken.split(".")[1];
	if (!payload) return undefined;
	try {
		const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
		const auth = claims[CLAIMS] as { chatgpt_account_id?: unknown } | undefined;
		const id = auth?.chatgpt_account_id;
		return typeof id === "string" && id.length > 0 ? id : undefined;
	} catch {
		return undefined;
	}
}

export function codexCredential(token: TokenResponse, previous?: OAuthCredential): OAuthCredential {
	const refresh = token.refresh_token ?? previous?.refresh;
	if (!refresh) throw new Error("OpenAI token answer has no refresh_token");
	const accountId = codexAccountId(token.access_token);
	if (!accountId) throw new Error("OpenAI access token names no ChatGPT account (chatgpt_account_id)");
	return {
		type: "oauth",
		access: token.access_token,
		refresh,
		expires: Date.now() + token.expires_in * 1000,
		accountId,
	};
}

/** Exchanges an authorization code (from the browser or the device flow) for the stored credential. */
export async function exchangeCodexCode(
	code: string,
	verifier: string,
	redirectUri: string,
	signal: AbortSignal,
): Promise<OAuthCredential> {
	const token = await requestToken(
		CODEX_TOKEN_URL,
		{
			grant_type: "authorization_code",
			client_id: CODEX_CLIENT_ID,
			code,
			code_verifier: verifier,
			redirect_uri: redirectUri,
		},
		{ encoding: "form", what: "OpenAI token exchange", signal },
	);
	return codexCredential(token);
}

async function browserLogin(interaction: ProviderAuthInteraction): Promise<OAuthCredential> {
	const { verifier, challenge } = await createPkce();
	const state = randomState();
	const url = new URL(oauthEndpoint(AUTHORIZE_URL));
	const params: Record<string, string> = {
		response_type: "code",
		client_id: CODEX_CLIENT_ID,
		redirect_uri: REDIRECT_URI,
		scope: SCOPE,
		code_challenge: challenge,
		code_challenge_method: "S256",
		state,
		id_token_add_organizations: "true",
		codex_cli_simplified_flow: "true",
		originator: "pi",
	};
	for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
	const code = await waitForAuthorizationCode(interaction, {
		providerName: "OpenAI",
		authorizeUrl: () => url.toString(),
		redirectUri: REDIRECT_URI,
		port: CALLBACK_PORT,
		path: CALLBACK_PATH,
		state,
		instructions:
			"Open the URL and sign in with your ChatGPT account. On another machine's browser, paste the final redirect URL here.",
	});
	interaction.notify({ type: "progress", message: "Exchanging the authorization code for tokens…" });
	return exchangeCodexCode(code.code, verifier, REDIRECT_URI, interaction.signal);
}

async function login(interaction: ProviderAuthInteraction): Promise<OAuthCredential> {
	const method = await interaction.prompt({
		type: "select",
		message: "How do you want to sign in to OpenAI Codex?",
		options: [
			{ id: "browser", label: "Browser login (default)" },
			{ id: "device_code", label: "Device code login (headless)" },
		],
		signal: interaction.signal,
	});
	if (method === "device_code") {
		const { codexDeviceLogin } = await import("./openai-codex-device.ts");
		return codexDeviceLogin(interaction);
	}
	if (method !== "browser") throw new Error(`Unknown OpenAI Codex login method: ${method}`);
	return browserLogin(interaction);
}

async function refresh(current: OAuthCredential, signal: AbortSignal): Promise<OAuthCredential> {
	const token = await requestToken(
		CODEX_TOKEN_URL,
		{ grant_type: "refresh_token", refresh_token: current.refresh, client_id: CODEX_CLIENT_ID },
		{ encoding: "form", what: "OpenAI token refresh", signal },
	);
	return codexCredential(token, current);
}

export const openaiCodexOAuth: OAuthAuth = {
	name: "OpenAI (ChatGPT Plus/Pro)",
	isSubscription: true,
	login,
	refresh,
	async toAuth(credential: OAuthCredential): Promise<ModelAuth> {
		return { apiKey: credential.access };
	},
};
