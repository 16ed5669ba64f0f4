/**
 * Extension loading in pi's SDK shape: `discoverAndLoadExtensions(paths, cwd, agentDir, eventBus)` and the
 * extension set of `DefaultResourceLoader`, as a `LoadExtensionsResult` (`{ extensions, errors, runtime }`, each
 * extension with its handlers, tools, commands, flags, shortcuts and message renderers). The host modules
 * extensions import come from the SDK layer (`ExtensionModules`).
 */
import { join, resolve } from "node:path";
import { agentPaths, getAgentDir, projectPaths } from "../config/index.ts";
import {
	createEventBus,
	createExtensionApi,
	createExtensionRuntime,
	createModuleLoader,
	discoverExtensions,
	type EventBus,
	type ExtensionDiagnostic,
	type ExtensionEntry,
	type ExtensionFactory,
	type LoadedExtensionHandle,
	loadExtensions,
	type SdkExtensionRuntime,
	type VirtualModuleTable,
} from "../extensions/index.ts";
import { errorMessage } from "../util/index.ts";

/** What extensions import from the host, and which package names are the host's own. */
export interface ExtensionModules {
	virtualModules: () => Promise<VirtualModuleTable>;
	isHostPackage: (name: string) => boolean;
}

/** An inline extension: a factory, optionally with a name for diagnostics. */
export type InlineExtension = ExtensionFactory | { name?: string; factory: ExtensionFactory };

export interface SdkExtension {
	path: string;
	resolvedPath: string;
	sourceInfo: { path: string; source: string; scope: string; origin: string; baseDir?: string };
	handlers: Map<string, unknown[]>;
	tools: Map<string, { definition: unknown; extensionPath: string }>;
	commands: Map<string, unknown>;
	flags: Map<string, unknown>;
	shortcuts: Map<string, unknown>;
	messageRenderers: Map<string, unknown>;
}

export interface LoadExtensionsResult {
	extensions: SdkExtension[];
	errors: { path: string; error: string }[];
	runtime: SdkExtensionRuntime;
}

const SOURCE: Record<ExtensionEntry["scope"], { source: string; scope: string }> = {
	global: { source: "auto", scope: "user" },
	project: { source: "auto", scope: "project" },
	settings: { source: "local", scope: "user" },
	cli: { source: "cli", scope: "temporary" },
};

function toSdkExtension(
	path: string,
	scope: ExtensionEntry["scope"] | "inline",
	handle: LoadedExtensionHandle["handle"],
): SdkExtension {
	const r = handle.registrations;
	const where = scope === "inline" ? { source: "inline", scope: "temporary" } : SOURCE[scope];
	return {
		path,
		resolvedPath: path,
		sourceInfo: { path, ...where, origin: "top-level" },
		handlers: new Map([...r.handlers].map(([event, list]) => [event, [...list]])),
		tools: new Map([...r.tools].map(([name, definition]) => [name, { definition, extensionPath: path }])),
		commands: new Map([...r.commands].map(([name, command]) => [name, { name, ...command, extensionPath: path }])),
		flags: new Map([...r.flags].map(([name, flag]) => [name, { name, ...flag, extensionPath: path }])),
		shortcuts: new Map(r.shortcuts),
		messageRenderers: new Map(r.messageRenderers),
	};
}

/** Providers an extension registered while loading wait on the runtime until a model runtime takes them. */
function queueProviders(
	result: LoadExtensionsResult,
	extensionPath: string,
	handle: LoadedExtensionHandle["handle"],
): void {
	for (const { name, config } of handle.registrations.pendingProviders.splice(0)) {
		result.runtime.pendingProviderRegistrations.push({ name, config, extensionPath });
	}
}

/** The live extension handles behind a result (what a session binds its actions and hooks to). */
const HANDLES = new WeakMap<LoadExtensionsResult, LoadedExtensionHandle[]>();

/** The loaded extensions of a result made here, as the runtime uses them (none for a result made elsewhere). */
export function extensionHandlesOf(result: LoadExtensionsResult): LoadedExtensionHandle[] {
	return HANDLES.get(result) ?? [];
}

