/**
 * The file operations through which a session writes (open, write, fsync, truncate, rename). Production uses the
 * real ones; a test passes an object that fails on demand (ENOSPC, EIO …) to show what the user sees when the disk
 * does. Reads go straight to `node:fs`: loading never writes.
 */
import { fsyncSync, ftruncateSync, openSync, renameSync, writeSync } from "../util/index.ts";

export interface SessionFileOps {
	/** `flags` as `fs.openSync` takes them ("a+", "a", "w", "r"). */
	open(path: string, flags: string): number;
	/** Writes `length` bytes of `buffer` from `offset` at the descriptor's position; returns how many it wrote. */
	write(fd: number, buffer: Buffer, offset: number, length: number): number;
	fsync(fd: number): void;
	truncate(fd: number, length: number): void;
	rename(from: string, to: string): void;
}

export const realFileOps: SessionFileOps = {
	open: (path, flags) => openSync(path, flags),
	write: (fd, buffer, offset, length) => writeSync(fd, buffer, offset, length),
	fsync: (fd) => fsyncSync(fd),
	truncate: (fd, length) => ftruncateSync(fd, length),
	rename: (from, to) => renameSync(from, to),
};

/** Why a write failed, in the user's words: "disk full" for ENOSPC, the error's own first line otherwise. */
export function describeWriteError(error: unknown): string {
	const code = (error as { code?: unknown } | undefined)?.code;
	switch (code) {
		case "ENOSPC":
			return "disk full (ENOSPC)";
		case "EDQUOT":
			return "disk quota exceeded (EDQUOT)";
		case "EIO":
			return "I/O error (EIO)";
		case "EROFS":
			return "read-only file system (EROFS)";
		case "EACCES":
		case "EPERM":
			return `permission denied (${code})`;
		default: {
			const text = error instanceof Error ? error.message : String(error);
			return text.split("\n")[0]!.slice(0, 200);
		}
	}
}
