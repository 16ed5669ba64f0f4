/**
 * Migration of real pi v1 files. Expected values come from the raw fixture JSON read here, not from this
 * layer's own output: v1 lines have no ids; a compaction's `firstKeptEntryIndex` indexes the file's lines
 * (header = 0); the context of the last entry is [latest compaction summary, lines firstKeptEntryIndex … the
 * compaction, lines after it] restricted to messages, or every message when there is no compaction.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { migrateSessionEntries, parseSessionEntries, SessionManager } from "../../../src/session/index.ts";
import { cleanupTempDirs, copyFixture, FIXTURES, readJsonl, tempDir, textOf } from "./helpers.ts";

afterAll(cleanupTempDirs);

type Raw = Record<string, any>;

function rawLines(name: string): Raw[] {
	return readJsonl(join(FIXTURES, name));
}

function countRoles(messages: { role: string }[]): Record<string, number> {
	const out: Record<string, number> = {};
	for (const m of messages) out[m.role] = (out[m.role] ?? 0) + 1;
	return out;
}

/** The context pi's format docs define, computed from raw v1 lines (index 0 = header). */
function expectedContext(raw: Raw[]) {
	let compactionIndex = -1;
	for (let i = raw.length - 1; i > 0; i--) {
		if (raw[i]!.type === "compaction") {
			compactionIndex = i;
			break;
		}
	}
	const messagesOf = (lines: Raw[]) => lines.filter((l) => l.type === "message").map((l) => l.message);
	let messages: Raw[];
	if (compactionIndex < 0) messages = messagesOf(raw.slice(1));
	else {
		const c = raw[compactionIndex]!;
		messages = [
			{
				role: "compactionSummary",
				summary: c.summary,
				tokensBefore: c.tokensBefore,
				timestamp: Date.parse(c.timestamp),
			},
			...messagesOf(raw.slice(c.firstKeptEntryIndex, compactionIndex)),
			...messagesOf(raw.slice(compactionIndex + 1)),
		];
	}
	let thinkingLevel = "off";
	let model: { provider: string; modelId: string } | null = null;
	for (const l of raw.slice(1)) {
		if (l.type === "thinking_level_change") thinkingLevel = l.thinkingLevel;
		if (l.type === "model_change") model = { provider: l.provider, modelId: l.modelId };
		if (l.type === "message" && l.message.role === "assistant") {
			model = { provider: l.message.provider, modelId: l.message.model };
		}
	}
	return { messages, thinkingLevel, model, compactionIndex };
}

describe.each(["large-session.jsonl", "v1-before-compaction.jsonl"])("fixture %s", (name) => {
	const raw = rawLines(name);

	test("is a v1 file (no version, entries without ids)", () => {
		expect(raw[0]!.type).toBe("session");
		expect(raw[0]!.version).toBeUndefined();
		expect(raw.slice(1).every((l) => l.id === undefined && l.parentId === undefined)).toBe(true);
	});

	test("loads, migrates to v3 on disk (atomically, no leftovers) and builds the documented context", () => {
		const dir = tempDir();
		const file = copyFixture(name, dir);
		const m = SessionManager.open(file);
		expect(m.getDiagnostics()).toEqual([
			`${file}: migrated from format 1 to 3; the original is kept as ${file}.v1.bak`,
		]);

		// The file on disk is now v3: same header fields plus version, ids chained in file order.
		const lines = readJsonl(file);
		expect(lines[0]).toEqual({ ...raw[0], version: 3 });
		expect(lines).toHaveLength(raw.length);
		const entries = lines.slice(1);
		expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
		entries.forEach((e, i) => {
			expect(e.id).toMatch(/^[0-9a-f]{8}$/);
			expect(e.parentId).toBe(i === 0 ? null : entries[i - 1]!.id);
			expect(e.type).toBe(raw[i + 1]!.type);
			if (e.type === "message") expect(e.message).toEqual(raw[i + 1]!.message);
			expect(e.firstKeptEntryIndex).toBeUndefined();
		});
		// The original bytes stay beside it, for the user (or an older pi).
		expect(readFileSync(`${file}.v1.bak`, "utf8")).toBe(readFileSync(join(FIXTURES, name), "utf8"));
		expect(existsSync(`${file}.tmp`)).toBe(false);

		const expected = expectedContext(raw);
		const ctx = m.buildSessionContext();
		expect(ctx.thinkingLevel).toBe(expected.thinkingLevel);
		expect(ctx.model).toEqual(expected.model);
		expect(countRoles(ctx.messages)).toEqual(countRoles(expected.messages as never));
		expect(ctx.messages).toEqual(expected.messages as never);
		expect(ctx.messages.at(-1)).toEqual(raw.findLast((l) => l.type === "message")!.message);
		m.close();

		// A second open reads v3 directly (lazy path) and gives the same context.
		const again = SessionManager.open(file);
		expect(again.getDiagnostics()).toEqual([]);
		expect(again.buildSessionContext()).toEqual(JSON.parse(JSON.stringify(ctx)));
		again.close();
	});

	test("a read-only open migrates in memory only", () => {
		const dir = tempDir();
		const file = copyFixture(name, dir);
		const before = readFileSync(file);
		const m = SessionManager.open(file, undefined, undefined, { readOnly: true });
		expect(m.buildSessionContext().messages).toHaveLength(expectedContext(raw).messages.length);
		expect(readFileSync(file).equals(before)).toBe(true);
		expect(() => m.appendMessage({ role: "user", content: "x", timestamp: 1 })).toThrow(/read-only/);
	});
});

