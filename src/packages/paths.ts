/**
 * Where packages live, per scope: `<scopeDir>/npm/` is one install tree (its own package.json and lockfile, the
 * packages in `node_modules/<name>`), `<scopeDir>/git/<host>/<path>` one clone per git package, and
 * `<scopeDir>/packages.lock.json` the record of what was installed. scopeDir is the agent dir (`user`), `<cwd>/.pi`
 * (`project`) or `<agentDir>/cache/packages` (`temporary`: `-e npm:…` and `-e git:…`, kept between runs).
 */
import { join, resolve, sep } from "node:path";
import { agentPaths, getProjectConfigDir } from "../config/index.ts";
import type { PackageScope, PackageSource } from "./types.ts";

export interface ScopeDirs {
	agentDir: string;
	cwd: string;
}

export function scopeDir(scope: PackageScope, dirs: ScopeDirs): string {
	if (scope === "user") return dirs.agentDir;
	if (scope === "project") return getProjectConfigDir(dirs.cwd);
	return join(agentPaths.cache(dirs.agentDir), "packages");
}

export const npmRoot = (scope: PackageScope, dirs: ScopeDirs): string => join(scopeDir(scope, dirs), "npm");
export const gitRoot = (scope: PackageScope, dirs: ScopeDirs): string => join(scopeDir(scope, dirs), "git");
export const lockRecordPath = (scope: PackageScope, dirs: ScopeDirs): string =>
	join(scopeDir(scope, dirs), "packages.lock.json");

/** A path below `root`, refusing anything that would leave it. */
function inside(root: string, ...parts: string[]): string {
	const base = resolve(root);
	const path = resolve(base, ...parts);
	if (path !== base && !path.startsWith(`${base}${sep}`)) throw new Error(`package path escapes ${base}: ${path}`);
	return path;
}

/** Where an npm or git package is (or would be) installed; a local package is where it is. */
export function installedPath(source: PackageSource, scope: PackageScope, dirs: ScopeDirs): string {
	if (source.type === "npm") return inside(join(npmRoot(scope, dirs), "node_modules"), ...source.name.split("/"));
	if (source.type === "git")
		return inside(gitRoot(scope, dirs), source.host.replace(/:/g, "_"), ...source.path.split("/"));
	return source.path;
}
