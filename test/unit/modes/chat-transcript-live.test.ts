/**
 * The chat transcript fed a real AgentSession's events (scripted replies through the real message builder, the
 * built-in tools in a temp folder), drawn by a TuiMainScreen on a headless terminal: what the user sees while a
 * reply streams, while tools run, and when a reply stops short.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { theme } from "../../../src/modes/interactive/components/style.ts";
import type { SessionEvent } from "../../../src/runtime/index.ts";
import { Text } from "../../../src/tui/index.ts";
import {
	bgStart,
	type MountedTranscript,
	mountTranscript,
	pacedReply,
	scriptedSession,
} from "../../helpers/chat-transcript.ts";
import { linesOnScreen } from "../../helpers/screen.ts";
import { makeTempDir } from "../../helpers/tmp.ts";
import type { ScriptStep } from "../../support/scripted-stream.ts";

const mounted: MountedTranscript[] = [];
afterEach(() => {
	for (const m of mounted.splice(0)) m.dispose();
});

function setup(
	steps: ScriptStep[],
	onEvent?: (event: SessionEvent, m: MountedTranscript) => void,
	streamFn?: Parameters<typeof scriptedSession>[3],
) {
	const cwd = makeTempDir();
	const renderers: Record<string, (message: { content: unknown }) => Text> = {
		fancy: (message) => new Text(`fancy renderer got: ${String(message.content)}`, 1, 0),
	};
	const m = mountTranscript({ cwd, getMessageRenderer: (type) => renderers[type] as never });
	mounted.push(m);
	const { session } = scriptedSession(
		cwd,
		steps,
		(event) => {
			m.transcript.handleEvent(event);
			onEvent?.(event, m);
		},
		streamFn,
	);
	return { m, session, cwd };
}

const text = (lines: string[]) => lines.join("\n");
const shown = async (raw: string[]) => text(await linesOnScreen(raw, 80));
/** The raw line that contains `needle`. */
const plain = (line: string) => stripVTControlCharacters(line);
const lineWith = (raw: string[], needle: string) => raw.find((line) => plain(line).includes(needle)) ?? "";

