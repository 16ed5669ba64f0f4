/**
 * Finding extension entry files, as pi 0.87.1 does:
 * - `<agentDir>/extensions/` (global) and `<cwd>/.pi/extensions/` (project): folders of extensions;
 * - paths from settings `extensions` (files, or folders of extensions, relative to the settings file's folder);
 * - `-e/--extension <path>` from the command line (kept even with `--no-extensions`): a file is one extension, a
 *   folder is a package (its `pi` manifest, else its conventional extensions/skills/prompts/themes folders, else the
 *   folder itself as one extension), whose skills, prompt templates and themes are returned as `resources`.
 * See package-source.ts for the folder rules. Order: global → project → settings → cli, deduplicated by real path
 * (the first occurrence keeps its place; paths are reported as given, symlinks not resolved, as pi does).
 */

import { isAbsolute, resolve } from "node:path";
import { expandHome, realpathSync, statSync } from "../util/index.ts";
import { autoExtensionEntries, type FolderRead, resolvePackageFolder } from "./package-source.ts";
import type { ExtensionDiagnostic, ExtensionEntry, ExtensionScope } from "./types.ts";

export interface DiscoveryOptions {
	cwd: string;
	/** `<agentDir>/extensions` */
	globalDir?: string;
	/** `<cwd>/.pi/extensions`; omitted when project resources are not allowed. */
	projectDir?: string;
	/** Entries from settings files, each already resolved against its file's folder. */
	settingsPaths: string[];
	/**
	 * `-e` values as typed (relative to cwd, `~` allowed), or for an npm/git package given with `-e` its installed
	 * folder with the source as typed (the runtime installs it first; a package source typed here is refused).
	 */
	cliPaths: (string | InstalledCliPackage)[];
	/** `--no-extensions`: skip global, project and settings; keep cli. */
	noDiscovery: boolean;
	isHostPackage: (name: string) => boolean;
}

/** An `-e npm:…` / `-e git:…` package, already installed: its folder and the source as typed. */
export interface InstalledCliPackage {
	folder: string;
	source: string;
}

/** A skill, prompt template or theme file of a folder given with `-e`; `source` is the `-e` value as typed. */
export interface PackageResource {
	path: string;
	source: string;
	baseDir: string;
}

export interface PackageResources {
	skills: PackageResource[];
	prompts: PackageResource[];
	themes: PackageResource[];
}

export interface DiscoveryResult {
	entries: ExtensionEntry[];
	diagnostics: ExtensionDiagnostic[];
	/** Resources of the folders given with `-e`, in order. */
	resources: PackageResources;
}

const PACKAGE_SOURCE = /^(npm:|git:|https?:\/\/|ssh:\/\/|git@)/;
const ENTRY_FILE = /\.(ts|js|mts|mjs|cts|cjs)$/;

export function discoverExtensions(options: DiscoveryOptions): DiscoveryResult {
	const entries: ExtensionEntry[] = [];
	const diagnostics: ExtensionDiagnostic[] = [];
	const resources: PackageResources = { skills: [], prompts: [], themes: [] };
	const seen = new Set<string>();
	const add = (path: string, scope: ExtensionScope, more: { file?: string } = {}) => {
		const real = realPath(path);
		if (seen.has(real)) return;
		seen.add(real);
		entries.push({ path, scope, ...more });
	};
	const read: FolderRead = { diagnostics, isHostPackage: options.isHostPackage };
	const scanFolder = (dir: string, scope: ExtensionScope) => {
		for (const path of autoExtensionEntries(dir, read)) add(path, scope);
	};

	if (!options.noDiscovery) {
		if (options.globalDir) scanFolder(options.globalDir, "global");
		if (options.projectDir) scanFolder(options.projectDir, "project");
		for (const path of options.settingsPaths) {
			const kind = kindOf(path, diagnostics);
			if (kind === "file") add(path, "settings");
			else if (kind === "dir") scanFolder(path, "settings");
		}
	}
	for (const cli of options.cliPaths) {
		const raw = typeof cli === "string" ? cli : cli.source;
		if (typeof cli === "string" && PACKAGE_SOURCE.test(raw)) {
			diagnostics.push({ level: "error", path: raw, message: "package sources are loaded by the package manager" });
			continue;
		}
		const expanded = expandHome(raw);
		const path =
			typeof cli !== "string" ? cli.folder : isAbsolute(expanded) ? expanded : resolve(options.cwd, expanded);
		const kind = typeof cli !== "string" ? "dir" : kindOf(path, diagnostics);
		if (kind === "file") {
			if (ENTRY_FILE.test(path)) add(path, "cli");
			else diagnostics.push({ level: "error", path, message: "not a .ts or .js file" });
		} else if (kind === "dir") {
			const folder = resolvePackageFolder(path, read);
			for (const extension of folder.extensions) {
				// An installed package is read through its manifest or folders only (pi does not load it as a folder).
				if (typeof cli !== "string" && extension.file !== undefined) continue;
				add(extension.path, "cli", extension.file ? { file: extension.file } : {});
			}
			for (const type of ["skills", "prompts", "themes"] as const) {
				for (const file of folder[type]) resources[type].push({ path: file, source: raw, baseDir: path });
			}
		}
	}
	return { entries, diagnostics, resources };
}

/** Whether a named path is a file or a folder; a missing one is reported. */
function kindOf(path: string, diagnostics: ExtensionDiagnostic[]): "file" | "dir" | undefined {
	try {
		const stats = statSync(path);
		return stats.isDirectory() ? "dir" : "file";
	} catch {
		diagnostics.push({ level: "error", path, message: "not found" });
		return undefined;
	}
}

function realPath(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		// A dangling path still gets a stable identity; loading it reports the real problem.
		return resolve(path);
	}
}
