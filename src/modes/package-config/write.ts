/**
 * Turning one package resource on or off, written as pi 0.87.1's config screen writes it: the package's settings
 * entry becomes the object form (`{ "source": …, "<type>": [...] }`), any earlier `!`/`+`/`-` entry for that path is
 * dropped, and `+<path>` (on) or `-<path>` (off) is appended. Other keys of the entry (and of the file) stay as they were.
 */
import type { JsonObject, SettingsStore } from "../../config/index.ts";
import { PACKAGE_RESOURCE_TYPES, type PackageResourceType, type SettingsPackageScope } from "../../packages/index.ts";
import type { OverrideState } from "./model.ts";

const target = (entry: string) => (/^[!+-]/.test(entry) ? entry.slice(1) : entry);

/** The `packages` list with the resource toggled, or undefined when no entry has that source. */
export function withResourceToggled(
	packages: readonly unknown[],
	source: string,
	type: PackageResourceType,
	pattern: string,
	enabled: boolean,
): unknown[] | undefined {
	const list = [...packages];
	const index = list.findIndex(
		(pkg) => (typeof pkg === "string" ? pkg : (pkg as { source?: unknown })?.source) === source,
	);
	if (index < 0) return undefined;
	const found = list[index];
	const entry: JsonObject = typeof found === "string" ? { source: found } : { ...(found as JsonObject) };
	const current = Array.isArray(entry[type]) ? (entry[type] as unknown[]).filter((e) => typeof e === "string") : [];
	const updated = (current as string[]).filter((e) => target(e) !== pattern);
	updated.push(`${enabled ? "+" : "-"}${pattern}`);
	entry[type] = updated;
	list[index] = entry;
	return list;
}

/** Writes the toggle to one settings file (under its lock); false when that file has no such package. */
export async function setResourceEnabled(
	store: SettingsStore,
	scope: SettingsPackageScope,
	change: { source: string; type: PackageResourceType; pattern: string; enabled: boolean },
): Promise<boolean> {
	let found = false;
	await store.update(scope === "project" ? "project" : "global", (data) => {
		const packages = Array.isArray(data.packages) ? data.packages : [];
		const next = withResourceToggled(packages, change.source, change.type, change.pattern, change.enabled);
		if (!next) return;
		found = true;
		data.packages = next as JsonObject[];
	});
	return found;
}

export interface ProjectOverride {
	/** Whether a project entry's source names the user package (same string or same identity). */
	matches(source: string): boolean;
	/** The source a new entry gets. */
	source: string;
	type: PackageResourceType;
	pattern: string;
	state: OverrideState;
}

/**
 * The project's `packages` with one resource of an inherited user package set to `state`, as pi writes it: the
 * matching entry (a new `{ source, autoload: false }` when there is none and the state is not "inherit") loses its
 * entries for the path and gains `+path`/`-path`; a type left empty is dropped, and an entry left with no filters
 * is removed when it was only a delta (`autoload: false`) or goes back to the plain string.
 */
export function withProjectOverride(packages: readonly unknown[], change: ProjectOverride): unknown[] {
	const list = [...packages];
	const sourceOf = (pkg: unknown) => (typeof pkg === "string" ? pkg : (pkg as { source?: unknown })?.source);
	let index = list.findIndex((pkg) => {
		const source = sourceOf(pkg);
		return typeof source === "string" && change.matches(source);
	});
	if (index < 0) {
		if (change.state === "inherit") return list;
		list.push({ source: change.source, autoload: false });
		index = list.length - 1;
	}
	const found = list[index];
	const entry: JsonObject = typeof found === "string" ? { source: found } : { ...(found as JsonObject) };
	const current = Array.isArray(entry[change.type]) ? (entry[change.type] as unknown[]) : [];
	const updated = current.filter((e): e is string => typeof e === "string" && target(e) !== change.pattern);
	if (change.state !== "inherit") updated.push(`${change.state === "load" ? "+" : "-"}${change.pattern}`);
	if (updated.length > 0) entry[change.type] = updated;
	else delete entry[change.type];
	if (PACKAGE_RESOURCE_TYPES.some((key) => entry[key] !== undefined)) list[index] = entry;
	else if (entry.autoload === false) list.splice(index, 1);
	else list[index] = entry.source;
	return list;
}

export async function setProjectOverride(store: SettingsStore, change: ProjectOverride): Promise<void> {
	await store.update("project", (data) => {
		data.packages = withProjectOverride(Array.isArray(data.packages) ? data.packages : [], change) as JsonObject[];
	});
}
