/**
 * `pi config`: with no subcommand, pi 0.87.1's screen for turning each package resource on or off (user settings,
 * or project settings with `-l`; Tab switches); for scripts, `pi config list [--json]` and
 * `pi config enable|disable <source> <type> <resource>`, which write exactly what the screen writes.
 */
import { getProjectConfigDir } from "../../config/index.ts";
import type { ConfigPackage } from "../../modes/interactive/index.ts";
import {
	type ConfiguredPackage,
	identityOf,
	type PackageManager,
	parseSource,
	type SettingsPackageScope,
} from "../../packages/index.ts";
import type { PackageCommandDeps } from "./deps.ts";
import { locatePackage } from "./list.ts";
import { errorLine, openManager } from "./progress.ts";
import { decideCommandTrust } from "./trust.ts";
import { helpOf, usageOf } from "./usage.ts";

type Sub = { type: "screen" } | { type: "list"; json: boolean } | { type: "set"; enable: boolean; words: string[] };

interface ConfigArgs {
	local: boolean;
	approve?: boolean;
	sub: Sub;
}

function parseConfigArgs(argv: readonly string[]): ConfigArgs | { error: [string, string] } {
	const usage = usageOf("config");
	let local = false;
	let json = false;
	let approve: boolean | undefined;
	const words: string[] = [];
	for (const arg of argv) {
		if (arg === "-l" || arg === "--local") local = true;
		else if (arg === "-a" || arg === "--approve") approve = true;
		else if (arg === "-na" || arg === "--no-approve") approve = false;
		else if (arg === "--json") json = true;
		else if (arg.startsWith("-"))
			return { error: [`Unknown option ${arg} for "config".`, `Use "pi --help" or "${usage}".`] };
		else words.push(arg);
	}
	const [first, ...rest] = words;
	const base = { local, ...(approve !== undefined ? { approve } : {}) };
	if (first === undefined) {
		if (json) return { error: ["--json goes with pi config list.", `Usage: pi config list [-l] [--json]`] };
		return { ...base, sub: { type: "screen" } };
	}
	if (first === "list") {
		if (rest[0] !== undefined)
			return { error: [`Unexpected argument ${rest[0]}.`, "Usage: pi config list [-l] [--json]"] };
		return { ...base, sub: { type: "list", json } };
	}
	if (first === "enable" || first === "disable") {
		const setUsage = `Usage: pi config ${first} <source> <type> <resource> [-l]`;
		if (rest.length < 3)
			return { error: [`Missing ${["source", "type", "resource"][rest.length]} for "config ${first}".`, setUsage] };
		if (rest.length > 3) return { error: [`Unexpected argument ${rest[3]}.`, setUsage] };
		return { ...base, sub: { type: "set", enable: first === "enable", words: rest } };
	}
	return { error: [`Unexpected argument ${first}.`, `Usage: ${usage}`] };
}

