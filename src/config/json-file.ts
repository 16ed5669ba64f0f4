/**
 * Locked read-modify-write of a JSON object file, shared by settings and the trust store.
 *
 * The file is locked with proper-lockfile (`<file>.lock`, so the file itself need not exist), re-read under the
 * lock, changed by the caller, and replaced by writing a temp file in the same folder and renaming it over the
 * original. Concurrent writers in any process therefore lose nothing, and readers never see half a file. A lock
 * left behind by a killed process goes stale after `LOCK_STALE_MS` and is taken over. A writer that loses the race
 * (the lock not obtained in time, or taken over while this writer was stalled inside its locked section) writes
 * nothing and starts again from a fresh read, so its change is retried, never dropped. A file that is not a JSON
 * object is never replaced: the write is refused with an error naming the file.
 */

import { dirname, resolve } from "node:path";
import {
	describeInvalidJson,
	errorMessage,
	firstLine,
	lockFile,
	mkdirSync,
	readFileSync,
	writeFileAtomic,
} from "../util/index.ts";

/** A held lock whose mtime is older than this is considered abandoned (proper-lockfile's minimum is 2000). */
export const LOCK_STALE_MS = 3000;
/** How long a writer waits for the lock; well over LOCK_STALE_MS so a stale lock is always outlived. */
export const LOCK_WAIT_MS = 20_000;

export type JsonObject = Record<string, unknown>;

export type JsonRead = { ok: true; data: JsonObject | undefined } | { ok: false; reason: string };

/** Reads a JSON object file: `data` undefined when it does not exist; `ok: false` with a reason when unusable. */
export function readJsonObject(path: string): JsonRead {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, data: undefined };
		return { ok: false, reason: `cannot read: ${errorMessage(error)}` };
	}
	if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
	if (text.trim() === "") return { ok: true, data: {} };
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		return { ok: false, reason: describeInvalidJson(text) ?? `invalid JSON: ${firstLine(errorMessage(error))}` };
	}
	if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
		return { ok: false, reason: "expected a JSON object at the top level" };
	}
	return { ok: true, data: parsed as JsonObject };
}

export { writeFileAtomic };

/** Edits `data` in place, or returns a replacement object; returning `false` skips the write. */
export type JsonChange = (data: JsonObject) => unknown;

/** In-process queue per file, so this process's writers take turns instead of contending for the file lock. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `change` on the current content of `path` under the file lock and writes the result atomically.
 * `change` edits the object in place (or returns a replacement); returning `false` skips the write.
 * Rejects, leaving the file untouched, when the file is unreadable or not a JSON object.
 */
export function updateJsonFile(path: string, change: JsonChange): Promise<JsonObject> {
	const file = resolve(path);
	const previous = queues.get(file) ?? Promise.resolve();
	const run = previous.catch(() => undefined).then(() => retriedUpdate(file, change));
	const settled = run.catch(() => undefined);
	queues.set(file, settled);
	void settled.then(() => {
		if (queues.get(file) === settled) queues.delete(file);
	});
	return run;
}

/** Losing the file lock (not obtained in time, or taken over as stale while this writer was stalled). */
class LockLostError extends Error {}

/** A locked section that ran longer than this may have had its lock taken over; its write is redone. */
const SAFE_HOLD_MS = LOCK_STALE_MS - 1000;
/** Attempts of one update when it keeps losing the lock; each attempt itself waits well over LOCK_STALE_MS. */
const LOCK_ATTEMPTS = 5;

async function retriedUpdate(file: string, change: JsonChange): Promise<JsonObject> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await lockedUpdate(file, change);
		} catch (error) {
			if (!(error instanceof LockLostError) || attempt >= LOCK_ATTEMPTS) {
				if (error instanceof LockLostError) throw new Error(`${error.message} (gave up after ${attempt} attempts)`);
				throw error;
			}
		}
	}
}

async function lockedUpdate(file: string, change: JsonChange): Promise<JsonObject> {
	mkdirSync(dirname(file), { recursive: true });
	const lock = await lockFile(file, { stale: LOCK_STALE_MS, waitMs: LOCK_WAIT_MS }).catch((error: unknown) => {
		const message = `${file}: could not lock the file for writing: ${errorMessage(error)}`;
		throw (error as NodeJS.ErrnoException).code === "ELOCKED" ? new LockLostError(message) : new Error(message);
	});
	const lockedAt = Date.now();
	try {
		const read = readJsonObject(file);
		if (!read.ok) throw new Error(`${file}: ${read.reason}; not writing (fix or remove the file first)`);
		const data = read.data ?? {};
		const result = change(data);
		if (result === false) return data;
		const next =
			typeof result === "object" && result !== null && !Array.isArray(result) ? (result as JsonObject) : data;
		// The section is synchronous, so the lock's mtime was not refreshed meanwhile: held this long, another
		// writer may have taken it over as stale and written. Write nothing and start again from a fresh read.
		if (!lock.held() || Date.now() - lockedAt > SAFE_HOLD_MS) {
			throw new LockLostError(`${file}: lost the file lock while writing; not writing`);
		}
		writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`);
		return next;
	} finally {
		// Leaves a lock another writer took over alone.
		await lock.release();
	}
}
