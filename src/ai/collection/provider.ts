/**
 * `createProvider`: a provider from parts — static models plus an optional fetched overlay (restored from the
 * models store, then refreshed and persisted through the collection's generation-checked `publish`), auth, and
 * the stream functions, one for all models or one per `model.api`.
 */
import { ModelsError } from "../auth/provider-auth.ts";
import type { Model } from "../types.ts";
import { lazyStream } from "./lazy.ts";
import type { CreateProviderOptions, ModelsProvider, ModelsStoreEntry, ProviderStreams } from "./types.ts";

/** In-memory `ModelsStore`; entries are copied in and out, so callers never share them. */
export class InMemoryModelsStore {
	private readonly entries = new Map<string, ModelsStoreEntry>();

	async read(providerId: string, options?: { signal?: AbortSignal }): Promise<ModelsStoreEntry | undefined> {
		options?.signal?.throwIfAborted();
		const entry = this.entries.get(providerId);
		return entry ? structuredClone(entry) : undefined;
	}

	async write(providerId: string, entry: ModelsStoreEntry, options?: { signal?: AbortSignal }): Promise<void> {
		options?.signal?.throwIfAborted();
		this.entries.set(providerId, structuredClone(entry));
	}

	async delete(providerId: string, options?: { signal?: AbortSignal }): Promise<void> {
		options?.signal?.throwIfAborted();
		this.entries.delete(providerId);
	}
}

function isStreams(api: CreateProviderOptions["api"]): api is ProviderStreams {
	return typeof (api as ProviderStreams).stream === "function";
}

export function createProvider(input: CreateProviderOptions): ModelsProvider {
	let fetched: readonly Model[] = [];
	/** The static models, with fetched ones replacing same-id entries and the rest appended. */
	const currentModels = (): Model[] => {
		const merged = [...input.models];
		for (const model of fetched) {
			const index = merged.findIndex((entry) => entry.id === model.id);
			if (index >= 0) merged[index] = model;
			else merged.push(model);
		}
		return merged;
	};
	const single = isStreams(input.api) ? input.api : undefined;
	const byApi = single ? undefined : (input.api as Partial<Record<string, ProviderStreams>>);
	const apiFor = (model: Model) => single ?? byApi?.[model.api];
	const dispatch = (model: Model, run: (streams: ProviderStreams) => ReturnType<ProviderStreams["stream"]>) => {
		const streams = apiFor(model);
		if (streams) return run(streams);
		return lazyStream(model, async () => {
			throw new ModelsError("stream", `Provider ${input.id} has no API implementation for "${model.api}"`);
		});
	};
	const fetchModels = input.fetchModels;
	const provider: ModelsProvider = {
		id: input.id,
		name: input.name ?? input.id,
		baseUrl: input.baseUrl,
		headers: input.headers,
		auth: input.auth,
		getModels: currentModels,
		refreshModels: fetchModels
			? async (context) => {
					if (context.stored) {
						const restored = context.stored.models.filter((model) => model.provider === input.id);
						const kept = await context.publish({
							update: () => {
								fetched = restored;
							},
						});
						if (!kept) return;
					}
					if (!context.allowNetwork || context.signal.aborted) return;
					const refreshed = await fetchModels(context);
					if (context.signal.aborted) return;
					await context.publish({
						persist: { models: refreshed, checkedAt: Date.now() },
						update: () => {
							fetched = refreshed;
						},
					});
				}
			: undefined,
		filterModels: input.filterModels,
		stream: (model, context, options) => dispatch(model, (streams) => streams.stream(model, context, options)),
		streamSimple: (model, context, options) =>
			dispatch(model, (streams) => streams.streamSimple(model, context, options)),
	};
	const all = single ? [single] : Object.values(byApi ?? {}).filter((entry) => entry !== undefined);
	if (all.some((entry) => entry.fetchDeferred !== undefined)) {
		provider.fetchDeferred = (model, handle, options) =>
			lazyStream(model, async () => {
				const implementation = apiFor(model);
				if (!implementation?.fetchDeferred) {
					throw new ModelsError(
						"provider",
						`Provider ${input.id} does not support deferred responses for "${model.api}"`,
					);
				}
				return implementation.fetchDeferred(model, handle, options);
			});
	}
	if (all.some((entry) => entry.cancelDeferred !== undefined)) {
		provider.cancelDeferred = async (model, handle, options) => {
			const implementation = apiFor(model);
			if (!implementation?.cancelDeferred) {
				throw new ModelsError("provider", `Provider ${input.id} cannot cancel deferred responses for "${model.api}"`);
			}
			await implementation.cancelDeferred(model, handle, options);
		};
	}
	return provider;
}
