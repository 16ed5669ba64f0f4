/**
 * The state behind pi's `SettingsManager`: the global and project documents, their merge (project over global,
 * objects merged key by key), and writes. A setter changes memory at once and queues a write; the write re-reads
 * the document under its lock and replaces only the keys (or, for nested settings, the sub-keys) this manager
 * changed, so edits made meanwhile by the user or by other pi processes survive. Failures are kept for
 * `drainErrors()`; `flush()` waits for queued writes. A document that could not be parsed is never written.
 */
import { describeInvalidJson, errorMessage } from "../util/index.ts";
import type { Settings } from "./settings-schema.ts";
import type { SettingsManagerScope, SettingsStorage } from "./settings-storage.ts";
import { migrateSettings } from "./settings-values.ts";

/** Settings as read: the documented keys, plus whatever else the file holds. */
export type SettingsData = Settings & Record<string, any>;

export interface SettingsManagerCreateOptions {
	/** Whether project settings are read and may be written (default true). */
	projectTrusted?: boolean;
}

export interface SettingsError {
	scope: SettingsManagerScope;
	path?: string;
	error: Error;
}

const isObject = (value: unknown): value is Record<string, any> =>
	typeof value === "object" && value !== null && !Array.isArray(value);

/** `overrides` over `base`: nested objects merge, anything else replaces; undefined leaves the base value. */
export function mergeSettingsData(base: Record<string, any>, overrides: Record<string, any>): Record<string, any> {
	const out: Record<string, any> = { ...base };
	for (const [key, value] of Object.entries(overrides)) {
		if (value === undefined) continue;
		out[key] = isObject(out[key]) && isObject(value) ? mergeSettingsData(out[key], value) : value;
	}
	return out;
}

/** Parses a settings document; a syntax error says where ("invalid JSON at line L, column C (…)"). */
export function parseSettingsDocument(text: string): SettingsData {
	const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
	let parsed: Record<string, unknown>;
	try {
		parsed = JSON.parse(body);
	} catch (error) {
		throw new SyntaxError(describeInvalidJson(body) ?? errorMessage(error));
	}
	return migrateSettings(parsed) as SettingsData;
}

type Load = { settings: SettingsData; error: Error | null };

function load(storage: SettingsStorage, scope: SettingsManagerScope, trusted = true): Load {
	if (scope === "project" && !trusted) return { settings: {}, error: null };
	try {
		let text: string | undefined;
		storage.withLock(scope, (current) => {
			text = current;
			return undefined;
		});
		return { settings: text ? parseSettingsDocument(text) : {}, error: null };
	} catch (error) {
		return { settings: {}, error: error instanceof Error ? error : new Error(String(error)) };
	}
}

/** Which top-level keys (and which of their sub-keys) this manager changed in one document since the last write. */
class Changes {
	readonly keys = new Set<string>();
	readonly nested = new Map<string, Set<string>>();
	mark(key: string, subKey?: string): void {
		this.keys.add(key);
		if (subKey) this.nested.set(key, (this.nested.get(key) ?? new Set()).add(subKey));
	}
	clear(): void {
		this.keys.clear();
		this.nested.clear();
	}
	snapshot(): Changes {
		const copy = new Changes();
		for (const key of this.keys) copy.keys.add(key);
		for (const [key, subKeys] of this.nested) copy.nested.set(key, new Set(subKeys));
		return copy;
	}
}

export class SettingsManagerCore {
	protected globalSettings: SettingsData;
	protected projectSettings: SettingsData;
	/** Global and project merged, plus `applyOverrides`. */
	protected settings: SettingsData;
	private projectTrusted: boolean;
	private readonly changes: Record<SettingsManagerScope, Changes> = { global: new Changes(), project: new Changes() };
	private readonly loadFailed: Record<SettingsManagerScope, boolean> = { global: false, project: false };
	private writeQueue: Promise<void> = Promise.resolve();
	private errors: SettingsError[] = [];

	protected constructor(
		private readonly storage: SettingsStorage,
		options: SettingsManagerCreateOptions,
		private readonly paths: Partial<Record<SettingsManagerScope, string>> = {},
	) {
		this.projectTrusted = options.projectTrusted ?? true;
		const global = load(storage, "global");
		const project = load(storage, "project", this.projectTrusted);
		this.globalSettings = global.settings;
		this.projectSettings = project.settings;
		this.noteLoad("global", global);
		this.noteLoad("project", project);
		this.settings = mergeSettingsData(this.globalSettings, this.projectSettings);
	}

