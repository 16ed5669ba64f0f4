/**
 * Atomic installs. Every change to a scope's files happens under one lock per scope (proper-lockfile on
 * `<scopeDir>/.packages-install.lock`, kept fresh while held), so two `pi install` processes never interleave. A
 * tree or clone is rebuilt in a staging folder beside it (`<dir>.staging-<pid>`) and swapped in by two renames
 * (`<dir>` → `<dir>.old-<pid>`, staging → `<dir>`), so a failure at any point leaves the previous files as they
 * were. Leftovers of a killed run are cleaned up under the lock next time: staging folders are removed, and an old
 * folder whose replacement never arrived is put back.
 */
import { basename, dirname, join } from "node:path";
import { errorMessage, existsSync, mkdirSync, readdirSync, renameSync, rmSync, UserError } from "../util/index.ts";

const STALE_MS = 20_000;
/** Retries span several minutes: another process's install may take that long. */
const RETRIES = { retries: 300, factor: 1.2, minTimeout: 50, maxTimeout: 1000 };

const queues = new Map<string, Promise<unknown>>();

/** Runs `fn` holding the scope's install lock (in this process, calls on one scope also queue). */
export function withScopeLock<T>(scopeDir: string, fn: () => Promise<T>): Promise<T> {
	const previous = queues.get(scopeDir) ?? Promise.resolve();
	const run = previous.catch(() => undefined).then(() => locked(scopeDir, fn));
	const settled = run.catch(() => undefined);
	queues.set(scopeDir, settled);
	void settled.then(() => {
		if (queues.get(scopeDir) === settled) queues.delete(scopeDir);
	});
	return run;
}

async function locked<T>(scopeDir: string, fn: () => Promise<T>): Promise<T> {
	mkdirSync(scopeDir, { recursive: true });
	const { default: lockfile } = await import("proper-lockfile");
	const lockfilePath = join(scopeDir, ".packages-install.lock");
	const release = await lockfile
		.lock(scopeDir, { realpath: false, lockfilePath, stale: STALE_MS, retries: RETRIES, onCompromised: () => {} })
		.catch((error: unknown) => {
			throw new UserError(`Cannot lock ${lockfilePath} (another pi install still running?): ${errorMessage(error)}`);
		});
	try {
		return await fn();
	} finally {
		await release().catch(() => {
			// Already released or taken over as stale: nothing left to clean up.
		});
	}
}

export const stagingPath = (dir: string): string => `${dir}.staging-${process.pid}`;
const oldPath = (dir: string): string => `${dir}.old-${process.pid}`;

/** Removes staging folders of `dir` left by killed runs and restores an old folder whose swap never finished. */
export function cleanStale(dir: string): void {
	const parent = dirname(dir);
	if (!existsSync(parent)) return;
	const name = basename(dir);
	for (const entry of readdirSync(parent)) {
		if (!entry.startsWith(`${name}.`)) continue;
		const path = join(parent, entry);
		if (/^\.staging-\d+$/.test(entry.slice(name.length))) rmSync(path, { recursive: true, force: true });
		else if (/^\.old-\d+$/.test(entry.slice(name.length))) {
			if (existsSync(dir)) rmSync(path, { recursive: true, force: true });
			else renameSync(path, dir);
		}
	}
}

/** A fresh, empty staging folder for `dir`. */
export function freshStaging(dir: string): string {
	const staging = stagingPath(dir);
	rmSync(staging, { recursive: true, force: true });
	mkdirSync(staging, { recursive: true });
	return staging;
}

/** Puts `staging` in place of `dir` (which may not exist yet); the previous content is deleted afterwards. */
export function swapIn(dir: string, staging: string): void {
	const old = oldPath(dir);
	rmSync(old, { recursive: true, force: true });
	const hadOld = existsSync(dir);
	if (hadOld) renameSync(dir, old);
	try {
		renameSync(staging, dir);
	} catch (error) {
		if (hadOld) renameSync(old, dir);
		throw error;
	}
	if (hadOld) rmSync(old, { recursive: true, force: true });
}

/** Deletes `dir` atomically (rename first, so a crash never leaves half of it). */
export function removeDir(dir: string): void {
	if (!existsSync(dir)) return;
	const old = oldPath(dir);
	rmSync(old, { recursive: true, force: true });
	renameSync(dir, old);
	rmSync(old, { recursive: true, force: true });
}
