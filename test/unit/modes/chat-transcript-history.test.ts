/**
 * The chat transcript drawing a resumed session (a real SessionManager's compaction-aware context entries), the
 * rebuild after a compaction, the notices the app posts, and the display toggles applied to what is already shown.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { AssistantMessage } from "../../../src/ai/index.ts";
import { statusIndicatorChange } from "../../../src/modes/interactive/index.ts";
import { type AppendableMessage, SessionManager } from "../../../src/session/index.ts";
import { Text } from "../../../src/tui/index.ts";
import { type MountedTranscript, mountTranscript } from "../../helpers/chat-transcript.ts";
import { makeTempDir } from "../../helpers/tmp.ts";

const mounted: MountedTranscript[] = [];
afterEach(() => {
	for (const m of mounted.splice(0)) m.dispose();
});

const usage = {
	input: 10,
	output: 5,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 15,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

function assistant(content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"] = "stop") {
	return {
		role: "assistant",
		content,
		api: "test-api",
		provider: "test",
		model: "test-model",
		usage,
		stopReason,
		timestamp: 1,
	} as AssistantMessage;
}
const user = (text: string) => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 }) as AppendableMessage;
const toolResult = (toolCallId: string, text: string) =>
	({
		role: "toolResult",
		toolCallId,
		toolName: "bash",
		content: [{ type: "text", text }],
		isError: false,
		timestamp: 1,
	}) as AppendableMessage;

function setup(manager?: SessionManager) {
	const cwd = makeTempDir();
	const m = mountTranscript({
		cwd,
		getEntryRenderer: (type) =>
			type === "progress" ? (entry) => new Text(`progress: ${JSON.stringify(entry.data)}`, 1, 0) : undefined,
		...(manager ? { contextEntries: () => manager.buildContextEntries() } : {}),
	});
	mounted.push(m);
	return m;
}

describe("chat transcript, history", () => {
	test("a resumed session: messages, tool calls with their results, `!command`s, summaries, custom entries", async () => {
		const manager = SessionManager.inMemory("/tmp");
		manager.appendMessage(user("list files"));
		manager.appendMessage(
			assistant([
				{ type: "thinking", thinking: "should run ls" },
				{ type: "text", text: "Listing." },
				{ type: "toolCall", id: "t1", name: "bash", arguments: { command: "ls" } },
			]),
		);
		manager.appendMessage(toolResult("t1", "a.txt\nb.txt"));
		manager.appendMessage(assistant([{ type: "text", text: "Two files." }]));
		manager.appendMessage({
			role: "bashExecution",
			command: "pwd",
			output: "/tmp\n",
			exitCode: 0,
			cancelled: false,
			truncated: false,
			timestamp: 1,
		} as never);
		manager.appendCustomEntry("progress", { step: 3 });
		manager.appendCustomEntry("unrendered", { x: 1 });
		manager.appendCustomMessageEntry("note", "a note", true);
		manager.appendBranchSummary("t1", "we tried another way");
		manager.appendMessage(
			assistant([{ type: "toolCall", id: "t2", name: "bash", arguments: { command: "sleep 5" } }], "aborted"),
		);
		const users: string[] = [];
		const m = mountTranscript({ cwd: "/tmp", onHistoryUserText: (text) => users.push(text) });
		mounted.push(m);
		m.transcript.setHideThinking(true);
		m.transcript.renderHistory(manager.buildContextEntries());
		const screen = await m.screen();
		const order = [
			" list files",
			" Thinking...",
			" Listing.",
			" $ ls",
			" a.txt",
			" Two files.",
			" $ pwd",
			" [note]",
			" [branch]",
			" Branch summary (ctrl+o to expand)",
			" $ sleep 5",
			" Operation aborted",
		];
		const rows = order.map((line) => screen.indexOf(line));
		expect(rows.every((row) => row >= 0)).toBe(true);
		expect([...rows].sort((a, b) => a - b)).toEqual(rows);
		expect(screen.join("\n")).not.toContain("progress:"); // no entry renderer given to this transcript
		expect(users).toEqual(["list files"]);
	});

	test("custom entries show through their entry renderer only, above a reply still streaming", async () => {
		const manager = SessionManager.inMemory("/tmp");
		const m = setup(manager);
		m.transcript.handleEvent({ type: "message_start", message: assistant([{ type: "text", text: "streaming" }]) });
		manager.appendCustomEntry("progress", { step: 1 });
		m.transcript.handleEvent({ type: "entry_appended", entry: manager.getLeafEntry() });
		manager.appendCustomEntry("other", { step: 2 });
		m.transcript.handleEvent({ type: "entry_appended", entry: manager.getLeafEntry() });
		expect(await m.screen()).toEqual(["", ' progress: {"step":1}', "", " streaming"]);
	});

	test("1,000 messages render in one pass", async () => {
		const manager = SessionManager.inMemory("/tmp");
		for (let i = 0; i < 250; i++) {
			manager.appendMessage(user(`question ${i}`));
			manager.appendMessage(
				assistant([
					{ type: "text", text: `answer ${i}` },
					{ type: "toolCall", id: `c${i}`, name: "bash", arguments: { command: `echo ${i}` } },
				]),
			);
			manager.appendMessage(toolResult(`c${i}`, `out ${i}`));
			manager.appendMessage(assistant([{ type: "text", text: `done ${i}` }]));
		}
		const m = setup();
		const started = performance.now();
		m.transcript.renderHistory(manager.buildContextEntries());
		const lines = m.transcript.render(80);
		const elapsed = performance.now() - started;
		expect(elapsed).toBeLessThan(5000);
		const screen = await m.screen();
		expect(screen).toContain(" question 0");
		expect(screen).toContain(" out 0");
		expect(screen).toContain(" done 249");
		expect(screen.at(-1)).toBe(" done 249");
		expect(lines.length).toBeGreaterThan(3000);
	});

	test("after a compaction the chat is rebuilt from the new context, the summary last", async () => {
		const manager = SessionManager.inMemory("/tmp");
		manager.appendMessage(user("old question"));
		manager.appendMessage(assistant([{ type: "text", text: "old answer" }]));
		const kept = manager.appendMessage(user("kept question"));
		manager.appendMessage(assistant([{ type: "text", text: "kept answer" }]));
		const m = setup(manager);
		m.transcript.renderHistory(manager.buildContextEntries());
		m.transcript.showStatus("Compacting…");
		manager.appendCompaction("the summary", kept, 12345);
		m.transcript.handleEvent({
			type: "compaction_end",
			reason: "manual",
			result: { summary: "the summary", firstKeptEntryId: kept, tokensBefore: 12345 },
			aborted: false,
			willRetry: false,
		});
		const screen = await m.screen();
		expect(screen.join("\n")).not.toContain("old question");
		expect(screen.slice(-4)).toEqual(["", " [compaction]", "", " Compacted from 12,345 tokens (ctrl+o to expand)"]);
		expect(screen.indexOf(" kept question")).toBeLessThan(screen.indexOf(" kept answer"));
		m.transcript.setToolsExpanded(true);
		expect(await m.screen()).toContain(" the summary");
	});
});

describe("chat transcript, notices and toggles", () => {
	test("status lines replace each other; warnings, errors and extension errors stack", async () => {
		const m = setup();
		m.transcript.showStatus("first");
		m.transcript.showStatus("second");
		expect(await m.screen()).toEqual(["", " second"]);
		m.transcript.showWarning("careful");
		m.transcript.showStatus("third");
		m.transcript.showError("broken");
		m.transcript.showExtensionError("/x/ext.ts", "boom", "Error: boom\n    at f (ext.ts:1:2)\n    at g (ext.ts:3:4)");
		m.transcript.handleEvent({ type: "auto_retry_end", success: false, attempt: 2, finalError: "overloaded" });
		m.transcript.handleEvent({ type: "compaction_end", reason: "manual", aborted: true, willRetry: false });
		m.transcript.handleEvent({ type: "compaction_end", reason: "threshold", aborted: true, willRetry: false });
		expect(await m.screen()).toEqual([
			"",
			" second",
			"",
			" Warning: careful",
			"",
			" third",
			"",
			" Error: broken",
			' Extension "/x/ext.ts" error: boom',
			"   at f (ext.ts:1:2)",
			"   at g (ext.ts:3:4)",
			"",
			" Error: Retry failed after 2 attempts: overloaded",
			"",
			" Error: Compaction cancelled",
			"",
			" Auto-compaction cancelled",
		]);
	});

	test("an abort during a retry counts the attempts; thinking toggles and its label apply to shown messages", async () => {
		const m = setup();
		m.transcript.handleEvent({ type: "auto_retry_start", attempt: 2, maxAttempts: 3, delayMs: 10, errorMessage: "x" });
		const reply = assistant([{ type: "thinking", thinking: "deep thought" }], "aborted");
		m.transcript.handleEvent({ type: "message_start", message: reply });
		m.transcript.handleEvent({ type: "message_end", message: { ...reply, errorMessage: "Request was aborted" } });
		expect(await m.screen()).toEqual(["", " deep thought", "", " Aborted after 2 retry attempts"]);
		m.transcript.setHideThinking(true);
		expect((await m.screen())[1]).toBe(" Thinking...");
		m.transcript.setHiddenThinkingLabel("Pondering");
		expect((await m.screen())[1]).toBe(" Pondering");
		m.transcript.setHiddenThinkingLabel();
		m.transcript.setHideThinking(false);
		expect((await m.screen())[1]).toBe(" deep thought");
		expect(m.transcript.setToolsExpanded(false)).toBe(false);
		m.transcript.clear();
		expect(await m.screen()).toEqual([]);
	});
});

describe("chat transcript, app hooks", () => {
	test("a `!command` run from the editor streams into the chat and completes", async () => {
		const m = setup();
		const bash = m.transcript.startBashExecution("echo hi");
		bash.appendOutput("hi\n");
		bash.setComplete(1, false);
		const screen = await m.screen();
		expect(screen).toContain(" $ echo hi");
		expect(screen).toContain(" hi");
		expect(screen).toContain(" (exit 1)");
	});

	test("status indicator changes follow pi's: working per turn, compaction, retry countdown, branch summary", () => {
		expect(statusIndicatorChange({ type: "turn_start" })).toEqual({ show: { kind: "working" }, keepIfSameKind: true });
		expect(statusIndicatorChange({ type: "agent_end", messages: [], willRetry: false })).toEqual({ clear: "working" });
		expect(statusIndicatorChange({ type: "compaction_start", reason: "overflow" })).toEqual({
			show: { kind: "compaction", reason: "overflow" },
		});
		const retry = { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "x" } as const;
		expect(statusIndicatorChange(retry)).toEqual({
			show: { kind: "retry", attempt: 1, maxAttempts: 3, delayMs: 2000 },
		});
		expect(statusIndicatorChange({ type: "summarization_retry_attempt_start", source: "branchSummary" })).toEqual({
			clear: "retry",
			show: { kind: "branchSummary" },
		});
		expect(statusIndicatorChange({ type: "queue_update", steering: [], followUp: [] })).toBeUndefined();
	});
});
