/**
 * `pi list`: pi 0.87.1's listing (a "User packages:" then a "Project packages:" section, each source with
 * ` (filtered)` for the object form and its installed path below), and more: what is installed (npm version,
 * git commit and ref, or a local folder) and what the package provides (extensions, skills, prompt templates,
 * themes, after its filters).
 */
import { basename, dirname, extname } from "node:path";
import {
	type ConfiguredPackage,
	type InstallRecord,
	identityOf,
	installedPath,
	PACKAGE_RESOURCE_TYPES,
	type PackageFilters,
	type PackageResources,
	type PackageResourceType,
	type PackageSource,
	parseSource,
} from "../../packages/index.ts";
import { errorMessage, existsSync } from "../../util/index.ts";
import { resourceFiles } from "./provides.ts";

export interface ListedPackage {
	configured: ConfiguredPackage;
	parsed?: PackageSource;
	/** Why the source could not be read. */
	invalid?: string;
	record?: InstallRecord;
	/** Where it is; undefined when not installed. */
	root?: string;
	provides?: PackageResources;
}

export interface ListInput {
	configured: ConfiguredPackage[];
	records: (scope: "user" | "project") => InstallRecord[];
	dirs: { agentDir: string; cwd: string };
	provides(root: string, filters?: PackageFilters, options?: { local?: boolean }): PackageResources;
}

/** Where a configured package is: its parsed source, install record and folder (when it exists). */
export function locatePackage(
	configured: ConfiguredPackage,
	records: Record<"user" | "project", InstallRecord[]>,
	dirs: { agentDir: string; cwd: string },
): ListedPackage {
	let parsed: PackageSource;
	try {
		parsed = parseSource(configured.source, configured.baseDir);
	} catch (error) {
		return { configured, invalid: errorMessage(error) };
	}
	const identity = identityOf(parsed);
	const record = records[configured.scope].find((r) => r.identity === identity);
	const where = record?.installedPath ?? installedPath(parsed, configured.scope, dirs);
	return { configured, parsed, ...(record ? { record } : {}), ...(existsSync(where) ? { root: where } : {}) };
}

export function listPackages(input: ListInput): ListedPackage[] {
	const records = { user: input.records("user"), project: input.records("project") };
	return input.configured.map((configured) => {
		const located = locatePackage(configured, records, input.dirs);
		return located.root
			? {
					...located,
					provides: input.provides(located.root, configured.filters, { local: located.parsed?.type === "local" }),
				}
			: located;
	});
}

const LABELS: Record<PackageResourceType, [string, string]> = {
	extensions: ["extension", "extensions"],
	skills: ["skill", "skills"],
	prompts: ["prompt template", "prompt templates"],
	themes: ["theme", "themes"],
};

/** A resource's short name: a skill's folder, an extension's folder when it is an index file, else the file name. */
export function resourceName(type: PackageResourceType, file: string): string {
	const name = basename(file, extname(file));
	if (type === "skills" && basename(file) === "SKILL.md") return basename(dirname(file));
	if (type === "extensions" && name === "index") return basename(dirname(file));
	return name;
}

export function describeProvides(resources: PackageResources): string {
	const parts = PACKAGE_RESOURCE_TYPES.flatMap((type) => {
		const files = resourceFiles(resources, type);
		if (files.length === 0) return [];
		const [one, many] = LABELS[type];
		const names = files.length <= 4 ? ` (${files.map((f) => resourceName(type, f)).join(", ")})` : "";
		return [`${files.length} ${files.length === 1 ? one : many}${names}`];
	});
	return parts.length > 0
		? `provides ${parts.join(", ")}`
		: "provides nothing (no resources found or all filtered out)";
}

function describeInstall(pkg: ListedPackage): string | undefined {
	const { parsed, record } = pkg;
	if (!parsed || parsed.type === "local") return pkg.root ? undefined : "missing: the folder does not exist";
	if (!pkg.root)
		return `not installed (pi install ${pkg.configured.source}${pkg.configured.scope === "project" ? " -l" : ""})`;
	if (parsed.type === "npm") {
		const version = record?.version ? `npm ${record.version}` : "npm (version not recorded)";
		return `${version}${parsed.pinned ? " · pinned" : ""}`;
	}
	const commit = record?.commit ? `git ${record.commit.slice(0, 12)}` : "git (commit not recorded)";
	return `${commit}${parsed.ref ? ` at ${parsed.ref} · pinned` : ""}`;
}

export function renderPackageList(packages: ListedPackage[]): string[] {
	if (packages.length === 0) return ["No packages installed."];
	const lines: string[] = [];
	const section = (title: string, scope: "user" | "project") => {
		const own = packages.filter((p) => p.configured.scope === scope);
		if (own.length === 0) return;
		if (lines.length > 0) lines.push("");
		lines.push(title);
		for (const pkg of own) {
			lines.push(`  ${pkg.configured.source}${pkg.configured.filters ? " (filtered)" : ""}`);
			if (pkg.invalid) {
				lines.push(`    ${pkg.invalid}`);
				continue;
			}
			if (pkg.root) lines.push(`    ${pkg.root}`);
			const install = describeInstall(pkg);
			if (install) lines.push(`    ${install}`);
			if (pkg.provides) lines.push(`    ${describeProvides(pkg.provides)}`);
		}
	};
	section("User packages:", "user");
	section("Project packages:", "project");
	return lines;
}
