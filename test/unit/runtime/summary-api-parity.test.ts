/**
 * The summary functions our SDK exports under pi's names, beside pi 0.87.1's own (run under Node 22 from the
 * conformance cache), each given a stand-in for the provider call (pi-coding-agent's `streamFn`, pi-agent-core's
 * `models.completeSimple`) that records the request and returns a canned reply:
 * - the request: role and rules as the system prompt, one user message of one text part, no tools, the same
 *   transcript wrapped the same way (`<conversation>`, `<previous-summary>`, `# Conversation` / `# Instructions`),
 *   the same output cap, no prompt-cache write;
 * - the result: the same text, summary (split turn, file lists) and details;
 * - pi-agent-core's pure helpers on harness entries, its constants, message builders and error classes.
 * Skips (printing why) when the cache cannot provide pi.
 */
import { describe, expect, test } from "bun:test";
import type { AgentMessage } from "../../../src/agent/index.ts";
import type { AssistantMessage, Model } from "../../../src/ai/index.ts";
import * as core from "../../../src/sdk/pi-agent-core.ts";
import * as coding from "../../../src/sdk/pi-coding-agent.ts";
import { runInPi, runnablePi } from "../../helpers/side-by-side.ts";
import { assistantMsg, toolResultMsg, usage } from "../compaction/helpers.ts";

const pi = runnablePi();
const skip = "error" in pi;
if (skip) console.log(`summary-api-parity: skipped, pi 0.87.1 unavailable: ${pi.error}`);

const model = {
	id: "mock-1",
	name: "mock",
	api: "anthropic-messages",
	provider: "mock",
	baseUrl: "http://127.0.0.1:9",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 200_000,
	maxTokens: 4000,
} as unknown as Model;

const reply: AssistantMessage = { ...assistantMsg("THE SUMMARY"), usage: usage(40, 5) };

const messages: AgentMessage[] = [
	{ role: "user", content: "please fix src/a.ts", timestamp: 1 },
	assistantMsg("looking", [
		{ id: "c1", name: "read", args: { path: "src/a.ts" } },
		{ id: "c2", name: "edit", args: { path: "src/b.ts", oldText: "a", newText: "b" } },
	]),
	toolResultMsg("c1", "x".repeat(2500)),
	{ role: "custom", customType: "note", content: "a note", display: true, timestamp: 2 },
	{ role: "compactionSummary", summary: "old summary", tokensBefore: 10, timestamp: 3 },
	assistantMsg("done"),
];

/** The abstract shape of one recorded summary request (context + options), the same for either implementation. */
function requestShape(call: { context: any; options: any }) {
	const list: any[] = call.context.messages;
	const leadingSystem = list[0]?.role === "system" ? list[0] : undefined;
	const system = call.context.systemPrompt ?? leadingSystem?.content;
	const rest = leadingSystem ? list.slice(1) : list;
	const text: string = rest[0]?.content?.[0]?.text ?? "";
	const tagged =
		/^<conversation>\n([\s\S]*?)\n<\/conversation>\n\n(<previous-summary>\n[\s\S]*?\n<\/previous-summary>\n\n)?/.exec(
			text,
		);
	const headed = /^# Conversation\n([\s\S]*?)\n\n# Instructions\n/.exec(text);
	return {
		hasSystem: typeof system === "string" && system.length > 0,
		tools: call.context.tools ?? leadingSystem?.toolsAdded,
		messages: rest.map((m) => ({ role: m.role, parts: m.content.map((p: any) => p.type) })),
		wrapping: tagged ? "conversation-tags" : headed ? "conversation-headings" : "unknown",
		transcript: tagged?.[1] ?? headed?.[1],
		previousSummary: tagged?.[2],
		maxTokens: call.options.maxTokens,
		cacheRetention: call.options.cacheRetention,
	};
}

