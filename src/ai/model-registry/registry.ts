/**
 * The model registry: built-in catalogue + `<agentDir>/models.json` + providers registered by extensions, and the
 * request-time auth for a model (key and headers). Loading never throws: a models.json with any problem is
 * reported through `getErrors()` (one line per problem, naming the file and the field) and ignored as a whole,
 * leaving the built-ins.
 */

import { errorMessage } from "../../util/index.ts";
import type { ApiKeyResolution, AuthStatus, AuthStorage } from "../auth/credential-store.ts";
import { filterProviderModels } from "../auth/provider-model-filters.ts";
import { resolveHeaderValues, type ValueEnv } from "../auth/resolve-value.ts";
import { adjustBuiltinRequest } from "../builtin/wrappers.ts";
import { PROVIDER_ENV_KEYS } from "../env-keys.ts";
import { getModels, getProviders } from "../models/index.ts";
import { registerApiProvider, unregisterApiProviders } from "../registry.ts";
import { failedStream, stream, streamSimple } from "../stream.ts";
import type {
	AssistantMessage,
	AssistantMessageEventStream,
	Context,
	Model,
	SimpleStreamOptions,
	StreamOptions,
} from "../types.ts";
import { type BuiltinCatalog, catalogFromList, ModelComposition } from "./compose.ts";
import { type ConfiguredKeySource, configuredKeyResolver, type RawKey } from "./configured-keys.ts";
import { type ModelsJson, readModelsJson } from "./schema.ts";
import type { ModelRegistryOptions, ProviderAuthResult, ProviderConfig } from "./types.ts";

/** What `getApiKeyAndHeaders` gives an extension: the request-time key and headers, or why they cannot be had. */
export type RequestAuth =
	| { ok: true; apiKey?: string; headers?: Record<string, string>; baseUrl?: string; env?: Record<string, string> }
	| { ok: false; error: string };

export class ModelRegistry {
	// Definitely assigned unless the constructor hands back an existing registry.
	readonly authStorage!: AuthStorage;
	readonly modelsJsonPath: string | undefined;
	private readonly builtinSource!: () => BuiltinCatalog;
	private readonly env!: ValueEnv;
	private builtins: BuiltinCatalog = { providers: [], models: () => [] };
	private builtinProviders = new Set<string>();
	private json: ModelsJson | undefined;
	private errors: string[] = [];
	private readonly extensions = new Map<string, ProviderConfig>();
	private composed = new ModelComposition({ builtins: this.builtins, extensions: new Map() });

	/**
	 * `new ModelRegistry(options)`, or pi 0.87.1's `new ModelRegistry(modelRuntime)`: given anything that carries a
	 * registry (a `ModelRuntime`), that registry itself is returned, so both views share one state.
	 */
	constructor(options: ModelRegistryOptions | { readonly modelRegistry: ModelRegistry }) {
		if ("modelRegistry" in options) {
			// biome-ignore lint/correctness/noConstructorReturn: pi's SDK builds the registry from a runtime
			return options.modelRegistry;
		}
		this.authStorage = options.authStorage;
		this.modelsJsonPath = options.modelsJsonPath;
		const list = options.builtinModels;
		// The catalogue's providers are listed without loading their models; each loads when first composed.
		this.builtinSource = list
			? () => catalogFromList(list())
			: () => ({ providers: getProviders(), models: (provider) => getModels(provider) });
		this.env = options.env ?? process.env;
		this.authStorage.setConfiguredKeyResolver(configuredKeyResolver(this.keySource()));
		this.refresh();
	}

	static create(options: ModelRegistryOptions): ModelRegistry {
		return new ModelRegistry(options);
	}

	/** Re-reads the built-in catalogue and models.json, then rebuilds the list. Never throws. */
	refresh(): void {
		this.builtins = this.builtinSource();
		this.builtinProviders = new Set(this.builtins.providers);
		this.errors = [];
		this.json = undefined;
		if (this.modelsJsonPath !== undefined) {
			const load = readModelsJson(this.modelsJsonPath);
			this.errors.push(...load.errors);
			if (load.config) {
				const jsonErrors = this.compose(load.config).jsonErrors();
				if (jsonErrors.length === 0) this.json = load.config;
				else this.errors.push(...jsonErrors.map((e) => `${this.modelsJsonPath}: ${e}`));
			}
		}
		if (this.errors.length > 0 && this.modelsJsonPath !== undefined) {
			this.errors.push(`${this.modelsJsonPath}: custom models are ignored until these problems are fixed`);
		}
		this.rebuild();
	}

