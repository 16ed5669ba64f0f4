/**
 * pi 0.87.1's SDK model lookups: `resolveCliModel` (what `--provider`/`--model`/`--thinking` select, over every
 * known model, with pi's warnings and errors) and `resolveModelScopeWithDiagnostics` (`--models` patterns,
 * globs included, over the models that can be used now). A model reference is `provider/id`, an exact id, or a
 * part of an id or name (aliases before dated snapshots, then the highest id), optionally ending in `:<thinking>`.
 */
import type { ThinkingLevel } from "../agent/index.ts";
import type { Model } from "../ai/index.ts";
import { matchGlob } from "../util/index.ts";
import { THINKING_LEVELS } from "./model-resolver.ts";
import type { ModelRuntime } from "./model-runtime.ts";

/** The model a provider falls back to for an unknown id given with `--provider` (pi 0.87.1's table). */
const DEFAULT_MODEL_PER_PROVIDER: Record<string, string> = {
	"amazon-bedrock": "us.anthropic.claude-opus-4-6-v1",
	"ant-ling": "Ring-2.6-1T",
	anthropic: "claude-opus-4-8",
	openai: "gpt-5.5",
	"azure-openai-responses": "gpt-5.4",
	"openai-codex": "gpt-5.5",
	radius: "balanced",
	nvidia: "nvidia/nemotron-3-super-120b-a12b",
	deepseek: "deepseek-v4-pro",
	google: "gemini-3.1-pro-preview",
	"google-vertex": "gemini-3.1-pro-preview",
	"github-copilot": "gpt-5.4",
	openrouter: "moonshotai/kimi-k2.6",
	"vercel-ai-gateway": "zai/glm-5.1",
	xai: "grok-4.7",
	groq: "openai/gpt-oss-120b",
	cerebras: "gpt-oss-120b",
	zai: "glm-5.3",
	"zai-coding-cn": "glm-5.3",
	mistral: "devstral-medium-latest",
	minimax: "MiniMax-M2.7",
	"minimax-cn": "MiniMax-M2.7",
	moonshotai: "kimi-k2.6",
	"moonshotai-cn": "kimi-k2.6",
	huggingface: "moonshotai/Kimi-K2.6",
	fireworks: "accounts/fireworks/models/kimi-k2p6",
	together: "moonshotai/Kimi-K2.6",
	baseten: "zai-org/GLM-5.2",
	opencode: "kimi-k2.6",
	"opencode-go": "kimi-k2.6",
	"kimi-coding": "kimi-for-coding",
	meta: "muse-spark-1.3",
	"cloudflare-workers-ai": "@cf/moonshotai/kimi-k2.6",
	"cloudflare-ai-gateway": "workers-ai/@cf/moonshotai/kimi-k2.6",
	"qwen-token-plan": "qwen3.7-max",
	"qwen-token-plan-cn": "qwen3.7-max",
	"qwen-token-plan-individual": "qwen3.8-max",
	xiaomi: "mimo-v2.5-pro",
	"xiaomi-token-plan-cn": "mimo-v2.5-pro",
	"xiaomi-token-plan-ams": "mimo-v2.5-pro",
	"xiaomi-token-plan-sgp": "mimo-v2.5-pro",
};

const isThinkingLevel = (value: string): value is ThinkingLevel =>
	(THINKING_LEVELS as readonly string[]).includes(value);
const same = (a: Model, b: Model) => a.id === b.id && a.provider === b.provider;
const isAlias = (id: string) => id.endsWith("-latest") || !/-\d{8}$/.test(id);

export interface ScopedModel {
	model: Model;
	thinkingLevel?: ThinkingLevel;
}

/** `provider/id` or a bare id naming exactly one model; undefined when none or ambiguous. */
export function findExactModelReferenceMatch(reference: string, models: readonly Model[]): Model | undefined {
	const text = reference.trim();
	if (!text) return undefined;
	const lower = text.toLowerCase();
	const canonical = models.filter((m) => `${m.provider}/${m.id}`.toLowerCase() === lower);
	if (canonical.length > 0) return canonical.length === 1 ? canonical[0] : undefined;
	const slash = text.indexOf("/");
	if (slash !== -1) {
		const provider = text.slice(0, slash).trim().toLowerCase();
		const id = text
			.slice(slash + 1)
			.trim()
			.toLowerCase();
		if (provider && id) {
			const matches = models.filter((m) => m.provider.toLowerCase() === provider && m.id.toLowerCase() === id);
			if (matches.length > 0) return matches.length === 1 ? matches[0] : undefined;
		}
	}
	const byId = models.filter((m) => m.id.toLowerCase() === lower);
	return byId.length === 1 ? byId[0] : undefined;
}

function matchModel(pattern: string, models: readonly Model[]): Model | undefined {
	const exact = findExactModelReferenceMatch(pattern, models);
	if (exact) return exact;
	const lower = pattern.toLowerCase();
	const matches = models.filter((m) => m.id.toLowerCase().includes(lower) || m.name?.toLowerCase().includes(lower));
	if (matches.length === 0) return undefined;
	const aliases = matches.filter((m) => isAlias(m.id));
	const pool = aliases.length > 0 ? aliases : matches;
	return [...pool].sort((a, b) => b.id.localeCompare(a.id))[0];
}

