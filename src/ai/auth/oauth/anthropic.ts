/**
 * Claude Pro/Max sign-in (pi-ai 0.87.1's Anthropic OAuth): authorization code with PKCE through claude.ai, the
 * loopback callback on port 53692 (`/callback`), tokens from platform.claude.com as JSON. The stored credential is
 * `{type:"oauth", refresh, access, expires}` with `expires` five minutes before the token really runs out. The
 * access token (`sk-ant-oat…`) is the request key; the anthropic-messages API sees its prefix and sends Claude
 * Code's identity, beta features and system-prompt prefix.
 */
import type { ModelAuth, OAuthAuth, ProviderAuthInteraction } from "../provider-auth-types.ts";
import type { OAuthCredential } from "../types.ts";
import { waitForAuthorizationCode } from "./browser-login.ts";
import { oauthEndpoint } from "./endpoints.ts";
import { createPkce, randomState } from "./pkce.ts";
import { requestToken, type TokenResponse } from "./token-request.ts";

const CLIENT_ID = "9d1c250a-e61b-44d9-88ed-5944d1962f5e";
const AUTHORIZE_URL = "https://claude.ai/oauth/authorize";
const TOKEN_URL = "https://platform.claude.com/v1/oauth/token";
const CALLBACK_PORT = 53692;
const CALLBACK_PATH = "/callback";
const REDIRECT_URI = `http://localhost:${CALLBACK_PORT}${CALLBACK_PATH}`;
const SCOPES =
	"org:create_api_key user:profile user:inference user:sessions:claude_code user:mcp_servers user:file_upload";
const EXPIRY_MARGIN_MS = 5 * 60 * 1000;
const NAME = "Anthropic (Claude Pro/Max)";

function credential(token: TokenResponse, previous?: OAuthCredential): OAuthCredential {
	const refresh = token.refresh_token ?? previous?.refresh;
	if (!refresh) throw new Error("Anthropic token answer has no refresh_token");
	return {
		type: "oauth",
		refresh,
		access: token.access_token,
		expires: Date.now() + token.expires_in * 1000 - EXPIRY_MARGIN_MS,
	};
}

async function login(interaction: ProviderAuthInteraction): Promise<OAuthCredential> {
	const { verifier, challenge } = await createPkce();
	const state = randomState();
	const params = new URLSearchParams({
		code: "true",
		client_id: CLIENT_ID,
		response_type: "code",
		redirect_uri: REDIRECT_URI,
		scope: SCOPES,
		code_challenge: challenge,
		code_challenge_method: "S256",
		state,
	});
	const code = await waitForAuthorizationCode(interaction, {
		providerName: "Anthropic",
		authorizeUrl: () => `${oauthEndpoint(AUTHORIZE_URL)}?${params}`,
		redirectUri: REDIRECT_URI,
		port: CALLBACK_PORT,
		path: CALLBACK_PATH,
		state,
		instructions: "Open the URL and approve access. On another machine's browser, paste the final redirect URL here.",
	});
	interaction.notify({ type: "progress", message: "Exchanging the authorization code for tokens…" });
	const token = await requestToken(
		TOKEN_URL,
		{
			grant_type: "authorization_code",
			client_id: CLIENT_ID,
			code: code.code,
			state: code.state ?? state,
			redirect_uri: REDIRECT_URI,
			code_verifier: verifier,
		},
		{ encoding: "json", what: "Anthropic token exchange", signal: interaction.signal },
	);
	return credential(token);
}

async function refresh(current: OAuthCredential, signal: AbortSignal): Promise<OAuthCredential> {
	const token = await requestToken(
		TOKEN_URL,
		{ grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: current.refresh },
		{ encoding: "json", what: "Anthropic token refresh", signal },
	);
	return credential(token, current);
}

export const anthropicOAuth: OAuthAuth = {
	name: NAME,
	isSubscription: true,
	login,
	refresh,
	async toAuth(credential: OAuthCredential): Promise<ModelAuth> {
		return { apiKey: credential.access };
	},
};
