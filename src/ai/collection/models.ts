/**
 * `createModels` (pi-ai 0.87.1): a collection of providers that resolves auth per request and hands each request
 * to the provider owning the model. Model lists are read synchronously (a provider that throws has none); dynamic
 * providers refresh concurrently, each refresh superseding the previous one of its provider, with publications
 * to the models store applied in order and only while still current.
 */
import { operationSignal, raceWithAbortSignal } from "../abort.ts";
import {
	defaultProviderAuthContext,
	InMemoryCredentialStore,
	ModelsError,
	readCredential,
	resolveProviderAuth,
} from "../auth/provider-auth.ts";
import type {
	AuthCheck,
	AuthContext,
	AuthInteraction,
	AuthOperationOptions,
	AuthResolutionOverrides,
	AuthResult,
	AuthType,
	CredentialStore,
	StoredCredential,
} from "../auth/provider-auth-types.ts";
import { normalizeContext } from "../transcript.ts";
import type { AssistantMessage, AssistantMessageEventStream, Context, Model } from "../types.ts";
import { mergeHeaders } from "./headers.ts";
import { lazyStream } from "./lazy.ts";
import { InMemoryModelsStore } from "./provider.ts";
import { storeLogin } from "./store-login.ts";
import type {
	CreateModelsOptions,
	DeferredHandle,
	ModelsProvider,
	ModelsPublication,
	ModelsRefreshOptions,
	ModelsRefreshResult,
	ModelsStore,
	ModelsStreamOptions,
	MutableModels,
} from "./types.ts";

class ModelsCollection implements MutableModels {
	private readonly providers = new Map<string, ModelsProvider>();
	private readonly credentials: CredentialStore;
	private readonly modelsStore: ModelsStore;
	private readonly authContext: AuthContext;
	private readonly generations = new Map<string, number>();
	private readonly refreshing = new Map<string, AbortController>();
	private readonly publications = new Map<string, Promise<unknown>>();

	constructor(options?: CreateModelsOptions) {
		this.credentials = options?.credentials ?? new InMemoryCredentialStore();
		this.modelsStore = options?.modelsStore ?? new InMemoryModelsStore();
		this.authContext = options?.authContext ?? defaultProviderAuthContext();
	}

	setProvider(provider: ModelsProvider): void {
		this.supersede(provider.id);
		this.providers.set(provider.id, provider);
	}

	deleteProvider(id: string): void {
		this.supersede(id);
		this.providers.delete(id);
	}

	clearProviders(): void {
		for (const id of new Set([...this.providers.keys(), ...this.refreshing.keys()])) this.supersede(id);
		this.providers.clear();
	}

	getProviders(): ModelsProvider[] {
		return [...this.providers.values()];
	}

	getProvider(id: string): ModelsProvider | undefined {
		return this.providers.get(id);
	}

	getModels(provider?: string): Model[] {
		const entries = provider === undefined ? [...this.providers.values()] : [this.providers.get(provider)];
		const models: Model[] = [];
		for (const entry of entries) {
			try {
				if (entry) models.push(...entry.getModels());
			} catch {
				// A provider whose list throws has no models.
			}
		}
		return models;
	}

	getModel(provider: string, id: string): Model | undefined {
		return this.getModels(provider).find((model) => model.id === id);
	}

	/** Ends the provider's running refresh; its later publications are dropped. */
	private supersede(providerId: string): number {
		const generation = (this.generations.get(providerId) ?? 0) + 1;
		this.generations.set(providerId, generation);
		const previous = this.refreshing.get(providerId);
		if (previous) {
			this.refreshing.delete(providerId);
			previous.abort();
		}
		return generation;
	}

