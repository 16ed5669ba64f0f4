import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureRunnablePi } from "../../../scripts/conformance-cache.ts";
import { getApiProvider } from "../../../src/ai/index.ts";
import {
	findModels,
	getModel,
	getModels,
	getProviders,
	getSupportedThinkingLevels,
	modelsAreEqual,
	supportsXhigh,
} from "../../../src/ai/models/index.ts";
import type { Model } from "../../../src/ai/types.ts";

const CATALOG = join(import.meta.dir, "../../../src/ai/models/catalog");

describe("catalogue read one provider at a time", () => {
	test("one file per provider, listed in catalog.generated.ts in sorted order, each read as it is written", () => {
		const files = readdirSync(CATALOG)
			.filter((name) => name.endsWith(".json"))
			.map((name) => name.slice(0, -5))
			.sort();
		expect(getProviders()).toEqual(files);
		const all: Model[] = [];
		for (const provider of files) {
			const text = readFileSync(join(CATALOG, `${provider}.json`), "utf8");
			expect(text.endsWith("}\n")).toBe(true);
			const models = Object.values(JSON.parse(text) as Record<string, Model>);
			expect(getModels(provider)).toEqual(models);
			expect(models.every((m) => m.provider === provider)).toBe(true);
			all.push(...models);
		}
		expect(getModels()).toEqual(all);
		expect(getModels("no-such-provider")).toEqual([]);
		expect(getModel("no-such-provider", "x")).toBeUndefined();
		expect(getModel("constructor", "x")).toBeUndefined();
	});
});

