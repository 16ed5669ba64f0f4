/**
 * What the compiled binary does with session files it did not write alone: another process appending behind our
 * back or saving an edited copy over the file (the next append is refused and RPC clients get a `session_save_failed` event), a torn last line (cut back
 * before the next write, its bytes kept in `<file>.torn`), and a v1 file (migrated, the original kept as
 * `<file>.v1.bak`). The shared fixtures are copied to a temp folder, never opened in place.
 */
import { afterAll, expect, test } from "bun:test";
import {
	appendFileSync,
	chmodSync,
	copyFileSync,
	existsSync,
	readFileSync,
	renameSync,
	statSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";
import { startRpcProcess } from "./rpc-process.ts";

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

/** How another program changes the file: appending a line, or saving an edited copy over it (rename). */
const foreignChanges: [string, string, (file: string) => void][] = [
	[
		"appends to",
		"wrote to",
		(file) => {
			const line = { type: "custom", id: "0f0f0f0f", parentId: null, timestamp: new Date().toISOString() };
			appendFileSync(file, `${JSON.stringify({ ...line, customType: "other-process" })}\n`);
		},
	],
	[
		"saves an edited copy over",
		"replaced",
		(file) => {
			writeFileSync(`${file}.edit`, readFileSync(file, "utf8").replace("first answer", "FIRST ANSWER"));
			renameSync(`${file}.edit`, file);
		},
	],
];

for (const [what, verb, change] of foreignChanges) {
	test(`another process ${what} our session: the next append is refused and the RPC client is told`, async () => {
		const pi = startRpcProcess({ mockUrl: server.url });
		server.push({ kind: "reply", text: "first answer" });
		pi.send({ id: "p1", type: "prompt", message: "hello" });
		await pi.waitFor((r) => r.type === "agent_settled", 15_000);
		pi.send({ id: "s", type: "get_state" });
		const state = await pi.waitFor((r) => r.type === "response" && r.id === "s");
		const file = state.data.sessionFile as string;
		expect(existsSync(file)).toBe(true);
		change(file);
		const before = readFileSync(file, "utf8");

		const from = pi.records.length;
		server.push({ kind: "reply", text: "second answer" });
		pi.send({ id: "p2", type: "prompt", message: "again" });
		const notice = await pi.waitFor((r) => r.type === "session_save_failed", 15_000, from);
		expect(notice).toMatchObject({ reason: "file_changed", sessionFile: file });
		expect(notice.message).toContain(`another program ${verb} ${file}`);
		// Exactly once, and the run still goes on to its answer.
		await pi.waitFor((r) => r.type === "agent_settled", 15_000, from);
		expect(pi.records.slice(from).filter((r) => r.type === "session_save_failed")).toHaveLength(1);
		expect(pi.records.slice(from).some((r) => r.type === "message_end" && r.message.role === "assistant")).toBe(true);
		// Nothing was glued onto the other program's bytes, and what is at the path is theirs.
		expect(readFileSync(file, "utf8")).toBe(before);
		expect(parsedLines(file).length).toBeGreaterThan(1);
		pi.end();
		expect(await pi.exit(5_000)).toBe(0);
		expect(pi.stderr()).toContain("Session not saved from here on");
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
