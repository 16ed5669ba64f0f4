/**
 * Start-up of the extension host: find extensions (settings + folders + `-e`), load them in order, and collect
 * what they registered that the CLI needs before a session exists (flags, commands).
 */
import { join } from "node:path";
import { agentPaths, projectPaths, resolveSettingsPath, type SettingsFile } from "../config/index.ts";
import {
	type CommandDefinition,
	createEventBus,
	createModuleLoader,
	discoverExtensions,
	type EventBus,
	type FlagDefinition,
	formatDiagnostic,
	type LoadedExtensionHandle,
	loadExtensions,
	type ModuleLoader,
	type VirtualModuleTable,
} from "../extensions/index.ts";

export interface ExtensionHostOptions {
	cwd: string;
	agentDir: string;
	cliPaths: string[];
	noDiscovery: boolean;
	/** Settings files read by the caller; their `extensions` entries are loaded. */
	settingsFiles: SettingsFile[];
	virtualModules: VirtualModuleTable;
	isHostPackage: (name: string) => boolean;
	/** Force a loader (tests); default: Bun's on Bun, jiti on Node. */
	loaderKind?: ModuleLoader["kind"];
}

export interface RegisteredFlag {
	extension: LoadedExtensionHandle;
	flag: FlagDefinition;
}

export interface ExtensionHost {
	extensions: LoadedExtensionHandle[];
	/** Settings and extension problems, one line each, already formatted. */
	diagnostics: string[];
	events: EventBus;
	moduleLoader: ModuleLoader;
	/** Flags by name; the first extension to register a name owns it. */
	flags: Map<string, RegisteredFlag>;
	findCommand(name: string): CommandDefinition | undefined;
}

export async function startExtensionHost(options: ExtensionHostOptions): Promise<ExtensionHost> {
	const diagnostics: string[] = [];
	const settingsPaths = options.settingsFiles.flatMap((file) =>
		(file.settings.extensions ?? []).map((entry) => resolveSettingsPath(entry, file.baseDir)),
	);
	const discovery = discoverExtensions({
		cwd: options.cwd,
		globalDir: agentPaths.extensions(options.agentDir),
		projectDir: projectPaths.extensions(options.cwd),
		settingsPaths,
		cliPaths: options.cliPaths,
		noDiscovery: options.noDiscovery,
		isHostPackage: options.isHostPackage,
	});
	const events = createEventBus((channel, error) => {
		diagnostics.push(`extension event bus "${channel}": listener failed: ${String(error)}`);
	});
	const moduleLoader = await createModuleLoader(
		options.virtualModules,
		join(agentPaths.cache(options.agentDir), "jiti"),
		options.loaderKind,
	);
	const loaded =
		discovery.entries.length > 0
			? await loadExtensions(discovery.entries, moduleLoader, events)
			: { extensions: [], diagnostics: [] };
	diagnostics.push(...[...discovery.diagnostics, ...loaded.diagnostics].map(formatDiagnostic));

	const flags = new Map<string, RegisteredFlag>();
	for (const extension of loaded.extensions) {
		for (const [name, flag] of extension.handle.registrations.flags) {
			const owner = flags.get(name);
			if (owner) {
				diagnostics.push(
					`extension ${extension.entry.path}: flag --${name} is already registered by ${owner.extension.entry.path}; ignored`,
				);
			} else flags.set(name, { extension, flag });
		}
	}
	return {
		extensions: loaded.extensions,
		diagnostics,
		events,
		moduleLoader,
		flags,
		findCommand(name) {
			for (const extension of loaded.extensions) {
				const command = extension.handle.registrations.commands.get(name);
				if (command) return command;
			}
			return undefined;
		},
	};
}
