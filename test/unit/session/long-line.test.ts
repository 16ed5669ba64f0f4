/**
 * Message lines longer than the loader's walk buffer are indexed from their first bytes (see long-line.ts); anything
 * unusual about them (CRLF, `"parentId":` in the content, a torn entry glued in front, a NUL byte, no final newline)
 * is handled as for short lines.
 */
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "../../../src/session/index.ts";
import { assistant, cleanupTempDirs, tempDir, user } from "./helpers.ts";

afterAll(cleanupTempDirs);

const T = "2026-01-01T00:00:00.000Z";
const header = JSON.stringify({
	type: "session",
	version: 3,
	id: "0194f0c0-0000-7000-8000-0000000010e1",
	timestamp: T,
	cwd: "/p",
});
const line = (id: string, parentId: string | null, text: string) =>
	JSON.stringify({ type: "message", id, parentId, timestamp: T, message: { ...user(text) } });

function open(text: string): SessionManager {
	const file = join(tempDir(), "s.jsonl");
	writeFileSync(file, text);
	return SessionManager.open(file, undefined, undefined, { readOnly: true });
}

const texts = (m: SessionManager) =>
	m.getEntries().map((e) => (e.type === "message" ? String((e.message as any).content).slice(0, 12) : e.type));

test("long message lines (300 KB, 1 MB, 3 MB) load lazily and read back whole, LF or CRLF", () => {
	const big = ["a".repeat(300_000), "b".repeat(1_000_000), "c".repeat(3_000_000)];
	for (const eol of ["\n", "\r\n"]) {
		const lines = [
			header,
			line("e1", null, big[0]!),
			line("e2", "e1", "short"),
			line("e3", "e2", big[1]!),
			line("e4", "e3", big[2]!),
		];
		const m = open(`${lines.join(eol)}${eol}`);
		const entries = m.getEntries();
		expect(entries.map((e) => e.id)).toEqual(["e1", "e2", "e3", "e4"]);
		expect(entries.map((e) => (e as any).message.content.length)).toEqual([300_000, 5, 1_000_000, 3_000_000]);
		expect(m.getDiagnostics()).toEqual([]);
	}
});

test('a long line with "parentId": in its content, or a NUL byte, is parsed whole', () => {
	const tricky = `${"x".repeat(400_000)} "parentId": ${"y".repeat(10)}`;
	const lines = [header, line("e1", null, tricky), line("e2", "e1", "short")];
	expect(texts(open(`${lines.join("\n")}\n`))).toEqual(["xxxxxxxxxxxx", "short"]);
	const nul = [
		header,
		line("e1", null, "first"),
		line("e2", "e1", "x").replace('"x"', `"${"n".repeat(400_000)}`) + '\u0000"}}',
		line("e3", "e1", "third"),
	];
	const m = open(`${nul.join("\n")}\n`);
	expect(texts(m)).toEqual(["first", "third"]);
	expect(m.getDiagnostics().join("\n")).toContain("s.jsonl:3: skipped corrupt line");
});

test("a torn entry glued in front of a long whole one: the whole one is kept", () => {
	const torn = line("t1", "e1", "torn").slice(0, 40);
	const lines = [header, line("e1", null, "first"), torn + line("e2", "e1", "z".repeat(500_000))];
	const m = open(`${lines.join("\n")}\n`);
	expect(m.getEntries().map((e) => e.id)).toEqual(["e1", "e2"]);
	expect(m.getDiagnostics().join("\n")).toContain("a torn entry runs into entry e2");
});

test("a long last line without a newline: kept when whole, ignored as torn when cut", () => {
	const whole = [header, line("e1", null, "first"), line("e2", "e1", "w".repeat(600_000))].join("\n");
	expect(
		open(whole)
			.getEntries()
			.map((e) => e.id),
	).toEqual(["e1", "e2"]);
	const cut = whole.slice(0, -100);
	const m = open(cut);
	expect(m.getEntries().map((e) => e.id)).toEqual(["e1"]);
	expect(m.getDiagnostics().join("\n")).toContain("ignored torn last line");
});

test("a session written by the manager with long entries reopens to the same entries", () => {
	const m = SessionManager.create("/p", tempDir());
	m.appendMessage(user("q".repeat(700_000)));
	m.appendMessage(assistant("r".repeat(2_000_000)));
	m.appendMessage(user("next"));
	const file = m.getSessionFile()!;
	const before = m.getEntries();
	m.close();
	const again = SessionManager.open(file, undefined, undefined, { readOnly: true });
	expect(again.getEntries()).toEqual(before);
});