	/**
	 * Problems with models.json, one line each (empty when all is well), plus registered providers whose models
	 * stopped composing after a models.json change.
	 */
	getErrors(): string[] {
		return [...this.errors, ...this.composed.extensionErrors().map((e) => `registerProvider: ${e}`)];
	}

	getAll(): Model[] {
		return this.composed.models();
	}

	/** Models whose provider has a usable key, plus custom providers that configure none (local servers). */
	getAvailable(): Model[] {
		// Only providers with a usable key are composed (and have their built-in models loaded).
		return this.composed.providers
			.filter((provider) => this.isProviderAvailable(provider))
			.flatMap((provider) =>
				filterProviderModels(provider, this.composed.provider(provider).models, this.authStorage.get(provider)),
			);
	}

	/** One provider's models (only that provider's built-ins are loaded). */
	getModels(provider: string): Model[] {
		return [...this.composed.provider(provider).models];
	}

	find(provider: string, id: string): Model | undefined {
		return this.composed.provider(provider).models.find((m) => m.id === id);
	}

	/** Provider ids that currently have models. */
	getProviders(): string[] {
		return this.composed.providers.filter((provider) => this.composed.hasModels(provider));
	}

	/** Display name: extension `name`, models.json `name`, else the id. */
	getProviderName(provider: string): string {
		return this.extensions.get(provider)?.name ?? this.json?.providers[provider]?.name ?? provider;
	}

	getAuthStatus(provider: string): AuthStatus {
		return this.authStorage.getAuthStatus(provider);
	}

	isProviderAvailable(provider: string): boolean {
		if (this.authStorage.getAuthStatus(provider).configured) return true;
		return this.isCustomProvider(provider) && this.rawApiKey(provider) === undefined;
	}

	/** The key for a model's provider: runtime → auth.json → configured apiKey → environment. */
	getApiKey(model: Pick<Model, "provider">): string | undefined {
		return this.authStorage.getApiKey(model.provider);
	}

	/** Like `getApiKey`, with the source or the reason there is no key. */
	resolveApiKey(model: Pick<Model, "provider">): ApiKeyResolution {
		return this.authStorage.resolveApiKey(model.provider);
	}

	/** Whether some key source is configured for the model's provider (nothing is resolved or run). */
	hasConfiguredAuth(model: Pick<Model, "provider">): boolean {
		return this.authStorage.getAuthStatus(model.provider).configured;
	}

	/** The key for a provider, or undefined when there is none or it cannot be resolved. */
	async getApiKeyForProvider(provider: string): Promise<string | undefined> {
		return this.authStorage.getApiKey(provider);
	}

	/**
	 * Key and headers for a request to `model`, resolved now. No key is not an error (the request may not need
	 * one); a configured key or header value that cannot be resolved, or `authHeader` without a key, is.
	 */
	async getApiKeyAndHeaders(model: Pick<Model, "provider" | "id" | "headers">): Promise<RequestAuth> {
		try {
			await this.authStorage.refreshOAuthIfExpired(model.provider);
			const key = this.resolveApiKey(model);
			if (key.error !== undefined) return { ok: false, error: key.error };
			const headers = this.getRequestHeaders(model);
			const { baseUrl, env } = this.authStorage.getRequestOverrides(model.provider);
			return {
				ok: true,
				...(key.apiKey !== undefined ? { apiKey: key.apiKey } : {}),
				...(Object.keys(headers).length > 0 ? { headers } : {}),
				...(baseUrl ? { baseUrl } : {}),
				...(env ? { env } : {}),
			};
		} catch (error) {
			return { ok: false, error: errorMessage(error) };
		}
	}

