/** `@mariozechner/pi-coding-agent` / `@earendil-works/pi-coding-agent`: what extensions and SDK users import. */
export { CONFIG_DIR_NAME, getAgentDir } from "../config/index.ts";
export {
	type CommandDefinition,
	createEventBus,
	type EventBus,
	type ExecOptions,
	type ExecResult,
	type ExtensionAPI,
	type ExtensionFactory,
	type FlagDefinition,
	type ToolDefinition,
} from "../extensions/index.ts";
export {
	AgentSession,
	buildSystemPrompt,
	convertToLlm,
	createAgentSession,
	type SessionEvent,
} from "../runtime/index.ts";
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
	type EditOperations,
	type EditToolDetails,
	type FindOperations,
	formatSize,
	type GrepOperations,
	type LsOperations,
	type ReadOperations,
	type ReadToolDetails,
	type TruncationResult,
	truncateHead,
	truncateLine,
	truncateTail,
	type WriteOperations,
	withFileMutationQueue,
} from "../tools/index.ts";
export { PI_COMPAT_VERSION, VERSION } from "../util/index.ts";

/** `defineTool(def)`: returns the definition unchanged; exists for type inference in extensions. */
export function defineTool<T>(definition: T): T {
	return definition;
}
