/** Types of pi-ai 0.87.1's explicit model collections (`createModels`, `createProvider`, `createImagesModels`). */
import type {
	AuthCheck,
	AuthContext,
	AuthInteraction,
	AuthOperationOptions,
	AuthResolutionOverrides,
	AuthResult,
	AuthType,
	CredentialStore,
	ProviderAuth,
	ProviderHeaders,
	StoredCredential,
} from "../auth/provider-auth-types.ts";
import type {
	AssistantMessage,
	AssistantMessageEventStream,
	Context,
	Model,
	ProviderResponseInfo,
	SimpleStreamOptions,
	StreamOptions,
} from "../types.ts";

/** A response the provider will finish later, fetched with `fetchDeferred`. */
export interface DeferredHandle {
	provider: string;
	modelId: string;
	api: string;
	id: string;
	pollAfterMs?: number;
}

export interface DeferredFetchOptions {
	signal?: AbortSignal;
	apiKey?: string;
	headers?: ProviderHeaders;
	env?: Record<string, string>;
	onResponse?: (response: ProviderResponseInfo, model: Model) => void | Promise<void>;
	[key: string]: unknown;
}
export type DeferredCancelOptions = DeferredFetchOptions;

/** One API's stream functions (what `createProvider` dispatches to). */
export interface ProviderStreams {
	stream(model: Model, context: Context, options?: StreamOptions): AssistantMessageEventStream;
	streamSimple(model: Model, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream;
	fetchDeferred?(model: Model, handle: DeferredHandle, options?: DeferredFetchOptions): AssistantMessageEventStream;
	cancelDeferred?(model: Model, handle: DeferredHandle, options?: DeferredCancelOptions): Promise<void>;
}

export interface ModelsStoreEntry {
	models: readonly Model[];
	lastModified?: number;
	checkedAt?: number;
	etag?: string;
}

export interface ModelsStoreOperationOptions {
	signal?: AbortSignal;
}

export interface ModelsStore {
	read(providerId: string, options?: ModelsStoreOperationOptions): Promise<ModelsStoreEntry | undefined>;
	write(providerId: string, entry: ModelsStoreEntry, options?: ModelsStoreOperationOptions): Promise<void>;
	delete(providerId: string, options?: ModelsStoreOperationOptions): Promise<void>;
}

export interface ModelsPublication {
	/** Entry to persist; `null` deletes the stored one; absent leaves storage alone. */
	persist?: ModelsStoreEntry | null;
	update?: () => void;
}

export interface RefreshModelsContext {
	credential?: StoredCredential;
	stored?: Readonly<ModelsStoreEntry>;
	publish(publication: ModelsPublication): Promise<boolean>;
	allowNetwork: boolean;
	force?: boolean;
	signal: AbortSignal;
}

export interface ModelsProvider {
	readonly id: string;
	readonly name: string;
	readonly baseUrl?: string;
	readonly headers?: ProviderHeaders;
	readonly auth: ProviderAuth;
	getModels(): readonly Model[];
	refreshModels?(context: RefreshModelsContext): Promise<void>;
	filterModels?(models: readonly Model[], credential: StoredCredential | undefined): readonly Model[];
	stream(model: Model, context: Context, options?: StreamOptions): AssistantMessageEventStream;
	streamSimple(model: Model, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream;
	fetchDeferred?(model: Model, handle: DeferredHandle, options?: DeferredFetchOptions): AssistantMessageEventStream;
	cancelDeferred?(model: Model, handle: DeferredHandle, options?: DeferredCancelOptions): Promise<void>;
}

export interface CreateProviderOptions {
	id: string;
	name?: string;
	baseUrl?: string;
	headers?: ProviderHeaders;
	auth: ProviderAuth;
	models: readonly Model[];
	fetchModels?: (context: RefreshModelsContext) => Promise<readonly Model[]>;
	filterModels?: (models: readonly Model[], credential: StoredCredential | undefined) => readonly Model[];
	/** One implementation for every model, or one per `model.api`. */
	api: ProviderStreams | Partial<Record<string, ProviderStreams>>;
}

export interface ModelsRefreshOptions {
	allowNetwork?: boolean;
	providers?: readonly string[];
	force?: boolean;
	signal?: AbortSignal;
}

export interface ModelsRefreshResult {
	aborted: boolean;
	errors: ReadonlyMap<string, Error>;
}

export interface ModelsRequestTransforms {
	transformHeaders?: (headers: ProviderHeaders) => ProviderHeaders | Promise<ProviderHeaders>;
}

export type ModelsStreamOptions = SimpleStreamOptions & ModelsRequestTransforms & { env?: Record<string, string> };

export interface Models {
	getProviders(): readonly ModelsProvider[];
	getProvider(id: string): ModelsProvider | undefined;
	getModels(provider?: string): readonly Model[];
	getModel(provider: string, id: string): Model | undefined;
	refresh(options?: ModelsRefreshOptions): Promise<ModelsRefreshResult>;
	checkAuth(providerId: string, options?: AuthOperationOptions): Promise<AuthCheck | undefined>;
	getAvailable(providerId?: string, options?: AuthOperationOptions): Promise<readonly Model[]>;
	getAuth(providerOrModel: string | Model, overrides?: AuthResolutionOverrides): Promise<AuthResult | undefined>;
	login(providerId: string, type: AuthType, interaction: AuthInteraction): Promise<StoredCredential>;
	logout(providerId: string, options?: AuthOperationOptions): Promise<void>;
	stream(model: Model, context: Context, options?: ModelsStreamOptions): AssistantMessageEventStream;
	complete(model: Model, context: Context, options?: ModelsStreamOptions): Promise<AssistantMessage>;
	streamSimple(model: Model, context: Context, options?: ModelsStreamOptions): AssistantMessageEventStream;
	completeSimple(model: Model, context: Context, options?: ModelsStreamOptions): Promise<AssistantMessage>;
	streamDeferred(
		model: Model,
		handle: DeferredHandle,
		options?: DeferredFetchOptions & ModelsRequestTransforms,
	): AssistantMessageEventStream;
	fetchDeferred(
		model: Model,
		handle: DeferredHandle,
		options?: DeferredFetchOptions & ModelsRequestTransforms,
	): Promise<AssistantMessage>;
	cancelDeferred(
		model: Model,
		handle: DeferredHandle,
		options?: DeferredCancelOptions & ModelsRequestTransforms,
	): Promise<void>;
}

export interface MutableModels extends Models {
	setProvider(provider: ModelsProvider): void;
	deleteProvider(id: string): void;
	clearProviders(): void;
}

export interface CreateModelsOptions {
	credentials?: CredentialStore;
	modelsStore?: ModelsStore;
	authContext?: AuthContext;
}
