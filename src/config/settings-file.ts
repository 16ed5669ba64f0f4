/**
 * Reading settings files: the global `<agentDir>/settings.json` and the project `<cwd>/.pi/settings.json`.
 *
 * Each file is parsed, migrated (legacy keys) and validated key by key. Problems come back as one line each naming
 * the file, the key and what is wrong; the bad key falls back to its default and the rest of the file is used.
 * An unparsable file counts as empty. Project settings are trust-gated: while the project is not trusted only its
 * `sessionDir` is read (pi needs it to find sessions before trust is resolved).
 */
import { dirname, isAbsolute, resolve } from "node:path";
import { expandHome } from "../util/index.ts";
import { readJsonObject } from "./json-file.ts";
import { agentPaths, projectPaths } from "./paths.ts";
import type { Settings } from "./settings-schema.ts";
import { GLOBAL_ONLY_KEYS } from "./settings-scope.ts";
import { deepMerge, migrateSettings, validateSettings } from "./settings-values.ts";

/** The settings start-up code works with. */
export type StartupSettings = Settings;

export type SettingsScope = "global" | "project";

export interface SettingsFile {
	scope: SettingsScope;
	path: string;
	/** Directory that relative resource paths in this file resolve from. */
	baseDir: string;
	/** Valid keys of the file (bad ones removed), plus unknown keys as they are. */
	settings: Settings;
	/** True for an untrusted project file, of which only `sessionDir` was kept. */
	restricted?: boolean;
}

export interface SettingsLoad {
	files: SettingsFile[];
	/** One line each, naming file, key and problem. */
	diagnostics: string[];
}

export interface LoadSettingsOptions {
	agentDir: string;
	cwd: string;
	/** Whether project settings load; when false only the project `sessionDir` is read. */
	projectTrusted: boolean;
}

export function loadSettingsFiles(options: LoadSettingsOptions): SettingsLoad {
	const diagnostics: string[] = [];
	const files: SettingsFile[] = [];
	const global = readSettingsFile("global", agentPaths.settings(options.agentDir), options.agentDir, diagnostics);
	if (global) files.push(global);
	const projectFile = projectPaths.settings(options.cwd);
	const project = readSettingsFile("project", projectFile, dirname(projectFile), diagnostics, options.projectTrusted);
	if (project) files.push(project);
	return { files, diagnostics };
}

/**
 * First-cut entry kept for start-up code. Without `projectTrusted` the project file loads in full (the caller has
 * not resolved trust yet); pass it once trust is known.
 */
export function loadStartupSettings(
	agentDir: string,
	cwd: string,
	options: { projectTrusted?: boolean } = {},
): SettingsLoad {
	return loadSettingsFiles({ agentDir, cwd, projectTrusted: options.projectTrusted ?? true });
}

/**
 * Reads one settings file; undefined when it does not exist or cannot be used (then a diagnostic says why).
 * For the project scope, `trusted: false` keeps only `sessionDir`, and global-only keys are ignored.
 */
export function readSettingsFile(
	scope: SettingsScope,
	path: string,
	baseDir: string,
	diagnostics: string[],
	trusted = true,
): SettingsFile | undefined {
	const read = readJsonObject(path);
	if (!read.ok) {
		diagnostics.push(`settings ${path}: ${read.reason}; using defaults`);
		return undefined;
	}
	if (!read.data) return undefined;
	const migrated = migrateSettings(read.data);
	if (scope === "project" && !trusted) {
		const { settings, problems } = validateSettings({ sessionDir: migrated.sessionDir });
		for (const p of problems) diagnostics.push(`settings ${path}: "${p.key}": ${p.problem}; using the default`);
		const kept: Settings = settings.sessionDir === undefined ? {} : { sessionDir: settings.sessionDir };
		return { scope, path, baseDir, settings: kept, restricted: true };
	}
	const { settings, problems } = validateSettings(migrated);
	for (const p of problems) diagnostics.push(`settings ${path}: "${p.key}": ${p.problem}; using the default`);
	if (scope === "project") {
		const record = settings as Record<string, unknown>;
		for (const key of GLOBAL_ONLY_KEYS) {
			if (record[key] === undefined) continue;
			diagnostics.push(`settings ${path}: "${key}": can only be set in the agent-directory settings; ignored here`);
			delete record[key];
		}
	}
	return { scope, path, baseDir, settings };
}

/** Resolves a resource path from a settings file: `~` expanded, relative to the file's base dir. */
export function resolveSettingsPath(entry: string, baseDir: string): string {
	const expanded = expandHome(entry);
	return isAbsolute(expanded) ? expanded : resolve(baseDir, expanded);
}

/**
 * Later files over earlier ones (pass global, then project): plain objects merge at every depth, other values
 * (arrays included) replace. Resource lists are not combined here; the resource loader reads each file's list.
 */
export function mergeSettings(files: readonly SettingsFile[]): Settings {
	let merged: Record<string, unknown> = {};
	for (const file of files) merged = deepMerge(merged, file.settings as Record<string, unknown>);
	return merged as Settings;
}