const CODING_BODY = `async (c, { messages, model, reply, prep }) => {
	const calls = [];
	const streamFn = async (m, context, options) => {
		calls.push({ context, options: { ...options, signal: undefined } });
		return { result: async () => reply };
	};
	const text = await c.generateSummary(messages, model, 16384, "k", undefined, undefined, "focus", "PREV", undefined, streamFn);
	const withUsage = await c.generateSummaryWithUsage(messages, model, 16384, "k", undefined, undefined, undefined, undefined, undefined, streamFn);
	const preparation = { ...prep, fileOps: { read: new Set(prep.read), written: new Set(), edited: new Set(prep.edited) } };
	const compacted = await c.compact(preparation, model, "k", undefined, undefined, undefined, undefined, streamFn);
	const branch = await c.generateBranchSummary(prep.entries, { model, apiKey: "k", signal: new AbortController().signal, streamFn });
	return { text, withUsage, compacted, branch: { ...branch, summary: undefined }, calls };
}`;

const CORE_BODY = `async (c, { messages, model, reply, harnessEntries }) => {
	const calls = [];
	const models = { completeSimple: async (m, context, options) => { calls.push({ context, options: { ...options, signal: undefined, telemetryContext: undefined } }); return reply; } };
	const ctx = c.BACKGROUND_CONTEXT;
	const lists = (ops) => ({ read: [...ops.read].sort(), written: [...ops.written].sort(), edited: [...ops.edited].sort() });
	const summary = await c.generateSummary(messages, models, model, 16384, undefined, "PREV", undefined, undefined, undefined, ctx);
	const prepared = c.prepareCompaction(harnessEntries, { ...c.DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 30 });
	const prep = prepared.value;
	const compacted = await c.compact(prep, models, model, undefined, undefined, undefined, undefined, ctx);
	const branch = await c.generateBranchSummary(harnessEntries, { models, model }, ctx);
	const branchPrep = c.prepareBranchEntries(harnessEntries, 0);
	const error = new c.CompactionError("aborted", "stopped");
	const nothing = new c.NothingToCompact({ lane: "main", message: "nothing" });
	return {
		summary,
		preparation: { ...prep, fileOps: lists(prep.fileOps) },
		compacted: { ok: compacted.ok, value: { ...compacted.value, summary: compacted.value.summary.replace(/^[\\s\\S]*?(?=<read-files>|$)/, "") } },
		branch: { ok: branch.ok, readFiles: branch.value.readFiles, modifiedFiles: branch.value.modifiedFiles },
		branchPrep: { ...branchPrep, fileOps: lists(branchPrep.fileOps) },
		cuts: [1, 10, 30, 1000].map((k) => c.findCutPoint(harnessEntries, 0, harnessEntries.length, k)),
		turnStarts: harnessEntries.map((_, i) => c.findTurnStartIndex(harnessEntries, i, 0)),
		constants: [c.BRANCH_SUMMARY_PREFIX, c.BRANCH_SUMMARY_SUFFIX, c.COMPACTION_SUMMARY_PREFIX, c.COMPACTION_SUMMARY_SUFFIX],
		made: [c.createBranchSummaryMessage("s", "f", "2025-01-01T00:00:00.000Z"), c.createCompactionSummaryMessage("s", 5, 7), c.createCustomMessage("t", "c", true, { a: 1 }, 9)],
		errors: [{ name: error.name, code: error.code, message: error.message, isError: error instanceof Error }, nothing.toJSON(), { tag: nothing._tag, is: c.NothingToCompact.is(nothing) }],
		calls,
	};
}`;

