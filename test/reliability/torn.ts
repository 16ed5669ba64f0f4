/**
 * The torn-last-record case at the session layer, shared by `session-torn.test.ts` and the reliability bench: a
 * session whose last line is cut after `cut` bytes is opened, must load every complete entry, and one append must
 * move the torn bytes to `<file>.torn` and parse.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { realFileOps, SessionManager } from "../../src/session/index.ts";
import { assistant, tempDir, user } from "../unit/session/helpers.ts";

/** The real file operations without fsync (the .torn sidecar is forced to disk; hundreds of times here is slow). */
const NO_FSYNC = { ...realFileOps, fsync: () => {} };

/** A session file whose last line is an assistant message of about `size` bytes (with multi-byte characters). */
export function sessionWithLastRecord(size: number): { bytes: Buffer; lastStart: number; ids: string[] } {
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
export function tornAt(dir: string, s: ReturnType<typeof sessionWithLastRecord>, cut: number): string | undefined {
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
