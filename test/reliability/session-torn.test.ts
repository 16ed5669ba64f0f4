/**
 * A session whose last record was cut at every byte offset (a crash mid-write): every complete entry loads, the
 * torn bytes go to `<session>.torn` before the next append, and that append parses. The loop runs over the session
 * layer (hundreds of offsets in well under a second); a few offsets go through the compiled binary as well.
 */
import { afterAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";
import { cleanupTempDirs, tempDir } from "../unit/session/helpers.ts";
import { sessionWithLastRecord, tornAt } from "./torn.ts";

afterAll(cleanupTempDirs);

function lines(file: string): Record<string, any>[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((l) => l !== "")
		.map((l) => JSON.parse(l));
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
