/**
 * Extension loading in pi's SDK shape: `discoverAndLoadExtensions(paths, cwd, agentDir, eventBus)` and the
 * extension set of `DefaultResourceLoader`, as a `LoadExtensionsResult` (`{ extensions, errors, runtime }`, each
 * extension with its handlers, tools, commands, flags, shortcuts and message renderers). The host modules
 * extensions import come from the SDK layer (`ExtensionModules`).
 */
import { join, resolve } from "node:path";
import { agentPaths, getAgentDir, projectPaths } from "../config/index.ts";
import {
	ACTION_METHODS,
	createEventBus,
	createExtensionApi,
	createExtensionRuntime,
	createModuleLoader,
	discoverExtensions,
	type EventBus,
	type ExtensionActions,
	type ExtensionApiHandle,
	type ExtensionDiagnostic,
	type ExtensionEntry,
	type ExtensionFactory,
	type LoadedExtensionHandle,
	loadExtensions,
	type SdkExtensionRuntime,
	type VirtualModuleTable,
} from "../extensions/index.ts";
import { errorMessage } from "../util/index.ts";
import { type SdkExtension, sourceInfoOf, toSdkExtension } from "./sdk-extension-view.ts";

export type { SdkExtension } from "./sdk-extension-view.ts";

/** What extensions import from the host, and which package names are the host's own. */
export interface ExtensionModules {
	virtualModules: () => Promise<VirtualModuleTable>;
	isHostPackage: (name: string) => boolean;
}

/** An inline extension: a factory, optionally with a name for diagnostics. */
export type InlineExtension = ExtensionFactory | { name?: string; factory: ExtensionFactory };

export interface LoadExtensionsResult {
	extensions: SdkExtension[];
	errors: { path: string; error: string }[];
	runtime: SdkExtensionRuntime;
}

/**
 * The extension's `pi` actions go to the shared runtime (as in pi): they throw until an `ExtensionRunner` binds
 * a session with `bindCore`; providers registered while loading queue there with the extension's path.
 */
function bindToRuntime(path: string, handle: ExtensionApiHandle, runtime: SdkExtensionRuntime): void {
	const actions: Record<string, unknown> = {
		registerProvider: (name: string, config: unknown) => runtime.registerProvider(name, config, path),
		toolRegistered: () => runtime.refreshTools(),
	};
	for (const method of ACTION_METHODS) {
		actions[method] = (...args: unknown[]) => (runtime[method] as (...a: unknown[]) => unknown)(...args);
	}
	handle.bind(actions as ExtensionActions);
}

/** A runtime whose `invalidate()` also retires the `pi` objects of the extensions adopted into it. */
function sharedRuntime(): { runtime: SdkExtensionRuntime; handles: ExtensionApiHandle[] } {
	const runtime = createExtensionRuntime();
	const handles: ExtensionApiHandle[] = [];
	const invalidate = runtime.invalidate;
	runtime.invalidate = (message) => {
		invalidate(message);
		for (const handle of handles) handle.invalidate(message);
	};
	return { runtime, handles };
}

/** Flag defaults go into the shared values (pi: only where no value is set yet). */
function seedFlagDefaults(handle: ExtensionApiHandle, runtime: SdkExtensionRuntime): void {
	for (const [name, flag] of handle.registrations.flags) {
		if (flag.default !== undefined && !runtime.flagValues.has(name)) runtime.flagValues.set(name, flag.default);
	}
}

function adopt(
	result: LoadExtensionsResult,
	handles: ExtensionApiHandle[],
	path: string,
	scope: ExtensionEntry["scope"] | "inline",
	handle: ExtensionApiHandle,
	loaderSourceInfo: boolean,
	pkg?: ExtensionEntry["package"],
) {
	const info = pkg
		? { path, source: pkg.source, scope: pkg.scope, origin: "package", baseDir: pkg.baseDir }
		: sourceInfoOf(path, scope, loaderSourceInfo);
	result.extensions.push(toSdkExtension(path, info, handle));
	handles.push(handle);
	seedFlagDefaults(handle, result.runtime);
	bindToRuntime(path, handle, result.runtime);
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
	/** Extensions of settings `packages` (loaded after the discovered ones, before the inline ones). */
	packageEntries?: ExtensionEntry[];
	noDiscovery: boolean;
	factories?: InlineExtension[];
	eventBus?: EventBus;
	/** Describe sources as pi's extension loader does (`discoverAndLoadExtensions`), not the resource loader. */
	loaderSourceInfo?: boolean;
}

/** Discovers and loads one set of extensions (user, project, settings, explicit, inline, in that order). */
export async function loadExtensionSet(
	options: ExtensionSetOptions,
	modules: ExtensionModules,
): Promise<LoadExtensionsResult> {
	const events = options.eventBus ?? createEventBus();
	const loaderSourceInfo = options.loaderSourceInfo === true;
	const discovery = discoverExtensions({
		cwd: options.cwd,
		globalDir: agentPaths.extensions(options.agentDir),
		...(options.includeProject ? { projectDir: projectPaths.extensions(options.cwd) } : {}),
		settingsPaths: options.settingsPaths,
		cliPaths: options.paths,
		noDiscovery: options.noDiscovery,
		isHostPackage: modules.isHostPackage,
	});
	const { runtime, handles } = sharedRuntime();
	const result: LoadExtensionsResult = { extensions: [], errors: errorsOf(discovery.diagnostics), runtime };
	const entries = [...discovery.entries, ...(options.noDiscovery ? [] : (options.packageEntries ?? []))];
	const loadedHandles: LoadedExtensionHandle[] = [];
	HANDLES.set(result, loadedHandles);
	if (entries.length > 0) {
		const loader = await createModuleLoader(
			await modules.virtualModules(),
			join(agentPaths.cache(options.agentDir), "jiti"),
		);
		const loaded = await loadExtensions(entries, loader, events, { flagValues: result.runtime.flagValues });
		result.errors.push(...errorsOf(loaded.diagnostics));
		for (const { entry, handle } of loaded.extensions) {
			loadedHandles.push({ entry, handle });
			adopt(result, handles, entry.path, entry.scope, handle, loaderSourceInfo, entry.package);
		}
	}
	let index = 0;
	for (const inline of options.factories ?? []) {
		index++;
		const factory = typeof inline === "function" ? inline : inline.factory;
		const name = typeof inline === "function" ? undefined : inline.name;
		const path = `<inline:${name ?? index}>`;
		const handle = createExtensionApi(path, events, { flagValues: result.runtime.flagValues });
		try {
			await factory(handle.api as never);
			loadedHandles.push({ entry: { path, scope: "cli" }, handle });
			adopt(result, handles, path, "inline", handle, loaderSourceInfo);
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
			loaderSourceInfo: true,
			...(eventBus ? { eventBus } : {}),
		},
		modules,
	);
}
