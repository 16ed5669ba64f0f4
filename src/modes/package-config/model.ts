/**
 * What `pi config` shows and edits: each configured package of a scope with every resource its folder provides,
 * grouped by type, each marked enabled or not under the package's settings filters. The rows are named as pi
 * 0.87.1's config screen names them (a skill by its folder, an extension outside an `extensions/` folder as
 * `folder/file`, otherwise the file name) and addressed by their path inside the package (the `+path`/`-path`
 * pattern pi writes).
 */
import { basename, dirname, relative } from "node:path";
import {
	type ConfiguredPackage,
	isRemoteSource,
	PACKAGE_RESOURCE_TYPES,
	type PackageFilters,
	type PackageResources,
	type PackageResourceType,
	type SettingsPackageScope,
} from "../../packages/index.ts";

export interface ConfigResource {
	type: PackageResourceType;
	/** Absolute path of the file. */
	path: string;
	/** The row's name. */
	name: string;
	/** Its path relative to the package folder (what `+`/`-` entries name). */
	pattern: string;
	enabled: boolean;
	/** Project view of a user package: what the project's `autoload: false` entry says about this resource. */
	override?: OverrideState;
	/** Project view of a user package: the resource's state under the user's own entry. */
	inheritedEnabled?: boolean;
}

/** A project's say on one resource of a user package: none, turned on, turned off. */
export type OverrideState = "inherit" | "load" | "unload";

export interface ConfigPackage {
	/** The source as written in settings. */
	source: string;
	scope: SettingsPackageScope;
	/** The installed folder; undefined when not installed. */
	root?: string;
	/** Why it shows no resources (not installed, invalid source). */
	note?: string;
	resources: ConfigResource[];
	/** Shown in the project view: a user package the project refines with an `autoload: false` entry. */
	inherited?: boolean;
}

export interface ConfigInput {
	configured: readonly ConfiguredPackage[];
	/** The folder of a configured package, or a note saying why there is none. */
	locate(pkg: ConfiguredPackage): { root: string } | { note: string };
	/** What a folder provides: everything without filters, what stays on with them. */
	provides(root: string, filters?: PackageFilters, options?: { local?: boolean }): PackageResources;
}

const filesOf = (resources: PackageResources, type: PackageResourceType): string[] =>
	type === "extensions" ? resources.extensions.map((e) => e.file ?? e.path) : resources[type];

export function displayName(type: PackageResourceType, path: string): string {
	const file = basename(path);
	const parent = basename(dirname(path));
	if (type === "extensions" && parent !== "extensions") return `${parent}/${file}`;
	if (type === "skills" && file === "SKILL.md") return parent;
	return file;
}

export function buildConfigPackages(input: ConfigInput, scope?: SettingsPackageScope): ConfigPackage[] {
	return input.configured
		.filter((pkg) => scope === undefined || pkg.scope === scope)
		.map((pkg) => configPackage(input, pkg));
}

/** One configured package with its resources and their states under its own filters. */
export function configPackage(input: ConfigInput, pkg: ConfiguredPackage): ConfigPackage {
	const where = input.locate(pkg);
	if ("note" in where) return { source: pkg.source, scope: pkg.scope, note: where.note, resources: [] };
	const local = { local: !isRemoteSource(pkg.source) };
	const all = input.provides(where.root, undefined, local);
	const enabled = pkg.filters ? input.provides(where.root, pkg.filters, local) : all;
	const resources = PACKAGE_RESOURCE_TYPES.flatMap((type) => {
		const on = new Set(filesOf(enabled, type));
		return filesOf(all, type)
			.map((path) => ({
				type,
				path,
				name: displayName(type, path),
				pattern: relative(where.root, path).split("\\").join("/"),
				enabled: on.has(path),
			}))
			.sort((a, b) => a.name.localeCompare(b.name));
	});
	return { source: pkg.source, scope: pkg.scope, root: where.root, resources };
}

const TYPE_WORDS: Record<string, PackageResourceType> = {
	extension: "extensions",
	extensions: "extensions",
	skill: "skills",
	skills: "skills",
	prompt: "prompts",
	prompts: "prompts",
	"prompt-template": "prompts",
	"prompt-templates": "prompts",
	theme: "themes",
	themes: "themes",
};

export function parseResourceType(word: string): PackageResourceType | undefined {
	return TYPE_WORDS[word.toLowerCase()];
}

/** The resource a user names: by its pattern (path in the package), its row name, or its absolute path. */
export function findResource(pkg: ConfigPackage, type: PackageResourceType, name: string): ConfigResource | undefined {
	const wanted = name.replace(/^\.\//, "").replace(/\/+$/, "");
	const ofType = pkg.resources.filter((r) => r.type === type);
	return (
		ofType.find((r) => r.pattern === wanted || r.path === name) ??
		ofType.find((r) => r.name === wanted) ??
		ofType.find((r) => r.pattern === `${wanted}/SKILL.md` || basename(r.path, ".md") === wanted) ??
		ofType.find((r) => basename(r.path).replace(/\.(ts|js|md|json)$/, "") === wanted)
	);
}