interface ParsedReference {
	model: Model | undefined;
	thinkingLevel?: ThinkingLevel;
	warning: string | undefined;
}

/** A reference with an optional `:level` suffix (ids may contain colons: the whole text is tried first). */
function parseReference(pattern: string, models: readonly Model[], allowInvalidLevel = true): ParsedReference {
	const model = matchModel(pattern, models);
	if (model) return { model, thinkingLevel: undefined, warning: undefined };
	const colon = pattern.lastIndexOf(":");
	if (colon === -1) return { model: undefined, thinkingLevel: undefined, warning: undefined };
	const prefix = pattern.slice(0, colon);
	const suffix = pattern.slice(colon + 1);
	if (isThinkingLevel(suffix)) {
		const inner = parseReference(prefix, models, allowInvalidLevel);
		return inner.model ? { ...inner, thinkingLevel: inner.warning ? undefined : suffix } : inner;
	}
	if (!allowInvalidLevel) return { model: undefined, thinkingLevel: undefined, warning: undefined };
	const inner = parseReference(prefix, models, allowInvalidLevel);
	if (!inner.model) return inner;
	return {
		model: inner.model,
		thinkingLevel: undefined,
		warning: `Invalid thinking level "${suffix}" in pattern "${pattern}". Using default instead.`,
	};
}

export interface ModelScopeDiagnostic {
	type: "warning";
	code: "no-match" | "invalid-thinking-level";
	message: string;
	pattern: string;
}

export interface ResolveModelScopeResult {
	scopedModels: ScopedModel[];
	diagnostics: ModelScopeDiagnostic[];
}

