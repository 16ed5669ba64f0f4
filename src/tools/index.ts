export {
	type BashExecOptions,
	type BashOperations,
	type BashSpawnContext,
	type BashSpawnHook,
	type BashToolDetails,
	type BashToolOptions,
	createBashTool,
	createLocalBashOperations,
	createShellTool,
	type ShellSessionInfo,
	type ShellToolIdentity,
} from "./bash.ts";
export { OutputCollector, type OutputSnapshot, sanitizeOutput } from "./bash-output.ts";
export { BUILTIN_TOOL_NAMES, type BuiltinToolsOptions, createBuiltinTools, DEFAULT_ACTIVE_TOOLS } from "./builtin.ts";
export {
	type BuiltinToolDefinition,
	createBashToolDefinition,
	createCodingTools,
	createEditToolDefinition,
	createFindToolDefinition,
	createGrepToolDefinition,
	createLsToolDefinition,
	createPowerShellToolDefinition,
	createReadOnlyTools,
	createReadToolDefinition,
	createWriteToolDefinition,
	type ToolsOptions,
	toolDefinitionFromTool,
} from "./definitions.ts";
export { generateDiffString, generateUnifiedPatch } from "./diff-text.ts";
export {
	applyEdits,
	createEditTool,
	type EditOperations,
	type EditToolDetails,
	type EditToolOptions,
	localEditOperations,
	prepareEditArguments,
} from "./edit.ts";
export { pendingFileMutations, withFileMutationQueue } from "./file-mutation-queue.ts";
export { createFindTool, type FindOperations, type FindToolDetails, type FindToolOptions } from "./find.ts";
export { createGrepTool, type GrepOperations, type GrepToolDetails, type GrepToolOptions } from "./grep.ts";
export type {
	AgentHarnessTool,
	AgentHarnessToolInvocation,
	AgentHarnessToolUpdateCallback,
	AgentHarnessToolUpdateOptions,
	BashExecution,
	BashPrepare,
	ExecutionToolContext,
	ShellCaptureOptions,
	ShellCaptureProgress,
	ShellCaptureResult,
} from "./harness/index.ts";
export * as harness from "./harness/index.ts";
export { type IgnoreRule, parseIgnoreLine } from "./ignore.ts";
export {
	detectSupportedImageMimeType,
	detectSupportedImageMimeTypeFromFile,
	formatDimensionNote,
	IMAGE_SNIFF_LENGTH,
	type ResizedImage,
	type SupportedImageMimeType,
} from "./image-mime.ts";
export {
	convertToPng,
	type ImageResizeOptions,
	type NormalizeToolResultImagesOptions,
	normalizeToolResultImages,
	type ProcessImageOptions,
	type ProcessImageResult,
	processImage,
	resizeImage,
} from "./images.ts";
export { createLsTool, type LsOperations, type LsToolDetails, type LsToolOptions } from "./ls.ts";
export { normalizeToolPath, readPathVariants, resolveToolPath } from "./paths.ts";
export {
	createLocalPowerShellOperations,
	createPowerShellTool,
	type PowerShellOperations,
	type PowerShellToolDetails,
	type PowerShellToolOptions,
} from "./powershell.ts";
export {
	createReadTool,
	localReadOperations,
	type ReadFileInfo,
	type ReadFileKind,
	type ReadOperations,
	type ReadToolDetails,
	type ReadToolOptions,
	sniffImageMimeType,
} from "./read.ts";
export { findExecutable, killProcessTree, resolveShell, type ShellConfig } from "./shell.ts";
export { getPowerShellConfig, getShellConfig, POWERSHELL_ARGS, type SdkShellConfig } from "./shell-config.ts";
export {
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	formatSize,
	GREP_MAX_LINE_LENGTH,
	truncateHead,
	truncateLine,
	truncateTail,
	utf8ByteLength,
} from "./truncate.ts";
export type * from "./types.ts";
export { createWriteTool, localWriteOperations, type WriteOperations, type WriteToolOptions } from "./write.ts";
