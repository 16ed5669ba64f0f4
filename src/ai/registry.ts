/**
 * The API registry: wire-protocol implementations by `api` id. Built-ins register on first use; an extension or
 * test may replace one (`registerApiProvider`) and later remove its own (`unregisterApiProviders(sourceId)`),
 * which restores the built-in.
 */
import type { Api, ApiProvider } from "./types.ts";

interface Entry {
	provider: ApiProvider;
	sourceId?: string;
}

const builtins = new Map<Api, ApiProvider>();
const overrides = new Map<Api, Entry>();

/** Called once per built-in API at module load by `providers/index.ts`. */
export function defineBuiltinApiProvider(provider: ApiProvider): void {
	builtins.set(provider.api, provider);
}

/** Adds or replaces the implementation of `provider.api`. Options types are the provider's own business. */
export function registerApiProvider(
	provider: { api: Api; stream: (...args: any[]) => any; streamSimple: (...args: any[]) => any },
	sourceId?: string,
): void {
	if (!provider || typeof provider.api !== "string" || typeof provider.stream !== "function") {
		throw new TypeError("registerApiProvider: expected { api, stream, streamSimple }");
	}
	const entry: Entry = { provider: provider as unknown as ApiProvider };
	if (sourceId !== undefined) entry.sourceId = sourceId;
	overrides.set(provider.api, entry);
}

export function getApiProvider(api: Api): ApiProvider | undefined {
	return overrides.get(api)?.provider ?? builtins.get(api);
}

export function getApiProviders(): ApiProvider[] {
	const apis = new Set<Api>([...builtins.keys(), ...overrides.keys()]);
	return [...apis].map((api) => getApiProvider(api) as ApiProvider);
}

export function unregisterApiProviders(sourceId: string): void {
	for (const [api, entry] of overrides) if (entry.sourceId === sourceId) overrides.delete(api);
}

/** Drops every registration made with `registerApiProvider`; built-ins stay. */
export function resetApiProviders(): void {
	overrides.clear();
}

/** Whether `provider` is one of ours (it reads the prompt and tools from a `requestView`). */
export function isBuiltinApiProvider(provider: ApiProvider): boolean {
	return builtins.get(provider.api) === provider;
}