/** `--models` patterns over `models`, in order, without duplicates. */
export function resolveModelScopeFromModels(patterns: string[], models: readonly Model[]): ResolveModelScopeResult {
	const scopedModels: ScopedModel[] = [];
	const diagnostics: ModelScopeDiagnostic[] = [];
	const add = (model: Model, thinkingLevel: ThinkingLevel | undefined) => {
		if (!scopedModels.some((s) => same(s.model, model))) scopedModels.push({ model, thinkingLevel } as ScopedModel);
	};
	const noMatch = (pattern: string) =>
		diagnostics.push({ type: "warning", code: "no-match", message: `No models match pattern "${pattern}"`, pattern });
	for (const pattern of patterns) {
		if (/[*?[]/.test(pattern)) {
			const colon = pattern.lastIndexOf(":");
			const suffix = colon === -1 ? "" : pattern.slice(colon + 1);
			const level = isThinkingLevel(suffix) ? suffix : undefined;
			const glob = level ? pattern.slice(0, colon) : pattern;
			const exact = findExactModelReferenceMatch(glob, models);
			if (exact) {
				add(exact, level);
				continue;
			}
			const lowerGlob = glob.toLowerCase();
			const matching = models.filter(
				(m) => matchGlob(lowerGlob, `${m.provider}/${m.id}`.toLowerCase()) || matchGlob(lowerGlob, m.id.toLowerCase()),
			);
			if (matching.length === 0) noMatch(pattern);
			for (const model of matching) add(model, level);
			continue;
		}
		const { model, thinkingLevel, warning } = parseReference(pattern, models);
		if (warning) diagnostics.push({ type: "warning", code: "invalid-thinking-level", message: warning, pattern });
		if (!model) noMatch(pattern);
		else add(model, thinkingLevel);
	}
	return { scopedModels, diagnostics };
}

/** `resolveModelScopeFromModels` over the models that can be used now. */
export async function resolveModelScopeWithDiagnostics(
	patterns: string[],
	modelRuntime: ModelRuntime,
): Promise<ResolveModelScopeResult> {
	return resolveModelScopeFromModels(patterns, await modelRuntime.getAvailable());
}

export interface ResolveCliModelResult {
	model: Model | undefined;
	thinkingLevel?: ThinkingLevel;
	warning: string | undefined;
	error: string | undefined;
}

const found = (model: Model): ResolveCliModelResult => ({
	model,
	thinkingLevel: undefined,
	warning: undefined,
	error: undefined,
});

/** The model a provider starts with (after `/login`): its preferred default when known, else its first model. */
export function providerDefaultModel(provider: string, models: readonly Model[]): Model | undefined {
	const own = models.filter((m) => m.provider === provider);
	const preferred = DEFAULT_MODEL_PER_PROVIDER[provider];
	return (preferred && own.find((m) => m.id === preferred)) || own[0];
}

/** A model that does not exist in the catalogue: the provider's default model under the requested id. */
function fallbackModel(provider: string, id: string, models: readonly Model[]): Model | undefined {
	const own = models.filter((m) => m.provider === provider);
	if (own.length === 0) return undefined;
	const preferred = DEFAULT_MODEL_PER_PROVIDER[provider];
	const base = (preferred && own.find((m) => m.id === preferred)) || (own[0] as Model);
	return { ...base, id, name: id };
}

/**
 * `--provider` / `--model` / `--thinking` → the model, over every known model (a key may come with --api-key).
 * `provider/` prefixes name a provider when one exists by that name; a bare id found under several providers
 * needs the provider unless exactly one of them has credentials; an unknown id under a known provider becomes
 * a custom model id (with a warning).
 */
export function resolveCliModel(options: {
	cliProvider?: string;
	cliModel?: string;
	cliThinking?: ThinkingLevel;
	modelRuntime: ModelRuntime;
}): ResolveCliModelResult {
	const { cliProvider, cliModel, cliThinking, modelRuntime } = options;
	if (!cliModel) return { model: undefined, warning: undefined, error: undefined };
	const models = [...modelRuntime.getModels()];
	if (models.length === 0) {
		return {
			model: undefined,
			warning: undefined,
			error: "No models available. Check your installation or add models to models.json.",
		};
	}
	const providers = new Map(models.map((m) => [m.provider.toLowerCase(), m.provider]));
	let provider = cliProvider ? providers.get(cliProvider.toLowerCase()) : undefined;
	if (cliProvider && !provider) {
		return {
			model: undefined,
			warning: undefined,
			error: `Unknown provider "${cliProvider}". Use --list-models to see available providers/models.`,
		};
	}
	let pattern = cliModel;
	let inferred = false;
	if (!provider) {
		const slash = cliModel.indexOf("/");
		const named = slash === -1 ? undefined : providers.get(cliModel.slice(0, slash).toLowerCase());
		if (named) {
			provider = named;
			pattern = cliModel.slice(slash + 1);
			inferred = true;
		}
	}
	const lower = cliModel.toLowerCase();
	const isExact = (m: Model) => m.id.toLowerCase() === lower || `${m.provider}/${m.id}`.toLowerCase() === lower;
	if (!provider) {
		const exact = models.filter(isExact);
		if (exact.length === 1) return found(exact[0] as Model);
		if (exact.length > 1) {
			const withAuth = exact.filter((m) => modelRuntime.hasConfiguredAuth(m.provider));
			if (withAuth.length === 1) return found(withAuth[0] as Model);
			const list = exact
				.map((m) => `${m.provider}/${m.id}`)
				.sort((a, b) => a.localeCompare(b))
				.join(", ");
			const hint =
				withAuth.length === 0
					? "No matching provider is authenticated."
					: "More than one matching provider is authenticated.";
			return {
				model: undefined,
				warning: undefined,
				thinkingLevel: undefined,
				error: `Model "${cliModel}" is ambiguous across providers: ${list}. ${hint} Use --provider or provider/model.`,
			};
		}
	}
	if (cliProvider && provider && cliModel.toLowerCase().startsWith(`${provider}/`.toLowerCase())) {
		pattern = cliModel.slice(provider.length + 1);
	}
	const candidates = provider ? models.filter((m) => m.provider === provider) : models;
	const parsed = parseReference(pattern, candidates, false);
	if (parsed.model) {
		if (inferred && !modelRuntime.hasConfiguredAuth(parsed.model.provider)) {
			// "provider/id" where the provider has no key, but a model whose literal id is the whole text does.
			const chosen = parsed.model;
			const raw = models.filter((m) => m.id.toLowerCase() === lower && !same(m, chosen));
			const withAuth = raw.filter((m) => modelRuntime.hasConfiguredAuth(m.provider));
			if (withAuth.length === 1) return found(withAuth[0] as Model);
		}
		return {
			model: parsed.model,
			thinkingLevel: parsed.thinkingLevel,
			warning: parsed.warning,
			error: undefined,
		} as ResolveCliModelResult;
	}
	if (inferred) {
		const exact = models.find(isExact);
		if (exact) return found(exact);
		const whole = parseReference(cliModel, models, false);
		if (whole.model) {
			return {
				model: whole.model,
				thinkingLevel: whole.thinkingLevel,
				warning: whole.warning,
				error: undefined,
			} as ResolveCliModelResult;
		}
	}
	if (provider) {
		let id = pattern;
		let level: ThinkingLevel | undefined;
		const colon = pattern.lastIndexOf(":");
		if (!cliThinking && colon !== -1 && isThinkingLevel(pattern.slice(colon + 1))) {
			level = pattern.slice(colon + 1) as ThinkingLevel;
			id = pattern.slice(0, colon);
		}
		const custom = fallbackModel(provider, id, models);
		if (custom) {
			const requested = cliThinking ?? level;
			const model = requested && requested !== "off" ? { ...custom, reasoning: true } : custom;
			const note = `Model "${id}" not found for provider "${provider}". Using custom model id.`;
			return {
				model,
				thinkingLevel: level,
				warning: parsed.warning ? `${parsed.warning} ${note}` : note,
				error: undefined,
			} as ResolveCliModelResult;
		}
	}
	const display = provider ? `${provider}/${pattern}` : cliModel;
	return {
		model: undefined,
		thinkingLevel: undefined,
		warning: parsed.warning,
		error: `Model "${display}" not found. Use --list-models to see available models.`,
	};
}
