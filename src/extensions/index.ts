export { ACTION_METHODS, createExtensionApi, type ExtensionActions, type ExtensionApiHandle } from "./api.ts";
export { type DiscoveryOptions, type DiscoveryResult, discoverExtensions } from "./discovery.ts";
export { createEventBus, type EventBus } from "./event-bus.ts";
export { execCommand } from "./exec.ts";
export { createModuleLoader, type LoadedExtensionHandle, type LoadResult, loadExtensions } from "./loader.ts";
export { createNoopUi } from "./noop-ui.ts";
export {
	type CommandDefinition,
	type ExecOptions,
	type ExecResult,
	type ExtensionAPI,
	type ExtensionDiagnostic,
	type ExtensionEntry,
	type ExtensionFactory,
	type ExtensionRegistrations,
	type ExtensionScope,
	type FlagDefinition,
	formatDiagnostic,
	type ModuleLoader,
	type ToolDefinition,
	type VirtualModuleTable,
} from "./types.ts";
