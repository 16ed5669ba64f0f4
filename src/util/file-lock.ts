/**
 * The `<file>.lock` every settings, auth and trust writer holds (proper-lockfile's lock directory, so pi 0.87.1
 * processes and ours exclude each other), plus an owner record that lets a lock left by a killed process be taken
 * over at once instead of after the stale time.
 *
 * proper-lockfile decides that a lock is abandoned only by its age (its mtime is older than `stale`, at least 2 s),
 * so every writer waits that long after a crash. Beside the lock directory we keep `<file>.lock-owner`:
 * `{pid, host, ino, ctimeMs}` of the holder (inode and change time name the lock directory it belongs to: ext4
 * reuses an inode number at once for the next lock made, and proper-lockfile's mtimes are whole seconds ahead, so
 * neither alone tells two locks apart). A writer that finds the lock
 * held reads the record; when it names a process on this host that no longer exists and the same lock directory,
 * the writer claims the record (an atomic rename, so one writer wins), removes the dead lock and the temp files the
 * dead writer left mid-write, and locks at once.
 * Locks without a record (pi 0.87.1's, or a writer killed before it wrote one) go stale by age as before. The host
 * name guards a folder shared between machines; two PID namespaces with one host name sharing the folder are not
 * told apart.
 *
 * A lock that is taken away while held (its directory removed, or its mtime changed by someone else, or refreshed
 * too late after a clock jump or a suspended process) is reported through `onCompromised`: proper-lockfile's
 * default there throws from a timer and would crash the process, so a handler is always installed.
 */

import { basename, dirname, join } from "node:path";
import { os } from "./builtins.ts";
import { linkSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from "./fs.ts";

type LockOptions = {
	realpath: false;
	stale: number;
	retries: 0;
	onCompromised: (error: Error) => void;
};
interface ProperLockfile {
	lockSync(file: string, options: LockOptions): () => void;
}

let properLockfile: ProperLockfile | undefined;
/** Loaded on first use: proper-lockfile (with graceful-fs) costs ~5 ms of start-up that reads never need. */
function lockfile(): ProperLockfile {
	properLockfile ??= require("proper-lockfile") as ProperLockfile;
	return properLockfile;
}

export interface FileLockOptions {
	/** A lock whose mtime is older than this (ms, at least 2000) is abandoned, whoever held it. */
	stale: number;
	/** How long to keep trying before giving up with ELOCKED (ms). */
	waitMs: number;
	/** Called (once) when the lock is taken away while held. */
	onCompromised?: (error: Error) => void;
}

export interface HeldLock {
	/** False once the lock was reported compromised or its directory is no longer the one this holder made. */
	held(): boolean;
	release(): Promise<void>;
}

/** Which lock directory: its inode and when it was made (ctime: set by mkdir and proper-lockfile's utimes). */
interface LockIdentity {
	ino: number;
	ctimeMs: number;
}

interface OwnerRecord extends LockIdentity {
	pid: number;
	host: string;
}

const ownerPath = (file: string) => `${file}.lock-owner`;
const lockDir = (file: string) => `${file}.lock`;

function readOwner(path: string): OwnerRecord | undefined {
	try {
		const record = JSON.parse(readFileSync(path, "utf8")) as Partial<OwnerRecord>;
		const valid =
			typeof record.pid === "number" &&
			typeof record.host === "string" &&
			typeof record.ino === "number" &&
			typeof record.ctimeMs === "number";
		return valid ? (record as OwnerRecord) : undefined;
	} catch {
		return undefined;
	}
}

/** Whether `pid` is a live process here (a zombie counts as dead: it holds nothing any more). */
function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
	} catch {
		return true;
	}
}

function lockStat(file: string): (LockIdentity & { mtimeMs: number }) | undefined {
	try {
		const { ino, ctimeMs, mtimeMs } = statSync(lockDir(file));
		return { ino, ctimeMs, mtimeMs };
	} catch {
		return undefined;
	}
}

function lockIdentity(file: string): LockIdentity | undefined {
	const stat = lockStat(file);
	return stat && { ino: stat.ino, ctimeMs: stat.ctimeMs };
}

const sameLock = (a: LockIdentity | undefined, b: LockIdentity | undefined) =>
	a !== undefined && b !== undefined && a.ino === b.ino && a.ctimeMs === b.ctimeMs;

/**
 * Removes `<file>.lock` when its owner record names a dead process on this host; true when it did. Old locks are
 * left to proper-lockfile's stale check, so two ways of removing the same lock never race.
 */
function reclaimDeadLock(file: string, stale: number): boolean {
	const current = lockStat(file);
	if (!current || Date.now() - current.mtimeMs > stale - 500) return false;
	const record = readOwner(ownerPath(file));
	if (!record || record.host !== os().hostname() || !sameLock(record, current) || alive(record.pid)) return false;
	const claimed = `${ownerPath(file)}.${process.pid}.${Math.random().toString(36).slice(2)}`;
	try {
		renameSync(ownerPath(file), claimed);
	} catch {
		return false; // another writer claimed it first
	}
	try {
		const mine = readOwner(claimed);
		if (!mine || mine.pid !== record.pid || !sameLock(mine, record)) {
			// A fresh holder replaced the record between our read and our claim: give it back (never over a newer one).
			try {
				linkSync(claimed, ownerPath(file));
			} catch {
				// A newer record is already there.
			}
			return false;
		}
		if (!sameLock(lockIdentity(file), record)) return false;
		rmdirSync(lockDir(file));
		removeTempFiles(file, record.pid);
		return true;
	} catch {
		return false;
	} finally {
		rmSync(claimed, { force: true });
	}
}

