/**
 * The `packages` (and `trustedPackageScripts`) entries of the settings files, as the manager reads and writes them:
 * entries match by identity; a re-install of the same identity replaces the entry in place (a string stays a string,
 * the object form keeps its filters); local sources are written relative to the settings file's folder, as pi does.
 */
import { relative } from "node:path";
import { getProjectConfigDir, type JsonObject, type SettingsScope, type SettingsStore } from "../config/index.ts";
import { identityOf, parseSource } from "./source.ts";
import type { ConfiguredPackage, PackageFilters, PackageSource, SettingsPackageScope } from "./types.ts";
import { PACKAGE_RESOURCE_TYPES } from "./types.ts";

export const settingsScopeOf = (scope: SettingsPackageScope): SettingsScope =>
	scope === "user" ? "global" : "project";

/** The folder relative sources of a scope's settings resolve from. */
export const baseDirOf = (scope: SettingsPackageScope, agentDir: string, cwd: string): string =>
	scope === "user" ? agentDir : getProjectConfigDir(cwd);

const sourceOf = (entry: unknown): string | undefined =>
	typeof entry === "string"
		? entry
		: typeof entry === "object" && entry !== null && typeof (entry as { source?: unknown }).source === "string"
			? (entry as { source: string }).source
			: undefined;

/** The identity of a settings entry, or undefined when it cannot be parsed. */
function entryIdentity(entry: unknown, baseDir: string): string | undefined {
	const source = sourceOf(entry);
	if (source === undefined) return undefined;
	try {
		return identityOf(parseSource(source, baseDir));
	} catch {
		return undefined;
	}
}

/** The source string to write into settings for a parsed source. */
export function settingsSource(parsed: PackageSource, baseDir: string): string {
	if (parsed.type !== "local") return parsed.raw;
	return relative(baseDir, parsed.path) || ".";
}

/** Adds or replaces (in place, by identity) the entry of `parsed`; with `trustName`, trusts that package name. */
export async function upsertPackage(
	store: SettingsStore,
	scope: SettingsPackageScope,
	parsed: PackageSource,
	baseDir: string,
	trustName?: string,
): Promise<void> {
	const identity = identityOf(parsed);
	const written = settingsSource(parsed, baseDir);
	await store.update(settingsScopeOf(scope), (data: JsonObject) => {
		const list = Array.isArray(data.packages) ? [...data.packages] : [];
		const index = list.findIndex((entry) => entryIdentity(entry, baseDir) === identity);
		if (index < 0) list.push(written);
		else {
			const existing = list[index];
			list[index] = typeof existing === "string" ? written : { ...(existing as object), source: written };
		}
		data.packages = list;
		if (trustName) {
			const trusted = Array.isArray(data.trustedPackageScripts) ? [...data.trustedPackageScripts] : [];
			if (!trusted.includes(trustName)) trusted.push(trustName);
			data.trustedPackageScripts = trusted;
		}
	});
}

/** Removes every entry of `identity` from a scope's settings; whether one was there. */
export async function removePackage(
	store: SettingsStore,
	scope: SettingsPackageScope,
	identity: string,
	baseDir: string,
): Promise<boolean> {
	const present = (store.getScope(settingsScopeOf(scope)).packages ?? []).some(
		(entry) => entryIdentity(entry, baseDir) === identity,
	);
	if (!present) return false;
	await store.update(settingsScopeOf(scope), (data: JsonObject) => {
		if (!Array.isArray(data.packages)) return;
		data.packages = data.packages.filter((entry) => entryIdentity(entry, baseDir) !== identity);
	});
	return true;
}

function filtersOf(entry: object): PackageFilters | undefined {
	const filters: PackageFilters = {};
	for (const type of PACKAGE_RESOURCE_TYPES) {
		const value = (entry as Record<string, unknown>)[type];
		if (Array.isArray(value)) filters[type] = value.filter((v): v is string => typeof v === "string");
	}
	return Object.keys(filters).length > 0 ? filters : undefined;
}

/** The packages of both settings files, user scope first (the project's only when it is trusted). */
export function configuredPackages(store: SettingsStore, agentDir: string, cwd: string): ConfiguredPackage[] {
	const out: ConfiguredPackage[] = [];
	for (const scope of ["user", "project"] as const) {
		if (scope === "project" && !store.isProjectTrusted()) continue;
		const baseDir = baseDirOf(scope, agentDir, cwd);
		for (const entry of store.getScope(settingsScopeOf(scope)).packages ?? []) {
			const source = sourceOf(entry);
			if (source === undefined) continue;
			if (typeof entry === "string") {
				out.push({ source, scope, baseDir });
				continue;
			}
			const filters = filtersOf(entry);
			const autoload = (entry as { autoload?: unknown }).autoload;
			out.push({
				source,
				scope,
				baseDir,
				...(filters ? { filters } : {}),
				...(typeof autoload === "boolean" ? { autoload } : {}),
			});
		}
	}
	return out;
}
