/**
 * Another process changes our session file behind our back (appends a line, a few bytes, or truncates it): the
 * change is detected before our next append writes a single byte (the seam counts the writes), for appends of
 * ~300 B, 64 KiB and 1 MiB, and the file keeps exactly the other program's bytes. The same through the binary, with
 * the RPC event, is in `session-files.test.ts`.
 */
import { afterAll, expect, test } from "bun:test";
import { appendFileSync, readFileSync, truncateSync } from "node:fs";
import { realFileOps, type SessionFileOps, SessionManager, SessionReadOnlyError } from "../../src/session/index.ts";
import { assistant, cleanupTempDirs, tempDir, user } from "../unit/session/helpers.ts";

afterAll(cleanupTempDirs);

/** The real operations, counting writes. */
function counting(): SessionFileOps & { writes: number } {
	const ops = {
		...realFileOps,
		writes: 0,
		write(fd: number, buffer: Buffer, offset: number, length: number) {
			ops.writes++;
			return realFileOps.write(fd, buffer, offset, length);
		},
	};
	return ops;
}

const foreignLine = `${JSON.stringify({ type: "custom", id: "0f0f0f0f", parentId: null, timestamp: new Date(0).toISOString(), customType: "other" })}\n`;
const changes: [string, (file: string) => void][] = [
	["appends a whole line", (file) => appendFileSync(file, foreignLine)],
	["appends 3 bytes without a newline", (file) => appendFileSync(file, "abc")],
	["appends a 1 MiB line", (file) => appendFileSync(file, `${"w".repeat(1 << 20)}\n`)],
	["truncates the last line", (file) => truncateSync(file, readFileSync(file).length - 10)],
];

for (const [what, change] of changes) {
	for (const size of [300, 64 * 1024, 1024 * 1024]) {
		test(`another program ${what}; our ${size}-byte append is refused before it writes anything`, () => {
			const ops = counting();
			const m = SessionManager.create("/p", tempDir(), { fileOps: ops });
			m.appendMessage(user("hi"));
			m.appendMessage(assistant("hello"));
			const file = m.getSessionFile()!;
			change(file);
			const before = readFileSync(file);
			const writes = ops.writes;
			let error: unknown;
			try {
				m.appendMessage(assistant("x".repeat(size)));
			} catch (e) {
				error = e;
			}
			expect(error).toBeInstanceOf(SessionReadOnlyError);
			expect((error as Error).message).toContain(`another program wrote to ${file}`);
			expect(ops.writes).toBe(writes);
			expect(readFileSync(file).equals(before)).toBe(true);
			// Later appends are refused the same way, without touching the file.
			expect(() => m.appendMessage(user("again"))).toThrow(SessionReadOnlyError);
			expect(ops.writes).toBe(writes);
			expect(m.getEntries()).toHaveLength(2);
			m.close();
		});
	}
}
