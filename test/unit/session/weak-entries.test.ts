/**
 * Message entries written to the session file are held by the session only weakly: while something holds an entry
 * it stays the same object; once nothing does, the memory goes and the entry is read back from its line when asked
 * for, equal to what was written. A long-running session so keeps its index in memory, not every message.
 */

import { heapStats } from "bun:jsc";
import { afterAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { SessionManager } from "../../../src/session/index.ts";
import { assistant, cleanupTempDirs, tempDir, toolCallAssistant, toolResult, user } from "./helpers.ts";

afterAll(cleanupTempDirs);

test("an entry nothing holds is read back from the file, equal to what was written; a held one stays the same object", async () => {
	const m = SessionManager.create("/tmp/project", tempDir());
	m.appendMessage(user("first"));
	m.appendMessage(assistant("reply"));
	const ids: string[] = [];
	const written = new Map<string, string>();
	for (let i = 0; i < 50; i++) {
		const call = toolCallAssistant(`c${i}`);
		const result = toolResult(`c${i}`, `output ${i} ${"x".repeat(i * 100)} – ü "q"`);
		ids.push(m.appendMessage(call));
		written.set(ids.at(-1)!, JSON.stringify(call));
		ids.push(m.appendMessage(result));
		written.set(ids.at(-1)!, JSON.stringify(result));
	}
	const held = m.getEntry(ids[10]!);
	const seen = ids.map((id) => new WeakRef(m.getEntry(id)!));
	await Bun.sleep(0);
	Bun.gc(true);
	expect(m.getEntry(ids[10]!)).toBe(held);
	// Entries the collector took are parsed again from their lines: the same content at the same ids.
	const reread = ids.filter((_, i) => seen[i]!.deref() === undefined);
	expect(reread.length).toBeGreaterThan(0);
	for (const id of reread) {
		const entry = m.getEntry(id) as { id: string; message: unknown };
		expect(entry.id).toBe(id);
		expect(JSON.stringify(entry.message)).toBe(written.get(id)!);
	}
	expect(
		m
			.getBranch()
			.map((e) => e.id)
			.slice(2),
	).toEqual(ids);
	expect(m.getBranchIds()).toEqual(m.getBranch().map((e) => e.id));
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

test("after completing a last line that had no newline, an appended entry is read back from the right place", async () => {
	const m = SessionManager.create("/tmp/project", tempDir());
	m.appendMessage(user("first"));
	m.appendMessage(assistant("reply"));
	const file = m.getSessionFile()!;
	m.close();
	writeFileSync(file, readFileSync(file, "utf8").replace(/\n$/, ""));
	const reopened = SessionManager.open(file);
	const id = reopened.appendMessage(user(`after ${"q".repeat(300)}`));
	const first = new WeakRef(reopened.getEntry(id)!);
	await Bun.sleep(0);
	Bun.gc(true);
	expect(first.deref()).toBeUndefined();
	expect(reopened.getEntry(id)).toMatchObject({ id, message: { role: "user", content: `after ${"q".repeat(300)}` } });
	expect(
		readFileSync(file, "utf8")
			.split("\n")
			.filter(Boolean)
			.map((l) => JSON.parse(l).type),
	).toEqual(["session", "message", "message", "message"]);
	reopened.close();
});
