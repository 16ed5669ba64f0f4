import { describe, expect, test } from "bun:test";
import type { AssistantMessage, Context } from "../../../src/ai/index.ts";
import { clampMaxTokensToContext, estimateContextTokens } from "../../../src/ai/providers/context-estimate.ts";

const usage = (total: number) => ({
	input: total,
	output: 0,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: total,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});
const reply = (
	total: number,
	timestamp: number,
	stopReason: AssistantMessage["stopReason"] = "stop",
): AssistantMessage => ({
	role: "assistant",
	content: [{ type: "text", text: "abcd" }],
	api: "anthropic-messages",
	provider: "p",
	model: "m",
	usage: usage(total),
	stopReason,
	timestamp,
});

describe("context estimate (pi-ai's output-limit clamp)", () => {
	test("the newest usable reply's usage plus four characters a token after it", () => {
		const messages = [
			{ role: "user" as const, content: "x".repeat(400), timestamp: 1 },
			reply(1000, 2),
			{ role: "user" as const, content: "y".repeat(40), timestamp: 3 },
			reply(5000, 4, "error"),
		];
		// 1000 + ceil(40/4) + ceil(4/4) (the failed reply's text is estimated, its usage is not used)
		expect(estimateContextTokens(messages)).toBe(1011);
		// A message dated before a reply that follows it (a compaction summary) voids that reply's usage.
		expect(estimateContextTokens([{ role: "user", content: "z".repeat(8), timestamp: 10 }, reply(1000, 5)])).toBe(3);
	});

	test("the output limit shrinks when context and limit would overflow the window, never below 1", () => {
		const context: Context = {
			systemPrompt: "s".repeat(400),
			messages: [{ role: "user", content: "hi", timestamp: 1 }],
		};
		expect(clampMaxTokensToContext({ contextWindow: 200_000 }, context, 8000)).toBe(8000);
		// 10000 - 100 (prompt) - 1 (hi) - 4096 (safety)
		expect(clampMaxTokensToContext({ contextWindow: 10_000 }, context, 8000)).toBe(5803);
		expect(clampMaxTokensToContext({ contextWindow: 1000 }, context, 8000)).toBe(1);
		expect(clampMaxTokensToContext({ contextWindow: 0 }, context, 8000)).toBe(8000);
	});
});
