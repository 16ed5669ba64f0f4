/** `@mariozechner/pi-coding-agent` / `@earendil-works/pi-coding-agent`: what extensions and SDK users import. */
import type { TSchema } from "@sinclair/typebox";
import type { EventBus, ToolDefinition } from "../extensions/index.ts";
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

export { ModelRegistry } from "../ai/index.ts";
export {
	calculateContextTokens,
	DEFAULT_COMPACTION_SETTINGS,
	estimateTokens,
	findCutPoint,
	findTurnStartIndex,
	getLastAssistantUsage,
	shouldCompact,
} from "../compaction/index.ts";
export {
	CONFIG_DIR_NAME,
	CredentialSynchronizationError,
	type CredentialSynchronizationOperation,
	getAgentDir,
	getDocsPath,
	getExamplesPath,
	getPackageDir,
	getReadmePath,
	readStoredCredential,
	type SettingsError,
	SettingsManager,
	type SettingsManagerCreateOptions,
	type SettingsStorage,
} from "../config/index.ts";
export type * from "../extensions/index.ts";
export {
	createEventBus,
	createExtensionRuntime,
	isBashToolResult,
	isEditToolResult,
	isExtensionEventName,
	isFindToolResult,
	isGrepToolResult,
	isLsToolResult,
	isPowerShellToolResult,
	isReadToolResult,
	isToolCallEventType,
	isWriteToolResult,
} from "../extensions/index.ts";
export {
	type JsonAgentSessionEvent,
	type ModelInfo,
	RpcClient,
	type RpcClientOptions,
	type RpcCommand,
	type RpcEventListener,
	type RpcExtensionUIRequest,
	type RpcExtensionUIResponse,
	type RpcResponse,
	type RpcSessionState,
	type RpcSlashCommand,
	runRpcMode,
	type SessionStats,
} from "../modes/index.ts";
export {
	createSyntheticSourceInfo,
	formatSkillsForPrompt,
	hasTrustRequiringProjectResources,
	type LoadSkillsFromDirOptions,
	type LoadSkillsResult,
	loadProjectContextFiles,
	loadSkills,
	loadSkillsFromDir,
	type ParsedSkillBlock,
	type ProjectTrustDecision,
	ProjectTrustStore,
	type ProjectTrustStoreEntry,
	type ProjectTrustUpdate,
	parseFrontmatter,
	parseSkillBlock,
	stripFrontmatter,
} from "../resources/index.ts";
export type {
	AgentSessionRuntimeDiagnostic,
	AgentSessionServices,
	CreateAgentSessionServicesOptions,
	DefaultResourceLoaderOptions,
	InlineExtension,
	LoadExtensionsResult,
} from "../runtime/index.ts";
export {
	AgentSession,
	buildSystemPrompt,
	type CreateModelRuntimeOptions,
	collectEntriesForBranchSummary,
	compact,
	convertToLlm,
	createAgentSession,
	generateBranchSummary,
	generateSummary,
	generateSummaryWithUsage,
	ModelRuntime,
	type ModelRuntimeAuthOverrides,
	type ModelScopeDiagnostic,
	prepareBranchEntries,
	type ResolveCliModelResult,
	type ResolveModelScopeResult,
	resolveCliModel,
	resolveModelScopeWithDiagnostics,
	type SessionEvent,
	serializeConversation,
	wrapRegisteredTool,
	wrapRegisteredTools,
} from "../runtime/index.ts";
export {
	type AppendableMessage,
	type BranchSummaryEntry,
	buildContextEntries,
	buildSessionContext,
	buildSessionProjection,
	type CompactionEntry,
	type ContextEditableContent,
	type ContextEditEntry,
	CURRENT_SESSION_VERSION,
	type CustomEntry,
	type CustomMessageEntry,
	type FileEntry,
	getLatestCompactionEntry,
	type ModelChangeEntry,
	migrateSessionEntries,
	type NewSessionOptions,
	type ProjectedSessionEntry,
	parseSessionEntries,
	type SessionContext,
	type SessionEntry,
	type SessionEntryBase,
	type SessionHeader,
	type SessionInfo,
	type SessionInfoEntry,
	SessionManager,
	type SessionMessageEntry,
	type SessionProjection,
	type SessionTreeNode,
	sessionEntryToContextMessages,
	type ThinkingLevelChangeEntry,
} from "../session/index.ts";
export {
	type BashOperations,
	type BashSpawnContext,
	type BashSpawnHook,
	type BashToolDetails,
	type BashToolOptions,
	createBashTool,
	createBashToolDefinition,
	createCodingTools,
	createEditTool,
	createEditToolDefinition,
	createFindTool,
	createFindToolDefinition,
	createGrepTool,
	createGrepToolDefinition,
	createLocalBashOperations,
	createLocalPowerShellOperations,
	createLsTool,
	createLsToolDefinition,
	createPowerShellTool,
	createPowerShellToolDefinition,
	createReadOnlyTools,
	createReadTool,
	createReadToolDefinition,
	createWriteTool,
	createWriteToolDefinition,
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	detectSupportedImageMimeTypeFromFile,
	type EditOperations,
	type EditToolDetails,
	type EditToolOptions,
	type FindOperations,
	type FindToolOptions,
	formatDimensionNote,
	formatSize,
	type GrepOperations,
	generateDiffString,
	generateUnifiedPatch,
	getPowerShellConfig,
	getShellConfig,
	type LsOperations,
	type ReadOperations,
	type ReadToolDetails,
	type ReadToolOptions,
	type ResizedImage,
	type ToolsOptions,
	type TruncationResult,
	truncateHead,
	truncateLine,
	truncateTail,
	type WriteOperations,
	type WriteToolOptions,
	withFileMutationQueue,
} from "../tools/index.ts";
export {
	BorderedLoader,
	CustomEditor,
	DynamicBorder,
	truncateToVisualLines,
	type VisualTruncateResult,
} from "../tui/index.ts";
export { copyToClipboard, PI_COMPAT_VERSION, VERSION } from "../util/index.ts";
export { type MainOptions, main, type PiArgs as Args, parseArgs } from "./cli-entry.ts";
export {
	getEditorTheme,
	getLanguageFromPath,
	getMarkdownTheme,
	getSelectListTheme,
	getSettingsListTheme,
	highlightCode,
	initTheme,
	keyHint,
	keyText,
	rawKeyHint,
} from "./theme-helpers.ts";

/** `defineTool(def)`: returns the definition unchanged; exists so TypeScript infers the parameter types. */
export function defineTool<TParams extends TSchema, TDetails = unknown, TState = any>(
	definition: ToolDefinition<TParams, TDetails, TState>,
): ToolDefinition<TParams, TDetails, TState> {
	return definition;
}

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
