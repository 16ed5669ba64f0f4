/**
 * The interactive benchmark's generated sessions (scripts/bench/interactive-sessions.ts) are the same bytes every
 * time, hold what was asked for, and open as valid v3 sessions.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { replyMarkdown, writeSession } from "../../scripts/bench/interactive-sessions.ts";
import { SessionManager } from "../../src/session/index.ts";
import { makeTempDir } from "../helpers/tmp.ts";

const base = { provider: "mock", model: "mock-1" };

describe("writeSession", () => {
	test("an entry count is met exactly, with every tool call answered", () => {
		const dir = makeTempDir("bench-sessions-");
		const file = join(dir, "s.jsonl");
		const stats = writeSession(file, { ...base, cwd: dir, entries: 2000, endMarker: "END" });
		expect(stats.entries).toBe(2000);
		const lines = readFileSync(file, "utf8").trimEnd().split("\n").slice(1);
		const calls = lines.flatMap(
			(l) => JSON.parse(l).message?.content?.filter?.((c: { type: string }) => c.type === "toolCall") ?? [],
		);
		const results = lines.filter((l) => JSON.parse(l).message?.role === "toolResult");
		expect(results).toHaveLength(calls.length);
	});

	test("the same spec gives the same bytes", () => {
		const dir = makeTempDir("bench-sessions-");
		const a = writeSession(join(dir, "a.jsonl"), { ...base, cwd: dir, messages: 120 });
		const b = writeSession(join(dir, "b.jsonl"), { ...base, cwd: dir, messages: 120 });
		expect(a).toEqual(b);
		expect(readFileSync(join(dir, "a.jsonl"), "utf8")).toBe(readFileSync(join(dir, "b.jsonl"), "utf8"));
	});

	test("a message count, ending with the marker message, opens as a v3 session with every message", () => {
		const dir = makeTempDir("bench-sessions-");
		const file = join(dir, "s.jsonl");
		const stats = writeSession(file, { ...base, cwd: dir, messages: 300, endMarker: "THE-END" });
		expect(stats.messages).toBe(300);
		const lines = readFileSync(file, "utf8").trimEnd().split("\n");
		expect(JSON.parse(lines[0] as string)).toMatchObject({ type: "session", version: 3, cwd: dir });
		expect(lines).toHaveLength(stats.entries + 1);
		const last = JSON.parse(lines.at(-1) as string);
		expect(last.message.content).toEqual([{ type: "text", text: "THE-END" }]);

		const manager = SessionManager.open(file, undefined, undefined, { readOnly: true });
		const messages = manager.buildSessionContext().messages;
		expect(messages).toHaveLength(stats.messages);
		const kinds = new Set<string>();
		for (const m of messages)
			if ("content" in m && Array.isArray(m.content)) for (const part of m.content) kinds.add(part.type);
		expect([...kinds].sort()).toEqual(["text", "thinking", "toolCall"]);
		expect(new Set(messages.map((m) => m.role))).toEqual(new Set(["user", "assistant", "toolResult"]));
	});

	test("a size target with compactions: the context starts at the last compaction", () => {
		const dir = makeTempDir("bench-sessions-");
		const file = join(dir, "s.jsonl");
		const stats = writeSession(file, { ...base, cwd: dir, bytes: 2_000_000, compactEvery: 500, compactKeep: 100 });
		expect(stats.bytes).toBeGreaterThanOrEqual(2_000_000);
		expect(stats.bytes).toBeLessThan(2_100_000);
		expect(stats.compactions).toBeGreaterThan(0);
		const manager = SessionManager.open(file, undefined, undefined, { readOnly: true });
		expect(manager.buildSessionContext().messages.length).toBeLessThan(stats.entries - 400);
	});
});

test("replyMarkdown has the exact length and ends on its marker's line", () => {
	const text = replyMarkdown(8000, "END-MARK");
	expect(text).toHaveLength(8000);
	expect(text.split("\n").at(-1)).toStartWith("END-MARK");
	expect(replyMarkdown(8000, "END-MARK")).toBe(text);
});
