/**
 * A session whose last record was cut at every byte offset (a crash mid-write): every complete entry loads, the
 * torn bytes go to `<session>.torn` before the next append, and that append parses. The loop runs over the session
 * layer (hundreds of offsets in well under a second); a few offsets go through the compiled binary as well.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { realFileOps, SessionManager } from "../../src/session/index.ts";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";
import { assistant, cleanupTempDirs, tempDir, user } from "../unit/session/helpers.ts";

afterAll(cleanupTempDirs);

/** The real file operations without fsync (the .torn sidecar is forced to disk; hundreds of times here is slow). */
const NO_FSYNC = { ...realFileOps, fsync: () => {} };

/** A session file whose last line is an assistant message of about `size` bytes (with multi-byte characters). */
function sessionWithLastRecord(size: number): { bytes: Buffer; lastStart: number; ids: string[] } {
	const dir = tempDir();
	const m = SessionManager.create("/p", dir);
	m.appendMessage(user("first"));
	m.appendMessage(assistant("one"));
	m.appendMessage(user("second"));
	m.appendMessage(assistant(`héllo — ${"ü✓".repeat(Math.max(1, Math.floor(size / 5)))}`));
	const ids = m.getEntries().map((e) => e.id);
	const file = m.getSessionFile()!;
	m.close();
	const bytes = readFileSync(file);
	const lastStart = bytes.lastIndexOf(10, bytes.length - 2) + 1;
	return { bytes, lastStart, ids };
}

function lines(file: string): Record<string, any>[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((l) => l !== "")
		.map((l) => JSON.parse(l));
}

/** Cuts the last record after `cut` of its bytes, opens, appends; returns what went wrong (undefined: all held). */
function tornAt(dir: string, s: ReturnType<typeof sessionWithLastRecord>, cut: number): string | undefined {
	const file = join(dir, "s.jsonl");
	const torn = `${file}.torn`;
	rmSync(torn, { force: true });
	const prefix = s.bytes.subarray(0, s.lastStart);
	const fragment = s.bytes.subarray(s.lastStart, s.lastStart + cut);
	writeFileSync(file, Buffer.concat([prefix, fragment]));
	const whole = s.lastStart + cut >= s.bytes.length - 1; // all of the JSON, with or without its "\n"
	const m = SessionManager.open(file, undefined, undefined, { fileOps: NO_FSYNC });
	const loaded = m.getEntries().map((e) => e.id);
	const expected = whole ? s.ids : s.ids.slice(0, -1);
	if (JSON.stringify(loaded) !== JSON.stringify(expected)) return `cut ${cut}: loaded ${loaded.length} entries`;
	const added = m.appendMessage(user("after the crash"));
	m.close();
	let parsed: Record<string, any>[];
	try {
		parsed = lines(file);
	} catch (error) {
		return `cut ${cut}: a line does not parse after the append (${(error as Error).message})`;
	}
	const last = parsed.at(-1)!;
	if (last.id !== added || last.parentId !== expected.at(-1)) return `cut ${cut}: the append is not chained`;
	if (!readFileSync(file).subarray(0, s.lastStart).equals(prefix)) return `cut ${cut}: earlier bytes changed`;
	const tornKept = cut > 0 && !whole;
	if (tornKept && !readFileSync(torn).equals(Buffer.concat([fragment, Buffer.from("\n")]))) {
		return `cut ${cut}: the torn bytes are not in ${torn}`;
	}
	if (!tornKept && existsSync(torn)) return `cut ${cut}: a .torn file for a whole line`;
	return undefined;
}

test("a last record torn at every byte offset: all complete entries load, the bytes kept aside, the next append parses", () => {
	const s = sessionWithLastRecord(300);
	const dir = tempDir();
	const length = s.bytes.length - s.lastStart;
	const problems: string[] = [];
	for (let cut = 0; cut <= length; cut++) {
		const problem = tornAt(dir, s, cut);
		if (problem) problems.push(problem);
	}
	console.log(`torn last record: ${length + 1} offsets of a ${length}-byte record, ${problems.length} failed`);
	expect(problems).toEqual([]);
}, 30_000);

test("a 64 KiB last record torn at 600 offsets spread over it (both ends included)", () => {
	const s = sessionWithLastRecord(64 * 1024);
	const dir = tempDir();
	const length = s.bytes.length - s.lastStart;
	const cuts = new Set([0, 1, 2, length - 2, length - 1, length]);
	for (let i = 0; i < 594; i++) cuts.add(Math.floor((i * length) / 594));
	const problems = [...cuts].map((cut) => tornAt(dir, s, cut)).filter((p) => p !== undefined);
	expect(problems).toEqual([]);
}, 30_000);

test("through the binary: a torn last record at a few offsets is cut back, kept in .torn, and the run goes on", async () => {
	const server = startMockLlm();
	try {
		const home = makeTempDir("pi-rel-home-");
		writeMockModels(home, server.url);
		const s = sessionWithLastRecord(300);
		const length = s.bytes.length - s.lastStart;
		for (const cut of [1, 37, Math.floor(length / 2), length - 2]) {
			const dir = makeTempDir("pi-rel-torn-");
			const file = join(dir, "s.jsonl");
			const fragment = s.bytes.subarray(s.lastStart, s.lastStart + cut);
			writeFileSync(file, Buffer.concat([s.bytes.subarray(0, s.lastStart), fragment]));
			server.push({ kind: "reply", text: `answer after cut ${cut}` });
			const run = await runPiAsync(["--session", file, "--model", "mock/mock-1", "-p", "go on"], { home });
			expect(run.exitCode).toBe(0);
			expect(run.stdout).toContain(`answer after cut ${cut}`);
			expect(run.stderr).toContain(`ignored torn last line (${cut} bytes, no newline)`);
			expect(readFileSync(`${file}.torn`).equals(Buffer.concat([fragment, Buffer.from("\n")]))).toBe(true);
			const parsed = lines(file);
			expect(parsed.slice(1, 4).map((e) => e.id)).toEqual(s.ids.slice(0, 3));
			expect(parsed.at(-1)).toMatchObject({ type: "message", message: { role: "assistant" } });
		}
	} finally {
		server.stop();
	}
}, 60_000);
