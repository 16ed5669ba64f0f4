/**
 * The settings store: both files loaded and merged, and locked writes to either scope.
 *
 * Writes re-read the file under its lock and change only the keys asked for, so edits made meanwhile by the user
 * or by other pi processes survive, as do unknown keys and keys that currently hold invalid values. A value the
 * schema rejects is refused before anything is written; so is any write to a file that is not valid JSON (the
 * user's file is never replaced by defaults).
 */
import { type JsonObject, updateJsonFile } from "./json-file.ts";
import { agentPaths, projectPaths } from "./paths.ts";
import { loadSettingsFiles, mergeSettings, type SettingsFile, type SettingsScope } from "./settings-file.ts";
import type { Settings } from "./settings-schema.ts";
import { GLOBAL_ONLY_KEYS } from "./settings-scope.ts";
import {
	checkSettingValue,
	isPlainObject,
	type ResolvedSettings,
	resolveSettings,
	validateSettings,
} from "./settings-values.ts";

export interface SettingsStoreOptions {
	agentDir: string;
	cwd: string;
	/** Project settings are read (and may be written) only when the project is trusted. */
	projectTrusted: boolean;
}

/** `"a.b.c"` or `["a", "b", "c"]`; use the array form when a key itself contains dots (model ids often do). */
export type SettingsKeyPath = string | readonly string[];

function splitKeyPath(keyPath: SettingsKeyPath): string[] {
	const parts = typeof keyPath === "string" ? keyPath.split(".") : [...keyPath];
	if (parts.length === 0 || parts.some((p) => p === "")) throw new Error(`Invalid settings key "${String(keyPath)}"`);
	return parts;
}

function setIn(data: JsonObject, path: readonly string[], value: unknown): void {
	let node = data;
	for (const part of path.slice(0, -1)) {
		const next = node[part];
		if (!isPlainObject(next)) node[part] = {};
		node = node[part] as JsonObject;
	}
	const last = path[path.length - 1] as string;
	if (value === undefined) delete node[last];
	else node[last] = structuredClone(value);
}

function problemKeys(key: string, value: unknown): Map<string, string> {
	if (value === undefined) return new Map();
	const { problems } = validateSettings({ [key]: value });
	return new Map(problems.map((p) => [p.key, p.problem]));
}

export class SettingsStore {
	readonly agentDir: string;
	readonly cwd: string;
	private projectTrusted: boolean;
	private loaded: { files: SettingsFile[]; diagnostics: string[] } = { files: [], diagnostics: [] };
	private mergedCache: Settings | undefined;

	constructor(options: SettingsStoreOptions) {
		this.agentDir = options.agentDir;
		this.cwd = options.cwd;
		this.projectTrusted = options.projectTrusted;
		this.reload();
	}

	pathFor(scope: SettingsScope): string {
		return scope === "global" ? agentPaths.settings(this.agentDir) : projectPaths.settings(this.cwd);
	}

	isProjectTrusted(): boolean {
		return this.projectTrusted;
	}

	/** Changes the trust state and re-reads the files (project settings appear or disappear). */
	setProjectTrusted(trusted: boolean): void {
		this.projectTrusted = trusted;
		this.reload();
	}

	/** Re-reads both files from disk. */
	reload(): void {
		this.loaded = loadSettingsFiles({ agentDir: this.agentDir, cwd: this.cwd, projectTrusted: this.projectTrusted });
		this.mergedCache = undefined;
	}

	get files(): readonly SettingsFile[] {
		return this.loaded.files;
	}

	/** Problems found at the last (re)load, one line each. */
	get diagnostics(): readonly string[] {
		return this.loaded.diagnostics;
	}

	/** The validated content of one file (`{}` when absent, unusable, or an untrusted project file's other keys). */
	getScope(scope: SettingsScope): Settings {
		return this.loaded.files.find((f) => f.scope === scope)?.settings ?? {};
	}

	/** Project over global, without defaults. */
	get merged(): Settings {
		this.mergedCache ??= mergeSettings(this.loaded.files);
		return this.mergedCache;
	}

	/** Project over global, with every documented default filled in. */
	get resolved(): ResolvedSettings {
		return resolveSettings(this.merged);
	}

	/** Sets (or, with `undefined`, removes) one key in one file. */
	async set(scope: SettingsScope, keyPath: SettingsKeyPath, value: unknown): Promise<void> {
		const path = splitKeyPath(keyPath);
		this.assertWritable(scope, path[0] as string);
		const problem = checkSettingValue(path, value);
		if (problem) throw new Error(`Cannot set "${path.join(".")}" in ${this.pathFor(scope)}: ${problem}`);
		try {
			await updateJsonFile(this.pathFor(scope), (data) => setIn(data, path, value));
		} finally {
			this.reload();
		}
	}

	/**
	 * Edits one file's raw content in place under its lock. Keys the function changes are validated (a new problem
	 * aborts the write); everything else is written back exactly as it was read.
	 */
	async update(scope: SettingsScope, fn: (data: JsonObject) => void): Promise<void> {
		const file = this.pathFor(scope);
		try {
			await updateJsonFile(file, (data) => {
				const before = structuredClone(data);
				fn(data);
				const keys = new Set([...Object.keys(before), ...Object.keys(data)]);
				for (const key of keys) {
					if (JSON.stringify(before[key]) === JSON.stringify(data[key])) continue;
					this.assertWritable(scope, key);
					const old = problemKeys(key, before[key]);
					for (const [where, problem] of problemKeys(key, data[key])) {
						if (old.get(where) !== problem) throw new Error(`Cannot set "${where}" in ${file}: ${problem}`);
					}
				}
			});
		} finally {
			this.reload();
		}
	}

	private assertWritable(scope: SettingsScope, topKey: string): void {
		if (scope !== "project") return;
		const file = this.pathFor(scope);
		if (!this.projectTrusted) throw new Error(`Cannot write ${file}: the project is not trusted`);
		if (GLOBAL_ONLY_KEYS.has(topKey)) {
			throw new Error(`Cannot set "${topKey}" in ${file}: it can only be set in the agent-directory settings`);
		}
	}
}
