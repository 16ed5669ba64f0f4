import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import {
	type BashExecutionMessage,
	CURRENT_SESSION_VERSION,
	encodeCwd,
	getDefaultSessionDir,
	type SessionEntry,
	SessionManager,
	type SystemMessage,
	uuidv7,
} from "../../../src/session/index.ts";
import { assistant, cleanupTempDirs, readJsonl, tempDir, toolResult, usage, user } from "./helpers.ts";

afterAll(cleanupTempDirs);

const HEX8 = /^[0-9a-f]{8}$/;
const UUID7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Appends one entry of every type (and every stored message role); returns the manager. */
function everyEntryType(dir: string): SessionManager {
	const m = SessionManager.create("/projects/demo", dir);
	const u = m.appendMessage(user("hello"));
	m.appendMessage(assistant("hi"));
	m.appendMessage(toolResult("call_1", "output"));
	const bash: BashExecutionMessage = {
		role: "bashExecution",
		command: "ls",
		output: "a\nb",
		exitCode: 0,
		cancelled: false,
		truncated: false,
		timestamp: 1,
	};
	m.appendMessage(bash);
	m.appendMessage({ role: "custom", customType: "ext", content: "injected", display: true, timestamp: 2 });
	const system: SystemMessage = { role: "system", content: "", sections: { preamble: "You are pi." }, timestamp: 3 };
	m.appendMessage(system);
	m.appendThinkingLevelChange("high");
	m.appendModelChange("openai", "gpt-4o");
	m.appendUsage("cache_warm", "anthropic", "claude-sonnet-4-5", usage, "warmed");
	m.appendCompaction("summary text", u, 50000, { readFiles: ["a.ts"], modifiedFiles: [] }, false, usage);
	m.appendBranchSummary("root", "branch text", { readFiles: [] }, true);
	m.appendCustomEntry("my-ext", { count: 42 });
	m.appendCustomMessageEntry("my-ext", [{ type: "text", text: "ctx" }], false, { secret: 1 });
	m.appendContextEdit(u, { content: "edited" });
	m.appendLabelChange(u, "checkpoint-1");
	m.appendSessionInfo("Refactor auth");
	return m;
}

