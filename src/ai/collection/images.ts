/**
 * Image generation collections (pi-ai 0.87.1's `createImagesModels` / `createImagesProvider`): providers of image
 * models with the same auth resolution as `createModels`. `generateImages` never rejects: a failure comes back as
 * an `AssistantImages` with stop reason "error".
 */
import {
	defaultProviderAuthContext,
	InMemoryCredentialStore,
	ModelsError,
	resolveProviderAuth,
} from "../auth/provider-auth.ts";
import type {
	AuthContext,
	AuthResolutionOverrides,
	AuthResult,
	CredentialStore,
	ProviderAuth,
} from "../auth/provider-auth-types.ts";
import type { Model, Usage } from "../types.ts";
import type { CreateModelsOptions } from "./types.ts";

export type ImagesModel = Omit<Model, "reasoning" | "contextWindow" | "maxTokens" | "compat"> & {
	output: ("text" | "image")[];
};

export interface ImagesContext {
	input: ({ type: "text"; text: string } | { type: "image"; data: string; mimeType: string })[];
}

export interface AssistantImages {
	api: string;
	provider: string;
	model: string;
	output: ({ type: "text"; text: string } | { type: "image"; data: string; mimeType: string })[];
	responseId?: string;
	usage?: Usage;
	stopReason: "stop" | "error" | "aborted";
	errorMessage?: string;
	timestamp: number;
}

export interface ImagesOptions {
	signal?: AbortSignal;
	apiKey?: string;
	headers?: Record<string, string>;
	env?: Record<string, string>;
	metadata?: Record<string, unknown>;
	[key: string]: unknown;
}

export interface ProviderImages {
	generateImages(model: ImagesModel, context: ImagesContext, options?: ImagesOptions): Promise<AssistantImages>;
}

export interface ImagesProvider extends ProviderImages {
	readonly id: string;
	readonly name: string;
	readonly auth: ProviderAuth;
	getModels(): readonly ImagesModel[];
	refreshModels?(): Promise<void>;
}

class ImagesCollection {
	private readonly providers = new Map<string, ImagesProvider>();
	private readonly credentials: CredentialStore;
	private readonly authContext: AuthContext;

	constructor(options?: CreateModelsOptions) {
		this.credentials = options?.credentials ?? new InMemoryCredentialStore();
		this.authContext = options?.authContext ?? defaultProviderAuthContext();
	}

	setProvider(provider: ImagesProvider): void {
		this.providers.set(provider.id, provider);
	}

	deleteProvider(id: string): void {
		this.providers.delete(id);
	}

	clearProviders(): void {
		this.providers.clear();
	}

	getProviders(): ImagesProvider[] {
		return [...this.providers.values()];
	}

	getProvider(id: string): ImagesProvider | undefined {
		return this.providers.get(id);
	}

	getModels(provider?: string): ImagesModel[] {
		const entries = provider === undefined ? [...this.providers.values()] : [this.providers.get(provider)];
		const models: ImagesModel[] = [];
		for (const entry of entries) {
			try {
				if (entry) models.push(...entry.getModels());
			} catch {
				// A provider whose list throws has no models.
			}
		}
		return models;
	}

	getModel(provider: string, id: string): ImagesModel | undefined {
		return this.getModels(provider).find((model) => model.id === id);
	}

	/** Refreshes one provider (its failure rejects as a ModelsError) or all of them (failures ignored). */
	async refresh(provider?: string): Promise<void> {
		if (provider === undefined) {
			await Promise.allSettled([...this.providers.values()].map(async (entry) => entry.refreshModels?.()));
			return;
		}
		const entry = this.providers.get(provider);
		if (!entry?.refreshModels) return;
		try {
			await entry.refreshModels();
		} catch (error) {
			if (error instanceof ModelsError) throw error;
			throw new ModelsError("model_source", `Model refresh failed for ${provider}`, { cause: error });
		}
	}

	async getAuth(
		providerOrModel: string | ImagesModel,
		overrides?: AuthResolutionOverrides,
	): Promise<AuthResult | undefined> {
		const id = typeof providerOrModel === "string" ? providerOrModel : providerOrModel.provider;
		const provider = this.providers.get(id);
		return provider ? resolveProviderAuth(provider, this.credentials, this.authContext, overrides) : undefined;
	}

	async generateImages(model: ImagesModel, context: ImagesContext, options?: ImagesOptions): Promise<AssistantImages> {
		try {
			const provider = this.providers.get(model.provider);
			if (!provider) throw new ModelsError("provider", `Unknown provider: ${model.provider}`);
			const resolution = await this.getAuth(model, {
				apiKey: options?.apiKey,
				env: options?.env,
				signal: options?.signal,
			});
			const auth = resolution?.auth;
			if (!auth) return provider.generateImages(model, context, options);
			const requestModel = auth.baseUrl ? { ...model, baseUrl: auth.baseUrl } : model;
			const headers = auth.headers || options?.headers ? { ...auth.headers, ...options?.headers } : undefined;
			const env = resolution.env || options?.env ? { ...resolution.env, ...options?.env } : undefined;
			const apiKey = options?.apiKey ?? auth.apiKey;
			return await provider.generateImages(requestModel, context, { ...options, apiKey, headers, env });
		} catch (error) {
			return {
				api: model.api,
				provider: model.provider,
				model: model.id,
				output: [],
				stopReason: "error",
				errorMessage: error instanceof Error ? error.message : String(error),
				timestamp: Date.now(),
			};
		}
	}
}

export function createImagesModels(options?: CreateModelsOptions): ImagesCollection {
	return new ImagesCollection(options);
}

/** An image provider from parts; concurrent `refreshModels` calls share one refresh. */
export function createImagesProvider(input: {
	id: string;
	name?: string;
	auth: ProviderAuth;
	models: readonly ImagesModel[];
	refreshModels?: () => Promise<readonly ImagesModel[]>;
	api: ProviderImages;
}): ImagesProvider {
	let models = input.models;
	let inflight: Promise<void> | undefined;
	const refresh = input.refreshModels;
	return {
		id: input.id,
		name: input.name ?? input.id,
		auth: input.auth,
		getModels: () => models,
		refreshModels: refresh
			? () => {
					inflight ??= (async () => {
						try {
							models = await refresh();
						} finally {
							inflight = undefined;
						}
					})();
					return inflight;
				}
			: undefined,
		generateImages: (model, context, options) => input.api.generateImages(model, context, options),
	};
}
