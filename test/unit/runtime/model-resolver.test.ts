import { describe, expect, test } from "bun:test";
import type { Model } from "../../../src/ai/index.ts";
import { clampThinking, parseModelPattern, resolveModel } from "../../../src/runtime/index.ts";

const model = (provider: string, id: string, extra: Partial<Model> = {}): Model => ({
	id,
	name: id.toUpperCase(),
	api: "openai-completions",
	provider,
	baseUrl: "http://x",
	reasoning: true,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
	...extra,
});

const all = [
	model("anthropic", "claude-sonnet-4-5"),
	model("anthropic", "claude-haiku-4-5"),
	model("openai", "gpt-5"),
	model("ollama", "qwen2.5-coder:7b"),
];
const source = (available = all) => ({ getAll: () => all, getAvailable: () => available });

describe("model patterns", () => {
	const providers = new Set(["anthropic", "openai", "ollama"]);
	test("provider/id and a thinking suffix", () => {
		expect(parseModelPattern("anthropic/claude-sonnet-4-5:high", providers)).toEqual({
			provider: "anthropic",
			pattern: "claude-sonnet-4-5",
			thinking: "high",
		});
	});
	test("a colon that is part of the id is kept", () => {
		expect(parseModelPattern("qwen2.5-coder:7b", providers)).toEqual({ pattern: "qwen2.5-coder:7b" });
	});
	test("a slash after an unknown provider is part of the id (openrouter style)", () => {
		expect(parseModelPattern("meta/llama", providers)).toEqual({ pattern: "meta/llama" });
	});
});

describe("resolveModel", () => {
	test("exact id, provider/id, fuzzy id or name", () => {
		const pick = (m: string) => {
			const r = resolveModel(source(), { model: m });
			return r.ok ? `${r.model.provider}/${r.model.id}${r.thinking ? `:${r.thinking}` : ""}` : r.error;
		};
		expect(pick("gpt-5")).toBe("openai/gpt-5");
		expect(pick("anthropic/claude-haiku-4-5:low")).toBe("anthropic/claude-haiku-4-5:low");
		expect(pick("sonnet")).toBe("anthropic/claude-sonnet-4-5");
		expect(pick("QWEN2.5")).toBe("ollama/qwen2.5-coder:7b");
	});
	test("several partial matches: credentials first, then aliases over dated ids, then the highest id", () => {
		const family = [
			model("anthropic", "claude-sonnet-4"),
			model("anthropic", "claude-sonnet-4-5-20250929"),
			model("anthropic", "claude-sonnet-4-5"),
			model("bedrock", "claude-sonnet-4-6"),
		];
		const pick = (available: Model[]) => {
			const r = resolveModel({ getAll: () => family, getAvailable: () => available }, { model: "sonnet" });
			return r.ok ? `${r.model.provider}/${r.model.id}` : r.error;
		};
		expect(pick(family.slice(0, 3))).toBe("anthropic/claude-sonnet-4-5");
		expect(pick(family)).toBe("bedrock/claude-sonnet-4-6");
		expect(pick([family[1] as Model])).toBe("anthropic/claude-sonnet-4-5-20250929");
	});
	test("unknown model and unknown provider are one-line errors", () => {
		expect(resolveModel(source(), { model: "nope" })).toEqual({
			ok: false,
			error: 'Error: unknown model "nope" (see pi --list-models)',
		});
		expect(resolveModel(source(), { provider: "x" })).toMatchObject({
			ok: false,
			error: 'Error: unknown provider "x" (see pi --list-models)',
		});
	});
	test("without a pattern: the preferred default among available models, else the first available", () => {
		const r = resolveModel(source(), {});
		expect(r.ok && r.model.id).toBe("claude-sonnet-4-5");
		const onlyOllama = resolveModel(source([all[3] as Model]), {});
		expect(onlyOllama.ok && onlyOllama.model.id).toBe("qwen2.5-coder:7b");
		const none = resolveModel(source([]), {});
		expect(none.ok).toBe(false);
		expect(!none.ok && none.error).toStartWith("No API key found");
	});
	test("thinking is clamped to the model", () => {
		expect(clampThinking(model("a", "b", { reasoning: false }), "high")).toBe("off");
		expect(clampThinking(model("a", "b", { thinkingLevelMap: { xhigh: null, max: null } }), "max")).toBe("high");
		expect(clampThinking(model("a", "b"), "medium")).toBe("medium");
	});
});