/**
 * The temp files killed holders left mid-write (`.<name>.<pid>.<random>.tmp`, see atomic-write.ts): those of `pid`,
 * or (no pid) of every process that no longer exists.
 */
function removeTempFiles(file: string, pid?: number): void {
	const prefix = `.${basename(file)}.`;
	try {
		for (const name of readdirSync(dirname(file))) {
			if (!name.startsWith(prefix) || !name.endsWith(".tmp")) continue;
			const owner = Number(name.slice(prefix.length).split(".")[0]);
			if (pid === undefined ? Number.isInteger(owner) && !alive(owner) : owner === pid) {
				rmSync(join(dirname(file), name), { force: true });
			}
		}
	} catch {
		// Nothing to tidy, or no permission to: the lock is taken all the same.
	}
}

/** Written in place (a record cut short by a kill reads as no record), so a kill never leaves a temp file. */
function writeOwner(file: string): LockIdentity | undefined {
	const identity = lockIdentity(file);
	if (identity === undefined) return undefined;
	try {
		writeFileSync(ownerPath(file), JSON.stringify({ pid: process.pid, host: os().hostname(), ...identity }));
	} catch {
		// Without a record the lock is taken over by age alone, as before.
	}
	return identity;
}

function dropOwner(file: string, identity: LockIdentity | undefined): void {
	const record = readOwner(ownerPath(file));
	try {
		if (record && record.pid === process.pid && sameLock(record, identity)) rmSync(ownerPath(file), { force: true });
	} catch {
		// A record left behind names a finished process: the next holder replaces it.
	}
}

function isLocked(error: unknown): boolean {
	return (error as { code?: string }).code === "ELOCKED";
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pauseSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
/** 5 ms growing to 100 ms, randomised so contending writers spread out. */
const backoff = (attempt: number) => Math.min(100, 5 * 1.3 ** attempt) * (0.5 + Math.random());

function heldLock(
	file: string,
	options: FileLockOptions,
	state: { compromised: boolean },
	release: () => void,
): HeldLock & { releaseNow(): void } {
	// Right after the directory was made, in the same tick: a kill in between is all but impossible.
	const identity = writeOwner(file);
	const acquiredAt = Date.now();
	/** Still the directory we made. proper-lockfile touches it every stale/2 (a new ctime) and itself reports a
	 * lock that changed under it (onCompromised), so after that long the inode alone is compared. */
	const ours = () => {
		const now = lockIdentity(file);
		if (!now || !identity) return false;
		return Date.now() - acquiredAt < options.stale / 2 ? sameLock(now, identity) : now.ino === identity.ino;
	};
	const releaseNow = () => {
		// proper-lockfile removes the directory whoever made it: leave a lock another writer took over alone.
		if (lockIdentity(file) === undefined || ours()) {
			try {
				release();
			} catch {
				// Already gone (compromised): nothing of ours is left to remove.
			}
		}
		// The record goes after the directory, so a lock directory never lacks its record while we live.
		dropOwner(file, identity);
	};
	return { held: () => !state.compromised && ours(), releaseNow, release: async () => releaseNow() };
}

function lockOptions(options: FileLockOptions, state: { compromised: boolean }): LockOptions {
	return {
		realpath: false,
		stale: options.stale,
		retries: 0,
		onCompromised: (error) => {
			state.compromised = true;
			options.onCompromised?.(error);
		},
	};
}

/**
 * One try at `<file>.lock`: the held lock, or undefined while it is held elsewhere and `deadline` has not passed
 * (then proper-lockfile's ELOCKED error is thrown).
 */
function tryLock(
	file: string,
	options: FileLockOptions,
	state: { compromised: boolean },
	attempt: number,
	deadline: number,
): ReturnType<typeof heldLock> | undefined {
	try {
		const held = heldLock(file, options, state, lockfile().lockSync(file, lockOptions(options, state)));
		// Waited: the lock may have been a killed writer's, taken over by age; tidy what it left.
		if (attempt > 0) removeTempFiles(file);
		return held;
	} catch (error) {
		if (!isLocked(error) || Date.now() >= deadline) throw error;
		return undefined;
	}
}

/**
 * Takes `<file>.lock`, waiting up to `waitMs` (yielding between attempts); rejects with proper-lockfile's ELOCKED
 * error when it cannot. Each attempt is synchronous, so the owner record follows the lock directory at once.
 */
export async function lockFile(file: string, options: FileLockOptions): Promise<HeldLock> {
	const state = { compromised: false };
	const deadline = Date.now() + options.waitMs;
	for (let attempt = 0; ; attempt++) {
		const held = tryLock(file, options, state, attempt, deadline);
		if (held) return held;
		if (!reclaimDeadLock(file, options.stale)) await pause(backoff(attempt));
	}
}

/** `lockFile` for synchronous callers: waits without yielding; returns the release. */
export function lockFileSync(file: string, options: FileLockOptions): () => void {
	const state = { compromised: false };
	const deadline = Date.now() + options.waitMs;
	for (let attempt = 0; ; attempt++) {
		const held = tryLock(file, options, state, attempt, deadline);
		if (held) return held.releaseNow;
		if (!reclaimDeadLock(file, options.stale)) pauseSync(backoff(attempt));
	}
}
