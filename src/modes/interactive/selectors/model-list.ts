/**
 * What the `/model` selector lists and in which order: the current model first, the saved default second, then
 * the rest by provider (ties keep the registry's order); typed text filters fuzzily over
 * `provider provider/id provider id name` (the provider leads so `openai/gpt` ranks openai's models before a proxy
 * provider's `openai/...` ids), and a query that starts the word "default" puts the default model on top.
 */
import type { Model } from "../../../ai/index.ts";
import { fuzzyFilter } from "../../../tui/index.ts";

export interface ModelRef {
	provider: string;
	id: string;
}

export const sameModel = (a: ModelRef | undefined, b: ModelRef | undefined): boolean =>
	!!a && !!b && a.provider === b.provider && a.id === b.id;

export const modelKey = (m: ModelRef): string => `${m.provider}/${m.id}`;

/** Current first, default second, then by provider name (stable, so each provider keeps its catalogue order). */
export function orderModels(models: readonly Model[], current?: ModelRef, defaultModel?: ModelRef): Model[] {
	const rank = (m: Model) => (sameModel(m, current) ? 0 : sameModel(m, defaultModel) ? 1 : 2);
	return [...models].sort((a, b) => rank(a) - rank(b) || a.provider.localeCompare(b.provider));
}

/** The text `/model` search matches against. */
export function modelSearchText(m: Model, isDefault = false): string {
	const name = m.name ? ` ${m.name}` : "";
	return `${m.provider} ${m.provider}/${m.id} ${m.provider} ${m.id}${name}${isDefault ? " default" : ""}`;
}

/** The text the scoped-models search and `/model` completions match against (the id leads). */
export function modelIdSearchText(m: Pick<Model, "id" | "provider" | "name">): string {
	const name = m.name ? ` ${m.name}` : "";
	return `${m.id} ${m.provider} ${m.provider}/${m.id} ${m.provider} ${m.id}${name}`;
}

/** `models` filtered by `query` (best match first); empty query keeps them all in order. */
export function filterModels(models: readonly Model[], query: string, defaultModel?: ModelRef): Model[] {
	if (!query.trim()) return [...models];
	const isDefault = (m: Model) => sameModel(m, defaultModel);
	const found = fuzzyFilter([...models], query, (m) => modelSearchText(m, isDefault(m)));
	const normalized = query.trim().toLowerCase();
	if (!"default".startsWith(normalized)) return found;
	const defaults = models.filter(isDefault);
	return [...defaults, ...found.filter((m) => !isDefault(m))];
}
