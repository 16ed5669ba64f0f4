export {
	Agent,
	type AgentListener,
	type AgentOptions,
	type AgentState,
	defaultConvertToLlm,
	type QueueMode,
} from "./agent.ts";
export * from "./harness/index.ts";
export { agentLoop, agentLoopContinue, runAgentLoop, runAgentLoopContinue } from "./loop.ts";
export { type ProxyAssistantMessageEvent, type ProxyStreamOptions, streamProxy } from "./proxy.ts";
export { getDefaultStreamFn, setDefaultStreamFn } from "./stream-fn.ts";
export { executeToolCalls } from "./tool-execution.ts";
export type * from "./types.ts";
export { type ValidationResult, validateToolArguments } from "./validate.ts";
