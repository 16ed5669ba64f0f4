/**
 * The agent layer's contract: agent messages (LLM messages plus app-defined roles), tools, the 10 agent events,
 * and the loop configuration with its hooks. Pure: no fs, no UI.
 *
 * Boundary rules:
 * - The loop never throws out of a run: provider failures end the turn with an assistant message whose
 *   `stopReason` is "error" or "aborted"; a tool that throws becomes a tool result with `isError: true`.
 * - Hooks (`beforeToolCall`, `afterToolCall`, `transformContext`, `convertToLlm`, queue getters) are awaited; a
 *   throwing `beforeToolCall` blocks the call with the error text (fails closed); a throwing `afterToolCall`
 *   keeps the original result.
 */
import type { TSchema } from "@sinclair/typebox";
import type {
	ThinkingLevel as AiThinkingLevel,
	AssistantMessage,
	AssistantMessageEvent,
	AssistantMessageEventStream,
	Context,
	ImageContent,
	Message,
	Model,
	SimpleStreamOptions,
	SystemMessage,
	TextContent,
	ThinkingBudgets,
	Tool,
	ToolCall,
	ToolResultMessage,
	TranscriptMessage,
} from "../ai/index.ts";

/** App-defined message roles, added by declaration merging (`declare module … { interface CustomAgentMessages }`). */
// biome-ignore lint/suspicious/noEmptyInterface: extended by declaration merging
export interface CustomAgentMessages {}

export type AgentMessage = Message | SystemMessage | CustomAgentMessages[keyof CustomAgentMessages];

/** The agent's thinking levels: pi-ai's plus "off". */
export type ThinkingLevel = "off" | AiThinkingLevel;

export interface AgentToolResult<TDetails = any> {
	content: (TextContent | ImageContent)[];
	details: TDetails;
	/** Hint: skip the follow-up LLM call (honoured only when every result of the batch sets it). */
	terminate?: boolean;
}

export type AgentToolUpdateCallback<TDetails = any> = (partial: AgentToolResult<TDetails>) => void;

export type ToolExecutionMode = "sequential" | "parallel";

export interface AgentTool<TParameters extends TSchema = TSchema, TDetails = any> extends Tool<TParameters> {
	label: string;
	/** Runs the tool; may throw (the loop turns that into an error result). */
	execute(
		toolCallId: string,
		params: any,
		signal?: AbortSignal,
		onUpdate?: AgentToolUpdateCallback<TDetails>,
	): Promise<AgentToolResult<TDetails>>;
	/** Shim applied to raw arguments before validation (e.g. accept a legacy shape). */
	prepareArguments?: (args: unknown) => unknown;
	executionMode?: ToolExecutionMode;
}

export interface AgentContext {
	systemPrompt: string;
	messages: AgentMessage[];
	tools?: AgentTool<any>[];
}

export type AgentEvent =
	| { type: "agent_start" }
	| { type: "agent_end"; messages: AgentMessage[] }
	| { type: "turn_start" }
	| { type: "turn_end"; message: AssistantMessage; toolResults: ToolResultMessage[] }
	| { type: "message_start"; message: AgentMessage }
	| { type: "message_update"; message: AssistantMessage; assistantMessageEvent: AssistantMessageEvent }
	| { type: "message_end"; message: AgentMessage }
	| { type: "tool_execution_start"; toolCallId: string; toolName: string; args: any }
	| { type: "tool_execution_update"; toolCallId: string; toolName: string; args: any; partialResult: AgentToolResult }
	| { type: "tool_execution_end"; toolCallId: string; toolName: string; result: AgentToolResult; isError: boolean };

export type StreamFn = (model: Model, context: Context, options?: SimpleStreamOptions) => AssistantMessageEventStream;

export interface BeforeToolCallContext {
	assistantMessage: AssistantMessage;
	toolCall: ToolCall;
	args: any;
	context: AgentContext;
}

export interface BeforeToolCallResult {
	block?: boolean;
	reason?: string;
	terminate?: boolean;
}

export interface AfterToolCallContext {
	assistantMessage: AssistantMessage;
	toolCall: ToolCall;
	args: any;
	result: AgentToolResult;
	isError: boolean;
	context: AgentContext;
}

export interface AfterToolCallResult {
	content?: (TextContent | ImageContent)[];
	details?: any;
	isError?: boolean;
	terminate?: boolean;
}

export interface AgentLoopConfig {
	model: Model;
	/** Thinking level for `streamSimple` ("off" or undefined = none). */
	reasoning?: ThinkingLevel;
	thinkingBudgets?: ThinkingBudgets;
	sessionId?: string;
	/** Converts agent messages (including custom roles) to what the LLM understands. Required. */
	convertToLlm: (messages: AgentMessage[]) => TranscriptMessage[] | Promise<TranscriptMessage[]>;
	/** Runs before `convertToLlm` on every request (pruning, the extension `context` event). */
	transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
	/** Resolved per request, so expiring tokens can refresh. */
	getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
	/**
	 * Called at the start of every turn with the transcript so far: a system message patching the prompt
	 * (its sections) for the coming request, or nothing when the prompt is unchanged. It leads the turn's new
	 * messages; tool loadout changes are declared by the loop itself.
	 */
	prepareSystemMessage?: (messages: AgentMessage[]) => SystemMessage | undefined | Promise<SystemMessage | undefined>;
	/** Messages to inject after the current turn's tools (steering). */
	getSteeringMessages?: () => Promise<AgentMessage[]>;
	/** Messages to run after the agent would otherwise stop (follow-up). */
	getFollowUpMessages?: () => Promise<AgentMessage[]>;
	toolExecution?: ToolExecutionMode;
	beforeToolCall?: (ctx: BeforeToolCallContext, signal?: AbortSignal) => Promise<BeforeToolCallResult | undefined>;
	afterToolCall?: (ctx: AfterToolCallContext, signal?: AbortSignal) => Promise<AfterToolCallResult | undefined>;
	/** Extra options passed through to the stream function (headers, onPayload, cacheRetention, …). */
	streamOptions?: Omit<SimpleStreamOptions, "reasoning" | "signal" | "apiKey">;
}
