/**
 * A session on a real, full disk (a 1 MiB tmpfs, mounted when this process may; skipped with the reason otherwise):
 * the RPC client gets one `session_save_failed` saying "disk full", print mode one stderr line, the run goes on,
 * and the file holds only whole lines.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { closeSync, ftruncateSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { runPiAsync } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";
import { startRpcProcess } from "./rpc-process.ts";

const server = startMockLlm();
const mount = makeTempDir("pi-rel-tmpfs-");
let skip: string | undefined;

beforeAll(() => {
	if (process.platform !== "linux") {
		skip = "not Linux";
		return;
	}
	const run = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mount], { stderr: "pipe" });
	if (run.exitCode !== 0) skip = `cannot mount a tmpfs (${run.stderr.toString().trim() || `exit ${run.exitCode}`})`;
});

afterAll(() => {
	server.stop();
	if (!skip) Bun.spawnSync(["umount", "-l", mount]);
});

/** Fills the file system at `dir` until fewer than `leave` bytes are free. */
function fill(dir: string, leave: number): void {
	const fd = openSync(join(dir, "filler"), "a");
	const chunk = Buffer.alloc(4096, 120);
	try {
		for (;;) writeSync(fd, chunk);
	} catch {
		// Full: give back a little room, so small writes still fit and a large entry does not.
		const size = fstatSync(fd).size;
		ftruncateSync(fd, Math.max(0, size - leave));
	} finally {
		closeSync(fd);
	}
}

function lines(file: string): Record<string, any>[] {
	const text = readFileSync(file, "utf8");
	expect(text.endsWith("\n")).toBe(true);
	return text
		.split("\n")
		.filter((l) => l !== "")
		.map((l) => JSON.parse(l));
}

test("a full disk: one session_save_failed saying disk full, the run goes on, only whole lines in the file", async () => {
	if (skip) {
		console.log(`skipped: ${skip}`);
		return;
	}
	const sessions = join(mount, "sessions");
	mkdirSync(sessions);
	const pi = startRpcProcess({ mockUrl: server.url, args: ["--session-dir", sessions] });
	server.push({ kind: "reply", text: "first answer" });
	pi.send({ id: "p1", type: "prompt", message: "hello" });
	await pi.waitFor((r) => r.type === "agent_end", 15_000);
	const file = join(sessions, readdirSync(sessions).find((n) => n.endsWith(".jsonl"))!);
	fill(mount, 8192);
	const before = readFileSync(file);

	const from = pi.records.length;
	const big = "z".repeat(64 * 1024);
	server.push(
		{ kind: "reply", chunkSize: 65536, toolCalls: [{ name: "write", arguments: { path: "a.txt", content: big } }] },
		{ kind: "reply", chunkSize: 65536, toolCalls: [{ name: "write", arguments: { path: "b.txt", content: big } }] },
		{ kind: "reply", text: "done anyway" },
	);
	pi.send({ id: "p2", type: "prompt", message: "write two big files" });
	await pi.waitFor((r) => r.type === "agent_end", 30_000, from);
	const notices = pi.records.slice(from).filter((r) => r.type === "session_save_failed");
	expect(notices).toHaveLength(1);
	expect(notices[0]).toMatchObject({ reason: "write_error", sessionFile: file });
	expect(notices[0]!.message).toBe(`Session not saved from here on: could not write ${file}: disk full (ENOSPC)`);
	expect(pi.records.slice(from).some((r) => r.type === "message_end" && r.message.role === "assistant")).toBe(true);
	pi.end();
	expect(await pi.exit(10_000)).toBe(0);
	const after = readFileSync(file);
	expect(after.subarray(0, before.length).equals(before)).toBe(true);
	const parsed = lines(file);
	const ids = new Set(parsed.map((e) => e.id));
	for (const e of parsed.slice(1)) expect(e.parentId === null || ids.has(e.parentId)).toBe(true);
	expect(parsed.some((e) => JSON.stringify(e).includes(big))).toBe(false);

	// Print mode on the same full disk: one stderr line, the answer still printed.
	server.push({ kind: "reply", chunkSize: 65536, text: big });
	const run = await runPiAsync(["--session", file, "--model", "mock/mock-1", "-p", "again"], { home: pi.home });
	expect(run.exitCode).toBe(0);
	expect(run.stdout).toContain("zzzz");
	const said = run.stderr.split("\n").filter((l) => l.includes("disk full"));
	expect(said).toEqual([`Session not saved from here on: could not write ${file}: disk full (ENOSPC)`]);
	lines(file);
}, 60_000);
