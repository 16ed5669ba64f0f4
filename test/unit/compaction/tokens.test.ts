import { describe, expect, test } from "bun:test";
import type { AgentMessage } from "../../../src/agent/index.ts";
import {
	DEFAULT_COMPACTION_SETTINGS,
	estimateContextTokens,
	estimateTokens,
	getContextUsage,
	maxBranchSummaryTokens,
	maxSummaryTokens,
	shouldCompact,
} from "../../../src/compaction/index.ts";
import { assistantMsg, toolResultMsg, usage } from "./helpers.ts";

describe("estimateTokens", () => {
	test("counts text, thinking, tool calls and tool results at 4 chars per token", () => {
		expect(estimateTokens({ role: "user", content: "abcdefgh", timestamp: 1 })).toBe(2);
		expect(estimateTokens({ role: "user", content: "abc", timestamp: 1 })).toBe(1);
		const a = assistantMsg("12345678", [{ id: "c", name: "read", args: { path: "a" } }]);
		a.content.push({ type: "thinking", thinking: "1234" });
		// 8 text + 4 thinking + "read" (4) + '{"path":"a"}' (12) = 28 chars
		expect(estimateTokens(a)).toBe(7);
		expect(estimateTokens(toolResultMsg("c", "x".repeat(40)))).toBe(10);
	});

	test("an image counts about 1200 tokens", () => {
		const m: AgentMessage = {
			role: "user",
			content: [
				{ type: "text", text: "abcd" },
				{ type: "image", data: "AAAA", mimeType: "image/png" },
			],
			timestamp: 1,
		};
		expect(estimateTokens(m)).toBe(1201);
	});

	test("coding-agent roles", () => {
		const bash: AgentMessage = {
			role: "bashExecution",
			command: "ls",
			output: "a\nb\n",
			exitCode: 0,
			cancelled: false,
			truncated: false,
			timestamp: 1,
		};
		expect(estimateTokens(bash)).toBe(2);
		expect(estimateTokens({ role: "compactionSummary", summary: "x".repeat(80), tokensBefore: 5, timestamp: 1 })).toBe(
			20,
		);
		expect(estimateTokens({ role: "branchSummary", summary: "x".repeat(8), fromId: null, timestamp: 1 })).toBe(2);
		expect(
			estimateTokens({ role: "custom", customType: "t", content: "x".repeat(12), display: true, timestamp: 1 }),
		).toBe(3);
	});
});

describe("estimateContextTokens", () => {
	test("uses the last assistant usage plus the messages after it", () => {
		const first = assistantMsg("a");
		first.usage = usage(100, 10);
		const second = assistantMsg("b");
		second.usage = { ...usage(1000, 50), cacheRead: 200, cacheWrite: 5, totalTokens: 1255 };
		const messages: AgentMessage[] = [
			{ role: "user", content: "x".repeat(400), timestamp: 1 },
			first,
			second,
			toolResultMsg("c", "x".repeat(40)),
			{ role: "user", content: "x".repeat(8), timestamp: 1 },
		];
		const estimate = estimateContextTokens(messages);
		expect(estimate.usageTokens).toBe(1255);
		expect(estimate.trailingTokens).toBe(12);
		expect(estimate.tokens).toBe(1267);
		expect(estimate.lastUsageIndex).toBe(2);
	});

	test("skips aborted responses and estimates everything without usage", () => {
		const aborted = assistantMsg("abcd");
		aborted.usage = usage(999, 1);
		aborted.stopReason = "aborted";
		const messages: AgentMessage[] = [{ role: "user", content: "x".repeat(40), timestamp: 1 }, aborted];
		expect(estimateContextTokens(messages)).toEqual({
			tokens: 11,
			usageTokens: 0,
			trailingTokens: 11,
			lastUsageIndex: null,
		});
	});

	test("getContextUsage reports the percentage of the window", () => {
		const a = assistantMsg("a");
		a.usage = usage(50_000, 0);
		expect(getContextUsage([a], 200_000)).toEqual({ tokens: 50_000, contextWindow: 200_000, percent: 25 });
		expect(getContextUsage([a], 0).percent).toBe(0);
	});
});

describe("shouldCompact", () => {
	test("triggers above contextWindow - reserveTokens", () => {
		const s = DEFAULT_COMPACTION_SETTINGS;
		expect(s).toEqual({ enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 });
		expect(shouldCompact(200_000 - 16384, 200_000, s)).toBe(false);
		expect(shouldCompact(200_000 - 16383, 200_000, s)).toBe(true);
		expect(shouldCompact(199_000, 200_000, { ...s, enabled: false })).toBe(false);
	});

	test("summary budgets: 80 % of the reserve (50 % for a turn prefix), capped by the model's maxTokens", () => {
		expect(maxSummaryTokens(16384)).toBe(13107);
		expect(maxSummaryTokens(16384, 0, true)).toBe(8192);
		expect(maxSummaryTokens(16384, 8192)).toBe(8192);
		expect(maxSummaryTokens(16384, 4096, true)).toBe(4096);
		expect(maxSummaryTokens(1000, 8192)).toBe(800);
		expect(maxBranchSummaryTokens()).toBe(4096);
		expect(maxBranchSummaryTokens(2048)).toBe(2048);
	});
});
