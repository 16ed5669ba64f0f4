/**
 * One writer per session file. The lock is a `<file>.lock` directory (atomic mkdir; its mtime refreshed every
 * 5 s and stale after 10 s, the same convention as proper-lockfile) plus `<file>.lock.pid` naming the holder, so
 * that a contender can (a) say which process holds it and (b) take over at once from a holder that died (SIGKILL,
 * crash) instead of waiting for the lock to go stale. A holder is dead when it ran on this host and its pid no
 * longer exists, or when it left no pid file at all more than 2 s after taking the lock (it died between the two
 * steps, which are microseconds apart). Our own few lines rather than proper-lockfile: pi does not lock session
 * files, so no other program shares this protocol, and loading proper-lockfile (graceful-fs) cost ~5 ms per start.
 */

import {
	mkdirSync,
	os,
	readFileSync,
	rmdirSync,
	statSync,
	unlinkSync,
	utimesSync,
	writeFileSync,
} from "../util/index.ts";

const STALE_MS = 10_000;
const NO_OWNER_GRACE_MS = 2_000;

/** Another process (or another manager in this one) holds the session. */
export class SessionLockedError extends Error {
	override readonly name = "SessionLockedError";
	constructor(
		readonly file: string,
		readonly pid: number | undefined,
	) {
		super(`session is open in another pi process (pid ${pid ?? "unknown"}): ${file}`);
	}
}

export interface SessionLock {
	/** Set when the lock was taken over or could not be kept fresh; the holder must stop writing. */
	readonly lost: string | undefined;
	release(): void;
}

interface Owner {
	pid: number;
	host: string;
}

const ownerPath = (file: string) => `${file}.lock.pid`;
const lockDir = (file: string) => `${file}.lock`;

function readOwner(file: string): Owner | undefined {
	try {
		const value = JSON.parse(readFileSync(ownerPath(file), "utf8")) as Partial<Owner>;
		if (typeof value.pid === "number" && typeof value.host === "string") return { pid: value.pid, host: value.host };
	} catch {
		// Missing or half-written pid file: treated as "no owner recorded".
	}
	return undefined;
}

function processExists(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: it exists but belongs to another user.
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

let host: string | undefined;

/**
 * This machine's name, recorded with the lock. On Linux the kernel publishes it as a file, which saves loading
 * `node:os` (slow to initialise under Bun) on the path of every run that writes a session; elsewhere `os.hostname()`.
 */
function hostname(): string {
	if (host !== undefined) return host;
	try {
		host = readFileSync("/proc/sys/kernel/hostname", "utf8").trim();
	} catch {
		// Not Linux (or no /proc): ask the OS module.
	}
	if (!host) host = os().hostname();
	return host;
}

/** Whether the current lock holder is known to be gone. */
function holderIsDead(file: string, owner: Owner | undefined): boolean {
	if (owner) return owner.host === hostname() && owner.pid !== process.pid && !processExists(owner.pid);
	try {
		return Date.now() - statSync(lockDir(file)).mtimeMs > NO_OWNER_GRACE_MS;
	} catch {
		// The lock vanished meanwhile: the next attempt will simply take it.
		return true;
	}
}

/** Locks held by this process, released on exit (normal exit or an uncaught error; SIGKILL leaves them stale). */
const held = new Set<string>();
let exitHookInstalled = false;

function releaseAllOnExit(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.on("exit", () => {
		for (const dir of held) {
			try {
				rmdirSync(dir);
			} catch {
				// Already gone or taken over: nothing of ours to remove.
			}
		}
	});
}

/** mkdir of the lock directory; a stale one (mtime older than STALE_MS) is replaced once. */
function tryLock(file: string, onLost: (reason: string) => void): (() => void) | undefined {
	const dir = lockDir(file);
	try {
		mkdirSync(dir);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
		let stale: boolean;
		try {
			stale = Date.now() - statSync(dir).mtimeMs > STALE_MS;
		} catch {
			// Removed between mkdir and stat: one more attempt decides.
			stale = true;
		}
		if (!stale) return undefined;
		try {
			rmdirSync(dir);
			mkdirSync(dir);
		} catch {
			// Another contender won the race for the stale lock.
			return undefined;
		}
	}
	held.add(dir);
	releaseAllOnExit();
	let lastTouch = statSync(dir).mtimeMs;
	// Keeps the lock fresh; a changed mtime means someone else took the directory over.
	const refresh = setInterval(() => {
		try {
			if (statSync(dir).mtimeMs !== lastTouch) throw new Error("the lock was taken over");
			const now = new Date();
			utimesSync(dir, now, now);
			lastTouch = statSync(dir).mtimeMs;
		} catch (error) {
			clearInterval(refresh);
			held.delete(dir);
			onLost((error as Error).message);
		}
	}, STALE_MS / 2);
	refresh.unref();
	return () => {
		clearInterval(refresh);
		if (!held.delete(dir)) return;
		rmdirSync(dir);
	};
}

/** Takes the lock for `file` (which need not exist yet) or throws `SessionLockedError`. */
export function lockSessionFile(file: string): SessionLock {
	let lost: string | undefined;
	const onLost = (reason: string) => {
		lost = `lost the session lock (${reason})`;
	};
	let release = tryLock(file, onLost);
	if (!release) {
		const owner = readOwner(file);
		if (!holderIsDead(file, owner)) throw new SessionLockedError(file, owner?.pid);
		// Take over from a dead holder: forget its pid file, remove its lock directory, lock again.
		try {
			unlinkSync(ownerPath(file));
		} catch {
			// Already gone.
		}
		try {
			rmdirSync(lockDir(file));
		} catch {
			// Someone else removed or retook it; the attempt below decides.
		}
		release = tryLock(file, onLost);
		if (!release) throw new SessionLockedError(file, readOwner(file)?.pid);
	}
	writeFileSync(ownerPath(file), JSON.stringify({ pid: process.pid, host: hostname() }));
	const held = release;
	let released = false;
	return {
		get lost() {
			return lost;
		},
		release() {
			if (released) return;
			released = true;
			if (readOwner(file)?.pid === process.pid) {
				try {
					unlinkSync(ownerPath(file));
				} catch {
					// Removed by someone else; nothing to clean.
				}
			}
			try {
				held();
			} catch {
				// Already released or taken over (then `lost` says so); there is nothing left to undo.
			}
		},
	};
}
