export {
	ACTION_METHODS,
	createExtensionApi,
	type ExtensionActions,
	type ExtensionApiHandle,
	type ExtensionApiOptions,
} from "./api.ts";
export * from "./context.ts";
export {
	type DiscoveryOptions,
	type DiscoveryResult,
	discoverExtensions,
	type InstalledCliPackage,
	type PackageResource,
	type PackageResources,
} from "./discovery.ts";
export { createEventBus, type EventBus } from "./event-bus.ts";
export type * from "./events.ts";
export { EVENT_NAMES, EVENT_TABLE, isExtensionEventName } from "./events.ts";
export { execCommand } from "./exec.ts";
export { reportExtensionExits } from "./exit-report.ts";
export {
	createExtensionRuntime,
	type PendingProviderRegistration,
	type SdkExtensionRuntime,
} from "./extension-runtime.ts";
export {
	type BuiltinToolResultEvent,
	isBashToolResult,
	isEditToolResult,
	isFindToolResult,
	isGrepToolResult,
	isLsToolResult,
	isPowerShellToolResult,
	isReadToolResult,
	isToolCallEventType,
	isWriteToolResult,
} from "./guards.ts";
export { createModuleLoader, type LoadedExtensionHandle, type LoadResult, loadExtensions } from "./loader.ts";
export { createNoopUi } from "./noop-ui.ts";
export { conventionalFiles, manifestKinds, type PackageFolder, resolvePackageFolder } from "./package-source.ts";
export {
	BUILTIN_COMMANDS,
	checkRegistrations,
	normalizeKey,
	type RegistrationCheck,
	type RegistrationOwner,
} from "./registration-rules.ts";
export {
	createExtensionRunner,
	type EmitOptions,
	type ExtensionError,
	type ExtensionErrorListener,
	type ExtensionRunner,
	type RunnerExtension,
} from "./runner.ts";
export type {
	AutocompleteItem,
	BashOperations,
	BashResult,
	BranchSummaryEntry,
	CacheWarmingAction,
	CommandOptions,
	CompactionEntry,
	CompactionPreparation,
	CompactionResult,
	CustomMessageInput,
	EntryRenderer,
	ExtensionHandler,
	ExtensionUIContext,
	MarkdownTransformer,
	MessageRenderer,
	NormalizedSystemPromptOptions,
	OnEvent,
	ProviderConfig,
	ProviderModelConfig,
	SessionEntry,
	ShortcutDefinition,
	SlashCommandInfo,
	SourceInfo,
	SystemPromptOptions,
	ToolInfo,
	ToolRenderContext,
	UIComponent,
	UIDialogOptions,
} from "./types.ts";
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
