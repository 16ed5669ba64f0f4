/**
 * The session file on disk.
 * - `SessionFile` is an open file: it reads lines back by byte range (for entries parsed on first use) and appends
 *   an entry as ONE `write` of one whole line on a descriptor opened with O_APPEND. Before the first append after a
 *   load it cuts a torn last line back to the last "\n", keeping the cut bytes as one line of `<file>.torn` (see
 *   `keepTornTail`), or completes a valid last line that lacks its "\n"; and
 *   before every append it checks that the path still names the file it has open, and that the file still has the
 *   size and modification time it last saw, so it never glues an entry onto bytes it did not write, nor writes
 *   into a file that was deleted or replaced (those bytes would be lost when it closes).
 * - `writeNewFile` creates a file atomically (`<file>.tmp`, fsync, rename) — used for the first flush and forks.
 * - `rewriteWithBackup` replaces an existing file atomically and keeps the original as `<file>.v<N>.bak` — used
 *   once per file for migrations.
 */

import type { BigIntStats } from "node:fs";
import { dirname } from "node:path";
import { closeSync, copyFileSync, fstatSync, linkSync, openSync, statSync, unlinkSync } from "../util/index.ts";
import { realFileOps, type SessionFileOps } from "./file-ops.ts";
import { readRange } from "./scan.ts";
import type { LineSource } from "./store.ts";

const BATCH = 1 << 20;

/**
 * How another program changed the file: `wrote` appended to or truncated it (the size differs), `rewrote` changed
 * bytes in place (same size, newer modification time), `replaced` put another file at its path (a rename, as
 * editors and `sed -i` save), `deleted` removed it.
 */
export type SessionFileChange = "wrote" | "rewrote" | "replaced" | "deleted";

/** Another program changed the file since this process last read or wrote it. */
export class SessionFileChangedError extends Error {
	override readonly name = "SessionFileChangedError";
	constructor(
		readonly file: string,
		readonly change: SessionFileChange,
		/** What was seen, for the user: `4242 bytes, expected 4100`, `same size, modified at …`, … */
		readonly detail: string,
	) {
		super(`session file changed on disk by another program (${detail}): ${file}`);
	}
}

/** The words a user reads for `change`: "another program <verb> <file>". */
export function describeFileChange(change: SessionFileChange): string {
	return change === "wrote" ? "wrote to" : change;
}

export class SessionFile implements LineSource {
	private fd: number | undefined;
	/** Size the file must have before the next append. */
	private expected = 0;
	private validEnd = 0;
	private tail: "ok" | "torn" | "unterminated" = "ok";
	private loadedBytes: Buffer | undefined;
	/** The open file's identity and modification time when this process last read or wrote it. */
	private seen: { dev: bigint; ino: bigint; mtimeNs: bigint | undefined } | undefined;

	private constructor(
		readonly path: string,
		readonly writable: boolean,
		private readonly ops: SessionFileOps,
	) {
		this.fd = writable ? ops.open(path, "a+") : openSync(path, "r");
	}

	/** Opens `path` for reading, and for appending when `writable` (O_APPEND). */
	static open(path: string, writable: boolean, ops: SessionFileOps = realFileOps): SessionFile {
		return new SessionFile(path, writable, ops);
	}

	/** The open descriptor (for loading). */
	get descriptor(): number {
		if (this.fd === undefined) throw new Error(`session file is closed: ${this.path}`);
		return this.fd;
	}

	/**
	 * Records what loading saw: total size, end of the last whole line, and what follows it; `bytes`, when loading
	 * kept them, are the file's first bytes (written bytes never change, so lines are read back from them).
	 */
	setLoaded(size: number, validEnd: number, tail: "ok" | "torn" | "unterminated", bytes?: Buffer): void {
		this.expected = size;
		this.validEnd = validEnd;
		this.tail = tail;
		this.loadedBytes = bytes;
		if (this.fd !== undefined) this.remember(fstatSync(this.fd, { bigint: true }));
	}

	private remember(stat: BigIntStats): void {
		this.seen = { dev: stat.dev, ino: stat.ino, mtimeNs: stat.mtimeNs };
	}

