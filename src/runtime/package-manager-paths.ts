/**
 * pi's `ResolvedPaths` (what `DefaultPackageManager.resolve()` returns): every extension, skill, prompt template and
 * theme a cwd would load, each with whether it is enabled and where it comes from (`metadata`: source `local` for a
 * settings list entry, `auto` for a conventional folder, the package source for a package; scope; origin `top-level`
 * or `package`; baseDir). Built from the same discovery the runtime uses (resources/discovery.ts,
 * extensions/discovery.ts, packages/resolve.ts); ordered as pi orders them (project lists, project folders, user
 * lists, user folders, packages) and deduplicated by real path, the first claim winning.
 */
import { join } from "node:path";
import {
	agentPaths,
	getProjectConfigDir,
	projectPaths,
	resolveSettingsPath,
	type SettingsFile,
} from "../config/index.ts";
import { discoverExtensions } from "../extensions/index.ts";
import { PACKAGE_RESOURCE_TYPES, type PackageResolution, type PackageResourceType } from "../packages/index.ts";
import {
	applyPatterns,
	canonicalPath,
	discoverCandidates,
	enabledByOverrides,
	isPatternEntry,
} from "../resources/index.ts";

export interface PathMetadata {
	source: string;
	scope: "user" | "project" | "temporary";
	origin: "package" | "top-level";
	baseDir?: string;
}

export interface ResolvedResource {
	path: string;
	enabled: boolean;
	metadata: PathMetadata;
}

export interface ResolvedPaths {
	extensions: ResolvedResource[];
	skills: ResolvedResource[];
	prompts: ResolvedResource[];
	themes: ResolvedResource[];
}

export const emptyResolvedPaths = (): ResolvedPaths => ({ extensions: [], skills: [], prompts: [], themes: [] });

/** pi's precedence: project lists, project folders, user lists, user folders, then packages. */
function rank(m: PathMetadata): number {
	if (m.origin === "package") return 4;
	return (m.scope === "project" ? 0 : 2) + (m.source === "local" ? 0 : 1);
}

/** Sorted by precedence (stable) and deduplicated by real path. */
function ordered(list: ResolvedResource[]): ResolvedResource[] {
	const seen = new Set<string>();
	return [...list]
		.sort((a, b) => rank(a.metadata) - rank(b.metadata))
		.filter((item) => {
			const key = canonicalPath(item.path);
			if (seen.has(key)) return false;
			seen.add(key);
			return true;
		});
}

/** The files of packages, enabled or not, with the package's metadata. */
export function packagePaths(resolution: PackageResolution): ResolvedPaths {
	const out = emptyResolvedPaths();
	for (const type of PACKAGE_RESOURCE_TYPES) {
		out[type] = resolution.listed[type].map((file) => ({
			path: file.path,
			enabled: file.enabled,
			metadata: { source: file.source, scope: file.scope, origin: "package", baseDir: file.baseDir },
		}));
	}
	return out;
}

/** Extensions of settings `extensions` lists and the conventional folders, with the lists' patterns applied. */
function topLevelExtensions(files: readonly SettingsFile[], cwd: string, agentDir: string): ResolvedResource[] {
	const out: ResolvedResource[] = [];
	const scan = (options: { globalDir?: string; projectDir?: string; settingsPaths?: string[] }) =>
		discoverExtensions({
			cwd,
			cliPaths: [],
			noDiscovery: false,
			isHostPackage: () => false,
			settingsPaths: [],
			...options,
		}).entries;
	for (const file of files) {
		const scope = file.scope === "project" ? "project" : "user";
		const entries = (file.settings.extensions ?? []) as string[];
		const listed = scan({
			settingsPaths: entries.filter((e) => !isPatternEntry(e)).map((e) => resolveSettingsPath(e, file.baseDir)),
		}).map((e) => e.path);
		const enabled = applyPatterns(listed, entries, file.baseDir);
		for (const path of listed)
			out.push({ path, enabled: enabled.has(path), metadata: { source: "local", scope, origin: "top-level" } });
		const dir = scope === "project" ? projectPaths.extensions(cwd) : agentPaths.extensions(agentDir);
		const auto = scan(scope === "project" ? { projectDir: dir } : { globalDir: dir });
		for (const { path } of auto) {
			out.push({
				path,
				enabled: enabledByOverrides(path, entries, file.baseDir),
				metadata: { source: "auto", scope, origin: "top-level", baseDir: file.baseDir },
			});
		}
	}
	return out;
}

/** Skills, prompt templates and themes of the settings lists and conventional folders, enabled or not. */
function topLevelFiles(
	type: Exclude<PackageResourceType, "extensions">,
	files: readonly SettingsFile[],
	cwd: string,
	agentDir: string,
): ResolvedResource[] {
	const projectTrusted = files.some((f) => f.scope === "project");
	const { candidates } = discoverCandidates(type, {
		cwd,
		agentDir,
		projectTrusted,
		settingsFiles: files,
		noDiscovery: false,
		explicit: [],
		includeDisabled: true,
	});
	return candidates.map(({ path, sourceInfo, disabled }) => ({
		path,
		enabled: disabled !== true,
		metadata: {
			source: sourceInfo.source,
			scope: sourceInfo.scope,
			origin: sourceInfo.origin,
			...(sourceInfo.source === "local" ? {} : { baseDir: sourceInfo.baseDir }),
		},
	}));
}

/** Everything a cwd resolves to: the settings files' lists and folders, then the packages. */
export function resolvedPaths(
	files: readonly SettingsFile[],
	cwd: string,
	agentDir: string,
	packages: ResolvedPaths,
): ResolvedPaths {
	const out = emptyResolvedPaths();
	out.extensions = ordered([...topLevelExtensions(files, cwd, agentDir), ...packages.extensions]);
	for (const type of ["skills", "prompts", "themes"] as const) {
		out[type] = ordered([...topLevelFiles(type, files, cwd, agentDir), ...packages[type]]);
	}
	return out;
}

/** The settings files a settings manager holds, as discovery reads them (the project's only when trusted). */
export function settingsFilesOf(
	manager: { getGlobalSettings(): object; getProjectSettings(): object; isProjectTrusted(): boolean },
	cwd: string,
	agentDir: string,
): SettingsFile[] {
	const files: SettingsFile[] = [
		{
			scope: "global",
			path: join(agentDir, "settings.json"),
			baseDir: agentDir,
			settings: manager.getGlobalSettings(),
		},
	];
	if (manager.isProjectTrusted()) {
		const baseDir = getProjectConfigDir(cwd);
		files.push({
			scope: "project",
			path: join(baseDir, "settings.json"),
			baseDir,
			settings: manager.getProjectSettings(),
		});
	}
	return files;
}
