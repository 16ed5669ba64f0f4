/** The env-based tools of pi-agent-core (its `createBashTool` & co. take the execution env per call). */
import { harness } from "../tools/index.ts";

export const createBashTool = harness.createBashTool;
export const createEditTool = harness.createEditTool;
export const createReadTool = harness.createReadTool;
export const createWriteTool = harness.createWriteTool;
export const executeShellWithCapture = harness.executeShellWithCapture;
/** A local execution environment (pi keeps its own under `pi-agent-core/node`). */
export const createLocalExecutionEnv = harness.createLocalExecutionEnv;
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
} from "../tools/index.ts";
export type ReadToolOptions = import("../tools/index.ts").harness.ReadToolOptions;
export type ReadImageProcessor = import("../tools/index.ts").harness.ReadImageProcessor;
export type BashToolOptions = import("../tools/index.ts").harness.BashToolOptions;