describe("entry round trip", () => {
	test("every entry type is written as one line and reads back equal", () => {
		const dir = tempDir();
		const m = everyEntryType(dir);
		const file = m.getSessionFile()!;
		const written = m.getEntries();
		expect(new Set(written.map((e) => e.type)).size).toBe(11);
		m.close();

		const lines = readJsonl(file);
		expect(lines).toHaveLength(written.length + 1);
		const reopened = SessionManager.open(file);
		expect(reopened.getEntries()).toEqual(JSON.parse(JSON.stringify(written)) as SessionEntry[]);
		expect(reopened.getHeader()).toEqual(lines[0] as never);
		expect(reopened.getDiagnostics()).toEqual([]);
		expect(reopened.getLeafId()).toBe(written.at(-1)!.id);
		reopened.close();
	});

	test("lines keep pi's key order: type, id, parentId, timestamp first", () => {
		const m = everyEntryType(tempDir());
		const text = readFileSync(m.getSessionFile()!, "utf8").trimEnd().split("\n");
		expect(text[0]).toStartWith('{"type":"session","version":3,"id":"');
		for (const line of text.slice(1)) expect(line).toMatch(/^\{"type":"[a-z_]+","id":"[0-9a-f]{8}","parentId":/);
		m.close();
	});

	test("entry ids are unique 8-hex, parents chain, timestamps are ISO", () => {
		const m = everyEntryType(tempDir());
		const entries = m.getEntries();
		const ids = entries.map((e) => e.id);
		expect(new Set(ids).size).toBe(ids.length);
		for (const id of ids) expect(id).toMatch(HEX8);
		expect(entries[0]!.parentId).toBeNull();
		for (let i = 1; i < entries.length; i++) expect(entries[i]!.parentId).toBe(entries[i - 1]!.id);
		for (const e of entries) expect(new Date(e.timestamp).toISOString()).toBe(e.timestamp);
		m.close();
	});

	test("a retain-none compaction stores its own id as firstKeptEntryId", () => {
		const m = SessionManager.inMemory("/p");
		m.appendMessage(user("a"));
		const id = m.appendCompaction("s", null, 10);
		const entry = m.getEntry(id);
		expect(entry?.type === "compaction" && entry.firstKeptEntryId).toBe(id);
	});

	test("clearing a label writes a label entry without `label`", () => {
		const m = SessionManager.inMemory("/p");
		const u = m.appendMessage(user("a"));
		m.appendLabelChange(u, "x");
		const clear = m.appendLabelChange(u, "");
		expect(m.getEntry(clear)).not.toHaveProperty("label");
		expect(m.getLabel(u)).toBeUndefined();
	});

	test("summaries cannot be appended as messages", () => {
		const m = SessionManager.inMemory("/p");
		const summary = { role: "compactionSummary", summary: "s", tokensBefore: 1, timestamp: 1 } as never;
		expect(() => m.appendMessage(summary)).toThrow(/appendCompaction/);
	});
});

describe("header and file location", () => {
	test("header: type session, version 3, UUID v7 id, ISO timestamp, cwd", () => {
		const dir = tempDir();
		const m = SessionManager.create("/projects/demo", dir);
		m.appendMessage(user("hi"));
		m.appendMessage(assistant("hello"));
		const [header] = readJsonl(m.getSessionFile()!);
		expect(header).toEqual({
			type: "session",
			version: CURRENT_SESSION_VERSION,
			id: m.getSessionId(),
			timestamp: expect.any(String),
			cwd: "/projects/demo",
		});
		expect(header!.id).toMatch(UUID7);
		m.close();
	});

	test("file name is <ISO time with : and . as ->_<id>.jsonl inside the session dir", () => {
		const dir = tempDir();
		const m = SessionManager.create("/projects/demo", dir);
		const file = m.getSessionFile()!;
		expect(dirname(file)).toBe(dir);
		expect(basename(file)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z_[0-9a-f-]{36}\.jsonl$/);
		expect(basename(file)).toEndWith(`_${m.getSessionId()}.jsonl`);
		const header = m.getHeader()!;
		expect(basename(file).split("_")[0]).toBe(header.timestamp.replace(/[:.]/g, "-"));
	});

	test("default session dir is <agentDir>/sessions/--<encoded cwd>--", () => {
		expect(encodeCwd("/Users/a/proj")).toBe("--Users-a-proj--");
		expect(encodeCwd("C:\\Users\\a")).toBe("--C--Users-a--");
		expect(getDefaultSessionDir("/Users/a/proj", "/home/u/.pi/agent")).toBe(
			"/home/u/.pi/agent/sessions/--Users-a-proj--",
		);
		const m = SessionManager.create("/Users/a/proj");
		expect(m.usesDefaultSessionDir()).toBe(true);
		expect(m.getSessionDir()).toBe(getDefaultSessionDir("/Users/a/proj"));
	});

	test("a custom session id is used and validated", () => {
		const dir = tempDir();
		const m = SessionManager.create("/p", dir, { id: "my-session.1" });
		expect(m.getSessionId()).toBe("my-session.1");
		expect(m.getSessionFile()).toEndWith("_my-session.1.jsonl");
		expect(() => SessionManager.create("/p", dir, { id: "../escape" })).toThrow(/Invalid session id/);
		expect(() => SessionManager.create("/p", dir, { id: ".hidden" })).toThrow(/Invalid session id/);
	});

	test("uuidv7 puts the creation time in the first 48 bits", () => {
		const id = uuidv7(0x0190a0b0c0d0);
		expect(id).toMatch(UUID7);
		expect(id.replace(/-/g, "").slice(0, 12)).toBe("0190a0b0c0d0");
	});

	test("in-memory sessions never touch the disk", () => {
		const m = SessionManager.inMemory("/p");
		m.appendMessage(user("a"));
		m.appendMessage(assistant("b"));
		expect(m.getSessionFile()).toBeUndefined();
		expect(m.isPersisted()).toBe(false);
		expect(m.createBranchedSession(m.getLeafId()!)).toBeUndefined();
		expect(m.getEntries()).toHaveLength(2);
	});

	test("inMemory can start from file entries (migrated like a file)", () => {
		const m = SessionManager.inMemory("/p", undefined, [
			{ type: "session", id: "old", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" },
			{ type: "message", timestamp: "2025-01-01T00:00:01.000Z", message: user("v1 entry") } as never,
		]);
		const [entry] = m.getEntries();
		expect(entry?.id).toMatch(HEX8);
		expect(m.getHeader()?.version).toBe(3);
		expect(m.buildSessionContext().messages).toHaveLength(1);
	});
});

describe("entries in slices", () => {
	test("getEntriesBetween gives the slices of getEntries (a reopened file read lazily too)", () => {
		const dir = tempDir();
		const m = SessionManager.create("/projects/demo", dir);
		for (let i = 0; i < 25; i++) m.appendMessage(i % 2 ? assistant(`a${i}`) : user(`u${i}`));
		const file = m.getSessionFile() as string;
		m.close();
		const reopened = SessionManager.open(file);
		expect(reopened.getEntryCount()).toBe(25);
		const sliced = [0, 10, 20].flatMap((start) => reopened.getEntriesBetween(start, start + 10));
		expect(sliced.map((e) => e.id)).toEqual(reopened.getEntries().map((e) => e.id));
		reopened.close();
	});
});
