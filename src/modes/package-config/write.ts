/**
 * Turning one package resource on or off, written as pi 0.87.1's config screen writes it: the package's settings
 * entry becomes the object form (`{ "source": …, "<type>": [...] }`), any earlier `!`/`+`/`-` entry for that path is
 * dropped, and `+<path>` (on) or `-<path>` (off) is appended. Other keys of the entry (and of the file) stay as they were.
 */
import type { JsonObject, SettingsStore } from "../../config/index.ts";
import type { PackageResourceType, SettingsPackageScope } from "../../packages/index.ts";

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
