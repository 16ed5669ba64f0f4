/**
 * What one package folder provides, narrowed by the per-type filters of a settings entry (pi 0.87.1's rules):
 * - the package declares its resources through `resolvePackageFolder` (its `pi` manifest, else the conventional
 *   `extensions/`, `skills/`, `prompts/`, `themes/` folders; a local folder with neither is one extension);
 * - in the object form, a kind the manifest does not list comes from the conventional folder of that kind, as in pi;
 * - a filter list narrows what was declared and never exposes anything else: omitted → everything of that type,
 *   `[]` → nothing, globs keep matches, `!glob` drops, `+path` puts one exact path back, `-path` drops one;
 * - an `autoload: false` entry is a delta: only the files its patterns name get a state (plain and `+` entries
 *   enable, `!` and `-` disable), everything else is left to the entry it refines.
 * Every declared file is listed with its state, so `pi list` and `pi config` can show disabled ones too.
 */
import {
	conventionalFiles,
	type ExtensionDiagnostic,
	manifestKinds,
	resolvePackageFolder,
} from "../extensions/index.ts";
import { applyPatterns, isOverrideEntry } from "../util/index.ts";
import {
	PACKAGE_RESOURCE_TYPES,
	type PackageFilters,
	type PackageResources,
	type PackageResourceType,
} from "./types.ts";

/** One declared resource of a package and whether the filters leave it enabled. */
export interface PackageResourceItem {
	path: string;
	/** For a folder loaded as one extension: the module it starts from. */
	file?: string;
	enabled: boolean;
}

export type PackageResourceListing = Record<PackageResourceType, PackageResourceItem[]>;

export interface PackageResourcesResult {
	/** What loads (the enabled items). */
	resources: PackageResources;
	/** Everything the package declares, each with its state. */
	listing: PackageResourceListing;
	diagnostics: ExtensionDiagnostic[];
}

export interface PackageResourcesOptions {
	/** A local folder with no manifest and no conventional folders is one extension; npm and git packages are not. */
	local?: boolean;
	/** Names the host provides itself (a package listing them as dependencies gets a warning). */
	isHostPackage?: (name: string) => boolean;
	/** `autoload: false`: the filters are a delta (only the files they name get a state). */
	delta?: boolean;
}

/** Whether one filter entry names a file: `exact` as `+`/`-` entries do, else as a glob (`!` entries). */
function matchesEntry(file: string, target: string, root: string, exact: boolean): boolean {
	return !applyPatterns([file], [`${exact ? "-" : "!"}${target}`], root).has(file);
}

const emptyListing = (): PackageResourceListing => ({ extensions: [], skills: [], prompts: [], themes: [] });

/** The declared resources of a package root, before any filter, with the diagnostics of reading it. */
export function declaredResources(
	root: string,
	options: PackageResourcesOptions = {},
): { declared: PackageResourceListing; diagnostics: ExtensionDiagnostic[] } {
	const diagnostics: ExtensionDiagnostic[] = [];
	const folder = resolvePackageFolder(root, {
		diagnostics,
		isHostPackage: options.isHostPackage ?? (() => false),
	});
	const declared = emptyListing();
	for (const extension of folder.extensions) {
		// pi loads an installed package only through its manifest or conventional folders.
		if (extension.file !== undefined && !options.local) continue;
		declared.extensions.push({ ...extension, enabled: true });
	}
	for (const type of ["skills", "prompts", "themes"] as const) {
		declared[type] = folder[type].map((path) => ({ path, enabled: true }));
	}
	const kept = options.local ? diagnostics : diagnostics.filter((d) => !(d.level === "error" && d.path === root));
	return { declared, diagnostics: kept };
}

/**
 * Applies one type's filter list (normal, not delta) to the declared items: plain entries and globs include (none:
 * all), then `!` excludes, `+` puts exact paths back, `-` drops exact paths.
 */