	private publish(providerId: string, generation: number, signal: AbortSignal, publication: ModelsPublication) {
		const current = () => !signal.aborted && this.generations.get(providerId) === generation;
		const previous = this.publications.get(providerId) ?? Promise.resolve();
		const queued = (async () => {
			await previous.catch(() => {});
			if (!current()) return false;
			if (publication.persist === null) await this.modelsStore.delete(providerId, { signal });
			else if (publication.persist !== undefined)
				await this.modelsStore.write(providerId, structuredClone(publication.persist), { signal });
			if (!current()) return false;
			publication.update?.();
			return true;
		})();
		const tail = queued.catch(() => {});
		this.publications.set(providerId, tail);
		tail.then(() => {
			if (this.publications.get(providerId) === tail) this.publications.delete(providerId);
		});
		return raceWithAbortSignal(queued, signal);
	}

	private async refreshPhase(
		provider: ModelsProvider,
		credential: StoredCredential | undefined,
		allowNetwork: boolean,
		force: boolean | undefined,
		generation: number,
		signal: AbortSignal,
	): Promise<void> {
		const stored = await this.modelsStore.read(provider.id, { signal });
		await provider.refreshModels?.({
			credential,
			stored: stored ? structuredClone(stored) : undefined,
			publish: (publication) => this.publish(provider.id, generation, signal, publication),
			allowNetwork,
			force: allowNetwork ? force : undefined,
			signal,
		});
	}

	async refresh(options: ModelsRefreshOptions = {}): Promise<ModelsRefreshResult> {
		const allowNetwork = options.allowNetwork ?? true;
		const callerSignal = operationSignal(options.signal);
		const errors = new Map<string, Error>();
		if (callerSignal.aborted) return { aborted: true, errors };
		const selected = options.providers ? new Set(options.providers) : undefined;
		const refreshable = [...this.providers.values()].filter(
			(provider) => provider.refreshModels !== undefined && (!selected || selected.has(provider.id)),
		);
		const all = Promise.all(
			refreshable.map(async (provider) => {
				const generation = this.supersede(provider.id);
				const controller = new AbortController();
				this.refreshing.set(provider.id, controller);
				const signal = AbortSignal.any([callerSignal, controller.signal]);
				const operation = (async () => {
					let stored: StoredCredential | undefined;
					let readError: unknown;
					try {
						stored = await readCredential(this.credentials, provider.id, signal);
					} catch (error) {
						readError = error;
					}
					// The cached list comes back before any auth or network work.
					await this.refreshPhase(provider, stored, false, undefined, generation, signal);
					if (readError !== undefined) throw readError;
					if (!allowNetwork || signal.aborted) return;
					const credential = await this.refreshCredential(provider, stored, signal);
					if (credential) await this.refreshPhase(provider, credential, true, options.force, generation, signal);
				})();
				try {
					await raceWithAbortSignal(operation, signal);
				} catch (error) {
					if (!signal.aborted) {
						errors.set(
							provider.id,
							error instanceof Error
								? error
								: new ModelsError("model_source", `Model refresh failed for ${provider.id}`, { cause: error }),
						);
					}
				} finally {
					if (this.refreshing.get(provider.id) === controller) this.refreshing.delete(provider.id);
				}
			}),
		);
		try {
			await raceWithAbortSignal(all, callerSignal);
		} catch (error) {
			if (!callerSignal.aborted) throw error;
		}
		return { aborted: callerSignal.aborted, errors: new Map(errors) };
	}

	/** The credential a network refresh uses: a live (or refreshed) OAuth token, or the resolved api key. */
	private async refreshCredential(
		provider: ModelsProvider,
		stored: StoredCredential | undefined,
		signal: AbortSignal,
	): Promise<StoredCredential | undefined> {
		if (stored?.type === "oauth") {
			const oauth = provider.auth.oauth;
			if (!oauth) return undefined;
			if (Date.now() < stored.expires) return stored;
			if (signal.aborted) return undefined;
			const post = await this.credentials.modify(
				provider.id,
				async (current) =>
					current?.type !== "oauth" || Date.now() < current.expires ? undefined : oauth.refresh(current, signal),
				{ signal },
			);
			return post?.type === "oauth" ? post : undefined;
		}
		const apiKey = provider.auth.apiKey;
		if (!apiKey) return undefined;
		const credential = stored?.type === "api_key" ? stored : undefined;
		const result = await apiKey.resolve({ ctx: this.authContext, credential, signal });
		return result ? { type: "api_key", key: result.auth.apiKey, env: result.env } : undefined;
	}