export async function runConfigCommand(argv: readonly string[], deps: PackageCommandDeps): Promise<number> {
	if (argv.includes("-h") || argv.includes("--help")) {
		deps.out(helpOf("config").trimEnd());
		return 0;
	}
	const args = parseConfigArgs(argv);
	if ("error" in args) {
		for (const line of args.error) deps.err(line);
		return 1;
	}
	const trust = decideCommandTrust({
		cwd: deps.cwd,
		agentDir: deps.agentDir,
		...(args.approve !== undefined ? { approve: args.approve } : {}),
	});
	for (const line of trust.warnings) deps.err(`Warning: ${line}`);
	if (args.local && !trust.trusted) {
		deps.err("Project is not trusted. Use --approve to modify local resource config.");
		return 1;
	}
	try {
		const { store, manager } = await openManager(deps, trust.trusted);
		const ui = await import("../../modes/interactive/index.ts");
		const packagesOf = (scope?: SettingsPackageScope): ConfigPackage[] => {
			store.reload();
			const input = configInput(manager, deps);
			return scope === "project" ? ui.projectConfigPackages(input) : ui.buildConfigPackages(input, scope);
		};
		const context = () => ({
			store,
			input: configInput(manager, deps),
			projectBaseDir: getProjectConfigDir(deps.cwd),
		});
		const scope: SettingsPackageScope = args.local ? "project" : "user";
		if (args.sub.type === "list")
			return listConfig(packagesOf(args.local ? "project" : undefined), args.sub.json, deps);
		if (args.sub.type === "set") {
			const { enable, words } = args.sub;
			const [source, typeWord, name] = words as [string, string, string];
			const type = ui.parseResourceType(typeWord);
			if (!type) {
				deps.err(`Unknown resource type "${typeWord}": use extensions, skills, prompts or themes.`);
				return 1;
			}
			const pkg =
				packagesOf(scope).find((p) => p.source === source) ??
				matchByIdentity(
					source,
					deps.cwd,
					packagesOf(scope),
					manager.configured().filter((c) => scope === "project" || c.scope === "user"),
				);
			if (!pkg) {
				deps.err(`No matching package found for ${source} in ${scope} settings`);
				return 1;
			}
			const resource = ui.findResource(pkg, type, name);
			if (!resource) {
				const names = pkg.resources.filter((r) => r.type === type).map((r) => r.pattern);
				deps.err(
					`${pkg.source} has no ${type} resource "${name}"${pkg.note ? ` (${pkg.note})` : ""}${names.length > 0 ? `; it has: ${names.join(", ")}` : ""}`,
				);
				return 1;
			}
			await ui.toggleResource(context(), pkg, resource, enable);
			deps.out(`${enable ? "Enabled" : "Disabled"} ${type} ${resource.pattern} of ${pkg.source} (${scope} settings)`);
			return 0;
		}
		if (!deps.terminal) {
			deps.err("pi config needs a terminal; in scripts use pi config list / enable / disable (see pi config -h)");
			return 1;
		}
		await ui.runPackageConfigScreen({
			scope,
			projectAvailable: trust.trusted,
			...(store.merged.theme ? { themeName: store.merged.theme } : {}),
			packages: (s) => packagesOf(s),
			toggle: async (pkg, resource) => {
				await ui.toggleResource(context(), pkg, resource);
				return packagesOf(pkg.inherited ? "project" : pkg.scope);
			},
		});
		return 0;
	} catch (error) {
		deps.err(errorLine(error));
		return 1;
	}
}

function configInput(manager: PackageManager, deps: PackageCommandDeps) {
	const records = { user: manager.records("user"), project: manager.records("project") };
	const dirs = { agentDir: deps.agentDir, cwd: deps.cwd };
	return {
		configured: manager.configured(),
		locate: (pkg: ConfiguredPackage) => {
			const located = locatePackage(pkg, records, dirs);
			if (located.invalid) return { note: located.invalid };
			return located.root ? { root: located.root } : { note: "not installed" };
		},
		provides: deps.provides,
	};
}

/** `npm:foo` names the entry `npm:foo@^1` too (same identity), as `pi remove` matches. */
function matchByIdentity(source: string, cwd: string, packages: ConfigPackage[], configured: ConfiguredPackage[]) {
	const identity = (raw: string, baseDir: string) => {
		try {
			return identityOf(parseSource(raw, baseDir));
		} catch {
			// A source that does not parse names no package.
			return undefined;
		}
	};
	const wanted = identity(source, cwd);
	if (!wanted) return undefined;
	const hit = configured.find((c) => identity(c.source, c.baseDir) === wanted);
	return hit ? packages.find((p) => p.source === hit.source && p.scope === hit.scope) : undefined;
}

function listConfig(packages: ConfigPackage[], json: boolean, deps: PackageCommandDeps): number {
	if (json) {
		deps.out(JSON.stringify(packages, null, 2));
		return 0;
	}
	if (packages.length === 0) {
		deps.out("No packages installed.");
		return 0;
	}
	for (const pkg of packages) {
		deps.out(`${pkg.source} (${pkg.scope})${pkg.inherited ? " · inherited global" : ""}`);
		if (pkg.note) deps.out(`  ${pkg.note}`);
		for (const r of pkg.resources) {
			const override = r.override === "load" ? " (project load)" : r.override === "unload" ? " (project unload)" : "";
			deps.out(`  ${r.enabled ? "[x]" : "[ ]"} ${r.type} ${r.pattern}${override}`);
		}
	}
	return 0;
}
