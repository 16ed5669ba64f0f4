/**
 * Finding extension entry files, as pi does:
 * - `<agentDir>/extensions/` (global) and `<cwd>/.pi/extensions/` (project), one level deep;
 * - paths from settings `extensions` (files or folders, relative to the settings file's folder);
 * - `-e/--extension <path>` from the command line (kept even with `--no-extensions`).
 * In a folder: `*.ts`/`*.js` files, and sub-folders that are packages (`package.json` `pi.extensions`) or have an
 * `index.ts`/`index.js`. Order: global → project → settings → cli, sorted by name within a folder, deduplicated by
 * real path (the first occurrence keeps its place).
 */

import { isAbsolute, join, resolve } from "node:path";
import { existsSync, expandHome, readdirSync, realpathSync, statSync } from "../util/index.ts";
import { isDirectory, readManifest } from "./manifest.ts";
import type { ExtensionDiagnostic, ExtensionEntry, ExtensionScope } from "./types.ts";

export interface DiscoveryOptions {
	cwd: string;
	/** `<agentDir>/extensions` */
	globalDir?: string;
	/** `<cwd>/.pi/extensions`; omitted when project resources are not allowed. */
	projectDir?: string;
	/** Entries from settings files, each already resolved against its file's folder. */
	settingsPaths: string[];
	/** `-e` values as typed (relative to cwd, `~` allowed). */
	cliPaths: string[];
	/** `--no-extensions`: skip global, project and settings; keep cli. */
	noDiscovery: boolean;
	isHostPackage: (name: string) => boolean;
}

export interface DiscoveryResult {
	entries: ExtensionEntry[];
	diagnostics: ExtensionDiagnostic[];
}

const PACKAGE_SOURCE = /^(npm:|git:|https?:\/\/|ssh:\/\/)/;
const ENTRY_FILE = /\.(ts|js|mts|mjs|cts|cjs)$/;
const CONTAINER_FILE = /^[^.].*\.(ts|js)$/;

export function discoverExtensions(options: DiscoveryOptions): DiscoveryResult {
	const entries: ExtensionEntry[] = [];
	const diagnostics: ExtensionDiagnostic[] = [];
	const seen = new Set<string>();
	const add = (path: string, scope: ExtensionScope, packageDir?: string) => {
		const real = realPath(path);
		if (seen.has(real)) return;
		seen.add(real);
		entries.push(packageDir ? { path: real, scope, packageDir } : { path: real, scope });
	};
	const ctx: ScanContext = { add, diagnostics, isHostPackage: options.isHostPackage };

	if (!options.noDiscovery) {
		if (options.globalDir) scanContainer(options.globalDir, "global", ctx);
		if (options.projectDir) scanContainer(options.projectDir, "project", ctx);
		for (const path of options.settingsPaths) addExplicit(path, "settings", ctx);
	}
	for (const raw of options.cliPaths) {
		if (PACKAGE_SOURCE.test(raw)) {
			diagnostics.push({
				level: "error",
				path: raw,
				message: "package sources need `pi install`, which is not available yet",
			});
			continue;
		}
		const expanded = expandHome(raw);
		addExplicit(isAbsolute(expanded) ? expanded : resolve(options.cwd, expanded), "cli", ctx);
	}
	return { entries, diagnostics };
}

interface ScanContext {
	add(path: string, scope: ExtensionScope, packageDir?: string): void;
	diagnostics: ExtensionDiagnostic[];
	isHostPackage: (name: string) => boolean;
}

/** A folder of extensions: files and extension folders one level down. A missing folder is simply empty. */
function scanContainer(dir: string, scope: ExtensionScope, ctx: ScanContext): void {
	let names: string[];
	try {
		names = readdirSync(dir).sort();
	} catch {
		// No such folder (the usual case for project dirs) or not a folder: nothing to load from it.
		return;
	}
	for (const name of names) {
		const path = join(dir, name);
		if (isDirectory(path)) scanExtensionDir(path, scope, ctx);
		else if (CONTAINER_FILE.test(name) && !name.endsWith(".d.ts")) ctx.add(path, scope);
	}
}

/** One extension folder: its manifest entries, else its index file. Returns whether it yielded anything. */
function scanExtensionDir(dir: string, scope: ExtensionScope, ctx: ScanContext): boolean {
	const manifest = readManifest(dir, ctx.isHostPackage);
	ctx.diagnostics.push(...manifest.diagnostics);
	if (manifest.entries) {
		for (const entry of manifest.entries) {
			if (existsSync(entry)) ctx.add(entry, scope, dir);
			else ctx.diagnostics.push({ level: "error", path: entry, message: "declared in package.json but not found" });
		}
		return manifest.entries.length > 0;
	}
	for (const index of ["index.ts", "index.js"]) {
		const path = join(dir, index);
		if (existsSync(path)) {
			ctx.add(path, scope, dir);
			return true;
		}
	}
	return false;
}

/** A path named in settings or on the command line: a file, an extension folder, or a folder of extensions. */
function addExplicit(path: string, scope: ExtensionScope, ctx: ScanContext): void {
	let stats: ReturnType<typeof statSync>;
	try {
		stats = statSync(path);
	} catch {
		ctx.diagnostics.push({ level: "error", path, message: "not found" });
		return;
	}
	if (stats.isFile()) {
		if (ENTRY_FILE.test(path)) ctx.add(path, scope);
		else ctx.diagnostics.push({ level: "error", path, message: "not a .ts or .js file" });
		return;
	}
	if (scanExtensionDir(path, scope, ctx)) return;
	const conventional = join(path, "extensions");
	if (isDirectory(conventional)) scanContainer(conventional, scope, ctx);
	else scanContainer(path, scope, ctx);
}

function realPath(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		// A dangling path still gets a stable identity; loading it reports the real problem.
		return resolve(path);
	}
}
