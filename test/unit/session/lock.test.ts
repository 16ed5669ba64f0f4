import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { SessionLockedError, SessionManager, SessionReadOnlyError } from "../../../src/session/index.ts";
import { assistant, cleanupTempDirs, readJsonl, tempDir, user } from "./helpers.ts";

afterAll(cleanupTempDirs);

const CHILD = join(import.meta.dir, "..", "..", "support", "session-child.ts");

function saved(dir: string): { m: SessionManager; file: string } {
	const m = SessionManager.create("/p", dir);
	m.appendMessage(user("q"));
	m.appendMessage(assistant("a"));
	return { m, file: m.getSessionFile()! };
}

function openError(file: string): unknown {
	try {
		SessionManager.open(file).close();
	} catch (error) {
		return error;
	}
	return undefined;
}

/** Starts a child that holds `file` open; resolves once it has the lock. */
async function holder(file: string) {
	const proc = Bun.spawn([process.execPath, CHILD, "hold", file], { stdout: "pipe", stderr: "pipe" });
	const reader = proc.stdout.getReader();
	let text = "";
	while (!text.includes("\n")) {
		const { value, done } = await reader.read();
		if (done) throw new Error(`holder exited: ${await new Response(proc.stderr).text()}`);
		text += new TextDecoder().decode(value);
	}
	expect(text).toBe(`ready ${proc.pid}\n`);
	return proc;
}

describe("one writer per session file", () => {
	test("a second manager in this process is refused, naming the pid", () => {
		const { m, file } = saved(tempDir());
		const error = openError(file);
		expect(error).toBeInstanceOf(SessionLockedError);
		expect((error as Error).message).toBe(`session is open in another pi process (pid ${process.pid}): ${file}`);
		m.appendMessage(user("the holder still writes"));
		m.close();
		expect(openError(file)).toBeUndefined();
	});

	test("onLocked: readOnly gives a manager that reads, refuses appends, and can fork to a new file", () => {
		const { m, file } = saved(tempDir());
		const reader = SessionManager.open(file, undefined, undefined, { onLocked: "readOnly" });
		expect(reader.isReadOnly()).toBe(true);
		expect(reader.buildSessionContext().messages).toHaveLength(2);
		expect(() => reader.appendMessage(user("no"))).toThrow(SessionReadOnlyError);
		expect(() => reader.appendMessage(user("no"))).toThrow(/open in another pi process.*forkToNewFile/);
		const before = readFileSync(file, "utf8");

		const fork = reader.forkToNewFile()!;
		expect(fork).not.toBe(file);
		expect(reader.isReadOnly()).toBe(false);
		const added = reader.appendMessage(user("continued in the fork"));
		const lines = readJsonl(fork);
		expect(lines[0]!.parentSession).toBe(file);
		expect(lines.at(-1)!.id).toBe(added);
		expect(lines.slice(1, 3).map((l) => l.id)).toEqual(m.getEntries().map((e) => e.id));

		m.appendMessage(user("original keeps going"));
		expect(readFileSync(file, "utf8").startsWith(before)).toBe(true);
		expect(readJsonl(file)).toHaveLength(4);
		reader.close();
		m.close();
	});

	test("onLocked: fork continues in a new file recording the held one; a diagnostic names both", () => {
		const { m, file } = saved(tempDir());
		const before = readFileSync(file, "utf8");
		const second = SessionManager.open(file, undefined, undefined, { onLocked: "fork" });
		const fork = second.getSessionFile()!;
		expect(fork).not.toBe(file);
		expect(second.isReadOnly()).toBe(false);
		expect(second.getHeader()?.parentSession).toBe(file);
		expect(second.getDiagnostics()).toEqual([
			`session is open in another pi process (pid ${process.pid}): ${file}; continuing in a fork: ${fork}`,
		]);
		const added = second.appendMessage(user("the second writes here"));
		expect(readJsonl(fork).map((l) => l.id)).toEqual([
			second.getHeader()!.id,
			...m.getEntries().map((e) => e.id),
			added,
		]);
		expect(readFileSync(file, "utf8")).toBe(before);
		second.close();
		// Unlocked, the same option just opens the file.
		m.close();
		const again = SessionManager.open(file, undefined, undefined, { onLocked: "fork" });
		expect(again.getSessionFile()).toBe(file);
		expect(again.getDiagnostics()).toEqual([]);
		again.close();
	});

	test("the lock is taken at the first write and released on close", () => {
		const dir = tempDir();
		const m = SessionManager.create("/p", dir);
		m.appendMessage(user("q"));
		const file = m.getSessionFile()!;
		expect(existsSync(`${file}.lock`)).toBe(false);
		m.appendMessage(assistant("a"));
		expect(existsSync(`${file}.lock`)).toBe(true);
		expect(JSON.parse(readFileSync(`${file}.lock.pid`, "utf8")).pid).toBe(process.pid);
		m.close();
		expect(existsSync(`${file}.lock`)).toBe(false);
		expect(existsSync(`${file}.lock.pid`)).toBe(false);
		expect(() => m.appendMessage(user("after close"))).toThrow(SessionReadOnlyError);
	});

	test("another process holding the session: refused with its pid; after it is killed, taken over at once", async () => {
		const { m, file } = saved(tempDir());
		m.close();
		const proc = await holder(file);
		try {
			const error = openError(file);
			expect(error).toBeInstanceOf(SessionLockedError);
			expect((error as SessionLockedError).pid).toBe(proc.pid);
			expect((error as Error).message).toContain(`(pid ${proc.pid})`);
		} finally {
			proc.kill("SIGKILL");
			await proc.exited;
		}
		// The dead holder's lock is still fresh (not stale for 10 s), but its pid is gone.
		expect(existsSync(`${file}.lock`)).toBe(true);
		const started = performance.now();
		const again = SessionManager.open(file);
		expect(performance.now() - started).toBeLessThan(1000);
		again.appendMessage(user("after takeover"));
		expect(JSON.parse(readFileSync(`${file}.lock.pid`, "utf8")).pid).toBe(process.pid);
		again.close();
	});

	test("a lock without a pid file: held while fresh, taken over once older than the grace period", () => {
		const { m, file } = saved(tempDir());
		m.close();
		mkdirSync(`${file}.lock`);
		const error = openError(file);
		expect((error as Error).message).toContain("(pid unknown)");
		const old = Date.now() / 1000 - 5;
		utimesSync(`${file}.lock`, old, old);
		expect(openError(file)).toBeUndefined();
	});
});