	private noteLoad(scope: SettingsManagerScope, result: Load): void {
		this.loadFailed[scope] = result.error !== null;
		if (result.error) this.recordError(scope, result.error);
	}

	private recordError(scope: SettingsManagerScope, error: unknown): void {
		const path = this.paths[scope];
		this.errors.push({
			scope,
			...(path ? { path } : {}),
			error: error instanceof Error ? error : new Error(String(error)),
		});
	}

	getGlobalSettings(): Settings {
		return structuredClone(this.globalSettings);
	}

	getProjectSettings(): Settings {
		return structuredClone(this.projectSettings);
	}

	isProjectTrusted(): boolean {
		return this.projectTrusted;
	}

	/** Trusting reads the project document; distrusting forgets it (and any unwritten project changes). */
	setProjectTrusted(trusted: boolean): void {
		if (this.projectTrusted === trusted) return;
		this.projectTrusted = trusted;
		this.changes.project.clear();
		const project = trusted ? load(this.storage, "project", true) : { settings: {}, error: null };
		this.projectSettings = project.settings;
		this.noteLoad("project", project);
		this.settings = mergeSettingsData(this.globalSettings, this.projectSettings);
	}

	/** Waits for queued writes, then reads both documents again (a document that fails to parse keeps its old values). */
	async reload(): Promise<void> {
		await this.writeQueue;
		for (const scope of ["global", "project"] as const) {
			this.changes[scope].clear();
			const result = load(this.storage, scope, this.projectTrusted);
			if (!result.error) {
				if (scope === "global") this.globalSettings = result.settings;
				else this.projectSettings = result.settings;
			}
			this.noteLoad(scope, result);
		}
		this.settings = mergeSettingsData(this.globalSettings, this.projectSettings);
	}

	/** Settings for this process only (e.g. from the command line), over both documents; never written. */
	applyOverrides(overrides: Partial<Settings>): void {
		this.settings = mergeSettingsData(this.settings, overrides as Record<string, any>);
	}

	async flush(): Promise<void> {
		await this.writeQueue;
	}

	/** Load and write failures since the last call. */
	drainErrors(): SettingsError[] {
		const drained = this.errors;
		this.errors = [];
		return drained;
	}

	/** Sets a global key (or `key.subKey`), then queues the write. */
	protected setGlobal(key: string, value: unknown, subKey?: string): void {
		if (subKey) {
			const parent = isObject(this.globalSettings[key]) ? this.globalSettings[key] : {};
			parent[subKey] = value;
			this.globalSettings[key] = parent;
		} else this.globalSettings[key] = value;
		this.changes.global.mark(key, subKey);
		this.save("global");
	}

	/** Changes the global document through `edit` and marks `key` changed. */
	protected editGlobal(key: string, edit: (settings: SettingsData) => void): void {
		edit(this.globalSettings);
		this.changes.global.mark(key);
		this.save("global");
	}

	/** Sets a project key; throws when the project is not trusted. */
	protected setProject(key: string, value: unknown): void {
		this.assertProjectWritable();
		this.projectSettings = { ...structuredClone(this.projectSettings), [key]: value };
		this.changes.project.mark(key);
		this.save("project");
	}

	private assertProjectWritable(): void {
		if (!this.projectTrusted) throw new Error("Project is not trusted; refusing to write project settings");
	}

	private save(scope: SettingsManagerScope): void {
		this.settings = mergeSettingsData(this.globalSettings, this.projectSettings);
		if (this.loadFailed[scope]) return;
		const snapshot = structuredClone(scope === "global" ? this.globalSettings : this.projectSettings);
		const changes = this.changes[scope].snapshot();
		this.writeQueue = this.writeQueue
			.then(() => {
				if (scope === "project") this.assertProjectWritable();
				this.persist(scope, snapshot, changes);
				this.changes[scope].clear();
			})
			.catch((error) => this.recordError(scope, error));
	}

	private persist(scope: SettingsManagerScope, snapshot: SettingsData, changes: Changes): void {
		this.storage.withLock(scope, (current) => {
			const onDisk: Record<string, any> = current ? parseSettingsDocument(current) : {};
			const next: Record<string, any> = { ...onDisk };
			for (const key of changes.keys) {
				const value = snapshot[key];
				const subKeys = changes.nested.get(key);
				if (subKeys && isObject(value)) {
					const merged: Record<string, any> = { ...(isObject(onDisk[key]) ? onDisk[key] : {}) };
					for (const subKey of subKeys) merged[subKey] = value[subKey];
					next[key] = merged;
				} else next[key] = value;
			}
			return JSON.stringify(next, null, 2);
		});
	}
}
