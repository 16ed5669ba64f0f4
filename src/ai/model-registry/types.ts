/** Shapes shared by the model registry's layers (models.json and extension `registerProvider`). */
import type { AuthStorage, OAuthTokens } from "../auth/credential-store.ts";
import type { ValueEnv } from "../auth/resolve-value.ts";
import type {
	Api,
	Model,
	ModelCompat,
	ModelCost,
	SimpleStreamOptions,
	StreamFunction,
	StreamOptions,
	ThinkingLevelMap,
} from "../types.ts";

/** A model as a config layer describes it; missing fields get pi's defaults or inherit from the provider. */
export interface ModelDefinition {
	id: string;
	/** Default: the id. */
	name?: string;
	/** Default: the provider's `api`, else the API of a comparable existing model of that provider. */
	api?: Api;
	baseUrl?: string;
	/** Default false. */
	reasoning?: boolean;
	thinkingLevelMap?: ThinkingLevelMap;
	/** Default ["text"]. */
	input?: ("text" | "image")[];
	/** USD per million tokens; missing rates are 0. */
	cost?: Partial<ModelCost>;
	/** Default 128000. */
	contextWindow?: number;
	/** Default 16384. */
	maxTokens?: number;
	/** Value-resolved per request (see resolve-value.ts). */
	headers?: Record<string, string>;
	/** Merged over the provider-level compat. */
	compat?: ModelCompat;
}

/** Patch for an existing model (models.json `modelOverrides`); `cost`, `compat`, `thinkingLevelMap` merge. */
export type ModelOverride = Omit<ModelDefinition, "id">;

/** What an extension passes to `registerProvider` (pi's legacy ProviderConfig form). */
export interface ProviderConfig {
	/** Display name. */
	name?: string;
	/** Alone: overrides the URL of the provider's existing models. */
	baseUrl?: string;
	/** Value-resolved per request; auth status source "fallback". */
	apiKey?: string;
	/** Default API of `models`; required with `streamSimple` (the implementation is registered under it). */
	api?: Api;
	headers?: Record<string, string>;
	/** true: send `Authorization: Bearer <key>`. */
	authHeader?: boolean;
	compat?: ModelCompat;
	/** Replaces the provider's models (built-in and models.json ones). */
	models?: ModelDefinition[];
	streamSimple?: StreamFunction<Api, SimpleStreamOptions>;
	/** Optional full-options stream; defaults to `streamSimple`. */
	stream?: StreamFunction<Api, StreamOptions>;
	/**
	 * OAuth for this provider: tokens stored in auth.json (`type: "oauth"`) become request keys through
	 * `getApiKey`, and expired ones are refreshed through `refreshToken` before a request. `login` is kept for the
	 * interactive `/login`.
	 */
	oauth?: ProviderOAuth;
}

export interface ProviderOAuth {
	/** Display name in `/login`. */
	name?: string;
	login(callbacks: unknown): Promise<OAuthTokens>;
	refreshToken(credentials: OAuthTokens, signal?: AbortSignal): Promise<OAuthTokens>;
	getApiKey(credentials: OAuthTokens): string;
	/** Adjusts the provider's models for the logged-in account. */
	modifyModels?(models: Model[], credentials: OAuthTokens): Model[];
}

export interface ModelRegistryOptions {
	/** `<agentDir>/models.json`; omit for built-ins only. */
	modelsJsonPath?: string;
	authStorage: AuthStorage;
	/** Built-in catalogue; default `getModels()` of src/ai/models. Tests inject their own. */
	builtinModels?: () => readonly Model[];
	/** Environment for value resolution; default `process.env`. */
	env?: ValueEnv;
}

/** pi-ai's `AuthResult`: the request auth, the login's `env` for the provider's stream, and where the key came from. */
export interface ProviderAuthResult {
	auth: { apiKey?: string; headers?: Record<string, string>; baseUrl?: string };
	env?: Record<string, string>;
	source?: string;
}
