/**
 * Choosing the model for a run from `--provider`, `--model` (exact id, `provider/id`, fuzzy id or name, optional
 * `:thinking` suffix) and what has credentials. Failures are one-line messages for the user.
 */

import type { ThinkingLevel } from "../agent/index.ts";
import type { Model } from "../ai/index.ts";

export const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

/**
 * Where models come from. `getProviders` and `getModels` let a source answer without building every model (the
 * registry loads a built-in provider's models only when asked); without them the lists from `getAll` are used.
 */
export interface ModelSource {
	getAll(): Model[];
	getAvailable(): Model[];
	/** Provider ids that have models. */
	getProviders?(): string[];
	/** One provider's models. */
	getModels?(provider: string): Model[];
}

export interface ParsedModelPattern {
	provider?: string;
	pattern: string;
	thinking?: ThinkingLevel;
}

/** Splits `provider/id:level`. A colon suffix counts as a level only when it names one (ids may contain colons). */
export function parseModelPattern(text: string, knownProviders: ReadonlySet<string>): ParsedModelPattern {
	let pattern = text.trim();
	let thinking: ThinkingLevel | undefined;
	const colon = pattern.lastIndexOf(":");
	if (colon > 0) {
		const suffix = pattern.slice(colon + 1).toLowerCase();
		if ((THINKING_LEVELS as readonly string[]).includes(suffix)) {
			thinking = suffix as ThinkingLevel;
			pattern = pattern.slice(0, colon);
		}
	}
	const slash = pattern.indexOf("/");
	if (slash > 0 && knownProviders.has(pattern.slice(0, slash))) {
		return { provider: pattern.slice(0, slash), pattern: pattern.slice(slash + 1), ...(thinking ? { thinking } : {}) };
	}
	return { pattern, ...(thinking ? { thinking } : {}) };
}

/** Preferred defaults when nothing is asked for: the first provider with credentials in this order wins. */
const DEFAULT_MODELS: ReadonlyArray<[string, RegExp]> = [
	["anthropic", /^claude-(sonnet|opus)-\d/],
	["openai", /^gpt-5/],
	["google", /^gemini-\d.*pro/],
	["openrouter", /^anthropic\/claude-sonnet/],
];

export type ModelResolution = { ok: true; model: Model; thinking?: ThinkingLevel } | { ok: false; error: string };

export function resolveModel(source: ModelSource, request: { provider?: string; model?: string }): ModelResolution {
	const availableList = source.getAvailable();
	const available = new Set(availableList);
	const providers = new Set(source.getProviders?.() ?? source.getAll().map((m) => m.provider));
	if (request.provider && !providers.has(request.provider)) {
		return { ok: false, error: `Error: unknown provider "${request.provider}" (see pi --list-models)` };
	}
	if (!request.model) {
		// Available models come in the same provider order as all models.
		const pool = availableList.filter((m) => !request.provider || m.provider === request.provider);
		const model = pickDefault(pool);
		if (!model) return { ok: false, error: noModelsMessage(request.provider) };
		return { ok: true, model };
	}
	const parsed = parseModelPattern(request.model, providers);
	const provider = parsed.provider ?? request.provider;
	const candidates = provider
		? (source.getModels?.(provider) ?? source.getAll().filter((m) => m.provider === provider))
		: source.getAll();
	const model = matchModel(candidates, parsed.pattern, available);
	if (!model) {
		const where = provider ? ` for provider "${provider}"` : "";
		return { ok: false, error: `Error: unknown model "${request.model}"${where} (see pi --list-models)` };
	}
	return { ok: true, model, ...(parsed.thinking ? { thinking: parsed.thinking } : {}) };
}

/** A dated snapshot id such as `claude-sonnet-4-5-20250929`; anything else counts as an alias. */
const DATED_ID = /-\d{8}$/;

/**
 * Exact id (or `provider/id`) first, else ids or names containing the pattern. Among several, models with
 * credentials win, then (as in pi) aliases over dated snapshots, then the highest id (`-4-5` over `-4`).
 */
function matchModel(candidates: Model[], pattern: string, available: Set<Model>): Model | undefined {
	const lower = pattern.toLowerCase();
	const rank = (models: Model[]) =>
		[...models].sort(
			(a, b) =>
				Number(available.has(b)) - Number(available.has(a)) ||
				Number(DATED_ID.test(a.id)) - Number(DATED_ID.test(b.id)) ||
				b.id.localeCompare(a.id),
		)[0];
	const exact = candidates.filter(
		(m) => m.id.toLowerCase() === lower || `${m.provider}/${m.id}`.toLowerCase() === lower,
	);
	if (exact.length > 0) return rank(exact);
	const partial = candidates.filter((m) => m.id.toLowerCase().includes(lower) || m.name.toLowerCase().includes(lower));
	return rank(partial);
}

function pickDefault(pool: Model[]): Model | undefined {
	for (const [provider, pattern] of DEFAULT_MODELS) {
		const match = pool.filter((m) => m.provider === provider && pattern.test(m.id));
		if (match.length > 0) return match.sort((a, b) => b.id.localeCompare(a.id))[0];
	}
	return pool[0];
}

function noModelsMessage(provider?: string): string {
	const scope = provider ? ` for provider "${provider}"` : "";
	return `No API key found${scope}. Set a provider key (e.g. ANTHROPIC_API_KEY), pass --api-key, or add a provider to ~/.pi/agent/models.json.`;
}

/** Clamps a requested level to what the model supports ("off" for models without reasoning). */
export function clampThinking(model: Model, level: ThinkingLevel): ThinkingLevel {
	if (!model.reasoning) return "off";
	if (level !== "off" && model.thinkingLevelMap?.[level] === null) {
		const order = THINKING_LEVELS.filter((l) => l === "off" || model.thinkingLevelMap?.[l] !== null);
		const index = THINKING_LEVELS.indexOf(level);
		return [...order].reverse().find((l) => THINKING_LEVELS.indexOf(l) <= index) ?? "off";
	}
	return level;
}
