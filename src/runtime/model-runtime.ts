/**
 * pi 0.87.1's `ModelRuntime`: models (built-in catalogue + models.json + registered providers) and credentials
 * (auth.json, runtime keys, environment) behind one object, made with `await ModelRuntime.create(options)`.
 * `new ModelRegistry(runtime)` gives the registry view of the same state (`runtime.modelRegistry`).
 * Provider objects, interactive login and deferred requests of pi-ai 0.87's provider API are not offered.
 */
import { join } from "node:path";
import {
	type AssistantMessage,
	type AssistantMessageEventStream,
	AuthStorage,
	type Context,
	type Model,
	ModelRegistry,
	type ProviderConfig,
	type SimpleStreamOptions,
	type StreamOptions,
} from "../ai/index.ts";
import { getAgentDir } from "../config/index.ts";
import { expandHome } from "../util/index.ts";

export interface CreateModelRuntimeOptions {
	/** auth.json to use; default `<agentDir>/auth.json`. */
	authPath?: string;
	/** models.json to use; default `<agentDir>/models.json`; null for none. */
	modelsPath?: string | null;
	/** Accepted as in pi; models.json is always read at creation (reading it needs no network here). */
	refreshOnCreate?: boolean;
	signal?: AbortSignal;
}

export interface ModelRuntimeAuthOverrides {
	/** Use this key instead of the stored one. */
	apiKey?: string;
	signal?: AbortSignal;
}

export interface ModelRuntimeAuth {
	auth: { apiKey?: string; headers?: Record<string, string>; baseUrl?: string };
	env?: Record<string, string>;
	source?: string;
}

export class ModelRuntime {
	private constructor(
		readonly modelRegistry: ModelRegistry,
		private readonly credentials: AuthStorage,
	) {}

	static async create(options: CreateModelRuntimeOptions = {}): Promise<ModelRuntime> {
		const agentDir = getAgentDir();
		const credentials = new AuthStorage(expandHome(options.authPath ?? join(agentDir, "auth.json")));
		const modelsPath =
			options.modelsPath === null ? undefined : expandHome(options.modelsPath ?? join(agentDir, "models.json"));
		const registry = new ModelRegistry({
			authStorage: credentials,
			...(modelsPath ? { modelsJsonPath: modelsPath } : {}),
		});
		const runtime = new ModelRuntime(registry, credentials);
		return runtime;
	}

	/** Every model, or one provider's. */
	getModels(providerId?: string): readonly Model[] {
		return providerId === undefined ? this.modelRegistry.getAll() : this.modelRegistry.getModels(providerId);
	}

	getModel(providerId: string, modelId: string): Model | undefined {
		return this.modelRegistry.find(providerId, modelId);
	}

	/** Models that can be used now (their provider has credentials, or needs none). */
	async getAvailable(providerId?: string): Promise<readonly Model[]> {
		const all = this.modelRegistry.getAvailable();
		return providerId === undefined ? all : all.filter((m) => m.provider === providerId);
	}

	getAvailableSnapshot(): readonly Model[] {
		return this.modelRegistry.getAvailable();
	}

	/** Problems with models.json or registered providers, one text; undefined when there are none. */
	getError(): string | undefined {
		return this.modelRegistry.getError();
	}

	/** Whether the provider has a key and of which kind, without resolving it. */
	async checkAuth(providerId: string): Promise<{ type: "api_key" | "oauth"; source?: string } | undefined> {
		const status = this.credentials.getAuthStatus(providerId);
		if (!status.configured) return undefined;
		return {
			type: this.isUsingOAuth(providerId) ? "oauth" : "api_key",
			...(status.source ? { source: status.source } : {}),
		};
	}

	hasConfiguredAuth(providerId: string): boolean {
		return this.credentials.getAuthStatus(providerId).configured;
	}

	isUsingOAuth(providerId: string): boolean {
		return this.credentials.get(providerId)?.type === "oauth";
	}

	getProviderAuthStatus(providerId: string) {
		return this.modelRegistry.getProviderAuthStatus(providerId);
	}

	/** Request auth for a provider, or for a model (then with its request headers); undefined without a key. */
	async getAuth(
		providerOrModel: string | Model,
		overrides: ModelRuntimeAuthOverrides = {},
	): Promise<ModelRuntimeAuth | undefined> {
		const provider = typeof providerOrModel === "string" ? providerOrModel : providerOrModel.provider;
		const resolved =
			overrides.apiKey !== undefined
				? { auth: { apiKey: overrides.apiKey } }
				: await this.modelRegistry.getProviderAuth(provider);
		if (!resolved || typeof providerOrModel === "string") return resolved;
		const headers = this.modelRegistry.getRequestHeaders(providerOrModel);
		return { ...resolved, auth: { ...resolved.auth, ...(Object.keys(headers).length > 0 ? { headers } : {}) } };
	}

	/** A key for this process only (not saved), ahead of every other source. */
	async setRuntimeApiKey(providerId: string, apiKey: string): Promise<void> {
		this.credentials.setRuntimeApiKey(providerId, apiKey);
	}

	async removeRuntimeApiKey(providerId: string): Promise<void> {
		this.credentials.removeRuntimeApiKey(providerId);
	}

	/** Forgets the provider's stored credential (auth.json). */
	async logout(providerId: string): Promise<void> {
		await this.credentials.remove(providerId);
	}

	stream(model: Model, context: Context, options?: StreamOptions): AssistantMessageEventStream {
		return this.modelRegistry.stream(model, context, options);
	}

	complete(model: Model, context: Context, options?: StreamOptions): Promise<AssistantMessage> {
		return this.modelRegistry.complete(model, context, options);
	}

	streamSimple(model: Model, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream {
		return this.modelRegistry.streamSimple(model, context, options);
	}

	completeSimple(model: Model, context: Context, options?: SimpleStreamOptions): Promise<AssistantMessage> {
		return this.modelRegistry.streamSimple(model, context, options).result();
	}

	/** Reads auth.json and models.json again; problems are keyed by where they come from ("models.json"). */
	async refresh(
		options: { signal?: AbortSignal } = {},
	): Promise<{ aborted: boolean; errors: ReadonlyMap<string, Error> }> {
		if (options.signal?.aborted) return { aborted: true, errors: new Map() };
		this.credentials.reload();
		this.modelRegistry.refresh();
		const problems = this.modelRegistry.getErrors();
		const errors = new Map<string, Error>(problems.length > 0 ? [["models.json", new Error(problems.join("\n"))]] : []);
		return { aborted: false, errors };
	}

	registerProvider(providerId: string, config: ProviderConfig): void {
		this.modelRegistry.registerProvider(providerId, config);
	}

	unregisterProvider(providerId: string): void {
		this.modelRegistry.unregisterProvider(providerId);
	}

	getRegisteredProviderConfig(providerId: string): ProviderConfig | undefined {
		return this.modelRegistry.getRegisteredProviderConfig(providerId);
	}

	getRegisteredProviderIds(): readonly string[] {
		return this.modelRegistry.getRegisteredProviderIds();
	}
}
