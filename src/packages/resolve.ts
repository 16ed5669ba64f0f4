/**
 * From the `packages` entries of the settings files to the files that load, as pi 0.87.1 resolves them:
 * 1. `configuredPackages(files)` reads the entries (string or object form) of the user and project files;
 * 2. `dedupePackages(entries)` keeps one entry per identity, project entries first: a project entry replaces the
 *    user's, except one with `autoload: false`, which is a filtering delta in front of the user's entry;
 * 3. `resolvePackages(entries, options)` finds each package's folder (a local path as written, relative to its
 *    settings file; an npm or git package where it is installed, installed first through the injected installer
 *    when missing, skipped with one warning when `PI_OFFLINE` is set) and what it provides under its filters.
 * The first entry to claim a file decides its state and source info, so a delta's states win over the user
 * entry's. Resolving installed packages only stats folders and reads manifests: no subprocess, no network.
 */
import { dirname } from "node:path";
import type { SettingsFile } from "../config/index.ts";
import { formatDiagnostic } from "../extensions/index.ts";
import { errorMessage, existsSync, readFileSync, statSync } from "../util/index.ts";
import { installedPath, type ScopeDirs } from "./paths.ts";
import { type PackageResourceItem, packageResourcesOf } from "./resources.ts";
import { identityOf, parseSource } from "./source.ts";
import {
	type ConfiguredPackage,
	PACKAGE_RESOURCE_TYPES,
	type PackageFilters,
	type PackageInstaller,
	type PackageResourceType,
	type PackageScope,
	type PackageSource,
	type ResolvedPackage,
} from "./types.ts";

/** A package for one run (`-e npm:…`), not in any settings file. */
export interface TemporaryPackage {
	source: string;
	scope: "temporary";
	baseDir: string;
}

export type PackageEntry = ConfiguredPackage | TemporaryPackage;

/** One file a package provides, with where it came from (pi's `SourceInfo` of a package resource). */
export interface PackageResourceFile {
	path: string;
	/** For a folder loaded as one extension: the module it starts from. */
	file?: string;
	/** The source as written in settings (or on the command line). */
	source: string;
	scope: PackageScope;
	/** The package root (for a local file package: its folder). */
	baseDir: string;
	identity: string;
}

export interface PackageResolution {
	packages: ResolvedPackage[];
	extensions: PackageResourceFile[];
	skills: PackageResourceFile[];
	prompts: PackageResourceFile[];
	themes: PackageResourceFile[];
	/** Every file the packages declare, enabled or not (in the order they were claimed), for listings. */
	listed: Record<PackageResourceType, (PackageResourceFile & { enabled: boolean })[]>;
	/** One line each, naming the source or file and the problem. */
	diagnostics: string[];
}

