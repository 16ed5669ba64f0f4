/**
 * Which install scripts may run. No lifecycle script of a dependency, or of a cloned git package, runs unless the
 * user trusts the package: settings `trustedPackageScripts` (package names, either scope) or `pi install --trust`,
 * which adds the name there. Trusting a package trusts the scripts of its whole dependency tree (read from the
 * tree's lockfile). Whatever stays blocked is reported with the command that trusts it.
 */

import { join } from "node:path";
import type { SettingsStore } from "../config/index.ts";
import { existsSync, readFileSync } from "../util/index.ts";
import type { LockEntry } from "./lockfile.ts";

/** The lifecycle scripts that run on install (of the package itself when it is cloned from git: `prepare` too). */
export const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall"] as const;
export const GIT_PACKAGE_SCRIPTS = ["preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare"];

/** Package names whose scripts are trusted, from both settings files. */
export function trustedNames(store: SettingsStore): Set<string> {
	const names = new Set<string>();
	for (const scope of ["global", "project"] as const) {
		for (const name of store.getScope(scope).trustedPackageScripts ?? []) names.add(name);
	}
	return names;
}

/** `roots` and every package they depend on, transitively, by name. */
export function closure(roots: Iterable<string>, entries: LockEntry[]): Set<string> {
	const byName = new Map<string, LockEntry[]>();
	for (const entry of entries) byName.set(entry.name, [...(byName.get(entry.name) ?? []), entry]);
	const seen = new Set<string>();
	const queue = [...roots];
	while (queue.length > 0) {
		const name = queue.pop() as string;
		if (seen.has(name)) continue;
		seen.add(name);
		for (const entry of byName.get(name) ?? []) queue.push(...entry.dependencies);
	}
	return seen;
}

/**
 * Installed lockfile entries with install scripts not allowed by `allowed`. The installed package.json is what
 * counts (npm's lockfile flag comes from the registry's metadata, which not every registry sends), and a
 * `binding.gyp` without an install script means an implicit `node-gyp rebuild`.
 */
export function blockedEntries(treeDir: string, entries: LockEntry[], allowed: Set<string>): LockEntry[] {
	return entries.filter((e) => !allowed.has(e.name) && hasInstallScript(join(treeDir, "node_modules", e.key)));
}

function hasInstallScript(folder: string): boolean {
	if (!existsSync(join(folder, "package.json"))) return false;
	if (existsSync(join(folder, "binding.gyp"))) return true;
	try {
		const scripts = readPackageJson(join(folder, "package.json")).scripts;
		return (
			typeof scripts === "object" &&
			scripts !== null &&
			INSTALL_SCRIPTS.some((s) => typeof (scripts as Record<string, unknown>)[s] === "string")
		);
	} catch {
		return false;
	}
}

/** The lifecycle scripts a cloned git package declares (which did not run when it is not trusted). */
export function ownScripts(packageJson: Record<string, unknown>): string[] {
	const scripts = packageJson.scripts;
	if (typeof scripts !== "object" || scripts === null) return [];
	return GIT_PACKAGE_SCRIPTS.filter((s) => typeof (scripts as Record<string, unknown>)[s] === "string");
}

/** The warning line for blocked scripts. */
export function blockedWarning(source: string, blocked: string[], local: boolean): string {
	return `${source}: install scripts not run for ${blocked.join(", ")}; to run them: pi install --trust ${source}${local ? " -l" : ""}`;
}

/** Reads a JSON file that must be an object; throws a one-line reason otherwise. */
export function readPackageJson(path: string): Record<string, unknown> {
	let parsed: unknown;
	try {
		parsed = JSON.parse(readFileSync(path, "utf8"));
	} catch (error) {
		throw new Error(`${path} is not valid JSON (${(error as Error).message.split("\n")[0]})`);
	}
	if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
		throw new Error(`${path} is not a JSON object`);
	}
	return parsed as Record<string, unknown>;
}
