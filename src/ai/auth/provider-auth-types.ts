/**
 * pi-ai 0.87.1's provider-auth model (`createModels` / `createProvider`): a provider declares how it authenticates
 * (`ProviderAuth`: an api-key method and/or an OAuth method), credentials live in a `CredentialStore` keyed by
 * provider id, and ambient inputs (environment, files) come through an `AuthContext`.
 */
import type { OAuthCredential } from "./types.ts";

export type ProviderHeaders = Record<string, string>;
export type ProviderEnv = Record<string, string>;

/** What a request needs from auth: a key, extra headers, a different base URL. */
export interface ModelAuth {
	apiKey?: string;
	headers?: ProviderHeaders;
	baseUrl?: string;
}

/** A stored api-key credential; `key` may be absent when only `env` is kept. */
export interface StoredApiKeyCredential {
	type: "api_key";
	key?: string;
	env?: ProviderEnv;
}

export type StoredCredential = StoredApiKeyCredential | OAuthCredential;

export interface CredentialInfo {
	providerId: string;
	type: StoredCredential["type"];
}

export interface AuthOperationOptions {
	signal?: AbortSignal;
}

/** Persistent credentials, one per provider id. `modify` serialises changes per provider. */
export interface CredentialStore {
	read(providerId: string, options?: AuthOperationOptions): Promise<StoredCredential | undefined>;
	list(options?: AuthOperationOptions): Promise<readonly CredentialInfo[]>;
	modify(
		providerId: string,
		fn: (current: StoredCredential | undefined) => Promise<StoredCredential | undefined>,
		options?: AuthOperationOptions,
	): Promise<StoredCredential | undefined>;
	delete(providerId: string, options?: AuthOperationOptions): Promise<void>;
}

/** Ambient inputs auth may consult. */
export interface AuthContext {
	env(name: string): Promise<string | undefined>;
	fileExists(path: string): Promise<boolean>;
}

export interface AuthResult {
	auth: ModelAuth;
	env?: ProviderEnv;
	/** Where the auth came from, for status displays ("stored credential", an env var name, "OAuth"). */
	source?: string;
}

export interface AuthCheck {
	source?: string;
	type: "api_key" | "oauth";
}

export type AuthType = "api_key" | "oauth";

export type AuthPrompt = { signal?: AbortSignal } & (
	| { type: "text"; message: string; placeholder?: string }
	| { type: "secret"; message: string; placeholder?: string }
	| { type: "select"; message: string; options: readonly { id: string; label: string; description?: string }[] }
	| { type: "manual_code"; message: string; placeholder?: string }
);

export type AuthEvent =
	| { type: "info"; message: string; links?: readonly { url: string; label?: string }[] }
	| { type: "auth_url"; url: string; instructions?: string }
	| {
			type: "device_code";
			userCode: string;
			verificationUri: string;
			intervalSeconds?: number;
			expiresInSeconds?: number;
	  }
	| { type: "progress"; message: string };

export interface AuthInteraction {
	signal?: AbortSignal;
	prompt(prompt: AuthPrompt): Promise<string>;
	notify(event: AuthEvent): void;
}

export type ProviderAuthInteraction = AuthInteraction & { signal: AbortSignal };

export interface ApiKeyAuthInput {
	ctx: AuthContext;
	credential?: StoredApiKeyCredential;
	signal: AbortSignal;
}

export interface ApiKeyAuth {
	name: string;
	login?(interaction: ProviderAuthInteraction): Promise<StoredApiKeyCredential>;
	check?(input: ApiKeyAuthInput): Promise<AuthCheck | undefined>;
	resolve(input: ApiKeyAuthInput): Promise<AuthResult | undefined>;
}

export interface OAuthAuth {
	name: string;
	isSubscription?: boolean;
	loginLabel?: string;
	login(interaction: ProviderAuthInteraction): Promise<OAuthCredential>;
	refresh(credential: OAuthCredential, signal: AbortSignal): Promise<OAuthCredential>;
	toAuth(credential: OAuthCredential): Promise<ModelAuth>;
}

/** At least one of the two. */
export interface ProviderAuth {
	apiKey?: ApiKeyAuth;
	oauth?: OAuthAuth;
}

export interface AuthResolutionOverrides {
	apiKey?: string;
	env?: ProviderEnv;
	signal?: AbortSignal;
	/** Refresh an OAuth token that expires within this many ms (at least five minutes always). */
	minOAuthValidityMs?: number;
}
