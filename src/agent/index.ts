export {
	Agent,
	type AgentListener,
	type AgentOptions,
	type AgentState,
	defaultConvertToLlm,
	type QueueMode,
} from "./agent.ts";
export { agentLoop, agentLoopContinue, runAgentLoop } from "./loop.ts";
export { executeToolCalls } from "./tool-execution.ts";
export type * from "./types.ts";
export { type ValidationResult, validateToolArguments } from "./validate.ts";