	/** After our own change to the file: its new modification time becomes the one to compare with. */
	private rememberNow(fd: number): void {
		try {
			this.remember(fstatSync(fd, { bigint: true }));
		} catch {
			// Without a time to compare, the next append checks the size and the path only.
			if (this.seen) this.seen.mtimeNs = undefined;
		}
	}

	/** The file's size, after checking nobody else changed it (see the file comment); throws when somebody did. */
	private checkUnchanged(fd: number): number {
		const stat = fstatSync(fd, { bigint: true });
		const size = Number(stat.size);
		const changed = (change: SessionFileChange, detail: string) =>
			new SessionFileChangedError(this.path, change, detail);
		if (size !== this.expected) throw changed("wrote", `${size} bytes, expected ${this.expected}`);
		const seen = this.seen;
		if (!seen) return size;
		if (seen.mtimeNs !== undefined && stat.mtimeNs !== seen.mtimeNs) {
			throw changed("rewrote", `same size, modified at ${stat.mtime.toISOString()}`);
		}
		const named = statSync(this.path, { bigint: true, throwIfNoEntry: false });
		if (!named) throw changed("deleted", "nothing is at that path now");
		if (named.ino !== seen.ino || named.dev !== seen.dev)
			throw changed("replaced", "a different file is at that path now");
		return size;
	}

	/**
	 * Reads lines back (the returned buffer is read-only), into `scratch` when given (see `LineSource.read`); after
	 * `close()` with a short-lived descriptor.
	 */
	read(offset: number, length: number, scratch?: Buffer): Buffer {
		const bytes = this.loadedBytes;
		if (bytes && offset + length <= bytes.length) return bytes.subarray(offset, offset + length);
		if (this.fd !== undefined) return readRange(this.fd, offset, length, scratch);
		const fd = openSync(this.path, "r");
		try {
			return readRange(fd, offset, length, scratch);
		} finally {
			closeSync(fd);
		}
	}

	/**
	 * Appends `line` (JSON without "\n") as one write; returns where the line now is. Throws, leaving the file as it
	 * was, when it cannot.
	 */
	append(line: string): { offset: number; length: number } {
		if (!this.writable || this.fd === undefined) throw new Error(`session file is not open for writing: ${this.path}`);
		const fd = this.fd;
		const size = this.checkUnchanged(fd);
		const ops = this.ops;
		let text = `${line}\n`;
		if (this.tail === "torn") {
			keepTornTail(this.path, readRange(fd, this.validEnd, size - this.validEnd), ops);
			ops.truncate(fd, this.validEnd);
			this.expected = this.validEnd;
			this.tail = "ok";
		}
		const lead = this.tail === "unterminated" ? 1 : 0;
		if (lead) text = `\n${text}`;
		const bytes = Buffer.from(text, "utf8");
		try {
			let done = ops.write(fd, bytes, 0, bytes.length);
			// A regular file takes the whole line in one write; a short write (disk full) is finished or undone below.
			while (done < bytes.length) done += ops.write(fd, bytes, done, bytes.length - done);
		} catch (error) {
			this.undo(fd);
			throw error;
		}
		this.rememberNow(fd);
		this.tail = "ok";
		const end = this.expected + bytes.length;
		this.expected = end;
		this.validEnd = end;
		// The line without the newline that ends it (and the one completing an unterminated last line).
		return { offset: end - bytes.length + lead, length: bytes.length - 1 - lead };
	}

	/**
	 * After a failed write: cuts whatever part of the line reached the file. When even that fails, the part is
	 * remembered as a torn tail, so the next append (or the next load) cuts it instead of gluing onto it.
	 */
	private undo(fd: number): void {
		let stat: BigIntStats;
		try {
			stat = fstatSync(fd, { bigint: true });
		} catch {
			// Cannot even tell what is on disk: the size check before the next append refuses to write.
			return;
		}
		const size = Number(stat.size);
		if (size <= this.expected) {
			this.remember(stat);
			return;
		}
		try {
			this.ops.truncate(fd, this.expected);
		} catch {
			if (this.tail === "ok") {
				this.validEnd = this.expected;
				this.tail = "torn";
			}
			this.expected = size;
			this.remember(stat);
			return;
		}
		this.rememberNow(fd);
	}

