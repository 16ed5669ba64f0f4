import { describe, expect, test } from "bun:test";
import type { Model } from "../../../src/ai/index.ts";
import { formatTokens, renderModelList } from "../../../src/cli/list-models.ts";

const model = (provider: string, id: string, extra: Partial<Model> = {}): Model => ({
	id,
	name: id,
	api: "anthropic-messages",
	provider,
	baseUrl: "http://x",
	reasoning: true,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 200_000,
	maxTokens: 64_000,
	...extra,
});

const models = [
	model("openai", "gpt-5", { input: ["text", "image"], contextWindow: 400_000, maxTokens: 128_000 }),
	model("anthropic", "claude-sonnet-4-5"),
	model("anthropic", "claude-haiku-4-5", { reasoning: false, maxTokens: 8192 }),
];

describe("--list-models", () => {
	test("a table sorted by provider then id, every column padded (the last too, as pi does)", () => {
		expect(renderModelList(models)).toBe(
			[
				"provider   model              context  max-out  thinking  images",
				"anthropic  claude-haiku-4-5   200K     8.2K     no        no    ",
				"anthropic  claude-sonnet-4-5  200K     64K      yes       no    ",
				"openai     gpt-5              400K     128K     yes       yes   ",
				"",
			].join("\n"),
		);
	});

	test("the search is fuzzy over provider and id; every piece must match", () => {
		const ids = (search: string) =>
			renderModelList(models, search)
				.trimEnd()
				.split("\n")
				.slice(1)
				.map((line) => line.split(/\s+/)[1]);
		expect(ids("sonnet45")).toEqual(["claude-sonnet-4-5"]);
		expect(ids("anthropic haiku")).toEqual(["claude-haiku-4-5"]);
		expect(ids("openai/gpt")).toEqual(["gpt-5"]);
		expect(ids("claude")).toEqual(["claude-haiku-4-5", "claude-sonnet-4-5"]);
	});

	test("nothing matching, and nothing available", () => {
		expect(renderModelList(models, "zzz")).toBe('No models matching "zzz"\n');
		expect(renderModelList([], "x")).toStartWith("No models available");
	});

	test("token counts", () => {
		expect([999, 1000, 8192, 200_000, 1_000_000, 1_048_576].map(formatTokens)).toEqual([
			"999",
			"1K",
			"8.2K",
			"200K",
			"1M",
			"1.0M",
		]);
	});
});
