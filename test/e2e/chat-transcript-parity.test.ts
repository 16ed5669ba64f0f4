/**
 * The chat transcript shows what pi 0.87.1's interactive chat shows for the same session events. Each scenario's
 * events are recorded from a real AgentSession (scripted replies, the built-in tools in a temp folder), then
 * replayed into our ChatTranscript and into pi's own `handleEvent` / `renderSessionEntries` / `show*` under Node 22
 * (test/helpers/chat-transcript-pi.ts: pi's InteractiveMode cannot be started piecewise, so its methods run on a
 * stand-in object), and the two chats are compared row by row as a headless terminal shows them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureRunnablePi } from "../../scripts/conformance-cache.ts";
import type { SessionEvent } from "../../src/runtime/index.ts";
import { SessionManager } from "../../src/session/index.ts";
import { mountTranscript, pacedReply, scriptedSession } from "../helpers/chat-transcript.ts";
import { linesOnScreen } from "../helpers/screen.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { styledRows } from "../helpers/transcript-pictures/styled-screen.ts";
import type { ScriptStep } from "../support/scripted-stream.ts";

type Step =
	| { event: SessionEvent }
	| { call: "showStatus" | "showWarning" | "showError" | "showExtensionError" | "renderHistory"; args: unknown[] };

const WIDTH = 80;
const A_TXT = "one\ntwo\nthree\n";
let root = "";
let cwd = "";
let skipped: string | undefined;
const scenarios: Record<string, Step[]> = {};
let theirs: Record<string, string[] | { error: string }> = {};

async function record(
	steps: ScriptStep[],
	run: (session: ReturnType<typeof scriptedSession>["session"]) => Promise<void>,
	streamFn?: Parameters<typeof scriptedSession>[3],
): Promise<Step[]> {
	writeFileSync(join(cwd, "a.txt"), A_TXT);
	const out: Step[] = [];
	const { session } = scriptedSession(cwd, steps, (event) => out.push({ event: structuredClone(event) }), streamFn);
	await run(session);
	writeFileSync(join(cwd, "a.txt"), A_TXT);
	return out;
}

function history(): Step[] {
	const manager = SessionManager.inMemory(cwd);
	const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 };
	const meta = { api: "x", provider: "x", model: "x", usage: { ...usage, cost: { ...usage, total: 0 } }, timestamp: 1 };
	manager.appendMessage({ role: "user", content: "resume **me**", timestamp: 1 });
	manager.appendMessage({
		role: "assistant",
		content: [
			{ type: "thinking", thinking: "hmm" },
			{ type: "text", text: "Running it." },
			{ type: "toolCall", id: "h1", name: "bash", arguments: { command: "echo hi" } },
		],
		stopReason: "toolUse",
		...meta,
	} as never);
	const content = [{ type: "text" as const, text: "hi" }];
	manager.appendMessage({
		role: "toolResult",
		toolCallId: "h1",
		toolName: "bash",
		content,
		isError: false,
		timestamp: 1,
	});
	manager.appendMessage({
		role: "bashExecution",
		command: "false",
		output: "",
		exitCode: 1,
		cancelled: false,
		truncated: false,
		timestamp: 1,
	} as never);
	manager.appendCustomMessageEntry("note", "a *custom* note", true);
	manager.appendBranchSummary("h1", "earlier branch");
	manager.appendMessage({
		role: "assistant",
		content: [],
		stopReason: "error",
		errorMessage: "boom",
		...meta,
	} as never);
	return [{ call: "renderHistory", args: [manager.buildContextEntries()] }];
}

beforeAll(async () => {
	const pi = ensureRunnablePi();
	if ("error" in pi) {
		skipped = `pi 0.87.1 cannot run here: ${pi.error}`;
		return;
	}
	root = makeTempDir();
	cwd = join(root, "project");
	mkdirSync(cwd);
	const tools: ScriptStep = {
		text: "Let me look.",
		toolCalls: [
			{ name: "bash", args: { command: "printf 'hello\\nworld\\n'" } },
			{ name: "read", args: { path: "a.txt" } },
			{ name: "edit", args: { path: "a.txt", edits: [{ oldText: "two", newText: "TWO" }] } },
			{ name: "read", args: { path: "missing.txt" } },
		],
	};
	scenarios.streamed = await record([], (s) => s.prompt("hi *pi*"), pacedReply(["Hello ", "**there**,\n\n- a\n- b"]));
	scenarios.thinking = await record([{ thinking: "Let me think.", text: "Answer." }], (s) => s.prompt("q"));
	scenarios.tools = await record([tools, { text: "Done." }], (s) => s.prompt("fix a.txt"));
	// the same turn as the user sees it when the first tool starts: every call shown, none finished
	const firstStart = scenarios.tools.findIndex((step) => "event" in step && step.event.type === "tool_execution_start");
	scenarios.toolsPending = scenarios.tools.slice(0, firstStart + 1);
	scenarios.error = await record([{ text: "Partial", error: "Mock API error 401: bad key" }], (s) => s.prompt("go"));
	scenarios.errorWithTool = await record(
		[{ toolCalls: [{ name: "bash", args: { command: "ls" } }], error: "stream broke" }],
		(s) => s.prompt("go"),
	);
	scenarios.aborted = await record(
		[{ toolCalls: [{ name: "bash", args: { command: "sleep 9" } }], delayMs: 5000 }],
		async (s) => {
			setTimeout(() => s.abort(), 50);
			await s.prompt("go");
		},
	);
	scenarios.custom = await record([{ text: "ok" }], async (s) => {
		await s.sendCustomMessage({ customType: "note", content: "hello **world**", display: true });
		await s.sendCustomMessage({ customType: "hidden", content: "not shown", display: false });
		await s.prompt("after");
	});
	scenarios.history = history();
	scenarios.notices = [
		{ call: "showStatus", args: ["first"] },
		{ call: "showStatus", args: ["second"] },
		{ call: "showWarning", args: ["careful"] },
		{ call: "showError", args: ["broken"] },
		{ call: "showExtensionError", args: ["/x/ext.ts", "boom", "Error: boom\n    at f (ext.ts:1:2)"] },
		{ event: { type: "auto_retry_end", success: false, attempt: 3, finalError: "overloaded" } },
		{ event: { type: "compaction_end", reason: "threshold", aborted: true, willRetry: false } },
		{
			event: { type: "compaction_end", reason: "overflow", aborted: false, willRetry: false, errorMessage: "no room" },
		},
	];
	const file = join(root, "scenarios.json");
	writeFileSync(file, JSON.stringify(scenarios));
	const outFile = join(root, "pi.json");
	const child = Bun.spawnSync([pi.node, join(import.meta.dir, "../helpers/chat-transcript-pi.ts")], {
		cwd: join(pi.modules, ".."),
		env: {
			...process.env,
			PI_CHAT: JSON.stringify({ modules: pi.modules, cwd, width: WIDTH, scenarios: file, out: outFile }),
			HTTP_PROXY: "http://127.0.0.1:9",
			HTTPS_PROXY: "http://127.0.0.1:9",
			NO_PROXY: "127.0.0.1,localhost",
		},
		stdout: "pipe",
		stderr: "pipe",
		timeout: 120_000,
	});
	if (child.exitCode !== 0) throw new Error(`pi side failed (exit ${child.exitCode}): ${child.stderr.toString()}`);
	theirs = JSON.parse(readFileSync(outFile, "utf8"));
}, 180_000);

afterAll(() => {
	if (skipped) console.log(`chat transcript parity: skipped (${skipped})`);
});

async function ours(steps: Step[]): Promise<string[]> {
	const m = mountTranscript({ cwd });
	try {
		for (const step of steps) {
			if ("event" in step) m.transcript.handleEvent(step.event);
			else if (step.call === "renderHistory") m.transcript.renderHistory(step.args[0] as never);
			else (m.transcript[step.call] as (...args: unknown[]) => void)(...step.args);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
		return m.transcript.render(WIDTH);
	} finally {
		m.dispose();
	}
}

const rows = async (lines: string[]) => (await linesOnScreen(lines, WIDTH)).map((line) => line.trimEnd());
/** Elapsed times differ between a replay and the run: "Took 0.0s" / "Took 0.1s" are the same row. */
const normal = (line: string) => line.replace(/(Took|Elapsed) \d+(\.\d+)?s/, "$1 Ns");

describe("chat transcript matches pi 0.87.1's chat", () => {
	for (const name of [
		"streamed",
		"thinking",
		"tools",
		"toolsPending",
		"error",
		"errorWithTool",
		"aborted",
		"custom",
		"history",
		"notices",
	]) {
		test(name, async () => {
			if (skipped) return;
			const pi = theirs[name];
			if (!Array.isArray(pi)) throw new Error(`pi failed: ${pi?.error}`);
			const ourLines = await ours(scenarios[name] ?? []);
			const mine = (await rows(ourLines)).map(normal);
			const expected = (await rows(pi)).map(normal);
			if (process.env.SHOW_CHAT) console.log(`${name}:\n${expected.join("\n")}`);
			expect(expected.filter((line) => line.trim()).length).toBeGreaterThan(1);
			expect(mine).toEqual(expected);
			// then colours and attributes, cell by cell
			const styled = async (lines: string[]) => (await styledRows(lines, WIDTH)).map(normal);
			expect(await styled(ourLines)).toEqual(await styled(pi));
		});
	}
});
