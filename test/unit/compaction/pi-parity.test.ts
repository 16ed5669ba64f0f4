/**
 * The compaction functions our SDK exports under pi's names, called on the same inputs as pi 0.87.1's own
 * (pi-coding-agent's dist, run under Node 22 from the conformance cache): the answers must be equal.
 * Skips (printing why) when the cache cannot provide pi.
 */
import { describe, expect, test } from "bun:test";
import {
	calculateContextTokens,
	DEFAULT_COMPACTION_SETTINGS,
	estimateContextTokens,
	estimateTokens,
	findCutPoint,
	findTurnStartIndex,
	getLastAssistantUsage,
	serializeConversation,
	shouldCompact,
} from "../../../src/compaction/index.ts";
import { collectEntriesForBranchSummary, convertToLlm, prepareBranchEntries } from "../../../src/runtime/index.ts";
import type { SessionEntry } from "../../../src/session/index.ts";
import { runInPi, runnablePi } from "../../helpers/side-by-side.ts";
import { assistantMsg, Branch, text, toolResultMsg, usage } from "./helpers.ts";

const pi = runnablePi();
const skip = "error" in pi;
if (skip) console.log(`pi-parity: skipped, pi 0.87.1 unavailable: ${pi.error}`);

/** A branch with every kind of entry the functions look at. */
function fixture(): SessionEntry[] {
	const b = new Branch();
	b.user(text(50));
	b.assistant("let me look", [
		{ id: "c1", name: "read", args: { path: "src/a.ts" } },
		{ id: "c2", name: "write", args: { path: "src/b.ts", content: "x" } },
	]);
	b.tool("c1", text(3000));
	b.tool("c2", "written", "write");
	b.modelChange();
	b.msg({
		role: "assistant",
		content: [
			{ type: "thinking", thinking: "hmm\nmore" },
			{ type: "text", text: "first" },
			{ type: "text", text: "second" },
			{ type: "toolCall", id: "c3", name: "edit", arguments: { path: "src/a.ts", oldText: "a", newText: "b" } },
		],
		api: "anthropic-messages",
		provider: "anthropic",
		model: "m",
		usage: { ...usage(1200, 40), cacheRead: 300, totalTokens: 1540 },
		stopReason: "toolUse",
		timestamp: 2,
	});
	b.msg(toolResultMsg("c3", "edited", "edit"));
	b.entries.push({
		type: "custom_message",
		id: "cm",
		parentId: b.entries.at(-1)!.id,
		timestamp: "2025-01-01T00:00:05.000Z",
		customType: "note",
		content: [{ type: "text", text: text(20) }],
		display: true,
	} as SessionEntry);
	b.msg({
		role: "bashExecution",
		command: "ls",
		output: "a\nb",
		exitCode: 0,
		cancelled: false,
		truncated: false,
		timestamp: 3,
	} as never);
	b.entries.push({
		type: "branch_summary",
		id: "bs",
		parentId: b.entries.at(-1)!.id,
		timestamp: "2025-01-01T00:00:06.000Z",
		fromId: "e1",
		summary: "earlier branch",
		details: { readFiles: ["docs/r.md"], modifiedFiles: ["src/m.ts"] },
	} as SessionEntry);
	b.user("");
	b.msg({
		role: "user",
		content: [
			{ type: "text", text: "see" },
			{ type: "image", data: "AAAA", mimeType: "image/png" },
		],
		timestamp: 4,
	});
	b.msg({ ...assistantMsg(text(30)), stopReason: "aborted", usage: usage(9999, 1) });
	b.assistant(text(40));
	b.user(text(10));
	return b.entries;
}

const DIST = "@earendil-works/pi-coding-agent/dist/core/compaction/index.js";

