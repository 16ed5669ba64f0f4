/**
 * Start-up of the extension host in two phases, so a repository cannot run code just by being opened:
 * 1. `startExtensionHost` loads the user's extensions (`<agentDir>/extensions`, global settings paths) and `-e`
 *    paths; these may answer the `project_trust` event;
 * 2. `loadProjectExtensions` loads `<cwd>/.pi/extensions` and project settings paths, only once the project is
 *    trusted. The final order is global → project → settings → packages → cli.
 * Packages (settings `packages`, see extension-packages.ts) follow the same split: the user's load in phase 1, the
 * project's (and the user's again, deduplicated against them) in phase 2; `-e npm:…`/`-e git:…` load in phase 1.
 * The host also collects what the CLI needs before a session exists (flags, commands).
 */
import { join } from "node:path";
import { agentPaths, projectPaths, resolveSettingsPath, type SettingsFile } from "../config/index.ts";
import {
	type CommandDefinition,
	checkRegistrations,
	createEventBus,
	createModuleLoader,
	discoverExtensions,
	type EventBus,
	type ExtensionEntry,
	type ExtensionScope,
	type FlagDefinition,
	formatDiagnostic,
	type LoadedExtensionHandle,
	loadExtensions,
	type ModuleLoader,
	type PackageResources,
	type VirtualModuleTable,
} from "../extensions/index.ts";
import { timing } from "../util/index.ts";
import {
	cliPackageFolders,
	type HostPackageOptions,
	packageExtensionEntries,
	type SettingsPackageResources,
	settingsPackages,
} from "./extension-packages.ts";
import type { InlineExtension } from "./sdk-extensions.ts";

export interface ExtensionHostOptions {
	cwd: string;
	agentDir: string;
	cliPaths: string[];
	noDiscovery: boolean;
	/** Global settings files; their `extensions` entries are loaded in phase 1. */
	settingsFiles: SettingsFile[];
	/** The host modules extensions import; called (once) when the first extension is loaded. */
	virtualModules: () => Promise<VirtualModuleTable>;
	/** Called once, before the first extension's code runs (RPC mode takes stdout over for the protocol here). */
	beforeFirstLoad?: () => void;
	isHostPackage: (name: string) => boolean;
	/** Built-in commands of the running mode; an extension command with one of these names is skipped. */
	builtinCommands?: ReadonlySet<string>;
	/** Inline extensions (pi's `main(args, { extensionFactories })`), loaded after the `-e` paths as `<inline:N>`. */
	factories?: InlineExtension[];
	/** Force a loader (tests); default: Bun's on Bun, jiti on Node. */
	loaderKind?: ModuleLoader["kind"];
	/** Installing missing packages (settings `packages`, `-e npm:…`); without it a missing package is skipped. */
	packages?: HostPackageOptions;
}

export interface RegisteredFlag {
	extension: LoadedExtensionHandle;
	flag: FlagDefinition;
}

export interface ExtensionHost {
	extensions: LoadedExtensionHandle[];
	/** Settings and extension problems, one line each, already formatted. */
	diagnostics: string[];
	/** Skills, prompt templates and themes of the folders given with `-e` (pi loads such a folder as a package). */
	packageResources: PackageResources;
	/** Skills, prompt templates and themes of the settings `packages` (the project's only after phase 2). */
	settingsPackageResources: SettingsPackageResources;
	events: EventBus;
	/** Where `pi.events` listener failures go once a session reports extension errors (set per runtime). */
	onEventBusError: ((channel: string, error: unknown) => void) | undefined;
	/** The module loader, once an extension has been loaded (none is made for a run without extensions). */
	readonly moduleLoader: ModuleLoader | undefined;
	/** Flags by name; the first extension to register a name owns it. */
	flags: Map<string, RegisteredFlag>;
	/** The command a `/name` invokes: built-in clashes skipped; duplicates also reachable as `name:N`. */
	findCommand(name: string): CommandDefinition | undefined;
	/** Every invocable command name with its owner (for `get_commands` and `pi.getCommands()`). */
	commands(): Map<string, { extensionPath: string; command: CommandDefinition }>;
	/** Phase 2: the project's own extensions (`.pi/extensions`, project settings paths). */
	loadProjectExtensions(projectSettings: SettingsFile[]): Promise<string[]>;
	/**
	 * Runs every extension's factory again with a fresh `pi` object (the old ones go stale), as pi does when it
	 * replaces the runtime (new session, switch, fork, reload). `reimport` first forgets the loaded modules, so
	 * changed files (and their local imports) are read again (`/reload`). Flag values carry over by name.
	 * Returns one line per problem; an extension that fails now is dropped.
	 */
	reinstantiate(options?: { reimport?: boolean }): Promise<string[]>;
}

