/**
 * kill -9 during a migration (v1 → current), which rewrites the file: afterwards the file is either the old one,
 * byte for byte, or the complete new one, and the next open finishes the job. At every file operation of the
 * rewrite (a child process killed by its own file-operations seam) and at random moments of the binary opening a
 * large v1 file.
 */
import { afterAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "../../src/session/index.ts";
import { ensureBinary, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { cleanupTempDirs, FIXTURES, tempDir } from "../unit/session/helpers.ts";
import { mockAssistant } from "./big-session.ts";

afterAll(cleanupTempDirs);

const CHILD = join(import.meta.dir, "..", "support", "session-migrate-child.ts");

/** "old" (the original bytes), "new" (a whole v3 file with all `entries`), or what is wrong. */
function state(file: string, original: Buffer, entries: number): string {
	const bytes = readFileSync(file);
	if (bytes.equals(original)) return "old";
	const text = bytes.toString("utf8");
	if (!text.endsWith("\n")) return "a partial last line";
	const lines = text.trimEnd().split("\n");
	try {
		const parsed = lines.map((l) => JSON.parse(l));
		if (parsed[0].type !== "session" || parsed[0].version !== 3) return "a header that is not v3";
		if (parsed.length - 1 !== entries) return `${parsed.length - 1} entries instead of ${entries}`;
	} catch {
		return "a line that does not parse";
	}
	return "new";
}

/** Opening finishes the migration: every entry there, v3 on disk. */
function expectOpens(file: string, entries: number): void {
	const m = SessionManager.open(file);
	expect(m.getEntries()).toHaveLength(entries);
	m.close();
	expect(JSON.parse(readFileSync(file, "utf8").split("\n")[0]!).version).toBe(3);
}

test("killed at the first, the last and a spread of the file operations of a v1 migration: the old file or the whole new one", () => {
	const source = join(FIXTURES, "v1-before-compaction.jsonl");
	if (!existsSync(source)) {
		console.log(`skipped: the shared fixture ${source} is not there`);
		return;
	}
	const original = readFileSync(source);
	const entries = original.toString("utf8").trimEnd().split("\n").length - 1;
	const run = (file: string, n: number) =>
		Bun.spawnSync([process.execPath, CHILD, file, String(n)], { stdout: "pipe", stderr: "pipe" });
	const counted = join(tempDir(), "count.jsonl");
	writeFileSync(counted, original);
	const dry = run(counted, -1);
	const total = Number(/done (\d+)/.exec(dry.stdout.toString())?.[1]);
	if (!total) throw new Error(`child failed: ${dry.stderr.toString()}`);
	// The first and last operations (open, rename, fsync) and a spread of the writes between.
	const points = new Set<number>();
	for (let n = 0; n < 4; n++) points.add(n);
	for (let n = Math.max(0, total - 8); n < total; n++) points.add(n);
	for (let i = 1; i < 10; i++) points.add(Math.floor((i * total) / 10));
	const seen: Record<string, number> = {};
	for (const n of [...points].sort((a, b) => a - b)) {
		const file = join(tempDir(), "old.jsonl");
		writeFileSync(file, original);
		const child = run(file, n);
		if (child.signalCode !== "SIGKILL") throw new Error(`child not killed at op ${n}: ${child.stderr.toString()}`);
		const now = state(file, original, entries);
		seen[now] = (seen[now] ?? 0) + 1;
		expect(`after op ${n}: ${now}`).toMatch(/: (old|new)$/);
		expectOpens(file, entries);
	}
	console.log(`migration (${total} file operations) killed at ${points.size} of them: ${JSON.stringify(seen)}`);
	expect(seen.old).toBeGreaterThan(0);
	expect(seen.new).toBeGreaterThan(0);
}, 60_000);

/** A v1 session (no ids, no version) of `count` message pairs of `size` bytes each. */
function bigV1(count: number, size: number): string {
	const lines = [JSON.stringify({ type: "session", id: "v1-big", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/tmp" })];
	const text = "v".repeat(size);
	for (let i = 0; i < count; i++) {
		const t = "2025-01-01T00:00:00.000Z";
		lines.push(
			JSON.stringify({ type: "message", timestamp: t, message: { role: "user", content: `q${i}`, timestamp: i } }),
		);
		lines.push(
			JSON.stringify({
				type: "message",
				timestamp: t,
				message: mockAssistant([{ type: "text", text }], i),
			}),
		);
	}
	return `${lines.join("\n")}\n`;
}

test("the binary killed at random moments while it migrates a 12 MB v1 session: old or new, and it opens", async () => {
	const home = makeTempDir("pi-rel-home-");
	writeMockModels(home, "http://127.0.0.1:9");
	const original = Buffer.from(bigV1(400, 30_000));
	const entries = 800;
	const seen: Record<string, number> = {};
	// The whole open, timed once, bounds the kill moments.
	const time = async (file: string, killAfter?: number) => {
		const started = performance.now();
		const child = Bun.spawn([ensureBinary(), "--mode", "rpc", "--session", file], {
			cwd: home,
			env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PI_CODING_AGENT_DIR: join(home, ".pi/agent") },
			stdin: "pipe",
			stdout: "pipe",
			stderr: "pipe",
		});
		if (killAfter !== undefined) {
			await Bun.sleep(killAfter);
			child.kill("SIGKILL");
		} else {
			child.stdin.write('{"id":"s","type":"get_state"}\n');
			child.stdin.flush();
			const reader = child.stdout.getReader();
			const { value } = await reader.read();
			expect(new TextDecoder().decode(value)).toContain('"id":"s"');
			child.stdin.end();
		}
		await child.exited;
		return performance.now() - started;
	};
	const dir = makeTempDir("pi-rel-migrate-");
	const probe = join(dir, "probe.jsonl");
	writeFileSync(probe, original);
	const full = await time(probe);
	for (let i = 0; i < 8; i++) {
		const file = join(dir, `s${i}.jsonl`);
		writeFileSync(file, original);
		await time(file, (0.3 + 0.7 * Math.random()) * full);
		const now = state(file, original, entries);
		seen[now] = (seen[now] ?? 0) + 1;
		expect(now).toMatch(/^(old|new)$/);
		expectOpens(file, entries);
	}
	console.log(
		`binary migrating a ${original.length}-byte v1 file (${full.toFixed(0)} ms), killed 8 times: ${JSON.stringify(seen)}`,
	);
	copyFileSync(probe, join(dir, "done.jsonl"));
}, 60_000);