export interface ResolvePackagesOptions extends ScopeDirs {
	/** Made on first need (a package that is not installed yet), so start-up without one loads no installer. */
	installer?: () => Promise<PackageInstaller>;
	isHostPackage?: (name: string) => boolean;
	/** For `PI_OFFLINE`; default `process.env`. */
	env?: NodeJS.ProcessEnv;
	/**
	 * Where earlier look-ups of this run found npm/git packages (undefined: skipped, already reported), by scope and
	 * identity, so a second pass (after project trust) neither installs nor reports a package again.
	 */
	located?: Map<string, string | undefined>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === "object" && value !== null && !Array.isArray(value);

/** The `packages` entries of the given settings files, user file first (restricted project files hold none). */
export function configuredPackages(files: readonly SettingsFile[]): ConfiguredPackage[] {
	const ordered = [...files.filter((f) => f.scope === "global"), ...files.filter((f) => f.scope === "project")];
	const out: ConfiguredPackage[] = [];
	for (const file of ordered) {
		if (file.restricted) continue;
		const scope = file.scope === "global" ? "user" : "project";
		for (const entry of (file.settings.packages ?? []) as unknown[]) {
			if (typeof entry === "string") {
				out.push({ source: entry, scope, baseDir: file.baseDir });
				continue;
			}
			if (!isObject(entry) || typeof entry.source !== "string") continue;
			const filters: PackageFilters = {};
			for (const type of PACKAGE_RESOURCE_TYPES) {
				const list = entry[type];
				if (Array.isArray(list)) filters[type] = list.filter((item): item is string => typeof item === "string");
			}
			out.push({
				source: entry.source,
				scope,
				filters,
				...(entry.autoload === false ? { autoload: false } : {}),
				baseDir: file.baseDir,
			});
		}
	}
	return out;
}

interface Parsed {
	entry: PackageEntry;
	parsed: PackageSource;
	identity: string;
}

function parseEntries(entries: readonly PackageEntry[], diagnostics: string[]): Parsed[] {
	const out: Parsed[] = [];
	for (const entry of entries) {
		try {
			const parsed = parseSource(entry.source, entry.baseDir);
			out.push({ entry, parsed, identity: identityOf(parsed) });
		} catch (error) {
			diagnostics.push(`${settingsLabel(entry)}: ${errorMessage(error)}`);
		}
	}
	return out;
}

const settingsLabel = (entry: PackageEntry): string =>
	entry.scope === "temporary" ? "-e" : `${entry.scope === "user" ? "user" : "project"} settings "packages"`;

const isDelta = (entry: PackageEntry): boolean =>
	entry.scope === "project" && "autoload" in entry && entry.autoload === false;

/**
 * pi's dedupe over entries ordered project first: the first entry of an identity keeps its place; a later project
 * entry replaces an earlier one; a user entry after a project `autoload: false` entry is kept behind it (the delta's
 * base); any other later entry is dropped.
 */
function dedupeParsed(list: Parsed[]): Parsed[] {
	const result: Parsed[] = [];
	const seen = new Map<string, number>();
	for (const item of list) {
		const index = seen.get(item.identity);
		if (index === undefined) {
			seen.set(item.identity, result.length);
			result.push(item);
			continue;
		}
		const existing = result[index] as Parsed;
		if (existing.entry.scope === "project" && item.entry.scope === "user") {
			if (isDelta(existing.entry)) result.push(item);
		} else if (item.entry.scope === "project") result[index] = item;
	}
	return result;
}

/** The entries that load, in pi's order (project entries first, then user ones). */
export function dedupePackages(entries: readonly PackageEntry[]): { entries: PackageEntry[]; diagnostics: string[] } {
	const diagnostics: string[] = [];
	const parsed = parseEntries(projectFirst(entries), diagnostics);
	return { entries: dedupeParsed(parsed).map((p) => p.entry), diagnostics };
}

const projectFirst = (entries: readonly PackageEntry[]): PackageEntry[] => [
	...entries.filter((e) => e.scope === "project"),
	...entries.filter((e) => e.scope !== "project"),
];

function isOffline(env: NodeJS.ProcessEnv): boolean {
	const value = env.PI_OFFLINE?.toLowerCase();
	return value === "1" || value === "true" || value === "yes";
}

/** An installed npm package whose exact pinned version differs from the one configured counts as missing. */
function installedMatches(source: PackageSource, root: string): boolean {
	if (!existsSync(root)) return false;
	if (source.type !== "npm" || !source.pinned || source.version === undefined) return true;
	try {
		const version = (JSON.parse(readFileSync(`${root}/package.json`, "utf8")) as { version?: unknown }).version;
		return version === source.version.replace(/^v/, "");
	} catch {
		// A broken package.json is reported when its resources are read.
		return true;
	}
}

/** The folder of an npm or git package, installing it when missing; undefined (with a line) when it cannot be. */
export async function locateInstalled(
	source: PackageSource,
	scope: PackageScope,
	options: ResolvePackagesOptions,
	diagnostics: string[],
): Promise<string | undefined> {
	const key = `${scope}:${identityOf(source)}`;
	if (options.located?.has(key)) return options.located.get(key);
	const found = await locate(source, scope, options, diagnostics);
	options.located?.set(key, found);
	return found;
}

async function locate(
	source: PackageSource,
	scope: PackageScope,
	options: ResolvePackagesOptions,
	diagnostics: string[],
): Promise<string | undefined> {
	const path = installedPath(source, scope, options);
	if (installedMatches(source, path)) return path;
	if (isOffline(options.env ?? process.env)) {
		diagnostics.push(`package ${source.raw}: not installed and PI_OFFLINE is set; skipped`);
		return undefined;
	}
	if (!options.installer) {
		diagnostics.push(`package ${source.raw}: not installed (run \`pi install ${source.raw}\`); skipped`);
		return undefined;
	}
	try {
		// The installer reports its own reason when it returns nothing.
		return await (await options.installer()).ensureInstalled(source, scope);
	} catch (error) {
		diagnostics.push(`package ${source.raw}: ${errorMessage(error)}`);
		return undefined;
	}
}

type Claimed = { item: PackageResourceItem; meta: Omit<PackageResourceFile, "path" | "file"> };

/** Resolves deduplicated entries (see the top of the file); entries are deduplicated here first. */
export async function resolvePackages(
	entries: readonly PackageEntry[],
	options: ResolvePackagesOptions,
): Promise<PackageResolution> {
	const diagnostics: string[] = [];
	const list = dedupeParsed(parseEntries(projectFirst(entries), diagnostics));
	const claimed: Record<PackageResourceType, Map<string, Claimed>> = {
		extensions: new Map(),
		skills: new Map(),
		prompts: new Map(),
		themes: new Map(),
	};
	const packages: ResolvedPackage[] = [];
	for (const item of list) {
		const { entry } = item;
		// A delta resolves the folder of the user's entry it refines (if there is one).
		const base = isDelta(entry)
			? list.find((o) => o.entry.scope === "user" && o.identity === item.identity)
			: undefined;
		const target = base ?? item;
		const delta = isDelta(entry);
		const filters = "filters" in entry ? entry.filters : undefined;
		let root: string | undefined;
		let files: Record<PackageResourceType, PackageResourceItem[]> | undefined;
		if (target.parsed.type === "local") {
			root = target.parsed.path;
			const kind = kindOf(root);
			if (kind === "missing") {
				diagnostics.push(`package ${entry.source}: ${root} does not exist`);
				continue;
			}
			if (kind === "file") {
				files = { extensions: [{ path: root, enabled: true }], skills: [], prompts: [], themes: [] };
				root = dirname(root);
			}
		} else {
			root = await locateInstalled(target.parsed, target.entry.scope, options, diagnostics);
			if (root === undefined) continue;
		}
		if (!files) {
			const read = packageResourcesOf(root, filters, {
				local: target.parsed.type === "local",
				delta,
				...(options.isHostPackage ? { isHostPackage: options.isHostPackage } : {}),
			});
			diagnostics.push(...read.diagnostics.map(formatDiagnostic));
			files = read.listing;
		}
		const meta = { source: entry.source, scope: entry.scope, baseDir: root, identity: item.identity };
		for (const type of PACKAGE_RESOURCE_TYPES) {
			for (const file of files[type])
				if (!claimed[type].has(file.path)) claimed[type].set(file.path, { item: file, meta });
		}
		const on = (type: PackageResourceType) => files[type].filter((f) => f.enabled);
		packages.push({
			configured: entry,
			parsed: item.parsed,
			identity: item.identity,
			root,
			resources: {
				extensions: on("extensions").map((f) => (f.file ? { path: f.path, file: f.file } : { path: f.path })),
				skills: on("skills").map((f) => f.path),
				prompts: on("prompts").map((f) => f.path),
				themes: on("themes").map((f) => f.path),
			},
		});
	}
	const all = (type: PackageResourceType) =>
		[...claimed[type].values()].map((c) => ({
			path: c.item.path,
			...(c.item.file ? { file: c.item.file } : {}),
			...c.meta,
			enabled: c.item.enabled,
		}));
	const enabled = (type: PackageResourceType): PackageResourceFile[] =>
		all(type)
			.filter((c) => c.enabled)
			.map(({ enabled: _, ...file }) => file);
	return {
		packages,
		listed: { extensions: all("extensions"), skills: all("skills"), prompts: all("prompts"), themes: all("themes") },
		extensions: enabled("extensions"),
		skills: enabled("skills"),
		prompts: enabled("prompts"),
		themes: enabled("themes"),
		diagnostics,
	};
}

function kindOf(path: string): "file" | "dir" | "missing" {
	try {
		return statSync(path).isDirectory() ? "dir" : "file";
	} catch {
		// Missing or unreadable: reported by the caller.
		return "missing";
	}
}