/** Everything the pure functions answer for the fixture, computed by one implementation. */
const PI_BODY = `(c, { entries, llm }) => {
	const messages = entries.filter((e) => e.type === "message").map((e) => e.message);
	const byId = new Map(entries.map((e) => [e.id, e]));
	const branchOf = (id) => { const out = []; for (let e = byId.get(id); e; e = byId.get(e.parentId)) out.unshift(e); return out; };
	const session = { getBranch: branchOf, getEntry: (id) => byId.get(id) };
	const prepared = (budget) => { const p = c.prepareBranchEntries(entries, budget); return { messages: p.messages, lists: c.computeFileLists(p.fileOps), totalTokens: p.totalTokens }; };
	return {
		defaults: c.DEFAULT_COMPACTION_SETTINGS,
		estimates: messages.map((m) => c.estimateTokens(m)),
		contextTokens: messages.filter((m) => m.role === "assistant").map((m) => c.calculateContextTokens(m.usage)),
		contextEstimate: c.estimateContextTokens(messages),
		noUsageEstimate: c.estimateContextTokens(messages.filter((m) => m.role !== "assistant")),
		lastUsage: c.getLastAssistantUsage(entries),
		compactAt: [[1000, 2000, c.DEFAULT_COMPACTION_SETTINGS], [190000, 200000, c.DEFAULT_COMPACTION_SETTINGS], [190000, 200000, { ...c.DEFAULT_COMPACTION_SETTINGS, enabled: false }], [5, 0, c.DEFAULT_COMPACTION_SETTINGS]].map(([t, w, s]) => c.shouldCompact(t, w, s)),
		cuts: [1, 20, 100, 400, 800, 5000].map((keep) => c.findCutPoint(entries, 0, entries.length, keep)),
		cutsFrom3: [1, 100, 900].map((keep) => c.findCutPoint(entries, 3, entries.length, keep)),
		turnStarts: entries.map((_, i) => c.findTurnStartIndex(entries, i, 0)),
		serialized: c.serializeConversation(llm),
		branch: [0, 50, 900, 2000].map(prepared),
		collected: [["e14", "e2"], ["e14", "e14"], [null, "e3"], ["e10", "e5"]].map(([from, to]) => c.collectEntriesForBranchSummary(session, from, to)),
	};
}`;

describe.skipIf(skip)("compaction functions answer as pi 0.87.1's", () => {
	test("on the same entries and messages", async () => {
		const entries = fixture();
		expect(entries.length).toBe(15);
		// pi's serializeConversation takes LLM messages (its own convertToLlm output); give both the same ones.
		const llm = convertToLlm(entries.filter((e) => e.type === "message").map((e) => (e as any).message));
		const theirs = await runInPi(DIST, { entries, llm }, PI_BODY);

		const messages = entries.filter((e) => e.type === "message").map((e) => (e as any).message);
		const byId = new Map(entries.map((e) => [e.id, e]));
		const branchOf = (id?: string) => {
			const out: SessionEntry[] = [];
			for (let e = byId.get(id ?? ""); e; e = byId.get(e.parentId ?? "")) out.unshift(e);
			return out;
		};
		const session = { getBranch: branchOf, getEntry: (id: string) => byId.get(id) };
		const prepared = (budget: number) => {
			const p = prepareBranchEntries(entries, budget);
			const modified = new Set([...p.fileOps.edited, ...p.fileOps.written]);
			return {
				messages: p.messages,
				lists: {
					readFiles: [...p.fileOps.read].filter((f) => !modified.has(f)).sort(),
					modifiedFiles: [...modified].sort(),
				},
				totalTokens: p.totalTokens,
			};
		};
		const settings = DEFAULT_COMPACTION_SETTINGS;
		const ours = {
			defaults: settings,
			estimates: messages.map((m) => estimateTokens(m)),
			contextTokens: messages.filter((m) => m.role === "assistant").map((m) => calculateContextTokens(m.usage)),
			contextEstimate: estimateContextTokens(messages),
			noUsageEstimate: estimateContextTokens(messages.filter((m) => m.role !== "assistant")),
			lastUsage: getLastAssistantUsage(entries),
			compactAt: (
				[
					[1000, 2000, settings],
					[190000, 200000, settings],
					[190000, 200000, { ...settings, enabled: false }],
					[5, 0, settings],
				] as const
			).map(([t, w, s]) => shouldCompact(t, w, s)),
			cuts: [1, 20, 100, 400, 800, 5000].map((keep) => findCutPoint(entries, 0, entries.length, keep)),
			cutsFrom3: [1, 100, 900].map((keep) => findCutPoint(entries, 3, entries.length, keep)),
			turnStarts: entries.map((_, i) => findTurnStartIndex(entries, i, 0)),
			serialized: serializeConversation(llm),
			branch: [0, 50, 900, 2000].map(prepared),
			collected: (
				[
					["e14", "e2"],
					["e14", "e14"],
					[null, "e3"],
					["e10", "e5"],
				] as const
			).map(([from, to]) => collectEntriesForBranchSummary(session, from, to)),
		};
		// JSON round trip: pi's answers come through JSON (undefined fields dropped).
		expect(JSON.parse(JSON.stringify(ours))).toEqual(theirs);
	}, 60_000);
});
