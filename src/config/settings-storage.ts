/**
 * Where a `SettingsManager` reads and writes its two JSON documents (pi's `SettingsStorage`): `withLock(scope, fn)`
 * hands `fn` the current text (undefined when there is none) and stores what it returns (nothing when undefined).
 * The file storage holds the same `<file>.lock` as every other settings writer while it does so and replaces the
 * file atomically.
 */
import { dirname, join, resolve } from "node:path";
import { existsSync, lockFileSync, mkdirSync, readFileSync } from "../util/index.ts";
import { LOCK_STALE_MS, LOCK_WAIT_MS, writeFileAtomic } from "./json-file.ts";
import { CONFIG_DIR_NAME } from "./paths.ts";

export type SettingsManagerScope = "global" | "project";

export interface SettingsStorage {
	withLock(scope: SettingsManagerScope, fn: (current: string | undefined) => string | undefined): void;
}

/**
 * Takes `<file>.lock` (the lock every settings, auth and trust writer uses) for a synchronous section; returns the
 * release. Waits (without yielding) while other writers hold it; a lock of a dead process is taken over at once.
 */
export function takeFileLockSync(file: string): () => void {
	return lockFileSync(file, { stale: LOCK_STALE_MS, waitMs: LOCK_WAIT_MS });
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
			// Reading a missing file takes no lock (nor creates its folder); a write always decides under the lock.
			if (existsSync(path)) release = takeFileLockSync(path);
			let next = fn(release ? readFileSync(path, "utf8") : undefined);
			if (next === undefined) return;
			if (!release) {
				mkdirSync(dirname(path), { recursive: true });
				release = takeFileLockSync(path);
				// Another writer may have created the file meanwhile: change what is there now, not nothing.
				if (existsSync(path)) next = fn(readFileSync(path, "utf8"));
				if (next === undefined) return;
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