/** Every `KnownApi` of pi-ai 0.87.1: the catalogue holds the models of each. */
const APIS = [
	"anthropic-messages",
	"openai-completions",
	"openai-responses",
	"google-generative-ai",
	"mistral-conversations",
	"azure-openai-responses",
	"openai-codex-responses",
	"bedrock-converse-stream",
	"google-vertex",
	"pi-messages",
];
const MODEL_KEYS = new Set([
	"id",
	"name",
	"api",
	"provider",
	"baseUrl",
	"reasoning",
	"thinkingLevelMap",
	"input",
	"cost",
	"contextWindow",
	"maxTokens",
	"headers",
	"compat",
]);
const LEVELS = new Set(["off", "minimal", "low", "medium", "high", "xhigh", "max"]);
const COMPAT_KEYS = new Set([
	"supportsStore",
	"supportsDeveloperRole",
	"supportsReasoningEffort",
	"supportsUsageInStreaming",
	"maxTokensField",
	"requiresToolResultName",
	"requiresAssistantAfterToolResult",
	"requiresThinkingAsText",
	"requiresReasoningContentOnAssistantMessages",
	"thinkingFormat",
	"openRouterRouting",
	"vercelGatewayRouting",
	"zaiToolStream",
	"supportsStrictMode",
	"cacheControlFormat",
	"sendSessionAffinityHeaders",
	"supportsLongCacheRetention",
	"reasoningEffortMap",
	"sendSessionIdHeader",
	"supportsEagerToolInputStreaming",
	"supportsFinishReason",
	"supportsMaxOutputTokens",
	"supportsCacheControlOnTools",
	"supportsTemperature",
	"allowEmptySignature",
	"forceAdaptiveThinking",
	"supportsOpenAIGrammarTools",
	"supportsMidConvoSystemMessages",
	"supportsMidConvoToolAdditions",
	"supportsMidConvoToolChanges",
	"supportsMidConvoEffort",
	"supportsStrictTools",
	"supportsAdditionalTools",
	"supportsToolSearch",
	"supportsExplicitPromptCacheMode",
	"sessionAffinityFormat",
	"allowedFallbackModels",
]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === "object" && value !== null && !Array.isArray(value);

const synthetic = (overrides: Partial<Model>): Model => ({
	id: "m",
	name: "M",
	api: "openai-completions",
	provider: "p",
	baseUrl: "https://example.test/v1",
	reasoning: true,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
	...overrides,
});

describe("catalogue contents", () => {
	test("has the main providers", () => {
		const providers = getProviders();
		for (const p of ["anthropic", "openai", "google", "groq", "openrouter", "xai", "deepseek"]) {
			expect(providers).toContain(p);
			expect(getModels(p).length).toBeGreaterThan(0);
		}
	});

	test("providers and ids are sorted and unique", () => {
		const providers = getProviders();
		expect(providers).toEqual([...new Set(providers)].sort());
		for (const p of providers) {
			const ids = getModels(p).map((m) => m.id);
			expect(ids).toEqual([...new Set(ids)].sort());
		}
	});

	test("every catalogued api has a registered provider, except those still being written", () => {
		const apis = new Set(getModels().map((m) => m.api));
		expect([...apis].sort()).toEqual([...APIS].sort());
		const missing = [...apis].filter((api) => !getApiProvider(api));
		expect(missing).toEqual([]);
	});

	test("every model has our Model fields with the right types", () => {
		const all = getModels();
		expect(all.length).toBeGreaterThan(100);
		const problems: string[] = [];
		const check = (ok: boolean, model: Model, what: string) => {
			if (!ok) problems.push(`${model.provider}/${model.id}: ${what}`);
		};
		for (const m of all) {
			for (const key of Object.keys(m)) check(MODEL_KEYS.has(key), m, `unknown field ${key}`);
			check(typeof m.id === "string" && m.id !== "", m, "id");
			check(getModel(m.provider, m.id) === m, m, "filed under its provider and id");
			check(typeof m.name === "string" && m.name !== "", m, "name");
			check(APIS.includes(m.api), m, `api ${m.api}`);
			// Azure's endpoint comes from the environment (AZURE_OPENAI_BASE_URL / AZURE_OPENAI_RESOURCE_NAME).
			const noBaseUrl = m.api === "azure-openai-responses" && m.baseUrl === "";
			check(typeof m.baseUrl === "string" && (m.baseUrl.startsWith("https://") || noBaseUrl), m, "baseUrl");
			check(typeof m.reasoning === "boolean", m, "reasoning");
			check(Array.isArray(m.input) && m.input.includes("text"), m, "input has text");
			check(
				m.input.every((kind) => kind === "text" || kind === "image"),
				m,
				"input kinds",
			);
			check(isRecord(m.cost) && Object.keys(m.cost).length === 4, m, "cost keys");
			for (const key of ["input", "output", "cacheRead", "cacheWrite"] as const) {
				const n = m.cost[key];
				check(typeof n === "number" && Number.isFinite(n) && n >= 0, m, `cost.${key}`);
			}
			check(Number.isInteger(m.contextWindow) && m.contextWindow > 0, m, "contextWindow");
			check(Number.isInteger(m.maxTokens) && m.maxTokens > 0, m, "maxTokens");
			if (m.thinkingLevelMap !== undefined) {
				check(isRecord(m.thinkingLevelMap), m, "thinkingLevelMap");
				for (const [level, value] of Object.entries(m.thinkingLevelMap)) {
					check(LEVELS.has(level), m, `thinking level ${level}`);
					check(value === null || typeof value === "string", m, `thinking value ${level}`);
				}
			}
			if (m.headers !== undefined) {
				check(isRecord(m.headers), m, "headers");
				for (const value of Object.values(m.headers)) check(typeof value === "string", m, "header value");
			}
			if (m.compat !== undefined) {
				check(isRecord(m.compat) && Object.keys(m.compat).length > 0, m, "compat");
				for (const key of Object.keys(m.compat)) check(COMPAT_KEYS.has(key), m, `compat.${key}`);
			}
		}
		expect(problems).toEqual([]);
	});
});

describe("lookups", () => {
	test("getModel finds known models", () => {
		expect(getModel("anthropic", "claude-sonnet-4-5")).toMatchObject({
			id: "claude-sonnet-4-5",
			provider: "anthropic",
			api: "anthropic-messages",
			baseUrl: "https://api.anthropic.com",
		});
		expect(getModel("openai", "gpt-5")).toMatchObject({ api: "openai-responses", reasoning: true });
		expect(getModel("google", "gemini-2.5-pro")?.api).toBe("google-generative-ai");
		expect(getModel("groq", "llama-3.3-70b-versatile")).toMatchObject({ api: "openai-completions", reasoning: false });
		expect(getModel("openrouter", "openai/gpt-5")?.baseUrl).toBe("https://openrouter.ai/api/v1");
		expect(getModel("xai", "grok-4.3")?.api).toBe("openai-responses");
		expect(getModel("deepseek", "deepseek-v4-pro")?.api).toBe("openai-completions");
	});

	test("unknown provider or id gives undefined", () => {
		expect(getModel("anthropic", "no-such-model")).toBeUndefined();
		expect(getModel("no-such-provider", "gpt-5")).toBeUndefined();
		expect(getModel("openai", "claude-sonnet-4-5")).toBeUndefined();
		// inherited object keys are not catalogue entries
		expect(getModel("constructor", "name")).toBeUndefined();
		expect(getModel("__proto__", "toString")).toBeUndefined();
		expect(getModel("anthropic", "toString")).toBeUndefined();
		expect(getModels("toString")).toEqual([]);
	});

	test("getModels filters by provider; without one it lists them all", () => {
		const anthropic = getModels("anthropic");
		expect(anthropic.length).toBeGreaterThan(0);
		expect(anthropic.every((m) => m.provider === "anthropic")).toBe(true);
		expect(getModels("no-such-provider")).toEqual([]);
		const total = getProviders().reduce((n, p) => n + getModels(p).length, 0);
		expect(getModels()).toHaveLength(total);
	});

	test("modelsAreEqual compares provider and id", () => {
		const a = getModel("openai", "gpt-5");
		expect(modelsAreEqual(a, getModel("openai", "gpt-5"))).toBe(true);
		expect(modelsAreEqual(a, { ...synthetic({ id: "gpt-5", provider: "openai" }) })).toBe(true);
		expect(modelsAreEqual(a, getModel("openrouter", "openai/gpt-5"))).toBe(false);
		expect(modelsAreEqual(a, synthetic({ id: "gpt-5", provider: "azure" }))).toBe(false);
		expect(modelsAreEqual(a, undefined)).toBe(false);
		expect(modelsAreEqual(null, null)).toBe(false);
	});
});

describe("findModels", () => {
	const keys = (models: Model[]) => models.map((m) => `${m.provider}/${m.id}`);

	test("an exact id ranks first", () => {
		expect(keys(findModels("claude-sonnet-4-5"))[0]).toBe("anthropic/claude-sonnet-4-5");
		// Exact ids tie across providers (Azure and gateways serve gpt-5 too): ties go by provider.
		const exact = findModels("GPT-5").filter((m) => m.id === "gpt-5");
		expect(findModels("GPT-5").slice(0, exact.length)).toEqual(exact);
		expect(keys(exact)).toContain("openai/gpt-5");
	});

	test("every term must match, case-insensitively", () => {
		const found = findModels("OpenRouter opus");
		expect(found.length).toBeGreaterThan(0);
		for (const m of found) {
			expect(m.provider).toBe("openrouter");
			expect(`${m.id} ${m.name}`.toLowerCase()).toContain("opus");
		}
	});

	test("a provider name lists that provider's models first", () => {
		const found = findModels("anthropic");
		const own = getModels("anthropic").length;
		expect(found.slice(0, own).every((m) => m.provider === "anthropic")).toBe(true);
	});

	test("letters in order match fuzzily, closer matches first", () => {
		const found = findModels("gpt5mini");
		expect(found.map((m) => m.id)).toContain("gpt-5-mini");
		expect(findModels("snt45", [synthetic({ id: "claude-sonnet-4-5" })])).toHaveLength(1);
		const ranked = findModels("abc", [synthetic({ id: "a-x-b-x-c" }), synthetic({ id: "a-b-c" })]);
		expect(ranked.map((m) => m.id)).toEqual(["a-b-c", "a-x-b-x-c"]);
	});

	test("no match gives an empty list; an empty search gives everything", () => {
		expect(findModels("zzqqxxjj")).toEqual([]);
		expect(findModels("   ")).toHaveLength(getModels().length);
		const subset = getModels("groq");
		expect(findModels("", subset)).toEqual(subset);
		expect(findModels("llama", subset).every((m) => m.provider === "groq")).toBe(true);
	});
});

describe("reasoning levels", () => {
	test("non-reasoning models only have off", () => {
		const m = synthetic({ reasoning: false, thinkingLevelMap: { xhigh: "xhigh" } });
		expect(getSupportedThinkingLevels(m)).toEqual(["off"]);
		expect(supportsXhigh(m)).toBe(false);
	});

	test("null marks a level unsupported; xhigh and max need a value", () => {
		expect(getSupportedThinkingLevels(synthetic({}))).toEqual(["off", "minimal", "low", "medium", "high"]);
		const m = synthetic({ thinkingLevelMap: { off: null, minimal: null, xhigh: "xhigh", max: null } });
		expect(getSupportedThinkingLevels(m)).toEqual(["low", "medium", "high", "xhigh"]);
		expect(supportsXhigh(m)).toBe(true);
		expect(supportsXhigh(synthetic({ thinkingLevelMap: { xhigh: null } }))).toBe(false);
	});

	test("catalogue data: gpt-5 has no xhigh, claude-opus-4-7 has xhigh and max", () => {
		const gpt5 = getModel("openai", "gpt-5");
		const opus = getModel("anthropic", "claude-opus-4-7");
		expect(gpt5 && supportsXhigh(gpt5)).toBe(false);
		expect(opus && supportsXhigh(opus)).toBe(true);
		expect(opus && getSupportedThinkingLevels(opus)).toContain("max");
	});
});

describe("pi 0.87.1's providers and default models", () => {
	const pi = ensureRunnablePi();
	if ("error" in pi) {
		test.skip(`skipped: ${pi.error}`, () => {});
		return;
	}
	test("every KnownProvider is catalogued, with the default model pi picks for it", () => {
		const types = readFileSync(join(pi.modules, "@earendil-works/pi-ai/dist/types.d.ts"), "utf8");
		const known = [...(/export type KnownProvider = ([^;]+);/.exec(types)?.[1] ?? "").matchAll(/"([^"]+)"/g)].map(
			(m) => m[1] as string,
		);
		expect(known.length).toBeGreaterThan(30);
		expect(known.filter((provider) => !getProviders().includes(provider))).toEqual([]);
		const resolver = readFileSync(
			join(pi.modules, "@earendil-works/pi-coding-agent/dist/core/model-resolver.js"),
			"utf8",
		);
		const table = /defaultModelPerProvider = \{([^}]+)\}/.exec(resolver)?.[1] ?? "";
		const defaults = [...table.matchAll(/"?([\w.-]+)"?: "([^"]+)"/g)].map((m): [string, string] => [
			m[1] as string,
			m[2] as string,
		]);
		expect(defaults.length).toBe(known.length);
		expect(defaults.filter(([provider, id]) => !getModel(provider, id))).toEqual([]);
	});
});
