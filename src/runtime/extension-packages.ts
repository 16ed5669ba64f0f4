/**
 * Packages at start-up (pi 0.87.1's `packages` setting and `-e npm:…` / `-e git:…`), for the extension host:
 * - `cliPackageFolders` installs (once, into the temporary scope's cache) the npm and git packages given with `-e`
 *   and hands discovery their folders, so they load like `-e <folder>` (scope "cli", source as typed);
 * - `settingsPackages` resolves the `packages` entries of the given settings files (see packages/resolve.ts): its
 *   extensions become entries after the settings ones, its skills, prompt templates and themes go to the resource
 *   loader with the package's source info.
 * Nothing here runs a subprocess unless a package is missing; the installer is made only then.
 */
import type { SettingsFile } from "../config/index.ts";
import type { ExtensionEntry, InstalledCliPackage } from "../extensions/index.ts";
import {
	configuredPackages,
	isRemoteSource,
	locateInstalled,
	type PackageInstaller,
	type PackageResolution,
	type PackageResourceFile,
	parseSource,
	resolvePackages,
} from "../packages/index.ts";
import { errorMessage } from "../util/index.ts";

export interface HostPackageOptions {
	/** Made on first need (a package that is not installed yet). */
	installer?: () => Promise<PackageInstaller>;
	/** For `PI_OFFLINE`; default `process.env`. */
	env?: NodeJS.ProcessEnv;
	/** Look-ups already done this run (see packages/resolve.ts). */
	located?: Map<string, string | undefined>;
}

interface Dirs {
	cwd: string;
	agentDir: string;
	isHostPackage: (name: string) => boolean;
}

/** `-e` values with each npm/git source replaced by its installed folder (missing ones dropped, with a line). */
export async function cliPackageFolders(
	cliPaths: readonly string[],
	dirs: Dirs,
	options: HostPackageOptions,
): Promise<{ paths: (string | InstalledCliPackage)[]; diagnostics: string[] }> {
	const paths: (string | InstalledCliPackage)[] = [];
	const diagnostics: string[] = [];
	for (const raw of cliPaths) {
		if (!isRemoteSource(raw.trim())) {
			paths.push(raw);
			continue;
		}
		try {
			const source = parseSource(raw, dirs.cwd);
			const folder = await locateInstalled(source, "temporary", { ...dirs, ...options }, diagnostics);
			if (folder) paths.push({ folder, source: raw });
		} catch (error) {
			diagnostics.push(`-e ${raw}: ${errorMessage(error)}`);
		}
	}
	return { paths, diagnostics };
}

export interface SettingsPackageResources {
	skills: PackageResourceFile[];
	prompts: PackageResourceFile[];
	themes: PackageResourceFile[];
}

/** The `packages` of the given settings files, resolved. */
export function settingsPackages(
	files: readonly SettingsFile[],
	dirs: Dirs,
	options: HostPackageOptions,
): Promise<PackageResolution> {
	return resolvePackages(configuredPackages(files), {
		cwd: dirs.cwd,
		agentDir: dirs.agentDir,
		isHostPackage: dirs.isHostPackage,
		...options,
	});
}

/** Extension entries of resolved packages: user packages as settings entries, project ones as project entries. */
export function packageExtensionEntries(resolution: PackageResolution): ExtensionEntry[] {
	return resolution.extensions.map((file) => {
		const scope = file.scope === "project" ? "project" : "user";
		return {
			path: file.path,
			scope: scope === "project" ? "project" : "settings",
			...(file.file ? { file: file.file } : {}),
			package: { source: file.source, scope, baseDir: file.baseDir },
		};
	});
}

/** Resource-loader candidates of package files: source as written, the entry's scope, origin "package", the root. */
export function installedCandidates(resources: SettingsPackageResources) {
	const candidates = (list: PackageResourceFile[]) =>
		list.map((r) => ({
			path: r.path,
			sourceInfo: { path: r.path, source: r.source, scope: r.scope, origin: "package" as const, baseDir: r.baseDir },
		}));
	return {
		skills: candidates(resources.skills),
		prompts: candidates(resources.prompts),
		themes: candidates(resources.themes),
	};
}
