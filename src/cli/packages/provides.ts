/**
 * What an installed package provides, for `pi list` and `pi config`: every resource its folder holds by pi's
 * discovery rules (package.json `pi` manifest, conventional folders, index entry), narrowed by the per-type
 * filters of its settings entry as pi 0.87.1 applies them (omitted: all; `[]`: none; plain entries and globs keep
 * what they match; `!glob` drops; `+path` puts back; `-path` drops).
 * This is the one place the commands read package folders; it is meant to give way to the packages layer's shared
 * resolver once that exists.
 */
import { relative } from "node:path";
import { resolvePackageFolder } from "../../extensions/index.ts";
import {
	PACKAGE_RESOURCE_TYPES,
	type PackageFilters,
	type PackageResources,
	type PackageResourceType,
} from "../../packages/index.ts";
import { HOST_PACKAGES } from "../../sdk/index.ts";
import { applyPatterns, isOverrideEntry, matchGlob } from "../../util/index.ts";

/** The file a resource is (an extension loaded as a folder is its entry file). */
export function resourceFiles(resources: PackageResources, type: PackageResourceType): string[] {
	if (type === "extensions") return resources.extensions.map((e) => e.file ?? e.path);
	return resources[type];
}

function keep(files: string[], filter: string[] | undefined, root: string): Set<string> {
	if (filter === undefined) return new Set(files);
	if (filter.length === 0) return new Set();
	const plain = filter.filter((e) => !isOverrideEntry(e));
	const included =
		plain.length === 0
			? files
			: files.filter((file) => {
					const rel = relative(root, file).split("\\").join("/");
					return plain.some((p) => {
						const pattern = p.replace(/^\.\//, "").replace(/\/+$/, "");
						return matchGlob(pattern, rel) || rel === pattern || rel.startsWith(`${pattern}/`);
					});
				});
	return applyPatterns(included, filter.filter(isOverrideEntry), root);
}

export function packageProvides(root: string, filters?: PackageFilters): PackageResources {
	const all = resolvePackageFolder(root, { diagnostics: [], isHostPackage: (name) => HOST_PACKAGES.has(name) });
	if (!filters) return all;
	const out: PackageResources = { extensions: [], skills: [], prompts: [], themes: [] };
	for (const type of PACKAGE_RESOURCE_TYPES) {
		const kept = keep(resourceFiles(all, type), filters[type], root);
		if (type === "extensions") out.extensions = all.extensions.filter((e) => kept.has(e.file ?? e.path));
		else out[type] = all[type].filter((file) => kept.has(file));
	}
	return out;
}
