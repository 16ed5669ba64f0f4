/** `@mariozechner/pi-coding-agent` / `@earendil-works/pi-coding-agent`: what extensions and SDK users import. */
import type { TSchema } from "@sinclair/typebox";
import type { ToolDefinition } from "../extensions/index.ts";

export {
	CONFIG_DIR_NAME,
	getAgentDir,
	getDocsPath,
	getExamplesPath,
	getPackageDir,
	getReadmePath,
} from "../config/index.ts";
export type * from "../extensions/index.ts";
export {
	createEventBus,
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
	type ParsedSkillBlock,
	parseFrontmatter,
	parseSkillBlock,
	stripFrontmatter,
} from "../resources/index.ts";
export {
	AgentSession,
	buildSystemPrompt,
	convertToLlm,
	createAgentSession,
	type SessionEvent,
	serializeConversation,
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
	type BashToolDetails,
	createBashTool,
	createEditTool,
	createFindTool,
	createGrepTool,
	createLocalBashOperations,
	createLsTool,
	createReadTool,
	createWriteTool,
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	detectSupportedImageMimeTypeFromFile,
	type EditOperations,
	type EditToolDetails,
	type FindOperations,
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
	type ResizedImage,
	type TruncationResult,
	truncateHead,
	truncateLine,
	truncateTail,
	type WriteOperations,
	withFileMutationQueue,
} from "../tools/index.ts";
export {
	BorderedLoader,
	CustomEditor,
	DynamicBorder,
	getEditorTheme,
	getMarkdownTheme,
	getSelectListTheme,
	getSettingsListTheme,
	truncateToVisualLines,
	type VisualTruncateResult,
} from "../tui/index.ts";
export { copyToClipboard, PI_COMPAT_VERSION, VERSION } from "../util/index.ts";

/** `defineTool(def)`: returns the definition unchanged; exists so TypeScript infers the parameter types. */
export function defineTool<TParams extends TSchema, TDetails = unknown, TState = any>(
	definition: ToolDefinition<TParams, TDetails, TState>,
): ToolDefinition<TParams, TDetails, TState> {
	return definition;
}
