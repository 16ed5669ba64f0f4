/**
 * ENOSPC and EIO on write, fsync and rename, injected through the session's file-operations seam (`fileOps`): the
 * error names the file and says "disk full" / "I/O error", nothing partial stays in the file, memory never holds an
 * entry the file lacks (so a later append cannot leave a gap), and once the disk recovers appends go on cleanly.
 * Through the binary, on a real full tmpfs, see `session-disk-full.test.ts`.
 */
import { afterAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { realFileOps, type SessionFileOps, SessionManager } from "../../src/session/index.ts";
import { assistant, cleanupTempDirs, FIXTURES, tempDir, user } from "../unit/session/helpers.ts";

afterAll(cleanupTempDirs);

function fsError(code: string, syscall: string): Error {
	return Object.assign(new Error(`${code}: simulated, ${syscall}`), { code, syscall });
}

/** Real file operations that fail on demand: `write` after `room` more bytes, `fsync`, `truncate`, `rename`. */
class FailingOps implements SessionFileOps {
	room: number | undefined;
	writeCode = "ENOSPC";
	fsyncCode: string | undefined;
	truncateCode: string | undefined;
	renameCode: string | undefined;
	open = realFileOps.open;
	write(fd: number, buffer: Buffer, offset: number, length: number): number {
		if (this.room === undefined) return realFileOps.write(fd, buffer, offset, length);
		if (this.room <= 0) throw fsError(this.writeCode, "write");
		const n = realFileOps.write(fd, buffer, offset, Math.min(length, this.room));
		this.room -= n;
		return n;
	}
	fsync(fd: number): void {
		if (this.fsyncCode) throw fsError(this.fsyncCode, "fsync");
		realFileOps.fsync(fd);
	}
	truncate(fd: number, length: number): void {
		if (this.truncateCode) throw fsError(this.truncateCode, "ftruncate");
		realFileOps.truncate(fd, length);
	}
	rename(from: string, to: string): void {
		if (this.renameCode) throw fsError(this.renameCode, "rename");
		realFileOps.rename(from, to);
	}
	heal(): void {
		this.room = undefined;
		this.fsyncCode = this.truncateCode = this.renameCode = undefined;
	}
}

function parsedLines(file: string): Record<string, any>[] {
	const text = readFileSync(file, "utf8");
	expect(text.endsWith("\n")).toBe(true);
	return text
		.split("\n")
		.filter((l) => l !== "")
		.map((l) => JSON.parse(l));
}

/** Every entry's parent is in the file (no gap), and memory holds exactly the file's entries. */
function expectInStep(m: SessionManager, file: string): void {
	const entries = parsedLines(file).slice(1);
	const ids = new Set(entries.map((e) => e.id));
	for (const e of entries) if (e.parentId !== null) expect(ids.has(e.parentId)).toBe(true);
	expect(m.getEntries().map((e) => e.id)).toEqual(entries.map((e) => e.id));
}

function started(ops: FailingOps): { m: SessionManager; file: string } {
	const m = SessionManager.create("/p", tempDir(), { fileOps: ops });
	m.appendMessage(user("hi"));
	m.appendMessage(assistant("hello"));
	return { m, file: m.getSessionFile()! };
}

for (const [code, words] of [
	["ENOSPC", "disk full (ENOSPC)"],
	["EIO", "I/O error (EIO)"],
] as const) {
	test(`${code} in the middle of an append: one clear error, the partial line cut, memory in step, appends resume`, () => {
		const ops = new FailingOps();
		const { m, file } = started(ops);
		const before = readFileSync(file);
		ops.writeCode = code;
		ops.room = 100; // the first 100 bytes of the line reach the file, then the disk fails
		expect(() => m.appendMessage(assistant("x".repeat(64 * 1024)))).toThrow(`could not write ${file}: ${words}`);
		expect(readFileSync(file).equals(before)).toBe(true);
		expectInStep(m, file);
		ops.heal();
		m.appendMessage(user("after"));
		expectInStep(m, file);
		expect(parsedLines(file).at(-1)).toMatchObject({ message: { content: "after" } });
		m.close();
	});
}

test("ENOSPC and the undo fails too: the partial line is remembered as torn, cut into .torn before the next append", () => {
	const ops = new FailingOps();
	const { m, file } = started(ops);
	const before = readFileSync(file);
	ops.room = 50;
	ops.truncateCode = "EIO";
	expect(() => m.appendMessage(assistant("y".repeat(4096)))).toThrow("disk full (ENOSPC)");
	const partial = readFileSync(file).subarray(before.length);
	expect(partial.length).toBe(50);
	// Another process loading now skips the partial line.
	const reader = SessionManager.open(file, undefined, undefined, { readOnly: true });
	expect(reader.getEntries()).toHaveLength(2);
	reader.close();
	ops.heal();
	m.appendMessage(user("after"));
	expect(readFileSync(`${file}.torn`).equals(Buffer.concat([partial, Buffer.from("\n")]))).toBe(true);
	expectInStep(m, file);
	m.close();
});

test("ENOSPC on the first write of a new session: no file and no temp file; the next answer writes everything", () => {
	const ops = new FailingOps();
	const dir = tempDir();
	const m = SessionManager.create("/p", dir, { fileOps: ops });
	m.appendMessage(user("hi"));
	ops.room = 10;
	expect(() => m.appendMessage(assistant("hello"))).toThrow("disk full (ENOSPC)");
	expect(readdirSync(dir).filter((n) => !n.endsWith(".lock") && !n.endsWith(".lock.pid"))).toEqual([]);
	ops.heal();
	m.appendMessage(assistant("hello again"));
	const file = m.getSessionFile()!;
	expect(parsedLines(file).map((e) => e.type)).toEqual(["session", "message", "message"]);
	expectInStep(m, file);
	m.close();
});

test("EIO on the rename that publishes the first write: nothing half-made left, memory in step", () => {
	const ops = new FailingOps();
	const dir = tempDir();
	const m = SessionManager.create("/p", dir, { fileOps: ops });
	m.appendMessage(user("hi"));
	ops.renameCode = "EIO";
	expect(() => m.appendMessage(assistant("hello"))).toThrow("I/O error (EIO)");
	expect(readdirSync(dir).some((n) => n.endsWith(".jsonl") || n.endsWith(".tmp"))).toBe(false);
	expect(m.getEntries()).toHaveLength(1);
	m.close();
});

test("EIO on fsync of the .torn sidecar: the append is refused and the file is left exactly as it was", () => {
	const ops = new FailingOps();
	const { m, file } = started(ops);
	m.close();
	writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from('{"type":"message","id":"to')]));
	const before = readFileSync(file);
	const again = SessionManager.open(file, undefined, undefined, { fileOps: ops });
	ops.fsyncCode = "EIO";
	expect(() => again.appendMessage(user("next"))).toThrow("I/O error (EIO)");
	expect(readFileSync(file).equals(before)).toBe(true);
	ops.heal();
	again.appendMessage(user("next"));
	expectInStep(again, file);
	again.close();
});

test("ENOSPC or EIO while migrating a v1 file: refused in one line, the original untouched, no temp file left", () => {
	const source = join(FIXTURES, "v1-before-compaction.jsonl");
	if (!existsSync(source)) {
		console.log(`skipped: the shared fixture ${source} is not there`);
		return;
	}
	for (const fault of ["write", "fsync"] as const) {
		const dir = tempDir();
		const file = join(dir, "old.jsonl");
		copyFileSync(source, file);
		const before = readFileSync(file);
		const ops = new FailingOps();
		if (fault === "write") ops.room = 1000;
		else ops.fsyncCode = "EIO";
		const words = fault === "write" ? "disk full (ENOSPC)" : "I/O error (EIO)";
		expect(() => SessionManager.open(file, undefined, undefined, { fileOps: ops })).toThrow(
			`could not write ${file}: ${words} while migrating it from format 1`,
		);
		expect(readFileSync(file).equals(before)).toBe(true);
		expect(readdirSync(dir).filter((n) => n !== "old.jsonl")).toEqual([]);
	}
});
