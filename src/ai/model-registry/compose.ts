/**
 * Building the model list from its layers, bottom to top:
 *   1. built-in catalogue
 *   2. models.json provider entry: `baseUrl` and `compat` apply to the provider's existing models; `models` upsert
 *      by id (same id replaces, new ids are appended; a provider without built-ins is a custom provider)
 *   3. extension `registerProvider`: `models` replace the provider's list; `baseUrl` alone re-points it
 *   4. models.json `modelOverrides`: patch whatever model carries that id (unknown ids are ignored)
 * Header values are kept raw here (resolved per request by the registry), never put on `Model.headers`.
 * Problems are returned, not thrown. Each provider is composed on its own, when first asked for: a run that uses
 * one provider never loads the other providers' built-in models.
 */
import type { Model, ModelCompat } from "../types.ts";
import type { ModelsJson, ModelsJsonProvider } from "./schema.ts";
import type { ModelDefinition, ModelOverride, ProviderConfig } from "./types.ts";

export const DEFAULT_CONTEXT_WINDOW = 128_000;
export const DEFAULT_MAX_TOKENS = 16_384;

/** The built-in models, by provider: the list of providers is known without loading any model. */
export interface BuiltinCatalog {
	/** Provider ids in catalogue order. */
	providers: readonly string[];
	/** One provider's built-in models. */
	models(provider: string): readonly Model[];
}

/** A catalogue over a plain list of models (providers in order of first appearance). */
export function catalogFromList(models: readonly Model[]): BuiltinCatalog {
	const byProvider = new Map<string, Model[]>();
	for (const model of models) {
		const list = byProvider.get(model.provider);
		if (list) list.push(model);
		else byProvider.set(model.provider, [model]);
	}
	return { providers: [...byProvider.keys()], models: (provider) => byProvider.get(provider) ?? [] };
}

export interface ComposeInput {
	builtins: BuiltinCatalog;
	json?: ModelsJson;
	extensions: ReadonlyMap<string, ProviderConfig>;
}

/** One provider through every layer. */
export interface ComposedProvider {
	models: Model[];
	/** Raw (unresolved) headers per model id: provider-level first, model-level over them. */
	headers: Map<string, Record<string, string>>;
	/** models.json problems, each `<json path>: <problem>`. */
	jsonErrors: string[];
	/** registerProvider problems, each `<provider>: <problem>`. */
	extensionErrors: string[];
}

interface Layer {
	api?: string;
	baseUrl?: string;
	compat?: ModelCompat;
}

/** `providers.ollama`, or `providers["my.proxy"]` for names that are not plain identifiers. */
export function providerPath(provider: string): string {
	return /^[A-Za-z_$][\w$-]*$/.test(provider) ? `providers.${provider}` : `providers[${JSON.stringify(provider)}]`;
}

const NESTED_COMPAT = ["openRouterRouting", "vercelGatewayRouting", "reasoningEffortMap"] as const;

/** `over` wins field by field; routing objects merge one level deeper. */
export function mergeCompat(base: ModelCompat | undefined, over: ModelCompat | undefined): ModelCompat | undefined {
	if (!over) return base;
	if (!base) return { ...over };
	const merged: Record<string, unknown> = { ...base, ...over };
	for (const key of NESTED_COMPAT) {
		const a = base[key];
		const b = over[key];
		if (a && b) merged[key] = { ...a, ...b };
	}
	return merged as ModelCompat;
}

/** The existing model a new definition inherits api/baseUrl from: same id, else same api, else the first. */
function inheritFrom(models: readonly Model[], id: string, api: string | undefined): Model | undefined {
	return (
		models.find((m) => m.id === id) ??
		(api !== undefined ? models.find((m) => m.api === api) : undefined) ??
		models.find((m) => m.api === "openai-completions") ??
		models[0]
	);
}

type Built = { model: Model } | { missing: "api" | "baseUrl" };

function buildModel(provider: string, def: ModelDefinition, layer: Layer, existing: readonly Model[]): Built {
	const parent = inheritFrom(existing, def.id, def.api ?? layer.api);
	const api = def.api ?? layer.api ?? parent?.api;
	if (api === undefined) return { missing: "api" };
	const baseUrl = def.baseUrl ?? layer.baseUrl ?? parent?.baseUrl;
	if (baseUrl === undefined) return { missing: "baseUrl" };
	const model: Model = {
		id: def.id,
		name: def.name ?? def.id,
		api,
		provider,
		baseUrl,
		reasoning: def.reasoning ?? false,
		input: def.input ? [...def.input] : ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...def.cost },
		contextWindow: def.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
		maxTokens: def.maxTokens ?? DEFAULT_MAX_TOKENS,
	};
	if (def.thinkingLevelMap) model.thinkingLevelMap = { ...def.thinkingLevelMap };
	const compat = mergeCompat(layer.compat, def.compat);
	if (compat) model.compat = compat;
	return { model };
}

function applyOverride(model: Model, over: ModelOverride): Model {
	const next: Model = { ...model };
	if (over.name !== undefined) next.name = over.name;
	if (over.api !== undefined) next.api = over.api;
	if (over.baseUrl !== undefined) next.baseUrl = over.baseUrl;
	if (over.reasoning !== undefined) next.reasoning = over.reasoning;
	if (over.thinkingLevelMap) next.thinkingLevelMap = { ...model.thinkingLevelMap, ...over.thinkingLevelMap };
	if (over.input) next.input = [...over.input];
	if (over.cost) next.cost = { ...model.cost, ...over.cost };
	if (over.contextWindow !== undefined) next.contextWindow = over.contextWindow;
	if (over.maxTokens !== undefined) next.maxTokens = over.maxTokens;
	const compat = mergeCompat(model.compat, over.compat);
	if (compat) next.compat = compat;
	return next;
}