describe("v1-before-compaction.jsonl boundaries", () => {
	const raw = rawLines("v1-before-compaction.jsonl");

	test("the kept messages start at the latest compaction's firstKeptEntryIndex", () => {
		const compactions = raw.map((l, i) => [l, i] as const).filter(([l]) => l.type === "compaction");
		expect(compactions.length).toBeGreaterThanOrEqual(2);
		const [last, lastIndex] = compactions.at(-1)!;
		const firstKept = raw[last.firstKeptEntryIndex]!;
		expect(firstKept.type).toBe("message");

		const dir = tempDir();
		const m = SessionManager.open(copyFixture(name(), dir));
		const ctx = m.buildSessionContext().messages;
		expect(ctx[0]).toMatchObject({ role: "compactionSummary", summary: last.summary, tokensBefore: last.tokensBefore });
		expect(ctx[1]).toEqual(firstKept.message);
		expect(textOf(ctx[1] as never)).toBe(textOf(firstKept.message));

		// The migrated compaction names the entry that sat at that index.
		const entries = m.getEntries();
		const compaction = entries.filter((e) => e.type === "compaction").at(-1)!;
		const keptEntry = entries[last.firstKeptEntryIndex - 1]!;
		expect(compaction.type === "compaction" && compaction.firstKeptEntryId).toBe(keptEntry.id);

		// The message right after the compaction line follows the kept range.
		const keptCount = raw.slice(last.firstKeptEntryIndex, lastIndex).filter((l) => l.type === "message").length;
		expect(ctx[1 + keptCount]).toEqual(raw.slice(lastIndex + 1).find((l) => l.type === "message")!.message);

		// Branching to before the latest compaction shows the earlier one instead.
		const [first, firstIndex] = compactions[0]!;
		m.branch(entries[firstIndex]!.id);
		const earlier = m.buildSessionContext().messages;
		expect(earlier[0]).toMatchObject({ role: "compactionSummary", summary: first.summary });
		expect(earlier[1]).toEqual(raw[first.firstKeptEntryIndex]!.message);
		m.close();
	});

	function name() {
		return "v1-before-compaction.jsonl";
	}
});

describe("synthetic old files", () => {
	test("v2: hookMessage role becomes custom; ids kept", () => {
		const dir = tempDir();
		const file = join(dir, "v2.jsonl");
		const lines = [
			{ type: "session", version: 2, id: "s2", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" },
			{
				type: "message",
				id: "aaaaaaaa",
				parentId: null,
				timestamp: "2025-01-01T00:00:01.000Z",
				message: { role: "user", content: "hi", timestamp: 1 },
			},
			{
				type: "message",
				id: "bbbbbbbb",
				parentId: "aaaaaaaa",
				timestamp: "2025-01-01T00:00:02.000Z",
				message: { role: "hookMessage", customType: "h", content: "from a hook", display: true, timestamp: 2 },
			},
		];
		writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
		const m = SessionManager.open(file);
		expect(m.getEntries().map((e) => e.id)).toEqual(["aaaaaaaa", "bbbbbbbb"]);
		expect(m.buildSessionContext().messages.map((x) => x.role)).toEqual(["user", "custom"]);
		expect(readJsonl(file)[2]!.message.role).toBe("custom");
		expect(readJsonl(file)[0]!.version).toBe(3);
		m.close();
	});

	test("v1 compaction whose index points nowhere keeps nothing (with a diagnostic); corrupt lines survive the rewrite", () => {
		const dir = tempDir();
		const file = join(dir, "v1.jsonl");
		const text = [
			JSON.stringify({ type: "session", id: "s1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" }),
			JSON.stringify({
				type: "message",
				timestamp: "2025-01-01T00:00:01.000Z",
				message: { role: "user", content: "a", timestamp: 1 },
			}),
			"{this is not json",
			JSON.stringify({
				type: "compaction",
				timestamp: "2025-01-01T00:00:02.000Z",
				summary: "S",
				firstKeptEntryIndex: 99,
				tokensBefore: 5,
			}),
			JSON.stringify({
				type: "message",
				timestamp: "2025-01-01T00:00:03.000Z",
				message: { role: "user", content: "b", timestamp: 2 },
			}),
		].join("\n");
		writeFileSync(file, `${text}\n`);
		// A crash during an earlier migration left these behind; they must not get in the way.
		writeFileSync(`${file}.tmp`, "partial");
		writeFileSync(`${file}.v1.bak`, "old backup");
		const m = SessionManager.open(file);
		expect(m.buildSessionContext().messages.map((x) => textOf(x as never))).toEqual(["S", "b"]);
		const diagnostics = m.getDiagnostics().join("\n");
		expect(diagnostics).toContain(`${file}:3: skipped corrupt line`);
		expect(diagnostics).toContain("firstKeptEntryIndex 99 points at no entry");
		const after = readFileSync(file, "utf8").split("\n");
		expect(after[2]).toBe("{this is not json");
		expect(existsSync(`${file}.tmp`)).toBe(false);
		// The stale backup was replaced by this file's original.
		expect(readFileSync(`${file}.v1.bak`, "utf8")).toBe(`${text}\n`);
		m.close();
	});
});

describe("pi's helper functions", () => {
	test("parseSessionEntries + migrateSessionEntries on a fixture give v3 entries in file order", () => {
		const entries = parseSessionEntries(readFileSync(join(FIXTURES, "large-session.jsonl"), "utf8"));
		const raw = rawLines("large-session.jsonl");
		expect(entries).toHaveLength(raw.length);
		migrateSessionEntries(entries);
		expect(entries[0]).toMatchObject({ type: "session", version: 3 });
		const rest = entries.slice(1) as { id: string; parentId: string | null; type: string }[];
		rest.forEach((e, i) => {
			expect(e.parentId).toBe(i === 0 ? null : rest[i - 1]!.id);
			expect(e.type).toBe(raw[i + 1]!.type);
		});
	});
});
