/**
 * pi's resource-loading entry points for SDK users, loading extensions against this process's SDK modules:
 * `DefaultResourceLoader`, `discoverAndLoadExtensions` and `createAgentSessionServices`.
 */
import type { EventBus } from "../extensions/index.ts";
import {
	type AgentSessionServices,
	type CreateAgentSessionServicesOptions,
	type DefaultResourceLoaderOptions,
	type ExtensionModules,
	type LoadExtensionsResult,
	DefaultResourceLoader as RuntimeDefaultResourceLoader,
	createAgentSessionServices as runtimeCreateAgentSessionServices,
	discoverAndLoadExtensions as runtimeDiscoverAndLoadExtensions,
} from "../runtime/index.ts";
import { HOST_PACKAGES, loadVirtualModules } from "./virtual-modules.ts";

/** The host modules extensions loaded through the SDK import. */
const SDK_EXTENSION_MODULES: ExtensionModules = {
	virtualModules: loadVirtualModules,
	isHostPackage: (name) => HOST_PACKAGES.has(name),
};

/** pi's `DefaultResourceLoader`, loading extensions against this process's SDK modules. */
export class DefaultResourceLoader extends RuntimeDefaultResourceLoader {
	constructor(options: DefaultResourceLoaderOptions) {
		super(options, SDK_EXTENSION_MODULES);
	}
}

/** pi's `discoverAndLoadExtensions(configuredPaths, cwd, agentDir?, eventBus?)`. */
export function discoverAndLoadExtensions(
	configuredPaths: string[],
	cwd: string,
	agentDir?: string,
	eventBus?: EventBus,
): Promise<LoadExtensionsResult> {
	return runtimeDiscoverAndLoadExtensions(configuredPaths, cwd, agentDir, eventBus, SDK_EXTENSION_MODULES);
}

/** pi's `createAgentSessionServices`: model runtime, settings and a reloaded resource loader for one cwd. */
export function createAgentSessionServices(options: CreateAgentSessionServicesOptions): Promise<AgentSessionServices> {
	return runtimeCreateAgentSessionServices(options, SDK_EXTENSION_MODULES);
}
