/**
 * What an OpenAI-compatible server accepts, as pi-ai 0.87.1 infers it from the provider name and base URL, with
 * the model's `compat` (models.json) overriding each flag. The detection is a table of server families: each names
 * how it is recognised and the flags that differ from a standard OpenAI endpoint.
 */
import type { Model, OpenAICompletionsCompat } from "../types.ts";

export type ThinkingFormat = NonNullable<OpenAICompletionsCompat["thinkingFormat"]>;

/** Compat flags with every default filled in. */
export interface ResolvedCompat extends OpenAICompletionsCompat {
	/** The server is api.openai.com (error messages name "OpenAI"). */
	isOpenAI: boolean;
	supportsStore: boolean;
	supportsDeveloperRole: boolean;
	supportsReasoningEffort: boolean;
	supportsUsageInStreaming: boolean;
	supportsFinishReason: boolean;
	supportsStrictMode: boolean;
	supportsLongCacheRetention: boolean;
	maxTokensField: "max_completion_tokens" | "max_tokens";
	requiresToolResultName: boolean;
	requiresAssistantAfterToolResult: boolean;
	requiresThinkingAsText: boolean;
	requiresReasoningContentOnAssistantMessages: boolean;
	thinkingFormat: ThinkingFormat;
	zaiToolStream: boolean;
	sendSessionAffinityHeaders: boolean;
}

type Family =
	| "zai"
	| "together"
	| "moonshot"
	| "openrouter"
	| "cloudflareWorkers"
	| "cloudflareGateway"
	| "nvidia"
	| "antLing"
	| "cerebras"
	| "deepseek"
	| "xai"
	| "chutes"
	| "opencode";

/** How each family is recognised: provider names, and pieces of the base URL. */
const FAMILIES: Record<Family, { providers: string[]; urls: string[]; lowerCaseUrl?: boolean }> = {
	zai: { providers: ["zai", "zai-coding-cn"], urls: ["api.z.ai", "open.bigmodel.cn"] },
	together: { providers: ["together"], urls: ["api.together.ai", "api.together.xyz"] },
	moonshot: { providers: ["moonshotai", "moonshotai-cn"], urls: ["api.moonshot."] },
	openrouter: { providers: ["openrouter"], urls: ["openrouter.ai"] },
	cloudflareWorkers: { providers: ["cloudflare-workers-ai"], urls: ["api.cloudflare.com"] },
	cloudflareGateway: { providers: ["cloudflare-ai-gateway"], urls: ["gateway.ai.cloudflare.com"] },
	nvidia: { providers: ["nvidia"], urls: ["integrate.api.nvidia.com"] },
	antLing: { providers: ["ant-ling"], urls: ["api.ant-ling.com"] },
	cerebras: { providers: ["cerebras"], urls: ["cerebras.ai"] },
	deepseek: { providers: ["deepseek"], urls: ["deepseek.com"], lowerCaseUrl: true },
	xai: { providers: ["xai"], urls: ["api.x.ai"] },
	chutes: { providers: [], urls: ["chutes.ai"] },
	opencode: { providers: ["opencode"], urls: ["opencode.ai"] },
};

/** Families that are not a standard OpenAI endpoint: no `store`, no developer role. */
const NON_STANDARD: Family[] = [
	"nvidia",
	"cerebras",
	"xai",
	"together",
	"chutes",
	"deepseek",
	"zai",
	"moonshot",
	"opencode",
	"cloudflareWorkers",
	"cloudflareGateway",
	"antLing",
];
/** Families that want `max_tokens` rather than `max_completion_tokens`. */
const MAX_TOKENS_FIELD: Family[] = [
	"chutes",
	"deepseek",
	"moonshot",
	"cloudflareGateway",
	"together",
	"nvidia",
	"antLing",
	"zai",
];
/** Families that reject `reasoning_effort`. */
const NO_REASONING_EFFORT: Family[] = ["xai", "zai", "moonshot", "together", "cloudflareGateway", "nvidia", "antLing"];
/** Families without long (24h) prompt-cache retention. */
const NO_LONG_CACHE: Family[] = ["together", "cloudflareWorkers", "cloudflareGateway", "nvidia", "antLing"];
/** The thinking dialect of a family (first match wins); others speak OpenAI's. */
const THINKING_FORMATS: [Family, ThinkingFormat][] = [
	["deepseek", "deepseek"],
	["zai", "zai"],
	["together", "together"],
	["antLing", "ant-ling"],
	["openrouter", "openrouter"],
];

function detectFamilies(model: Model): Set<Family> {
	const found = new Set<Family>();
	for (const [family, rule] of Object.entries(FAMILIES) as [Family, (typeof FAMILIES)[Family]][]) {
		const url = rule.lowerCaseUrl ? model.baseUrl.toLowerCase() : model.baseUrl;
		if (rule.providers.includes(model.provider) || rule.urls.some((piece) => url.includes(piece))) found.add(family);
	}
	return found;
}

function isOpenAIHost(url: string): boolean {
	try {
		return new URL(url).hostname.toLowerCase() === "api.openai.com";
	} catch {
		return false;
	}
}

export function resolveCompat(model: Model): ResolvedCompat {
	const families = detectFamilies(model);
	const any = (list: Family[]) => list.some((family) => families.has(family));
	const nonStandard = any(NON_STANDARD);
	const openRouter = families.has("openrouter");
	const openRouterDeveloperRole = openRouter && (model.id.startsWith("anthropic/") || model.id.startsWith("openai/"));
	const detected: ResolvedCompat = {
		isOpenAI: isOpenAIHost(model.baseUrl),
		supportsStore: !nonStandard,
		supportsDeveloperRole: openRouterDeveloperRole || (!nonStandard && !openRouter),
		supportsReasoningEffort: !any(NO_REASONING_EFFORT),
		supportsUsageInStreaming: true,
		supportsFinishReason: true,
		maxTokensField: any(MAX_TOKENS_FIELD) ? "max_tokens" : "max_completion_tokens",
		requiresToolResultName: false,
		requiresAssistantAfterToolResult: false,
		requiresThinkingAsText: false,
		requiresReasoningContentOnAssistantMessages: families.has("deepseek"),
		thinkingFormat: THINKING_FORMATS.find(([family]) => families.has(family))?.[1] ?? "openai",
		zaiToolStream: false,
		// Being OpenAI-compatible does not mean strict JSON-schema tools are understood.
		supportsStrictMode: false,
		sendSessionAffinityHeaders: openRouter,
		supportsLongCacheRetention: !any(NO_LONG_CACHE),
		...(model.provider === "openrouter" && model.id.startsWith("anthropic/")
			? { cacheControlFormat: "anthropic" as const }
			: {}),
	};
	const overrides = Object.fromEntries(
		Object.entries(model.compat ?? {}).filter(([, value]) => value !== undefined),
	) as OpenAICompletionsCompat;
	return { ...detected, ...overrides };
}