	close(): void {
		if (this.fd === undefined) return;
		const fd = this.fd;
		this.fd = undefined;
		closeSync(fd);
	}
}

/** Where the bytes of torn last lines go: beside the session, one line per cut (a torn line holds no "\n"). */
export function tornSidecarPath(path: string): string {
	return `${path}.torn`;
}

/** Appends `bytes` (a torn last line) as one line of the sidecar and forces it to disk before the cut. */
function keepTornTail(path: string, bytes: Buffer, ops: SessionFileOps): void {
	const fd = ops.open(tornSidecarPath(path), "a");
	try {
		const line = Buffer.concat([bytes, Buffer.from("\n")]);
		let done = 0;
		while (done < line.length) done += ops.write(fd, line, done, line.length - done);
		ops.fsync(fd);
	} finally {
		closeSync(fd);
	}
}

function writeLines(path: string, lines: Iterable<string>, durable: boolean, ops: SessionFileOps): number {
	const fd = ops.open(path, "w");
	let size = 0;
	try {
		let batch: string[] = [];
		let batchLength = 0;
		const drain = () => {
			if (batch.length === 0) return;
			const bytes = Buffer.from(batch.join(""), "utf8");
			let done = 0;
			while (done < bytes.length) done += ops.write(fd, bytes, done, bytes.length - done);
			size += bytes.length;
			batch = [];
			batchLength = 0;
		};
		for (const line of lines) {
			batch.push(line, "\n");
			batchLength += line.length + 1;
			if (batchLength >= BATCH) drain();
		}
		drain();
		if (durable) ops.fsync(fd);
	} finally {
		closeSync(fd);
	}
	return size;
}

function syncDir(path: string, ops: SessionFileOps): void {
	try {
		const fd = openSync(dirname(path), "r");
		try {
			ops.fsync(fd);
		} finally {
			closeSync(fd);
		}
	} catch {
		// Directories cannot be fsynced on every platform; the rename itself is still atomic.
	}
}

function removeQuietly(path: string): void {
	try {
		unlinkSync(path);
	} catch {
		// Not there: nothing to remove.
	}
}

/**
 * Creates (or replaces) `path` with `lines` atomically: no process crash leaves a half-written first line. It is
 * not forced to disk (no fsync, as pi never does for sessions): a new session's first write is on the start-up
 * path of every `pi -p`, and an fsync there costs milliseconds. Returns the byte size written.
 */
export function writeNewFile(path: string, lines: Iterable<string>, ops: SessionFileOps = realFileOps): number {
	const tmp = `${path}.tmp`;
	try {
		const size = writeLines(tmp, lines, false, ops);
		ops.rename(tmp, path);
		return size;
	} catch (error) {
		removeQuietly(tmp);
		throw error;
	}
}

/** Where `rewriteWithBackup` keeps the original of a file migrated from `version`. */
export function migrationBackupPath(path: string, version: number): string {
	return `${path}.v${version}.bak`;
}

/**
 * Replaces the existing `path` with `lines` atomically; the original is kept as `<path>.v<version>.bak` (the user's
 * data before pi changed its format, should they need it or an older pi). Returns the byte size written.
 */
export function rewriteWithBackup(
	path: string,
	lines: Iterable<string>,
	version: number,
	ops: SessionFileOps = realFileOps,
): number {
	const tmp = `${path}.tmp`;
	const backup = migrationBackupPath(path, version);
	try {
		// A migration replaces data the user already has: it is made durable before the original goes.
		const size = writeLines(tmp, lines, true, ops);
		removeQuietly(backup);
		try {
			linkSync(path, backup);
		} catch {
			// No hard links here (some file systems): a copy does the same job.
			copyFileSync(path, backup);
		}
		ops.rename(tmp, path);
		syncDir(path, ops);
		return size;
	} catch (error) {
		removeQuietly(tmp);
		throw error;
	}
}
