import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyUsage } from "../../../src/ai/index.ts";
import {
	buildSummaryPrompt,
	buildTurnPrefixPrompt,
	compactionDetails,
	DEFAULT_COMPACTION_SETTINGS,
	estimateContextTokens,
	formatFileLists,
	prepareCompaction,
	serializeConversation,
	summaryRequestText,
	turnPrefixRequestText,
} from "../../../src/compaction/index.ts";
import { buildSessionContext, SessionManager } from "../../../src/session/index.ts";
import { Branch, text } from "./helpers.ts";

const FIXTURES = join(import.meta.dir, "..", "..", "..", "..", "shared", "fixtures", "pi-sessions");
const dirs: string[] = [];
afterAll(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const settings = (keepRecentTokens: number) => ({ ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens });

function conversation(b: Branch, turns: number, files: string[] = []): void {
	for (let t = 0; t < turns; t++) {
		b.user(`turn ${t} ${text(100)}`);
		const file = files[t % Math.max(1, files.length)];
		if (file) {
			b.assistant("", [{ id: `c${b.entries.length}`, name: t % 2 === 0 ? "read" : "edit", args: { path: file } }]);
			b.tool(`c${b.entries.length - 1}`, text(100));
		}
		b.assistant(text(100));
	}
}

describe("prepareCompaction", () => {
	test("nothing to compact: empty branch, branch ending in a compaction, everything within budget", () => {
		expect(prepareCompaction([], settings(10))).toBeUndefined();
		const b = new Branch();
		conversation(b, 2);
		expect(prepareCompaction(b.entries, settings(100_000))).toBeUndefined();
		b.compaction("s", "e2");
		expect(prepareCompaction(b.entries, settings(10))).toBeUndefined();
	});

	test("summarises the turns before the cut and tracks files", () => {
		const b = new Branch();
		conversation(b, 4, ["a.ts", "b.ts"]); // read a.ts, edit b.ts, read a.ts, edit b.ts
		b.assistant("", [{ id: "w", name: "write", args: { path: "a.ts" } }]);
		b.tool("w", "ok", "write");
		b.user(text(300));
		b.assistant(text(300));
		const prep = prepareCompaction(b.entries, settings(500))!;
		expect(prep.firstKeptEntryId).toBe(`e${b.entries.length - 2}`);
		expect(prep.isSplitTurn).toBe(false);
		expect(prep.turnPrefixMessages).toEqual([]);
		expect(prep.messagesToSummarize.length).toBe(b.entries.length - 2);
		expect(prep.previousSummary).toBeUndefined();
		expect(prep.fileOps).toEqual({ read: [], modified: ["a.ts", "b.ts"] });
		expect(prep.tokensBefore).toBeGreaterThan(1000);
		expect(prep.settings.keepRecentTokens).toBe(500);
	});

	test("split turn: the prefix is separated from the history", () => {
		const b = new Branch();
		conversation(b, 1); // e0 user, e1 assistant
		b.user("do it"); // e2
		b.assistant("", [{ id: "r", name: "read", args: { path: "x.ts" } }]); // e3
		b.tool("r", text(400)); // e4
		b.assistant(text(400)); // e5
		const prep = prepareCompaction(b.entries, settings(300))!;
		expect(prep.isSplitTurn).toBe(true);
		expect(prep.firstKeptEntryId).toBe("e5");
		expect(prep.messagesToSummarize.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect(prep.turnPrefixMessages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(prep.fileOps.read).toEqual(["x.ts"]);
	});

	test("rolling: only entries after the previous kept boundary, previous summary and files carried", () => {
		const b = new Branch();
		conversation(b, 3, ["old.ts", "other.ts"]);
		const first = prepareCompaction(b.entries, settings(250))!;
		expect(first.fileOps).toEqual({ read: ["old.ts"], modified: ["other.ts"] });
		const keptIndex = b.entries.findIndex((e) => e.id === first.firstKeptEntryId);
		b.compaction("first summary", first.firstKeptEntryId, compactionDetails(first.fileOps));
		conversation(b, 3, ["new.ts", "old.ts"]);

		const second = prepareCompaction(b.entries, settings(250))!;
		expect(second.previousSummary).toBe("first summary");
		expect(second.tokensBefore).toBe(estimateContextTokens(buildSessionContext(b.entries).messages).tokens);
		// the first summarised message now is the old kept boundary; nothing from before it comes back
		const summarisedStart = b.entries[keptIndex]!;
		if (summarisedStart.type !== "message") throw new Error("kept boundary is not a message");
		expect(second.messagesToSummarize[0] as unknown).toBe(summarisedStart.message);
		const earlier = b.entries.slice(0, keptIndex).flatMap((e) => (e.type === "message" ? [e.message] : []));
		for (const m of earlier) expect(second.messagesToSummarize).not.toContain(m);
		expect(second.messagesToSummarize.some((m) => m.role === "compactionSummary")).toBe(false);
		// old.ts: read before, edited now → modified; other.ts carried from the first compaction; new.ts read
		expect(second.fileOps).toEqual({ read: ["new.ts"], modified: ["old.ts", "other.ts"] });
	});

	test("file lists survive two compactions even when no new file is touched", () => {
		const b = new Branch();
		conversation(b, 3, ["a.ts", "b.ts"]);
		const first = prepareCompaction(b.entries, settings(250))!;
		b.compaction("one", first.firstKeptEntryId, compactionDetails(first.fileOps));
		conversation(b, 3);
		const second = prepareCompaction(b.entries, settings(250))!;
		b.compaction("two", second.firstKeptEntryId, compactionDetails(second.fileOps));
		conversation(b, 3);
		const third = prepareCompaction(b.entries, settings(250))!;
		expect(third.previousSummary).toBe("two");
		expect(third.fileOps).toEqual({ read: ["a.ts"], modified: ["b.ts"] });
		expect(formatFileLists(third.fileOps)).toBe(
			"\n\n<read-files>\na.ts\n</read-files>\n\n<modified-files>\nb.ts\n</modified-files>",
		);
	});

	test("a retain-none compaction (own id as firstKeptEntryId) restarts after itself", () => {
		const b = new Branch();
		conversation(b, 2);
		b.entries.push({
			type: "compaction",
			id: "self",
			parentId: b.entries.at(-1)!.id,
			timestamp: "2025-01-01T00:00:00.000Z",
			summary: "all gone",
			firstKeptEntryId: "self",
			tokensBefore: 1,
		});
		conversation(b, 3);
		const prep = prepareCompaction(b.entries, settings(250))!;
		expect(prep.previousSummary).toBe("all gone");
		expect(prep.messagesToSummarize.length).toBe(2); // turn 0 of the new conversation
	});

	test("prepares pi's v1 fixture session (with earlier compactions)", () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-compaction-"));
		dirs.push(dir);
		const file = join(dir, "v1-before-compaction.jsonl");
		copyFileSync(join(FIXTURES, "v1-before-compaction.jsonl"), file);
		chmodSync(file, 0o644);
		const session = SessionManager.open(file, dir);
		const branch = session.getBranch();
		const prep = prepareCompaction(branch, settings(20_000))!;
		expect(prep).toBeDefined();
		const latest = branch.findLast((e) => e.type === "compaction");
		expect(latest?.type).toBe("compaction");
		if (latest?.type !== "compaction") return;
		expect(prep.previousSummary).toBe(latest.summary);
		const keptIndex = branch.findIndex((e) => e.id === prep.firstKeptEntryId);
		const previousKept = branch.findIndex((e) => e.id === latest.firstKeptEntryId);
		expect(keptIndex).toBeGreaterThan(previousKept);
		const kept = branch[keptIndex]!;
		expect(kept.type === "message" && kept.message.role).not.toBe("toolResult");
		expect(prep.messagesToSummarize.length + prep.turnPrefixMessages.length).toBeGreaterThan(0);
		expect(prep.tokensBefore).toBeGreaterThan(20_000);
		expect(prep.tokensBefore).toBe(estimateContextTokens(buildSessionContext(branch).messages).tokens);
		expect(prep.fileOps.read.length + prep.fileOps.modified.length).toBeGreaterThan(0);
		const prompt = serializeConversation(prep.messagesToSummarize as Parameters<typeof serializeConversation>[0]);
		expect(prompt).toContain("[User]:");
	});
});

describe("prompts", () => {
	test("first summary lists the structured sections and the custom focus", () => {
		const p = buildSummaryPrompt({ customInstructions: "the database layer" });
		for (const section of [
			"## Goal",
			"## Constraints & Preferences",
			"## Progress",
			"### Done",
			"### In Progress",
			"### Blocked",
			"## Key Decisions",
			"## Next Steps",
			"## Critical Context",
		]) {
			expect(p).toContain(section);
		}
		expect(p).toContain("the database layer");
		expect(p).not.toContain("<previous-summary>");
	});

	test("update prompt carries the previous summary", () => {
		const p = buildSummaryPrompt({ previousSummary: "## Goal\nship it" });
		expect(p).toContain("<previous-summary>");
		expect(p).toContain("## Critical Context");
		// The previous summary travels between the transcript and the instructions, as in pi.
		expect(summaryRequestText([], p, "## Goal\nship it")).toBe(
			`<conversation>\n\n</conversation>\n\n<previous-summary>\n## Goal\nship it\n</previous-summary>\n\n${p}`,
		);
		expect(buildTurnPrefixPrompt()).toContain("## Original Request");
		expect(formatFileLists({ read: [], modified: [] })).toBe("");
	});

	test("serializeConversation truncates long tool results", () => {
		const s = serializeConversation([
			{
				role: "toolResult",
				toolCallId: "c",
				toolName: "read",
				content: [{ type: "text", text: text(1000) }],
				isError: false,
				timestamp: 1,
			},
		]);
		expect(s).toBe(`[Tool result]: ${text(1000).slice(0, 2000)}\n\n[... 2000 more characters truncated]`);
	});

	test("the transcript: pi's labels, blank lines between blocks; the requests wrap it as pi does", () => {
		const messages = [
			{ role: "user" as const, content: "fix the test", timestamp: 1 },
			{ role: "user" as const, content: [], timestamp: 1 },
			{
				role: "assistant" as const,
				content: [
					{ type: "thinking" as const, thinking: "look first" },
					{ type: "text" as const, text: "Reading." },
					{ type: "text" as const, text: "Then editing." },
					{ type: "toolCall" as const, id: "a", name: "read", arguments: { path: "a.ts" } },
					{ type: "toolCall" as const, id: "b", name: "bash", arguments: { command: "ls", timeout: 5 } },
				],
				api: "anthropic-messages" as const,
				provider: "p",
				model: "m",
				usage: emptyUsage(),
				stopReason: "toolUse" as const,
				timestamp: 2,
			},
			{
				role: "toolResult" as const,
				toolCallId: "a",
				toolName: "read",
				content: [
					{ type: "text" as const, text: "one" },
					{ type: "text" as const, text: "two" },
				],
				isError: false,
				timestamp: 3,
			},
		];
		const transcript = [
			"[User]: fix the test",
			"[Assistant thinking]: look first",
			"[Assistant]: Reading.\nThen editing.",
			'[Assistant tool calls]: read(path="a.ts"); bash(command="ls", timeout=5)',
			"[Tool result]: onetwo",
		].join("\n\n");
		expect(serializeConversation(messages)).toBe(transcript);
		expect(summaryRequestText(messages, "Summarise.")).toBe(
			`<conversation>\n${transcript}\n</conversation>\n\nSummarise.`,
		);
		expect(turnPrefixRequestText(messages, "Summarise.")).toBe(
			`# Conversation\n${transcript}\n\n# Instructions\nSummarise.`,
		);
		expect(serializeConversation([])).toBe("");
	});
});
