/**
 * The credential shapes: what auth.json holds per provider, what an OAuth provider hands out, and how a key lookup
 * reports where its key came from. The store that reads and writes them is credential-store.ts.
 */
import type { OAuthAuth } from "./provider-auth-types.ts";
import type { ValueEnv } from "./resolve-value.ts";

export interface ApiKeyCredential {
	type: "api_key";
	/** Value-resolved: literal, `$NAME`/`${NAME}`, a set variable's bare name, or `!command` (cached). Absent in
	 * an entry that only configures the provider (`env`); the key then comes from the next source. */
	key?: string;
	/** Variables for this provider; they take priority over the process environment. */
	env?: Record<string, string>;
	[field: string]: unknown;
}

export interface OAuthCredential {
	type: "oauth";
	refresh: string;
	access: string;
	/** Expiry of `access`, ms since the epoch. */
	expires: number;
	[field: string]: unknown;
}

export type Credential = ApiKeyCredential | OAuthCredential;

/** OAuth tokens as an OAuth provider hands them out (auth.json stores them with `type: "oauth"`). */
export interface OAuthTokens {
	refresh: string;
	access: string;
	expires: number;
	[field: string]: unknown;
}

/** What a provider registered with `oauth` (pi's `registerProvider`) contributes to key resolution. */
export interface OAuthHandler {
	/** The request key from stored tokens (often the access token itself). */
	getApiKey(credentials: OAuthTokens): string;
	/** New tokens for expired ones. */
	refreshToken(credentials: OAuthTokens, signal?: AbortSignal): Promise<OAuthTokens>;
}

export type AuthSource = "runtime" | "stored" | "environment" | "fallback" | "models_json_key" | "models_json_command";

export interface AuthStatus {
	configured: boolean;
	source?: AuthSource;
}

/** Outcome of a key lookup: a key and where it came from, or (when a source exists but fails) an error. */
export interface ApiKeyResolution {
	apiKey?: string;
	source?: AuthSource;
	/** Why no key was produced although a source is configured (expired token, failing command, unset variable). */
	error?: string;
}

/** Installed by the model registry: the provider's configured `apiKey` (models.json or registerProvider). */
export interface ConfiguredKeyResolver {
	/** Status without running commands; undefined when nothing is configured for the provider. */
	status(provider: string): AuthStatus | undefined;
	/** Resolves the configured key (commands run on every call); undefined when nothing is configured. */
	resolve(provider: string): ApiKeyResolution | undefined;
}

export interface AuthStorageOptions {
	/** Environment for variable lookups; default `process.env`. */
	env?: ValueEnv;
	/** Clock for OAuth expiry; default `Date.now`. */
	now?: () => number;
	/** The built-in OAuth method of a provider (refresh, request auth); default: pi's built-in logins. */
	oauthProviders?: (provider: string) => OAuthAuth | undefined;
}
