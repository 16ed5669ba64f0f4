/**
 * What an installed package provides, for `pi list` and `pi config`: the packages layer's reading of its folder
 * (manifest, conventional folders; a local folder with neither is one extension) under its settings filters.
 */
import {
	type PackageFilters,
	type PackageResources,
	type PackageResourceType,
	packageResourcesOf,
} from "../../packages/index.ts";
import { HOST_PACKAGES } from "../../sdk/index.ts";

/** The file a resource is (an extension loaded as a folder is its entry file). */
export function resourceFiles(resources: PackageResources, type: PackageResourceType): string[] {
	if (type === "extensions") return resources.extensions.map((e) => e.file ?? e.path);
	return resources[type];
}

export function packageProvides(
	root: string,
	filters?: PackageFilters,
	options: { local?: boolean } = {},
): PackageResources {
	return packageResourcesOf(root, filters, {
		local: options.local ?? false,
		isHostPackage: (name) => HOST_PACKAGES.has(name),
	}).resources;
}