	private async checkProviderAuth(
		provider: ModelsProvider,
		credential: StoredCredential | undefined,
		signal: AbortSignal,
	): Promise<AuthCheck | undefined> {
		if (credential?.type === "oauth") return provider.auth.oauth ? { source: "OAuth", type: "oauth" } : undefined;
		const apiKey = provider.auth.apiKey;
		if (!apiKey) return undefined;
		if (apiKey.check) {
			try {
				const stored = credential?.type === "api_key" ? credential : undefined;
				return await apiKey.check({ ctx: this.authContext, credential: stored, signal });
			} catch (error) {
				throw new ModelsError("auth", `API key auth check failed for provider ${provider.id}`, { cause: error });
			}
		}
		const resolution = await resolveProviderAuth(provider, this.credentials, this.authContext, { signal });
		return resolution ? { source: resolution.source, type: "api_key" } : undefined;
	}

	checkAuth(providerId: string, options?: AuthOperationOptions): Promise<AuthCheck | undefined> {
		const signal = operationSignal(options?.signal);
		const check = (async () => {
			signal.throwIfAborted();
			const provider = this.providers.get(providerId);
			if (!provider) return undefined;
			return this.checkProviderAuth(provider, await readCredential(this.credentials, providerId, signal), signal);
		})();
		return raceWithAbortSignal(check, signal);
	}

	getAvailable(providerId?: string, options?: AuthOperationOptions): Promise<readonly Model[]> {
		const signal = operationSignal(options?.signal);
		const available = (async () => {
			signal.throwIfAborted();
			const providers = providerId
				? [this.providers.get(providerId)].filter((entry) => entry !== undefined)
				: this.getProviders();
			const checks = await Promise.all(
				providers.map(async (provider) => {
					const credential = await readCredential(this.credentials, provider.id, signal);
					return { provider, credential, auth: await this.checkProviderAuth(provider, credential, signal) };
				}),
			);
			return checks.flatMap(({ provider, credential, auth }) => {
				if (!auth) return [];
				const models = provider.getModels();
				return [...(provider.filterModels?.(models, credential) ?? models)];
			});
		})();
		return raceWithAbortSignal(available, signal);
	}

	async getAuth(providerOrModel: string | Model, overrides?: AuthResolutionOverrides): Promise<AuthResult | undefined> {
		const signal = operationSignal(overrides?.signal);
		const providerId = typeof providerOrModel === "string" ? providerOrModel : providerOrModel.provider;
		const provider = this.providers.get(providerId);
		if (!provider) return undefined;
		const result = await resolveProviderAuth(provider, this.credentials, this.authContext, { ...overrides, signal });
		if (!result || typeof providerOrModel === "string" || !providerOrModel.headers) return result;
		return { ...result, auth: { ...result.auth, headers: mergeHeaders(result.auth.headers, providerOrModel.headers) } };
	}

	async login(providerId: string, type: AuthType, interaction: AuthInteraction): Promise<StoredCredential> {
		const signal = operationSignal(interaction.signal);
		signal.throwIfAborted();
		const provider = this.providers.get(providerId);
		if (!provider) throw new ModelsError("provider", `Unknown provider: ${providerId}`);
		const method = type === "oauth" ? provider.auth.oauth : provider.auth.apiKey;
		if (!method?.login) throw new ModelsError("auth", `${provider.name} does not support ${type} login`);
		const login = method.login({ ...interaction, signal }) as Promise<StoredCredential>;
		const credential = await raceWithAbortSignal(login, signal);
		await storeLogin(this.credentials, providerId, credential, signal);
		return credential;
	}