describe("chat transcript, live session events", () => {
	test("a streamed reply grows in place under the user's message and stays one message", async () => {
		const partial: string[][] = [];
		let updates = 0;
		const pieces = ["Hell", "o th", "ere,", " this is **pi** talking."];
		const onEvent = (event: SessionEvent, m: MountedTranscript) => {
			if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta" && ++updates === 3)
				partial.push(m.raw());
		};
		const { m, session } = setup([], onEvent, pacedReply(pieces));
		await session.prompt("hi pi");
		expect(m.transcript.isStreaming).toBe(false);
		expect(await m.screen()).toEqual(["", " hi pi", "", "", " Hello there, this is pi talking."]);
		// three 4-character deltas in, the reply shows its first 12 characters, in the same place
		const early = await shown(partial[0] ?? []);
		expect(early).toContain(" Hello there,");
		expect(early).not.toContain("talking");
	});

	test("a tool-using turn: boxes appear while the reply streams, pending until each tool ends, then done", async () => {
		let beforeStart = "";
		let bashStarted: string[] = [];
		const steps: ScriptStep[] = [
			{
				text: "Let me look.",
				toolCalls: [
					{ name: "bash", args: { command: "echo hello" } },
					{ name: "read", args: { path: "a.txt" } },
					{ name: "edit", args: { path: "a.txt", edits: [{ oldText: "two", newText: "TWO" }] } },
				],
			},
			{ text: "Done." },
		];
		const { m, session, cwd } = setup(steps, (event, m) => {
			if (event.type === "message_update" && event.assistantMessageEvent.type === "toolcall_end" && !beforeStart)
				beforeStart = text(m.raw());
			if (event.type === "tool_execution_start" && event.toolName === "bash") bashStarted = m.raw();
		});
		writeFileSync(join(cwd, "a.txt"), "one\ntwo\nthree\n");
		await session.prompt("fix a.txt");
		// the first call's box was there before any tool ran, already with its arguments
		expect(await shown(beforeStart.split("\n"))).toContain(" $ echo hello");
		const pending = bgStart((s) => theme().bg("toolPendingBg", s));
		const success = bgStart((s) => theme().bg("toolSuccessBg", s));
		expect(lineWith(bashStarted, "echo hello")).toContain(pending);
		const running = await shown(bashStarted);
		expect(running).toContain(" read a.txt");
		expect(running).toContain(" +2 TWO"); // the edit's preview, computed once its arguments were complete
		expect(running).not.toContain("Took");

		const screen = await m.screen();
		const at = (needle: string) => screen.findIndex((line) => line.includes(needle));
		expect(at("fix a.txt")).toBeLessThan(at("Let me look."));
		expect(at("Let me look.")).toBeLessThan(at("$ echo hello"));
		expect(screen[at("$ echo hello") + 2]).toBe(" hello");
		expect(screen.some((line) => /^ Took \d/.test(line))).toBe(true);
		expect(at("$ echo hello")).toBeLessThan(at("read a.txt"));
		expect(at("read a.txt")).toBeLessThan(at("edit a.txt"));
		expect(at("edit a.txt")).toBeLessThan(at("Done."));
		expect(screen).toContain(" -2 two");
		expect(screen).toContain(" +2 TWO");
		expect(screen).not.toContain(" one"); // a read's result is hidden while collapsed
		const raw = m.raw();
		for (const needle of ["echo hello", "read a.txt", "edit a.txt"]) expect(lineWith(raw, needle)).toContain(success);
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one\nTWO\nthree\n");

		m.transcript.setToolsExpanded(true);
		const expanded = await m.screen();
		expect(expanded.some((line) => line.includes("one"))).toBe(true);
	});

	test("an error stop: `Error: <message>` under the reply; with a tool call, the tool box shows it instead", async () => {
		const { m, session } = setup([{ text: "Trying", error: "Mock API error 401: bad key" }]);
		await session.prompt("go");
		expect((await m.screen()).slice(-3)).toEqual([" Trying", "", " Error: Mock API error 401: bad key"]);

		const withTool = setup([{ toolCalls: [{ name: "bash", args: { command: "ls" } }], error: "stream broke" }]);
		await withTool.session.prompt("go");
		const screen = await withTool.m.screen();
		expect(screen).toContain(" stream broke");
		expect(screen.some((line) => line.includes("Error:"))).toBe(false);
		const failed = bgStart((s) => theme().bg("toolErrorBg", s));
		expect(lineWith(withTool.m.raw(), "$ ls")).toContain(failed);
	});

	test("an aborted stop: `Operation aborted` under the partial reply, or in each waiting tool box", async () => {
		let deltas = 0;
		const onEvent = (event: SessionEvent) => {
			if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta" && ++deltas === 2)
				session.abort();
		};
		const { m, session } = setup([], onEvent, pacedReply(["Working", " on it", " and more"]));
		await session.prompt("go");
		expect((await m.screen()).slice(-3)).toEqual([" Working on it", "", " Operation aborted"]);

		const withTool = setup(
			[{ toolCalls: [{ name: "bash", args: { command: "sleep 9" } }], delayMs: 5000 }],
			(event) => {
				if (event.type === "message_start" && event.message.role === "assistant")
					setTimeout(() => withTool.session.abort(), 30);
			},
		);
		await withTool.session.prompt("go");
		const screen = await withTool.m.screen();
		expect(screen.slice(-3)).toEqual([" $ sleep 9", "", " Operation aborted"]);
		expect(lineWith(withTool.m.raw(), "$ sleep 9")).toContain(bgStart((s) => theme().bg("toolErrorBg", s)));
	});

	test("custom messages: the default box, an extension's renderer, nothing when not displayed", async () => {
		const { m, session } = setup([]);
		await session.sendCustomMessage({ customType: "note", content: "hello **world**", display: true });
		await session.sendCustomMessage({ customType: "fancy", content: "payload", display: true });
		await session.sendCustomMessage({ customType: "secret", content: "not shown", display: false });
		const screen = await m.screen();
		expect(screen).toContain(" [note]");
		expect(screen).toContain(" hello world");
		expect(screen).toContain(" fancy renderer got: payload");
		expect(text(screen)).not.toContain("not shown");
		expect(text(screen)).not.toContain("[fancy]");
	});
});
