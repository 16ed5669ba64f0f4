/**
 * The built-in model catalogue and its lookups. The data (one JSON file per provider under catalog/, model id →
 * Model, sorted) is generated from pi-ai's published model lists by scripts/gen-models.ts; it holds only models
 * whose `api` this layer implements. Returned models are the catalogue's own objects: treat them as read-only.
 */
import { readFileSync } from "../../util/index.ts";
import type { Model, ThinkingLevel } from "../types.ts";
import { CATALOG_FILES, CATALOG_GENERATED_AT } from "./catalog.generated.ts";

type ProviderModels = Record<string, Model>;

/**
 * A provider's file is read and parsed the first time its models are asked for: the binary embeds the files, and
 * a run that uses one provider reads only that one (all 900 models are half a megabyte of JSON).
 */
const parsed = new Map<string, ProviderModels>();

function providerModels(provider: string): ProviderModels | undefined {
	const cached = parsed.get(provider);
	if (cached) return cached;
	const file = own(CATALOG_FILES, provider);
	if (file === undefined) return undefined;
	const models = JSON.parse(readFileSync(file, "utf8")) as ProviderModels;
	parsed.set(provider, models);
	return models;
}

function own<T>(record: Record<string, T>, key: string): T | undefined {
	return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** When the catalogue's data was generated (epoch milliseconds), as pi-ai's manifest records it; else undefined. */
export function getBuiltinModelDataGeneratedAt(): number | undefined {
	const time = CATALOG_GENERATED_AT === undefined ? Number.NaN : Date.parse(CATALOG_GENERATED_AT);
	return Number.isNaN(time) ? undefined : time;
}

/** Provider ids that have built-in models, sorted. No model is read to answer this. */
export function getProviders(): string[] {
	return Object.keys(CATALOG_FILES);
}

/** Built-in models of one provider (empty for an unknown one), or of all providers; sorted by provider, then id. */
export function getModels(provider?: string): Model[] {
	if (provider !== undefined) return Object.values(providerModels(provider) ?? {});
	return getProviders().flatMap((name) => Object.values(providerModels(name) ?? {}));
}

/** One built-in model, or undefined. */
export function getModel(provider: string, id: string): Model | undefined {
	const models = providerModels(provider);
	return models ? own(models, id) : undefined;
}

/** Same model: equal provider and id. False when either is missing. */
export function modelsAreEqual(a: Model | null | undefined, b: Model | null | undefined): boolean {
	return !!a && !!b && a.provider === b.provider && a.id === b.id;
}

/**
 * The reasoning levels a model accepts, "off" included when thinking can be turned off. Non-reasoning models give
 * `["off"]`. In `thinkingLevelMap`, `null` marks a level unsupported; "minimal" to "high" (and "off") are supported
 * unless marked so, while "xhigh" and "max" are supported only when the map names a value for them.
 */
export function getSupportedThinkingLevels(model: Model): ("off" | ThinkingLevel)[] {
	if (!model.reasoning) return ["off"];
	const map = model.thinkingLevelMap ?? {};
	const levels: ("off" | ThinkingLevel)[] = [];
	for (const level of ["off", "minimal", "low", "medium", "high"] as const) {
		if (map[level] !== null) levels.push(level);
	}
	for (const level of ["xhigh", "max"] as const) {
		if (typeof map[level] === "string") levels.push(level);
	}
	return levels;
}

const LEVEL_ORDER = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;

/**
 * `level` when the model supports it, else the nearest supported level above it, else the nearest below it (an
 * unknown level gives the lowest supported one).
 */
export function clampThinkingLevel(model: Model, level: "off" | ThinkingLevel): "off" | ThinkingLevel {
	const supported = getSupportedThinkingLevels(model);
	if (supported.includes(level)) return level;
	const at = LEVEL_ORDER.indexOf(level);
	if (at >= 0) {
		const above = LEVEL_ORDER.slice(at + 1).find((candidate) => supported.includes(candidate));
		if (above) return above;
		const below = LEVEL_ORDER.slice(0, at)
			.reverse()
			.find((candidate) => supported.includes(candidate));
		if (below) return below;
	}
	return supported[0] ?? "off";
}

/** Type guard: the model speaks `api`. */
export function hasApi<TApi extends string>(model: Model, api: TApi): model is Model<TApi> {
	return model.api === api;
}

/** Whether the model accepts the "xhigh" reasoning level. */
export function supportsXhigh(model: Model): boolean {
	return model.reasoning && typeof model.thinkingLevelMap?.xhigh === "string";
}

const WORD_CHAR = /[a-z0-9]/;

/**
 * The fewest letters and digits skipped by the tightest occurrence of `term`'s characters, in order, in `text`;
 * undefined when they do not all occur in order.
 */
function subsequenceGap(term: string, text: string): number | undefined {
	let best: number | undefined;
	for (let start = text.indexOf(term[0] ?? ""); start >= 0; start = text.indexOf(term[0] ?? "", start + 1)) {
		let at = start;
		let skipped = 0;
		for (let i = 1; i < term.length && at >= 0; i++) {
			const next = text.indexOf(term[i] as string, at + 1);
			if (next < 0) return best;
			for (let k = at + 1; k < next; k++) if (WORD_CHAR.test(text[k] as string)) skipped++;
			at = next;
		}
		if (best === undefined || skipped < best) best = skipped;
	}
	return best;
}

/**
 * How well one lower-case search term matches a model; lower is better, undefined = no match. A term may equal
 * the id (best) or the provider, appear in the id, anywhere in "provider/id name", or have its characters appear
 * in order there with fewer letters or digits between them than the term is long ("gpt5mini", "snt45"; worse the
 * more are skipped).
 */
function termScore(term: string, provider: string, id: string, text: string): number | undefined {
	if (id === term) return 0;
	// A provider's own name beats ids that merely start with it (Bedrock's "anthropic.claude-…" for "anthropic").
	if (provider === term) return 0.5;
	if (id.startsWith(term)) return 1;
	if (id.includes(term)) return 2;
	if (text.includes(term)) return 3;
	const gap = subsequenceGap(term, text);
	if (gap === undefined || gap >= term.length) return undefined;
	return 4 + gap / (term.length + 1);
}

/**
 * Fuzzy filter for `--list-models [search]`: the models (default: the whole catalogue) matching every
 * whitespace-separated term of `search`, case-insensitively, against "provider/id name"; best matches first, ties
 * by provider and id. An empty search returns all models in catalogue order.
 */
export function findModels(search: string, models: readonly Model[] = getModels()): Model[] {
	const terms = search.toLowerCase().split(/\s+/).filter(Boolean);
	if (terms.length === 0) return [...models];
	const scored: { model: Model; score: number }[] = [];
	for (const model of models) {
		const id = model.id.toLowerCase();
		const text = `${model.provider}/${model.id} ${model.name}`.toLowerCase();
		let score = 0;
		for (const term of terms) {
			const s = termScore(term, model.provider.toLowerCase(), id, text);
			if (s === undefined) {
				score = Number.NaN;
				break;
			}
			score += s;
		}
		if (!Number.isNaN(score)) scored.push({ model, score });
	}
	const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
	scored.sort(
		(a, b) => a.score - b.score || order(a.model.provider, b.model.provider) || order(a.model.id, b.model.id),
	);
	return scored.map((entry) => entry.model);
}