function harnessEntries() {
	const out: any[] = [];
	const add = (e: object) => {
		const entry = { id: `h${out.length}`, parentId: out.at(-1)?.id ?? null, timestamp: 1000 + out.length, ...e };
		out.push(entry);
	};
	add({ type: "message", message: messages[0] });
	add({ type: "message", message: messages[1] });
	add({ type: "message", message: messages[2] });
	add({
		type: "branch_summary",
		fromId: "h0",
		summary: "b",
		details: { readFiles: ["r.md"], modifiedFiles: [] },
		fromHook: false,
	});
	add({ type: "message", message: { role: "user", content: "next", timestamp: 5 } });
	add({
		type: "message",
		message: assistantMsg("x".repeat(200), [{ id: "c9", name: "write", args: { path: "w.ts" } }]),
	});
	add({ type: "message", message: toolResultMsg("c9", "ok", "write") });
	add({ type: "message", message: assistantMsg("y".repeat(80)) });
	return out;
}

describe.skipIf(skip)("summary functions beside pi 0.87.1's", () => {
	test("pi-coding-agent: generateSummary, generateSummaryWithUsage, compact, generateBranchSummary", async () => {
		const entries = [
			{ type: "message", id: "e0", parentId: null, timestamp: "2025-01-01T00:00:00.000Z", message: messages[0] },
			{ type: "message", id: "e1", parentId: "e0", timestamp: "2025-01-01T00:00:01.000Z", message: messages[1] },
			{ type: "message", id: "e2", parentId: "e1", timestamp: "2025-01-01T00:00:02.000Z", message: messages[2] },
		];
		const prep = {
			firstKeptEntryId: "e5",
			messagesToSummarize: messages.slice(0, 3),
			turnPrefixMessages: messages.slice(3, 5),
			isSplitTurn: true,
			tokensBefore: 1234,
			previousSummary: "PREV",
			read: ["src/a.ts"],
			edited: ["src/b.ts"],
			settings: coding.DEFAULT_COMPACTION_SETTINGS,
			entries,
		};
		const theirs = await runInPi(
			"@earendil-works/pi-coding-agent/dist/core/compaction/index.js",
			{ messages, model, reply, prep },
			CODING_BODY,
		);

		const calls: { context: any; options: any }[] = [];
		const streamFn = ((_m: Model, context: any, options: any) => {
			calls.push({ context: JSON.parse(JSON.stringify(context)), options: { ...options, signal: undefined } });
			return { result: async () => reply };
		}) as never;
		const text = await coding.generateSummary(
			messages,
			model,
			16384,
			"k",
			undefined,
			undefined,
			"focus",
			"PREV",
			undefined,
			streamFn,
		);
		const withUsage = await coding.generateSummaryWithUsage(
			messages,
			model,
			16384,
			"k",
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
			streamFn,
		);
		const preparation = {
			...prep,
			fileOps: { read: new Set(prep.read), written: new Set<string>(), edited: new Set(prep.edited) },
		};
		const compacted = await coding.compact(
			preparation as never,
			model,
			"k",
			undefined,
			undefined,
			undefined,
			undefined,
			streamFn,
		);
		const branch = await coding.generateBranchSummary(entries as never, {
			model,
			apiKey: "k",
			signal: new AbortController().signal,
			streamFn,
		});

		expect(text).toBe(theirs.text);
		expect(JSON.parse(JSON.stringify(withUsage))).toEqual(theirs.withUsage);
		expect(JSON.parse(JSON.stringify(compacted))).toEqual(theirs.compacted);
		expect(JSON.parse(JSON.stringify({ ...branch, summary: undefined }))).toEqual(theirs.branch);
		expect(branch.summary).toContain("THE SUMMARY");
		// Requests: generateSummary, generateSummaryWithUsage, compact (history, then prefix; ours sends both at once), branch.
		const sortKey = (s: ReturnType<typeof requestShape>) => `${s.wrapping}|${s.previousSummary ?? ""}|${s.transcript}`;
		const mine = calls.map(requestShape).sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
		const pis = (theirs.calls as any[]).map(requestShape).sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
		expect(mine).toEqual(pis);
		for (const s of mine) {
			expect(s.hasSystem).toBe(true);
			expect(s.tools ?? []).toEqual([]);
			expect(s.messages).toEqual([{ role: "user", parts: ["text"] }]);
			expect(s.cacheRetention).toBe("none");
		}
	}, 60_000);

	test("pi-agent-core: harness helpers, summaries as results, constants, builders, errors", async () => {
		const hEntries = harnessEntries();
		const theirs = await runInPi(
			"@earendil-works/pi-agent-core/dist/index.js",
			{ messages, model, reply, harnessEntries: hEntries },
			CORE_BODY,
		);

		const calls: { context: any; options: any }[] = [];
		const models = {
			completeSimple: async (_m: Model, context: any, options: any) => {
				calls.push({ context: JSON.parse(JSON.stringify(context)), options: { ...options, signal: undefined } });
				return reply;
			},
		};
		const ctx = {};
		const lists = (ops: { read: Set<string>; written: Set<string>; edited: Set<string> }) => ({
			read: [...ops.read].sort(),
			written: [...ops.written].sort(),
			edited: [...ops.edited].sort(),
		});
		const summary = await core.generateSummary(
			messages,
			models,
			model,
			16384,
			undefined,
			"PREV",
			undefined,
			undefined,
			undefined,
			ctx,
		);
		const prepared = core.prepareCompaction(hEntries, { ...core.DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 30 });
		const prep = prepared.ok ? prepared.value! : (undefined as never);
		const compacted = await core.compact(prep, models, model, undefined, undefined, undefined, undefined, ctx);
		const branch = await core.generateBranchSummary(hEntries, { models, model }, ctx);
		const branchPrep = core.prepareBranchEntries(hEntries, 0);
		const error = new core.CompactionError("aborted", "stopped");
		const nothing = new core.NothingToCompact({ lane: "main", message: "nothing" });
		if (!compacted.ok || !branch.ok) throw new Error("summary failed");
		const ours = {
			summary,
			preparation: { ...prep, fileOps: lists(prep.fileOps) },
			compacted: {
				ok: compacted.ok,
				value: { ...compacted.value, summary: compacted.value.summary.replace(/^[\s\S]*?(?=<read-files>|$)/, "") },
			},
			branch: { ok: branch.ok, readFiles: branch.value.readFiles, modifiedFiles: branch.value.modifiedFiles },
			branchPrep: { ...branchPrep, fileOps: lists(branchPrep.fileOps) },
			cuts: [1, 10, 30, 1000].map((k) => core.findCutPoint(hEntries, 0, hEntries.length, k)),
			turnStarts: hEntries.map((_, i) => core.findTurnStartIndex(hEntries, i, 0)),
			constants: [
				core.BRANCH_SUMMARY_PREFIX,
				core.BRANCH_SUMMARY_SUFFIX,
				core.COMPACTION_SUMMARY_PREFIX,
				core.COMPACTION_SUMMARY_SUFFIX,
			],
			made: [
				core.createBranchSummaryMessage("s", "f", "2025-01-01T00:00:00.000Z"),
				core.createCompactionSummaryMessage("s", 5, 7),
				core.createCustomMessage("t", "c", true, { a: 1 }, 9),
			],
			errors: [
				{ name: error.name, code: error.code, message: error.message, isError: error instanceof Error },
				nothing.toJSON(),
				{ tag: nothing._tag, is: core.NothingToCompact.is(nothing) },
			],
		};
		const { calls: theirCalls, ...theirRest } = theirs;
		expect(JSON.parse(JSON.stringify(ours))).toEqual(theirRest);
		const mine = calls.map(requestShape);
		const pis = (theirCalls as any[]).map(requestShape);
		// pi-agent-core sends the split turn's history and prefix one after the other; ours sends them together.
		const key = (s: ReturnType<typeof requestShape>) => `${s.wrapping}|${s.transcript}`;
		expect([...mine].sort((a, b) => key(a).localeCompare(key(b)))).toEqual(
			[...pis].sort((a, b) => key(a).localeCompare(key(b))),
		);
	}, 60_000);
});