	async logout(providerId: string, options?: AuthOperationOptions): Promise<void> {
		const signal = operationSignal(options?.signal);
		signal.throwIfAborted();
		try {
			await this.credentials.delete(providerId, { signal });
		} catch (error) {
			signal.throwIfAborted();
			throw new ModelsError("auth", `Credential store delete failed for ${providerId}`, { cause: error });
		}
	}

	private requireProvider(model: Model): ModelsProvider {
		const provider = this.providers.get(model.provider);
		if (!provider) throw new ModelsError("provider", `Unknown provider: ${model.provider}`);
		return provider;
	}

	/** The model (with the auth's base URL) and options (key, merged headers and env) a request goes out with. */
	private async applyAuth<O extends ModelsStreamOptions>(model: Model, options?: O) {
		this.requireProvider(model);
		const resolution = await this.getAuth(model, {
			apiKey: options?.apiKey,
			env: options?.env,
			signal: options?.signal,
		});
		if (!resolution) throw new ModelsError("auth", `Provider is not configured: ${model.provider}`);
		const auth = resolution.auth;
		let headers = mergeHeaders(auth.headers, options?.headers);
		if (options?.transformHeaders) headers = await options.transformHeaders(headers ?? {});
		const env = resolution.env || options?.env ? { ...resolution.env, ...options?.env } : undefined;
		const { transformHeaders: _transform, ...rest } = options ?? ({} as O);
		const requestModel = auth.baseUrl ? { ...model, baseUrl: auth.baseUrl } : model;
		return { requestModel, requestOptions: { ...rest, apiKey: options?.apiKey ?? auth.apiKey, headers, env } };
	}

	stream(model: Model, context: Context, options?: ModelsStreamOptions): AssistantMessageEventStream {
		const transcript = normalizeContext(context);
		return lazyStream(model, async () => {
			const provider = this.requireProvider(model);
			const { requestModel, requestOptions } = await this.applyAuth(model, options);
			return provider.stream(requestModel, transcript, requestOptions);
		});
	}

	complete(model: Model, context: Context, options?: ModelsStreamOptions): Promise<AssistantMessage> {
		return this.stream(model, context, options).result();
	}

	streamSimple(model: Model, context: Context, options?: ModelsStreamOptions): AssistantMessageEventStream {
		const transcript = normalizeContext(context);
		return lazyStream(model, async () => {
			const provider = this.requireProvider(model);
			const { requestModel, requestOptions } = await this.applyAuth(model, options);
			return provider.streamSimple(requestModel, transcript, requestOptions);
		});
	}

	completeSimple(model: Model, context: Context, options?: ModelsStreamOptions): Promise<AssistantMessage> {
		return this.streamSimple(model, context, options).result();
	}

	streamDeferred(model: Model, handle: DeferredHandle, options?: ModelsStreamOptions): AssistantMessageEventStream {
		return lazyStream(model, async () => {
			const provider = this.requireProvider(model);
			if (!provider.fetchDeferred) {
				throw new ModelsError("provider", `Provider ${model.provider} does not support deferred responses`);
			}
			const { requestModel, requestOptions } = await this.applyAuth(model, options);
			return provider.fetchDeferred(requestModel, handle, requestOptions);
		});
	}

	fetchDeferred(model: Model, handle: DeferredHandle, options?: ModelsStreamOptions): Promise<AssistantMessage> {
		return this.streamDeferred(model, handle, options).result();
	}

	async cancelDeferred(model: Model, handle: DeferredHandle, options?: ModelsStreamOptions): Promise<void> {
		const provider = this.requireProvider(model);
		if (!provider.cancelDeferred) {
			throw new ModelsError("provider", `Provider ${model.provider} does not support deferred responses`);
		}
		const { requestModel, requestOptions } = await this.applyAuth(model, options);
		await provider.cancelDeferred(requestModel, handle, requestOptions);
	}
}

/** A new, empty collection; add providers with `setProvider`. */
export function createModels(options?: CreateModelsOptions): MutableModels {
	return new ModelsCollection(options);
}
