/**
 * What auth.json entries must look like (the checks behind its one-line errors), and how a provider's OAuth method
 * (an extension's `registerProvider` handler or a built-in login) refreshes stored tokens and turns them into a
 * request key.
 */
import type { ModelAuth, OAuthAuth } from "./provider-auth-types.ts";
import type { OAuthCredential, OAuthHandler, OAuthTokens } from "./types.ts";

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Why an entry cannot be used, or undefined when it is a valid credential. */
export function credentialProblem(value: unknown): string | undefined {
	if (!isRecord(value)) return "expected an object";
	if (value.type === "api_key") {
		// pi 0.87.1 also stores entries without a key: ones that only configure the provider (a llama.cpp router or
		// an AWS profile: `env`), and Amazon Bedrock's "existing AWS credential chain" choice (`{"type":"api_key"}`).
		if (value.key !== undefined && typeof value.key !== "string") return '"key" must be a string';
		if (value.env !== undefined && !isRecord(value.env)) return '"env" must be an object';
		return undefined;
	}
	if (value.type === "oauth") {
		if (typeof value.access !== "string") return '"access" must be a string';
		if (typeof value.refresh !== "string") return '"refresh" must be a string';
		if (typeof value.expires !== "number") return '"expires" must be a number (ms since the epoch)';
		return undefined;
	}
	return `unknown "type" ${JSON.stringify(value.type)} (expected "api_key" or "oauth")`;
}

export function stringEnv(env: unknown): Record<string, string> | undefined {
	if (!isRecord(env)) return undefined;
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(env)) if (typeof value === "string") out[name] = value;
	return out;
}

/** How stored OAuth tokens are refreshed and turned into a request key. */
export interface OAuthMethod {
	refresh(credential: OAuthCredential, signal: AbortSignal): Promise<OAuthCredential>;
	apiKey(credential: OAuthCredential): string;
	toAuth?(credential: OAuthCredential): Promise<ModelAuth>;
}

/**
 * The method for a provider: an extension handler wins over the built-in login. `derived` is what the built-in
 * method's `toAuth` gave for the current token (its key is used while the token is the same).
 */
export function oauthMethodOf(
	handler: OAuthHandler | undefined,
	builtin: OAuthAuth | undefined,
	derived: () => { access: string; apiKey: string | undefined } | undefined,
): OAuthMethod | undefined {
	if (handler) {
		return {
			refresh: async (credential, signal) => {
				const { type: _type, ...tokens } = credential;
				return { ...(await handler.refreshToken(tokens as OAuthTokens, signal)), type: "oauth" };
			},
			apiKey: (credential) => {
				const { type: _type, ...tokens } = credential;
				return handler.getApiKey(tokens as OAuthTokens);
			},
		};
	}
	if (!builtin) return undefined;
	return {
		refresh: async (credential, signal) => ({ ...(await builtin.refresh(credential, signal)), type: "oauth" }),
		apiKey: (credential) => {
			const known = derived();
			return known?.access === credential.access ? (known.apiKey ?? credential.access) : credential.access;
		},
		toAuth: (credential) => builtin.toAuth(credential),
	};
}
