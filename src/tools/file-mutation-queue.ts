/**
 * Per-file serialisation of read-modify-write operations. `edit` and `write` (and extension tools that mutate
 * files) wrap their whole read-modify-write in `withFileMutationQueue`, so two parallel tool calls on one file run
 * one after the other instead of interleaving (which would silently lose one of the changes). Calls on different
 * files are not ordered relative to each other.
 *
 * The queue key is the file's real path (symlinks resolved) when it exists; for a file that does not exist yet it
 * is the real path of its parent directory joined with the file name, or failing that the plain resolved path.
 */

import { basename, dirname, join, resolve } from "node:path";
import { realpathSync } from "../util/index.ts";

/** Last queued operation per key; each entry settles (never rejects) when that operation is done. */
const tails = new Map<string, Promise<void>>();

function queueKey(filePath: string): string {
	const absolute = resolve(filePath);
	try {
		return realpathSync(absolute);
	} catch {
		// The file does not exist (yet) or cannot be resolved: fall back to its directory's real path.
	}
	try {
		return join(realpathSync(dirname(absolute)), basename(absolute));
	} catch {
		// The parent does not exist either: the resolved path is the best identity available.
		return absolute;
	}
}

/**
 * Runs `fn` once every earlier operation queued for the same file has finished, and returns its result. A failing
 * operation does not block later ones. The key is computed synchronously, so calls queue in the order they are made.
 */
export async function withFileMutationQueue<T>(filePath: string, fn: () => Promise<T>): Promise<T> {
	const key = queueKey(filePath);
	const previous = tails.get(key) ?? Promise.resolve();
	let release: () => void = () => {};
	const done = new Promise<void>((resolveDone) => {
		release = resolveDone;
	});
	const tail = previous.then(() => done);
	tails.set(key, tail);
	try {
		await previous;
		return await fn();
	} finally {
		release();
		if (tails.get(key) === tail) tails.delete(key);
	}
}

/** Number of files with queued or running operations (for tests and diagnostics). */
export function pendingFileMutations(): number {
	return tails.size;
}