const SCOPE_ORDER: Record<ExtensionScope, number> = { global: 0, project: 1, settings: 2, cli: 4 };
/** Package extensions come after the settings ones, before `-e` ones. */
const orderOf = (entry: ExtensionEntry): number => (entry.package ? 3 : SCOPE_ORDER[entry.scope]);

export async function startExtensionHost(options: ExtensionHostOptions): Promise<ExtensionHost> {
	const diagnostics: string[] = [];
	// Before a session exists a failing listener is a start-up diagnostic; afterwards the session reports it.
	const events = createEventBus((channel, error) => {
		if (host.onEventBusError) host.onEventBusError(channel, error);
		else diagnostics.push(`extension event bus "${channel}": listener failed: ${String(error)}`);
	});
	let moduleLoader: ModuleLoader | undefined;
	const loader = async (): Promise<ModuleLoader> => {
		if (!moduleLoader) options.beforeFirstLoad?.();
		moduleLoader ??= await createModuleLoader(
			await options.virtualModules(),
			join(agentPaths.cache(options.agentDir), "jiti"),
			options.loaderKind,
		);
		return moduleLoader;
	};
	const extensions: LoadedExtensionHandle[] = [];
	const flags = new Map<string, RegisteredFlag>();
	const inline = inlineModules(options.factories ?? []);
	const modules = async (entries: ExtensionEntry[]): Promise<ModuleLoader> => {
		if (entries.every((entry) => inline.has(entry.path))) {
			return { kind: "bun", load: async (path) => inline.get(path) as Record<string, unknown>, reset: () => {} };
		}
		const base = await loader();
		return { kind: base.kind, load: (path) => Promise.resolve(inline.get(path) ?? base.load(path)), reset: () => {} };
	};

	const load = async (entries: ExtensionEntry[]): Promise<string[]> => {
		const known = new Set(extensions.map((e) => e.entry.path));
		const fresh = entries.filter((entry) => !known.has(entry.path));
		const loaded =
			fresh.length > 0
				? await loadExtensions(fresh, await modules(fresh), events)
				: { extensions: [], diagnostics: [] };
		extensions.push(...loaded.extensions);
		extensions.sort((a, b) => orderOf(a.entry) - orderOf(b.entry));
		const lines = loaded.diagnostics.map(formatDiagnostic);
		for (const extension of loaded.extensions) lines.push(...registerFlags(extension, flags));
		for (const line of recheck()) lines.push(line);
		return lines;
	};
	let checked = checkRegistrations([], options.builtinCommands);
	const reported = new Set<string>();
	/** Re-applies the registration rules over every extension; returns diagnostics not reported before. */
	const recheck = (): string[] => {
		checked = checkRegistrations(
			extensions.map((e) => ({
				path: e.entry.path,
				commands: e.handle.registrations.commands,
				shortcuts: e.handle.registrations.shortcuts,
			})),
			options.builtinCommands,
		);
		const fresh = checked.diagnostics.filter((line) => !reported.has(line));
		for (const line of fresh) reported.add(line);
		return fresh;
	};

	const settingsPaths = (files: SettingsFile[]) =>
		files.flatMap((file) => (file.settings.extensions ?? []).map((entry) => resolveSettingsPath(entry, file.baseDir)));
	const dirs = { cwd: options.cwd, agentDir: options.agentDir, isHostPackage: options.isHostPackage };
	// One memo for both phases: a package installed or skipped in phase 1 is not tried again after trust.
	const packageOptions = { ...options.packages, located: new Map<string, string | undefined>() };
	const cli = await cliPackageFolders(options.cliPaths, dirs, packageOptions);
	const userPackages = await settingsPackages(options.settingsFiles, dirs, packageOptions);
	timing("packages resolved");
	const discovery = discoverExtensions({
		cwd: options.cwd,
		globalDir: agentPaths.extensions(options.agentDir),
		settingsPaths: settingsPaths(options.settingsFiles),
		cliPaths: cli.paths,
		noDiscovery: options.noDiscovery,
		isHostPackage: options.isHostPackage,
	});
	const inlineEntries = [...inline.keys()].map((path): ExtensionEntry => ({ path, scope: "cli" }));
	const packageEntries = options.noDiscovery ? [] : packageExtensionEntries(userPackages);
	diagnostics.push(
		...cli.diagnostics,
		...userPackages.diagnostics,
		...discovery.diagnostics.map(formatDiagnostic),
		...(await load([...discovery.entries, ...packageEntries, ...inlineEntries])),
	);

	const host: ExtensionHost = {
		onEventBusError: undefined,
		extensions,
		diagnostics,
		packageResources: discovery.resources,
		settingsPackageResources: pickResources(userPackages),
		events,
		get moduleLoader() {
			return moduleLoader;
		},
		flags,
		findCommand(name) {
			// Commands registered after start-up (from handlers or other commands) count too.
			if (!checked.commands.has(name)) recheck();
			return checked.commands.get(name)?.command;
		},
		commands() {
			recheck();
			return checked.commands;
		},
		async reinstantiate(reinstantiateOptions) {
			const previous = extensions.splice(0, extensions.length);
			const values = new Map<string, boolean | string>();
			for (const extension of previous) {
				for (const [name, value] of extension.handle.flagValues) values.set(name, value);
				extension.handle.invalidate();
			}
			if (reinstantiateOptions?.reimport) moduleLoader?.reset();
			flags.clear();
			const lines = await load(previous.map((e) => e.entry));
			for (const [name, value] of values) flags.get(name)?.extension.handle.flagValues.set(name, value);
			return lines;
		},
		async loadProjectExtensions(projectSettings) {
			// Project packages are deduplicated against the user's: a project entry replaces a user one.
			const packages = await settingsPackages([...options.settingsFiles, ...projectSettings], dirs, packageOptions);
			host.settingsPackageResources = pickResources(packages);
			if (options.noDiscovery) return packages.diagnostics.filter((line) => !diagnostics.includes(line));
			const entries = packageExtensionEntries(packages);
			const kept = new Set(entries.map((entry) => entry.path));
			// A user package that a project entry replaced (or filtered) no longer loads, as in pi.
			for (const extension of [...extensions]) {
				if (extension.entry.package?.scope === "user" && !kept.has(extension.entry.path)) {
					extension.handle.invalidate();
					extensions.splice(extensions.indexOf(extension), 1);
					for (const [name, owner] of flags) if (owner.extension === extension) flags.delete(name);
				}
			}
			const project = discoverExtensions({
				cwd: options.cwd,
				projectDir: projectPaths.extensions(options.cwd),
				settingsPaths: settingsPaths(projectSettings),
				cliPaths: [],
				noDiscovery: false,
				isHostPackage: options.isHostPackage,
			});
			return [
				...packages.diagnostics.filter((line) => !diagnostics.includes(line)),
				...project.diagnostics.map(formatDiagnostic),
				...(await load([...project.entries, ...entries])),
			];
		},
	};
	return host;
}

function pickResources(resolution: SettingsPackageResources): SettingsPackageResources {
	return { skills: resolution.skills, prompts: resolution.prompts, themes: resolution.themes };
}

/** Inline factories as modules by their `<inline:name|N>` path. */
function inlineModules(factories: InlineExtension[]): Map<string, Record<string, unknown>> {
	const modules = new Map<string, Record<string, unknown>>();
	factories.forEach((inline, index) => {
		const factory = typeof inline === "function" ? inline : inline.factory;
		const name = typeof inline === "function" ? undefined : inline.name;
		modules.set(`<inline:${name ?? index + 1}>`, { default: factory });
	});
	return modules;
}

function registerFlags(extension: LoadedExtensionHandle, flags: Map<string, RegisteredFlag>): string[] {
	const lines: string[] = [];
	for (const [name, flag] of extension.handle.registrations.flags) {
		const owner = flags.get(name);
		if (owner) {
			lines.push(
				`extension ${extension.entry.path}: flag --${name} is already registered by ${owner.extension.entry.path}; ignored`,
			);
		} else flags.set(name, { extension, flag });
	}
	return lines;
}