/** An override's result keeps the handles of the extensions it still lists. */
export function carryExtensionHandles(from: LoadExtensionsResult, to: LoadExtensionsResult): void {
	if (from === to || HANDLES.has(to)) return;
	const kept = new Set(to.extensions.map((extension) => extension.path));
	HANDLES.set(
		to,
		extensionHandlesOf(from).filter((loaded) => kept.has(loaded.entry.path)),
	);
}

const errorsOf = (diagnostics: ExtensionDiagnostic[]) =>
	diagnostics.filter((d) => d.level === "error").map((d) => ({ path: d.path, error: d.message }));

export interface ExtensionSetOptions {
	cwd: string;
	agentDir: string;
	/** Also `<cwd>/.pi/extensions` (trusted projects only). */
	includeProject: boolean;
	/** Settings entries, already resolved. */
	settingsPaths: string[];
	/** Explicit paths (as `-e`), relative to cwd. */
	paths: string[];
	noDiscovery: boolean;
	factories?: InlineExtension[];
	eventBus?: EventBus;
}

/** Discovers and loads one set of extensions (user, project, settings, explicit, inline, in that order). */
export async function loadExtensionSet(
	options: ExtensionSetOptions,
	modules: ExtensionModules,
): Promise<LoadExtensionsResult> {
	const events = options.eventBus ?? createEventBus();
	const discovery = discoverExtensions({
		cwd: options.cwd,
		globalDir: agentPaths.extensions(options.agentDir),
		...(options.includeProject ? { projectDir: projectPaths.extensions(options.cwd) } : {}),
		settingsPaths: options.settingsPaths,
		cliPaths: options.paths,
		noDiscovery: options.noDiscovery,
		isHostPackage: modules.isHostPackage,
	});
	const result: LoadExtensionsResult = {
		extensions: [],
		errors: errorsOf(discovery.diagnostics),
		runtime: createExtensionRuntime(),
	};
	const handles: LoadedExtensionHandle[] = [];
	HANDLES.set(result, handles);
	if (discovery.entries.length > 0) {
		const loader = await createModuleLoader(
			await modules.virtualModules(),
			join(agentPaths.cache(options.agentDir), "jiti"),
		);
		const loaded = await loadExtensions(discovery.entries, loader, events);
		result.errors.push(...errorsOf(loaded.diagnostics));
		for (const { entry, handle } of loaded.extensions) {
			handles.push({ entry, handle });
			result.extensions.push(toSdkExtension(entry.path, entry.scope, handle));
			queueProviders(result, entry.path, handle);
		}
	}
	let index = 0;
	for (const inline of options.factories ?? []) {
		index++;
		const factory = typeof inline === "function" ? inline : inline.factory;
		const name = typeof inline === "function" ? undefined : inline.name;
		const path = `<inline:${name ?? index}>`;
		const handle = createExtensionApi(path, events);
		try {
			await factory(handle.api as never);
			handles.push({ entry: { path, scope: "cli" }, handle });
			result.extensions.push(toSdkExtension(path, "inline", handle));
			queueProviders(result, path, handle);
		} catch (error) {
			result.errors.push({ path, error: errorMessage(error) });
		}
	}
	return result;
}

/** pi's `discoverAndLoadExtensions(configuredPaths, cwd, agentDir?, eventBus?)`. */
export function discoverAndLoadExtensions(
	configuredPaths: string[],
	cwd: string,
	agentDir: string = getAgentDir(),
	eventBus: EventBus | undefined,
	modules: ExtensionModules,
): Promise<LoadExtensionsResult> {
	return loadExtensionSet(
		{
			cwd: resolve(cwd),
			agentDir: resolve(agentDir),
			includeProject: true,
			settingsPaths: [],
			paths: configuredPaths,
			noDiscovery: false,
			...(eventBus ? { eventBus } : {}),
		},
		modules,
	);
}
