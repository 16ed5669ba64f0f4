/**
 * Another process changes our session file behind our back (appends a line, a few bytes, truncates it, rewrites
 * bytes in place at the same size, saves a new file over it by rename as editors do, or deletes it): the change is
 * detected before our next append writes a single byte (the seam counts the writes), for appends of ~300 B, 64 KiB
 * and 1 MiB, and the path keeps exactly the other program's bytes. Without the check, an append after a rename or
 * a delete went into the file pi still had open and was lost when it closed. The same through the binary, with the
 * RPC event, is in `session-files.test.ts`.
 */
import { afterAll, expect, test } from "bun:test";
import { appendFileSync, existsSync, readFileSync, truncateSync } from "node:fs";
import { realFileOps, type SessionFileOps, SessionManager, SessionReadOnlyError } from "../../src/session/index.ts";
import { assistant, cleanupTempDirs, tempDir, user } from "../unit/session/helpers.ts";
import { FOREIGN_CHANGES } from "./foreign-change.ts";

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
/** Each change, and how the refusal names it ("another program <verb> <file>"). */
const changes: [string, string, (file: string) => void][] = [
	["appends a whole line", "wrote to", (file) => appendFileSync(file, foreignLine)],
	["appends 3 bytes without a newline", "wrote to", (file) => appendFileSync(file, "abc")],
	["appends a 1 MiB line", "wrote to", (file) => appendFileSync(file, `${"w".repeat(1 << 20)}\n`)],
	["truncates the last line", "wrote to", (file) => truncateSync(file, readFileSync(file).length - 10)],
	["rewrites a byte in place (same size)", FOREIGN_CHANGES.rewrite.verb, FOREIGN_CHANGES.rewrite.apply],
	["saves an edited copy over it (rename)", FOREIGN_CHANGES.rename.verb, FOREIGN_CHANGES.rename.apply],
	["deletes it", FOREIGN_CHANGES.delete.verb, FOREIGN_CHANGES.delete.apply],
];

const bytesAt = (file: string) => (existsSync(file) ? readFileSync(file) : undefined);

for (const [what, verb, change] of changes) {
	for (const size of [300, 64 * 1024, 1024 * 1024]) {
		test(`another program ${what}; our ${size}-byte append is refused before it writes anything`, () => {
			const ops = counting();
			const m = SessionManager.create("/p", tempDir(), { fileOps: ops });
			m.appendMessage(user("hi"));
			m.appendMessage(assistant("hello"));
			const file = m.getSessionFile()!;
			change(file);
			const before = bytesAt(file);
			const writes = ops.writes;
			let error: unknown;
			try {
				m.appendMessage(assistant("x".repeat(size)));
			} catch (e) {
				error = e;
			}
			expect(error).toBeInstanceOf(SessionReadOnlyError);
			expect((error as Error).message).toContain(`another program ${verb} ${file}`);
			expect(ops.writes).toBe(writes);
			expect(bytesAt(file)).toEqual(before);
			// Later appends are refused the same way, without touching the file.
			expect(() => m.appendMessage(user("again"))).toThrow(SessionReadOnlyError);
			expect(ops.writes).toBe(writes);
			expect(m.getEntries()).toHaveLength(2);
			m.close();
		});
	}
}
