/**
 * `pi config`'s project view, as pi 0.87.1 shows it: the project's own packages, and the user's packages the
 * project does not replace, marked inherited. A project may refine an inherited package with an `autoload: false`
 * entry of the same source: per resource, `+path` loads it here, `-path` (or `!path`) unloads it here, nothing
 * leaves the user's choice. Space cycles inherit → the opposite of the inherited state → the inherited state
 * forced → inherit, as pi does.
 */
import { relative } from "node:path";
import {
	type ConfiguredPackage,
	identityOf,
	isRemoteSource,
	type PackageFilters,
	parseSource,
} from "../../packages/index.ts";
import {
	type ConfigInput,
	type ConfigPackage,
	type ConfigResource,
	configPackage,
	type OverrideState,
} from "./model.ts";

export function identityOrUndefined(pkg: { source: string; baseDir: string }): string | undefined {
	try {
		return identityOf(parseSource(pkg.source, pkg.baseDir));
	} catch {
		// A source that does not parse is shown under its own name and matches nothing else.
		return undefined;
	}
}

/** The state the last entry naming `pattern` gives (an empty list in a normal entry unloads everything). */
function overrideOf(entries: string[] | undefined, pattern: string, emptyUnloads: boolean): OverrideState {
	if (entries === undefined) return "inherit";
	if (entries.length === 0 && emptyUnloads) return "unload";
	let state: OverrideState = "inherit";
	for (const entry of entries) {
		const target = /^[!+-]/.test(entry) ? entry.slice(1) : entry;
		if (target !== pattern) continue;
		state = entry.startsWith("!") || entry.startsWith("-") ? "unload" : "load";
	}
	return state;
}

export function projectConfigPackages(input: ConfigInput): ConfigPackage[] {
	const project = input.configured.filter((p) => p.scope === "project");
	const replaced = new Set(project.filter((p) => p.autoload !== false).map(identityOrUndefined));
	const deltaOf = (id: string | undefined) =>
		project.find((p) => p.autoload === false && id !== undefined && identityOrUndefined(p) === id);
	const inherited = input.configured
		.filter((p) => p.scope === "user" && !replaced.has(identityOrUndefined(p)))
		.map((user) => {
			const shown = configPackage(input, user);
			const delta = deltaOf(identityOrUndefined(user));
			const resources = shown.resources.map((r): ConfigResource => {
				const override = overrideOf((delta?.filters as PackageFilters | undefined)?.[r.type], r.pattern, false);
				const enabled = override === "inherit" ? r.enabled : override === "load";
				return { ...r, override, inheritedEnabled: r.enabled, enabled };
			});
			return { ...shown, resources, inherited: true };
		});
	const own = project.filter((p) => p.autoload !== false).map((p) => configPackage(input, p));
	return [...own, ...inherited];
}

/** Where Space takes an inherited resource (`inheritedEnabled`: its state in the user's settings). */
export function nextOverride(current: OverrideState, inheritedEnabled: boolean): OverrideState {
	if (current === "inherit") return inheritedEnabled ? "unload" : "load";
	if (current === "unload") return inheritedEnabled ? "load" : "inherit";
	return inheritedEnabled ? "inherit" : "unload";
}

/** The source a new `autoload: false` entry names: as written, or a local path made relative to `.pi/`. */
export function overrideSource(user: ConfiguredPackage, projectBaseDir: string): string {
	if (isRemoteSource(user.source) || user.source.startsWith("npm:")) return user.source;
	const parsed = parseSource(user.source, user.baseDir);
	return parsed.type === "local" ? relative(projectBaseDir, parsed.path) || "." : user.source;
}