function hasEffect(entry: ModelsJsonProvider): boolean {
	return (
		entry.baseUrl !== undefined ||
		entry.headers !== undefined ||
		entry.compat !== undefined ||
		entry.apiKey !== undefined ||
		entry.authHeader !== undefined ||
		(entry.models?.length ?? 0) > 0 ||
		Object.keys(entry.modelOverrides ?? {}).length > 0
	);
}

function applyJson(provider: string, base: readonly Model[], entry: ModelsJsonProvider, errors: string[]): Model[] {
	const path = providerPath(provider);
	if (!hasEffect(entry)) {
		errors.push(
			`${path}: nothing to apply; set "baseUrl", "headers", "compat", "apiKey", "authHeader", "models" or "modelOverrides"`,
		);
		return [...base];
	}
	const layer = entry as Layer;
	const models = base.map((m) => {
		const next: Model = { ...m, baseUrl: entry.baseUrl ?? m.baseUrl };
		const compat = mergeCompat(m.compat, layer.compat);
		if (compat) next.compat = compat;
		return next;
	});
	const reported = new Set<string>();
	for (const def of entry.models ?? []) {
		const built = buildModel(provider, def as ModelDefinition, layer, models);
		if ("missing" in built) {
			if (!reported.has(built.missing)) {
				reported.add(built.missing);
				errors.push(
					`${path}.${built.missing}: required for custom provider "${provider}" (it has no built-in models to inherit from); set it on the provider or on each model`,
				);
			}
			continue;
		}
		const at = models.findIndex((m) => m.id === def.id);
		if (at >= 0) models[at] = built.model;
		else models.push(built.model);
	}
	return models;
}

function applyExtension(provider: string, base: readonly Model[], config: ProviderConfig, errors: string[]): Model[] {
	if (!config.models) {
		return config.baseUrl !== undefined ? base.map((m) => ({ ...m, baseUrl: config.baseUrl as string })) : [...base];
	}
	const out: Model[] = [];
	config.models.forEach((def, index) => {
		const built = buildModel(provider, def, config, base);
		if ("missing" in built) {
			errors.push(
				`${provider}: models[${index}] ("${def.id}"): no "${built.missing}"; set it on the model or on the provider config`,
			);
		} else out.push(built.model);
	});
	return out;
}

function headersFor(id: string, json: ModelsJsonProvider | undefined, ext: ProviderConfig | undefined) {
	return {
		...json?.headers,
		...ext?.headers,
		...json?.modelOverrides?.[id]?.headers,
		...json?.models?.find((m) => m.id === id)?.headers,
		...ext?.models?.find((m) => m.id === id)?.headers,
	};
}

/** One provider's models through every layer. */
function composeProvider(provider: string, input: ComposeInput): ComposedProvider {
	const jsonErrors: string[] = [];
	const extensionErrors: string[] = [];
	const headers = new Map<string, Record<string, string>>();
	const jsonProviders = input.json?.providers ?? {};
	const entry = Object.hasOwn(jsonProviders, provider) ? jsonProviders[provider] : undefined;
	const ext = input.extensions.get(provider);
	let list: readonly Model[] = input.builtins.models(provider);
	if (entry) list = applyJson(provider, list, entry, jsonErrors);
	if (ext) list = applyExtension(provider, list, ext, extensionErrors);
	const overrides = entry?.modelOverrides ?? {};
	const models: Model[] = [];
	for (const model of list) {
		const over = Object.hasOwn(overrides, model.id) ? overrides[model.id] : undefined;
		models.push(over ? applyOverride(model, over as ModelOverride) : model);
		const raw = headersFor(model.id, entry, ext);
		if (Object.keys(raw).length > 0) headers.set(model.id, raw);
	}
	return { models, headers, jsonErrors, extensionErrors };
}

/**
 * All providers' models: built-in providers in catalogue order, then models.json's, then extensions'. A provider
 * is composed on first use and kept.
 */
export class ModelComposition {
	readonly providers: readonly string[];
	private readonly composed = new Map<string, ComposedProvider>();

	private readonly input: ComposeInput;

	constructor(input: ComposeInput) {
		// A snapshot: providers composed later must see the layers as they were at construction.
		this.input = { ...input, extensions: new Map(input.extensions) };
		const json = Object.keys(input.json?.providers ?? {});
		this.providers = [...new Set([...input.builtins.providers, ...json, ...input.extensions.keys()])];
	}

	provider(name: string): ComposedProvider {
		let done = this.composed.get(name);
		if (!done) {
			done = composeProvider(name, this.input);
			this.composed.set(name, done);
		}
		return done;
	}

	/** Every model, provider by provider. */
	models(): Model[] {
		return this.providers.flatMap((name) => this.provider(name).models);
	}

	/** Whether a provider has models; a built-in provider no layer touches always has, without loading them. */
	hasModels(name: string): boolean {
		if (!this.isLayered(name) && this.input.builtins.providers.includes(name)) return true;
		return this.provider(name).models.length > 0;
	}

	/** models.json problems, provider by provider (only providers models.json names are composed). */
	jsonErrors(): string[] {
		const named = this.providers.filter((name) => Object.hasOwn(this.input.json?.providers ?? {}, name));
		return named.flatMap((name) => this.provider(name).jsonErrors);
	}

	/** registerProvider problems, provider by provider. */
	extensionErrors(): string[] {
		const named = this.providers.filter((name) => this.input.extensions.has(name));
		return named.flatMap((name) => this.provider(name).extensionErrors);
	}

	private isLayered(name: string): boolean {
		return Object.hasOwn(this.input.json?.providers ?? {}, name) || this.input.extensions.has(name);
	}
}
