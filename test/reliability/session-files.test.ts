/**
 * What the compiled binary does with session files it did not write alone: another process appending behind our
 * back, rewriting the file in place, saving an edited copy over it or deleting it (the next append is refused and
 * RPC clients get a `session_save_failed` event), a torn last line (cut back before the next write, its bytes kept
 * in `<file>.torn`), and a v1 file (migrated, the original kept as `<file>.v1.bak`). The shared fixtures are copied
 * to a temp folder, never opened in place.
 */
import { afterAll, expect, test } from "bun:test";
import { appendFileSync, chmodSync, copyFileSync, existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";
import { FOREIGN_CHANGES, foreignChangeCase } from "./foreign-change.ts";

const server = startMockLlm();
afterAll(() => server.stop());

const FIXTURES = join(import.meta.dir, "..", "..", "..", "shared", "fixtures", "pi-sessions");

/** Every line of a JSONL file parses. */
function parsedLines(file: string): Record<string, any>[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line));
}

for (const change of ["append", "rewrite", "rename", "delete"] as const) {
	test(`another program changes our session (${change}): the next append is refused and the RPC client is told`, async () => {
		const r = await foreignChangeCase(server, change);
		expect(r.writtenBefore).toBe(true);
		expect(r.notices).toHaveLength(1);
		expect(r.notices[0]).toMatchObject({ reason: "file_changed", sessionFile: r.file });
		expect(r.notices[0]!.message).toContain(`another program ${FOREIGN_CHANGES[change].verb} ${r.file}`);
		expect(r.stderrLines).toHaveLength(1);
		expect(r.stderrLines[0]).toContain("Session not saved from here on");
		// The run still goes on to its answer.
		expect(r.answered).toBe(true);
		expect(r.exitCode).toBe(0);
		// Nothing was glued onto the other program's bytes: what is at the path (if anything) is theirs alone.
		expect(r.after).toBe(r.before);
		if (change === "delete") return;
		const lines = parsedLines(r.file);
		expect(lines[0]).toMatchObject({ type: "session" });
		if (change === "append") expect(lines.at(-1)).toMatchObject({ customType: "other-process" });
	}, 60_000);
}

/** A home with the mock models and one session written by `pi -p`; returns the session file. */
async function sessionWithOneTurn(): Promise<{ home: string; file: string }> {
	const home = makeTempDir("pi-rel-home-");
	writeMockModels(home, server.url);
	const sessions = join(home, "sessions");
	server.push({ kind: "reply", text: "one" });
	const run = await runPiAsync(["--session-dir", sessions, "-p", "first"], { home });
	expect(run.exitCode).toBe(0);
	const { readdirSync } = await import("node:fs");
	const name = readdirSync(sessions).find((n) => n.endsWith(".jsonl"));
	if (!name) throw new Error(`no session written: ${run.stderr}`);
	return { home, file: join(sessions, name) };
}

test("a torn last line: cut back before the next write, its bytes kept in <file>.torn", async () => {
	const { home, file } = await sessionWithOneTurn();
	const whole = readFileSync(file, "utf8");
	const fragment = '{"type":"message","id":"deadbeef","parentId":"abc","message":{"role":"user","content":"half a li';
	appendFileSync(file, fragment);
	server.push({ kind: "reply", text: "two" });
	const run = await runPiAsync(["--session", file, "-p", "second"], { home });
	expect(run.exitCode).toBe(0);
	expect(run.stdout).toContain("two");
	expect(run.stderr).toContain(`ignored torn last line (${fragment.length} bytes, no newline)`);
	expect(run.stderr).toContain(`${file}.torn`);
	expect(readFileSync(`${file}.torn`, "utf8")).toBe(`${fragment}\n`);
	const after = readFileSync(file, "utf8");
	expect(after.startsWith(whole)).toBe(true);
	const lines = parsedLines(file);
	expect(lines.at(-1)).toMatchObject({ type: "message", message: { role: "assistant" } });
}, 60_000);

test("a v1 session is migrated on load and the original is kept as <file>.v1.bak", async () => {
	const home = makeTempDir("pi-rel-home-");
	writeMockModels(home, server.url);
	const dir = makeTempDir("pi-rel-sessions-");
	const source = join(FIXTURES, "v1-before-compaction.jsonl");
	if (!existsSync(source)) {
		console.log(`skipped: the shared fixture ${source} is not there`);
		return;
	}
	const file = join(dir, "v1-before-compaction.jsonl");
	copyFileSync(source, file);
	chmodSync(file, 0o644);
	const original = readFileSync(file);
	server.push({ kind: "reply", text: "migrated answer" });
	// The session names a model of its own; the command line's wins.
	const run = await runPiAsync(["--session", file, "--model", "mock/mock-1", "-p", "continue"], { home });
	expect(run.exitCode).toBe(0);
	expect(run.stdout).toContain("migrated answer");
	expect(run.stderr).toContain(`migrated from format 1 to 3; the original is kept as ${file}.v1.bak`);
	expect(readFileSync(`${file}.v1.bak`).equals(original)).toBe(true);
	expect(parsedLines(file)[0]).toMatchObject({ type: "session", version: 3 });
	expect(statSync(file).size).toBeGreaterThan(original.length);
	// The fixture itself is untouched.
	expect(readFileSync(source).equals(original)).toBe(true);
}, 60_000);
