/**
 * pi 0.87.1's free session helpers as the SDK exports them (parseSessionEntries, migrateSessionEntries,
 * buildSessionContext, buildContextEntries, buildSessionProjection, getLatestCompactionEntry,
 * sessionEntryToContextMessages, CURRENT_SESSION_VERSION), used on a real v1 file written by pi. Expectations are
 * computed from the raw lines and the format documentation, not from our own output.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
	buildContextEntries,
	buildSessionContext,
	buildSessionProjection,
	CURRENT_SESSION_VERSION,
	type FileEntry,
	getLatestCompactionEntry,
	migrateSessionEntries,
	parseSessionEntries,
	type SessionEntry,
	sessionEntryToContextMessages,
} from "../../../src/sdk/pi-coding-agent.ts";

const FIXTURE = join(import.meta.dir, "..", "..", "..", "..", "shared", "fixtures", "pi-sessions");

type RawLine = { type: string; message?: { role: string }; firstKeptEntryIndex?: number; thinkingLevel?: string };

function load(name: string): { text: string; raw: RawLine[] } {
	const text = readFileSync(join(FIXTURE, name), "utf8");
	const raw = text
		.split("\n")
		.filter((l) => l.trim() !== "")
		.map((l) => JSON.parse(l) as RawLine);
	return { text, raw };
}

const roleCounts = (roles: string[]) =>
	roles.reduce<Record<string, number>>((acc, r) => {
		acc[r] = (acc[r] ?? 0) + 1;
		return acc;
	}, {});

describe("pi's session helpers (SDK exports) on v1-before-compaction.jsonl", () => {
	test("parse → migrate → latest compaction → context, as the format documents", () => {
		const { text, raw } = load("v1-before-compaction.jsonl");
		const entries: FileEntry[] = parseSessionEntries(text);
		expect(entries).toHaveLength(raw.length);
		expect(CURRENT_SESSION_VERSION).toBe(3);
		expect((entries[0] as { version?: number }).version).toBeUndefined();

		migrateSessionEntries(entries);
		const header = entries[0] as { type: string; version: number };
		expect(header).toMatchObject({ type: "session", version: CURRENT_SESSION_VERSION });
		const body = entries.slice(1) as SessionEntry[];
		// v1 → v2: ids in file order, each entry's parent the previous one.
		body.forEach((entry, i) => {
			expect(typeof entry.id).toBe("string");
			expect(entry.parentId).toBe(i === 0 ? null : (body[i - 1] as SessionEntry).id);
		});

		// The latest compaction: its firstKeptEntryIndex (a file line index, header = 0) became firstKeptEntryId.
		const compactionLine = raw.map((l) => l.type).lastIndexOf("compaction");
		const keptLine = raw[compactionLine]?.firstKeptEntryIndex as number;
		const latest = getLatestCompactionEntry(body);
		expect(latest).toBe(entries[compactionLine] as never);
		expect(latest?.firstKeptEntryId).toBe((entries[keptLine] as SessionEntry).id);

		// Context: the summary, the kept messages from firstKept up to the compaction, then everything after it.
		const messageRoles = (lines: RawLine[]) => lines.flatMap((l) => (l.type === "message" ? [l.message?.role] : []));
		const expected = [
			"compactionSummary",
			...messageRoles(raw.slice(keptLine, compactionLine)),
			...messageRoles(raw.slice(compactionLine + 1)),
		] as string[];
		const context = buildSessionContext(body);
		const roles: string[] = context.messages.map((m) => m.role);
		expect(roleCounts(roles)).toEqual(roleCounts(expected));
		expect(roles).toEqual(expected);
		const first = context.messages[0] as { role: string; summary: string; tokensBefore: number };
		expect(first.summary).toBe(latest?.summary as string);
		expect(first.tokensBefore).toBe(latest?.tokensBefore as number);
		const lastThinking = raw.filter((l) => l.type === "thinking_level_change").at(-1)?.thinkingLevel;
		expect(context.thinkingLevel).toBe(lastThinking as string);
		expect(context.model).not.toBeNull();

		// The same selection as entries, and as a projection with provenance.
		const contextEntries = buildContextEntries(body);
		expect(contextEntries[0]).toBe(latest as never);
		expect(contextEntries[1]?.id).toBe(latest?.firstKeptEntryId as string);
		const projection = buildSessionProjection(body);
		expect(projection.messages).toEqual(context.messages);
		expect(projection.entries.flatMap((p) => p.messages)).toEqual(context.messages);

		// One entry at a time.
		expect(sessionEntryToContextMessages(latest as SessionEntry).map((m) => m.role)).toEqual(["compactionSummary"]);
		const user = body.find((e) => e.type === "message" && e.message.role === "user") as SessionEntry;
		expect(sessionEntryToContextMessages(user)).toEqual([(user as Extract<SessionEntry, { type: "message" }>).message]);
		const thinking = body.find((e) => e.type === "thinking_level_change") as SessionEntry;
		expect(sessionEntryToContextMessages(thinking)).toEqual([]);
	});

	test("migrateSessionEntries takes lines without a header as version 1; current files are left alone", () => {
		const { text } = load("v1-before-compaction.jsonl");
		const lines = parseSessionEntries(text).slice(1, 4);
		migrateSessionEntries(lines);
		const ids = lines.map((e) => (e as SessionEntry).id);
		expect(ids.every((id) => typeof id === "string")).toBe(true);
		expect(lines.map((e) => (e as SessionEntry).parentId)).toEqual([null, ids[0] as string, ids[1] as string]);
		const current = structuredClone(lines);
		current.unshift({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/" } as FileEntry);
		const copy = structuredClone(current);
		migrateSessionEntries(current);
		expect(current).toEqual(copy);
	});
});