function narrow(items: PackageResourceItem[], patterns: string[] | undefined, root: string): PackageResourceItem[] {
	if (patterns === undefined) return items;
	const includes = patterns.filter((p) => !isOverrideEntry(p));
	const of = (prefix: string) => patterns.filter((p) => p.startsWith(prefix)).map((p) => p.slice(1));
	const [excludes, forceIn, forceOut] = [of("!"), of("+"), of("-")];
	const any = (path: string, list: string[], exact: boolean) => list.some((p) => matchesEntry(path, p, root, exact));
	if (patterns.length === 0) return items.map((item) => ({ ...item, enabled: false }));
	return items.map((item) => {
		let on = includes.length === 0 || any(item.path, includes, false);
		if (on && any(item.path, excludes, false)) on = false;
		if (!on && any(item.path, forceIn, true)) on = true;
		if (on && any(item.path, forceOut, true)) on = false;
		return { ...item, enabled: on };
	});
}

/**
 * The delta of an `autoload: false` entry: the items its patterns name, each with the state the last naming
 * pattern gives (plain/`+` on, `!`/`-` off; `+`/`-` match exact paths, the others globs).
 */
export function deltaOf(
	items: PackageResourceItem[],
	patterns: string[] | undefined,
	root: string,
): PackageResourceItem[] {
	const states = new Map<string, boolean>();
	for (const pattern of patterns ?? []) {
		const target = isOverrideEntry(pattern) ? pattern.slice(1) : pattern;
		const on = !pattern.startsWith("!") && !pattern.startsWith("-");
		const exact = pattern.startsWith("+") || pattern.startsWith("-");
		for (const item of items) if (matchesEntry(item.path, target, root, exact)) states.set(item.path, on);
	}
	return items
		.filter((item) => states.has(item.path))
		.map((item) => ({ ...item, enabled: states.get(item.path) === true }));
}

/**
 * pi reads a settings entry in object form type by type: a kind the package's manifest does not list comes from the
 * package's conventional folder of that kind, and so does a kind the entry filters whose manifest list is empty
 * (without a filter object, a manifest is all there is).
 */
function addConventionalKinds(
	root: string,
	filters: PackageFilters,
	declared: PackageResourceListing,
	options: PackageResourcesOptions,
): void {
	const listed = manifestKinds(root);
	if (!listed) return;
	const read = { diagnostics: [], isHostPackage: options.isHostPackage ?? (() => false) };
	for (const type of PACKAGE_RESOURCE_TYPES) {
		const count = listed.get(type);
		if (count === undefined || (count === 0 && filters[type] !== undefined)) {
			declared[type] = conventionalFiles(root, type, read).map((path) => ({ path, enabled: true }));
		}
	}
}

function enabledOf(listing: PackageResourceListing): PackageResources {
	const on = (type: PackageResourceType) => listing[type].filter((item) => item.enabled);
	return {
		extensions: on("extensions").map((item) =>
			item.file ? { path: item.path, file: item.file } : { path: item.path },
		),
		skills: on("skills").map((item) => item.path),
		prompts: on("prompts").map((item) => item.path),
		themes: on("themes").map((item) => item.path),
	};
}

/**
 * What a package folder provides under a settings entry's filters (none: everything it declares). This is what
 * start-up loads, and what `pi list` / `pi config` show (`listing` holds the disabled items too).
 */
export function packageResourcesOf(
	root: string,
	filters?: PackageFilters,
	options: PackageResourcesOptions = {},
): PackageResourcesResult {
	const { declared, diagnostics } = declaredResources(root, options);
	if (filters) addConventionalKinds(root, filters, declared, options);
	const listing = emptyListing();
	for (const type of PACKAGE_RESOURCE_TYPES) {
		const patterns = filters?.[type];
		listing[type] = options.delta ? deltaOf(declared[type], patterns, root) : narrow(declared[type], patterns, root);
	}
	return { resources: enabledOf(listing), listing, diagnostics };
}
