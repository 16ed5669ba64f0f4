/**
 * Message entries written to the session file are held by the session only weakly: while something holds an entry
 * it stays the same object; once nothing does, the memory goes and the entry is read back from its line when asked
 * for, equal to what was written. A long-running session so keeps its index in memory, not every message.
 */

import { heapStats } from "bun:jsc";
import { afterAll, expect, test } from "bun:test";
import { SessionManager } from "../../../src/session/index.ts";
import { assistant, cleanupTempDirs, tempDir, toolCallAssistant, toolResult, user } from "./helpers.ts";

afterAll(cleanupTempDirs);

test("an entry nothing holds is read back from the file, equal to what was written; a held one stays the same object", () => {
	const m = SessionManager.create("/tmp/project", tempDir());
	m.appendMessage(user("first"));
	m.appendMessage(assistant("reply"));
	const ids: string[] = [];
	for (let i = 0; i < 50; i++) {
		ids.push(m.appendMessage(toolCallAssistant(`c${i}`)));
		ids.push(m.appendMessage(toolResult(`c${i}`, `output ${i} ${"x".repeat(i * 100)}`)));
	}
	const held = m.getEntry(ids[10]!);
	Bun.gc(true);
	expect(m.getEntry(ids[10]!)).toBe(held);
	const again = m.getEntry(ids[11]!) as { message: { content: { text: string }[] } };
	expect(again.message.content[0]!.text).toBe(`output 5 ${"x".repeat(500)}`);
	expect(
		m
			.getBranch()
			.map((e) => e.id)
			.slice(2),
	).toEqual(ids);
	const reopened = SessionManager.open(m.getSessionFile()!, undefined, undefined, { readOnly: true });
	expect(JSON.stringify(m.getEntries())).toBe(JSON.stringify(reopened.getEntries()));
});

test("20 MB of messages appended: once nothing holds them, the heap keeps little of them", () => {
	const m = SessionManager.create("/tmp/project", tempDir());
	m.appendMessage(user("first"));
	m.appendMessage(assistant("reply"));
	Bun.gc(true);
	const before = heapStats().heapSize;
	for (let i = 0; i < 2000; i++) {
		m.appendMessage(toolCallAssistant(`c${i}`));
		m.appendMessage(toolResult(`c${i}`, `${i} ${"y".repeat(10_000)}`));
	}
	Bun.gc(true);
	const grown = heapStats().heapSize - before;
	console.log(`heap after 2000 turns of 10 KB outputs: +${(grown / 1024 / 1024).toFixed(1)} MiB`);
	expect(grown).toBeLessThan(5 * 1024 * 1024);
	expect(m.getEntries()).toHaveLength(4002);
});