	/** `stream` with the registry's request-time auth; the caller's `apiKey`, `headers` and `env` win. */
	stream(model: Model, context: Context, options?: StreamOptions): AssistantMessageEventStream {
		const request = this.withAuth(model, options);
		return "error" in request ? failedStream(model, request.error) : stream(request.model, context, request.options);
	}

	/** `streamSimple` with the registry's request-time auth. */
	streamSimple(model: Model, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream {
		const r = this.withAuth(model, options);
		return "error" in r ? failedStream(model, r.error) : streamSimple(r.model, context, r.options);
	}

	/**
	 * `model` re-pointed at the base URL its stored login derived (a Copilot token's `proxy-ep`), with the login's
	 * `env` for the provider's stream (as pi). Call after `getApiKeyForRequest`, which refreshes and derives them.
	 */
	requestTarget(model: Model): { model: Model; env?: Record<string, string> } {
		const { baseUrl, env } = this.authStorage.getRequestOverrides(model.provider);
		return { model: baseUrl && baseUrl !== model.baseUrl ? { ...model, baseUrl } : model, ...(env ? { env } : {}) };
	}

	/** The final message of `stream` (an error ends it with stopReason "error", as pi-ai's `complete` does). */
	complete(model: Model, context: Context, options?: StreamOptions): Promise<AssistantMessage> {
		return this.stream(model, context, options).result();
	}

	/**
	 * Headers to send with a request for `model`: the model's own, then provider and model headers from
	 * models.json / registerProvider (value-resolved now; commands run every time), then `Authorization` when
	 * `authHeader` is set. Throws a one-line error when a value or the required key cannot be resolved.
	 */
	getRequestHeaders(model: Pick<Model, "provider" | "id" | "headers">): Record<string, string> {
		const out: Record<string, string> = { ...model.headers, ...this.authStorage.getOAuthHeaders(model.provider) };
		const raw = this.composed.provider(model.provider).headers.get(model.id);
		if (raw) Object.assign(out, resolveHeaderValues(raw, `model "${model.provider}/${model.id}"`, this.valueOptions()));
		const ext = this.extensions.get(model.provider);
		const authHeader = ext?.authHeader ?? this.json?.providers[model.provider]?.authHeader ?? false;
		if (authHeader) {
			const key = this.authStorage.resolveApiKey(model.provider);
			if (key.apiKey === undefined) {
				const why = key.error ? `: ${key.error}` : "";
				throw new Error(`Provider "${model.provider}" sets authHeader but no API key is available${why}`);
			}
			out.Authorization = `Bearer ${key.apiKey}`;
		}
		return out;
	}

	/**
	 * Adds or replaces an extension provider. `models` replace the provider's list; `baseUrl` alone re-points its
	 * existing models; `streamSimple` is registered as the implementation of `config.api`. Throws on a config that
	 * cannot work (nothing is changed then).
	 */
	registerProvider(name: string, config: ProviderConfig): void {
		if (config.streamSimple && !config.api) {
			throw new Error(`registerProvider("${name}"): "api" is required with streamSimple`);
		}
		const next = new Map(this.extensions);
		next.set(name, config);
		const trial = new ModelComposition({
			builtins: this.builtins,
			...(this.json ? { json: this.json } : {}),
			extensions: next,
		});
		const problem = trial.provider(name).extensionErrors.find((e) => e.startsWith(`${name}: `));
		if (problem) throw new Error(`registerProvider("${name}"): ${problem.slice(name.length + 2)}`);
		unregisterApiProviders(name);
		if (config.streamSimple && config.api) {
			const streamSimple = config.streamSimple;
			registerApiProvider({ api: config.api, stream: config.stream ?? streamSimple, streamSimple }, name);
		}
		this.extensions.set(name, config);
		this.authStorage.setOAuthHandler(name, config.oauth);
		this.composed = trial;
	}

	/** The OAuth part of a registered provider (for `/login`), if any. */
	getOAuthProvider(name: string): ProviderConfig["oauth"] {
		return this.extensions.get(name)?.oauth;
	}

	/** The key for `model`, refreshing expired OAuth tokens first (the form request paths use). */
	async getApiKeyForRequest(model: Pick<Model, "provider">, signal?: AbortSignal): Promise<string | undefined> {
		await this.authStorage.refreshOAuthIfExpired(model.provider, signal);
		return this.getApiKey(model);
	}

	/** Removes an extension provider and its API implementation; built-in behaviour comes back. */
	unregisterProvider(name: string): void {
		unregisterApiProviders(name);
		this.authStorage.setOAuthHandler(name, undefined);
		if (this.extensions.delete(name)) this.rebuild();
	}

	// ---- pi 0.87.1 names ------------------------------------------------------------------------------------

	/** All problems in one text (blank line between them), or undefined. */
	getError(): string | undefined {
		const errors = this.getErrors();
		return errors.length > 0 ? errors.join("\n\n") : undefined;
	}

	getProviderAuthStatus(provider: string): AuthStatus {
		return this.getAuthStatus(provider);
	}

	getProviderDisplayName(provider: string): string {
		return this.getProviderName(provider);
	}

	/** The provider's key as a pi-ai `AuthResult` (`{ auth: { apiKey }, source }`), or undefined without one. */
	async getProviderAuth(provider: string): Promise<ProviderAuthResult | undefined> {
		await this.authStorage.refreshOAuthIfExpired(provider);
		const key = this.authStorage.resolveApiKey(provider);
		if (key.error !== undefined) throw new Error(key.error);
		if (key.apiKey === undefined) return undefined;
		const { baseUrl, env } = this.authStorage.getRequestOverrides(provider);
		return {
			auth: { apiKey: key.apiKey, ...(baseUrl ? { baseUrl } : {}) },
			...(env ? { env } : {}),
			...(key.source ? { source: key.source } : {}),
		};
	}

	isUsingOAuth(model: Pick<Model, "provider">): boolean {
		return this.authStorage.get(model.provider)?.type === "oauth";
	}

	getRegisteredProviderConfig(name: string): ProviderConfig | undefined {
		return this.extensions.get(name);
	}

	getRegisteredProviderIds(): readonly string[] {
		return [...this.extensions.keys()];
	}

	// ---- internals -----------------------------------------------------------------------------------------

	private withAuth<T extends StreamOptions>(
		model: Model,
		options?: T,
	): { model: Model; options: T } | { error: string } {
		try {
			const apiKey = options?.apiKey ?? this.getApiKey(model);
			const headers = { ...this.getRequestHeaders(model), ...options?.headers };
			const target = this.requestTarget(model);
			// The caller's env wins over the login's.
			const env = target.env ? { env: { ...target.env, ...(options?.env as object | undefined) } } : {};
			const keyed = apiKey !== undefined ? { apiKey } : {};
			const request = { ...options, ...keyed, headers, ...env } as T;
			return adjustBuiltinRequest(target.model, request, this.env) as { model: Model; options: T };
		} catch (error) {
			return { error: errorMessage(error) };
		}
	}

	private compose(json: ModelsJson | undefined): ModelComposition {
		return new ModelComposition({ builtins: this.builtins, ...(json ? { json } : {}), extensions: this.extensions });
	}

	private rebuild(): void {
		this.composed = this.compose(this.json);
	}

	private valueOptions() {
		return { baseEnv: this.env, cache: false };
	}

	/** Not in the catalogue and without environment variables: defined by models.json or an extension. */
	private isCustomProvider(provider: string): boolean {
		return !this.builtinProviders.has(provider) && PROVIDER_ENV_KEYS[provider] === undefined;
	}

	private keySource(): ConfiguredKeySource {
		return {
			rawApiKey: (provider) => this.rawApiKey(provider),
			valueOptions: () => this.valueOptions(),
			modelsJsonPath: this.modelsJsonPath,
		};
	}

	private rawApiKey(provider: string): RawKey | undefined {
		const ext = this.extensions.get(provider)?.apiKey;
		if (ext !== undefined) return { raw: ext, fromExtension: true };
		const json = this.json?.providers[provider]?.apiKey;
		return json !== undefined ? { raw: json, fromExtension: false } : undefined;
	}
}
