/**
 * Where a `SettingsManager` reads and writes its two JSON documents (pi's `SettingsStorage`): `withLock(scope, fn)`
 * hands `fn` the current text (undefined when there is none) and stores what it returns (nothing when undefined).
 * The file storage holds the same `<file>.lock` as every other settings writer while it does so and replaces the
 * file atomically.
 */
import { dirname, join, resolve } from "node:path";
import { existsSync, mkdirSync, readFileSync } from "../util/index.ts";
import { LOCK_STALE_MS, writeFileAtomic } from "./json-file.ts";
import { CONFIG_DIR_NAME } from "./paths.ts";

export type SettingsManagerScope = "global" | "project";

export interface SettingsStorage {
	withLock(scope: SettingsManagerScope, fn: (current: string | undefined) => string | undefined): void;
}

type LockSync = (file: string, options: Record<string, unknown>) => () => void;

let lockSync: LockSync | undefined;

/** Takes `<file>.lock` (the lock every settings, auth and trust writer uses), retrying briefly; returns the release. */
export function takeFileLockSync(file: string): () => void {
	// Loaded on first use (as for the asynchronous writer): most runs never write settings.
	lockSync ??= (require("proper-lockfile") as { lockSync: LockSync }).lockSync;
	let lastError: unknown;
	for (let attempt = 0; attempt < 10; attempt++) {
		try {
			return lockSync(file, { realpath: false, stale: LOCK_STALE_MS });
		} catch (error) {
			if ((error as { code?: string }).code !== "ELOCKED") throw error;
			lastError = error;
			// Synchronous callers: wait 20 ms without yielding.
			Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
		}
	}
	throw lastError;
}

/** `<agentDir>/settings.json` (global) and `<cwd>/.pi/settings.json` (project). */
export class FileSettingsStorage implements SettingsStorage {
	readonly globalSettingsPath: string;
	readonly projectSettingsPath: string;

	constructor(cwd: string, agentDir: string) {
		this.globalSettingsPath = join(resolve(agentDir), "settings.json");
		this.projectSettingsPath = join(resolve(cwd), CONFIG_DIR_NAME, "settings.json");
	}

	withLock(scope: SettingsManagerScope, fn: (current: string | undefined) => string | undefined): void {
		const path = scope === "global" ? this.globalSettingsPath : this.projectSettingsPath;
		let release: (() => void) | undefined;
		try {
			const exists = existsSync(path);
			if (exists) release = takeFileLockSync(path);
			const next = fn(exists ? readFileSync(path, "utf8") : undefined);
			if (next === undefined) return;
			if (!release) {
				mkdirSync(dirname(path), { recursive: true });
				release = takeFileLockSync(path);
			}
			writeFileAtomic(path, next);
		} finally {
			release?.();
		}
	}
}

/** Both documents in memory; nothing touches the disk. */
export class InMemorySettingsStorage implements SettingsStorage {
	private readonly documents: Partial<Record<SettingsManagerScope, string>> = {};

	withLock(scope: SettingsManagerScope, fn: (current: string | undefined) => string | undefined): void {
		const next = fn(this.documents[scope]);
		if (next !== undefined) this.documents[scope] = next;
	}
}
