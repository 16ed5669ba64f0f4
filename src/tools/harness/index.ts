export type { BashToolDetails as HarnessBashToolDetails } from "./bash-tool.ts";
export { type BashExecution, type BashPrepare, type BashToolOptions, createBashTool } from "./bash-tool.ts";
export {
	createEditTool,
	createReadTool,
	createWriteTool,
	type EditToolDetails as HarnessEditToolDetails,
	type ReadImageProcessor,
	type ReadImageProcessorResult,
	type ReadToolDetails as HarnessReadToolDetails,
	type ReadToolOptions,
} from "./file-tools.ts";
export { createLocalExecutionEnv, type LocalExecutionEnvOptions } from "./local-env.ts";
export { createLocalFileSystem } from "./local-fs.ts";
export { ShellOutputCapture } from "./output-capture.ts";
export {
	executeShellWithCapture,
	type ShellCaptureOptions,
	type ShellCaptureProgress,
	type ShellCaptureResult,
} from "./shell-capture.ts";
export type * from "./types.ts";
export { unifiedPatch } from "./unified-patch.ts";
