/**
 * The public shapes of pi-agent-core's `AgentHarness`: options, events, hooks, results and the lane and harness
 * interfaces (pi 0.87.1 `agent-harness.d.ts`).
 */
import type { TSchema } from "@sinclair/typebox";
import type {
	AssistantMessage,
	AssistantMessageEvent,
	AssistantMessageFrame,
	DeferredHandle,
	ImageContent,
	Message,
	Model,
	Models,
	RetryPolicy,
	SimpleStreamOptions,
	Tool,
	ToolResultMessage,
	Usage,
} from "../../../ai/index.ts";
import type { QueueMode } from "../../agent.ts";
import type { AgentMessage, AgentToolResult, ThinkingLevel } from "../../types.ts";
import type { Context } from "../context.ts";
import type { PromptTemplate, Skill } from "../env-types.ts";
import type {
	Closed,
	InvalidMessage,
	InvalidNavigation,
	LaneBusy,
	NoActiveOperation,
	NothingToCompact,
	NothingToResume,
	OperationMismatch,
	Result,
	UnknownSkill,
	UnknownTarget,
	UnknownTemplate,
} from "../result.ts";
import type {
	Entry,
	EntryProjector,
	JsonValue,
	LaneConfiguration,
	OperationError,
	OperationResultRecord,
	Session,
	SessionStats,
	SettledAssistantMessage,
	UsageRow,
} from "../session/types.ts";

export type { QueueMode };
export interface CompactionSettings {
	enabled: boolean;
	reserveTokens: number;
	keepRecentTokens: number;
}
export interface AgentHarnessStreamOptions {
	transport?: SimpleStreamOptions["transport"];
	timeoutMs?: number;
	maxRetries?: number;
	maxRetryDelayMs?: number;
	headers?: Record<string, string>;
	metadata?: SimpleStreamOptions["metadata"];
	cacheRetention?: SimpleStreamOptions["cacheRetention"];
	deferred?: boolean | { window?: "15m" | "1h" | "24h" };
}
export interface AgentHarnessStreamOptionsPatch
	extends Omit<Partial<AgentHarnessStreamOptions>, "headers" | "metadata"> {
	headers?: Record<string, string | undefined>;
	metadata?: Record<string, unknown | undefined>;
}
export interface Resources {
	promptTemplates?: PromptTemplate[];
	skills?: Skill[];
}
export interface HarnessToolInvocation {
	readonly invocationId: string;
	readonly operationId: string;
	readonly turnId: string;
	getMemo(name: string): Promise<JsonValue | undefined>;
	setMemo(name: string, value: JsonValue | undefined): Promise<void>;
}
/** A tool the harness runs: an `AgentTool` whose execute also gets the tool context and invocation identity. */
export interface HarnessTool<TContext = unknown> extends Tool<TSchema> {
	label?: string;
	prepareArguments?: (args: unknown) => unknown;
	/** "safe": a call interrupted by a crash may run again on resume; otherwise it settles as interrupted. */
	replay?: "never" | "safe";
	execute(
		toolCallId: string,
		params: never,
		onUpdate: (partialResult: AgentToolResult<unknown>, options?: { checkpoint?: true }) => void,
		toolContext: TContext,
		invocation: HarnessToolInvocation,
		context: Context,
	): Promise<AgentToolResult<unknown>>;
}

export interface SuspendedRun {
	operationId: string;
	status: "suspended";
	deferred: DeferredHandle;
}
export type RunResult = Result<
	OperationResultRecord | SuspendedRun,
	LaneBusy | InvalidMessage | UnknownSkill | UnknownTemplate | Closed
>;
export type CompactionResult = Result<
	{ compaction: OperationResultRecord; run?: OperationResultRecord | SuspendedRun },
	LaneBusy | NothingToCompact | Closed
>;
export type NavigationResult = Result<
	{ navigation: OperationResultRecord; run?: OperationResultRecord | SuspendedRun },
	LaneBusy | InvalidNavigation | UnknownTarget | Closed
>;
export type ResumeResult = Result<OperationResultRecord | SuspendedRun, NothingToResume | Closed>;
export type QueueResult = Result<{ entryId: string }, InvalidMessage | Closed>;
export type CancelQueuedResult = Result<{ kind: "cancelled" | "already_consumed" | "not_found" }, Closed>;
export type AbortResult = Result<
	{ operationId: string; steer: AgentMessage[]; followUp: AgentMessage[] },
	NoActiveOperation | Closed
>;
export type RecordUsageResult = Result<{ usageId: string }, Closed>;
export interface NavigateOptions {
	summarize?: boolean;
	label?: string;
	customInstructions?: string;
}
export type OperationRequest =
	| { kind: "prompt"; operationId?: string; prompt: string; images?: ImageContent[] }
	| { kind: "prompt"; operationId?: string; prompt: AgentMessage | AgentMessage[]; images?: never }
	| { kind: "skill"; operationId?: string; name: string; additionalInstructions?: string }
	| { kind: "prompt_template"; operationId?: string; name: string; args?: string[] };
export interface OperationAdmission {
	operationId: string;
	kind: "run" | "compaction" | "navigation";
	startedAt: number;
}
export type OperationAdmissionResult = Result<
	OperationAdmission,
	LaneBusy | InvalidMessage | UnknownSkill | UnknownTemplate | Closed
>;
export interface DriveOptions {
	operationId: string;
	waitForRetry?: boolean;
	pollDeferred?: boolean;
}
export interface ModelIdentity {
	provider: string;
	modelId: string;
}

import type { LaneQueuedItem, OperationStatus } from "./reducer.ts";
export type { LaneQueuedItem, OperationStatus };
export interface CurrentOperationInfo {
	id: string;
	kind: "run" | "compaction" | "navigation";
	startedAt: number;
	status: OperationStatus;
	capturedModel?: ModelIdentity;
}
export interface LaneExecutionInfo {
	lane: string;
	tipId: string | null;
	configuredModel: ModelIdentity;
	current: CurrentOperationInfo | null;
	lastOperationId: string | null;
}
export type DriveOutcome =
	| { kind: "settled"; outcome: OperationResultRecord }
	| { kind: "waiting"; operationId: string; reason: "retry"; notBefore: number };
export type DriveResult = Result<DriveOutcome, OperationMismatch | Closed>;
export type AbortRequestResult = Result<
	{ operationId: string; newlyRequested: boolean; steer: AgentMessage[]; followUp: AgentMessage[] },
	OperationMismatch | Closed
>;
export interface LaneInfo {
	name: string;
	tipId: string | null;
	operation: CurrentOperationInfo | null;
}
export interface OpenOperation {
	lane: string;
	operationId: string;
	kind: "run" | "compaction" | "navigation";
	startedAt: number;
	aborting?: true;
}
export type { LaneConfiguration, SessionStats };

type RunEnd = { type: "run_end"; runId: string; fromTipId: string | null; tipId: string | null; endedAt: number } & (
	| { status: "completed" | "aborted"; error?: never }
	| { status: "failed"; error: OperationError }
);
type ConfigUpdate = { type: "config_update" } & (
	| { property: "model"; value: ModelIdentity; previous: unknown }
	| { property: "thinkingLevel"; value: ThinkingLevel; previous: ThinkingLevel }
	| { property: "activeTools"; value: string[]; previous: string[] }
	| { property: "tools" | "resources" }
	| { property: "streamOptions"; value: AgentHarnessStreamOptions; previous: AgentHarnessStreamOptions }
	| { property: "retryPolicy"; value: RetryPolicy; previous: RetryPolicy }
	| { property: "compactionSettings"; value: CompactionSettings; previous: CompactionSettings }
	| { property: "steeringMode" | "followUpMode"; value: QueueMode; previous: QueueMode }
);
type HandlerError = { type: "handler_error"; error: string; stack?: string } & (
	| { kind: "hook"; hook: string }
	| { kind: "event"; event: string }
);
/** Every event the harness emits; lane events carry `lane`. */
export type HarnessEvent = (
	| { type: "run_start"; runId: string; startedAt: number }
	| { type: "operation_abort"; operationId: string; steer: AgentMessage[]; followUp: AgentMessage[] }
	| RunEnd
	| { type: "turn_start"; runId: string; turnId: string }
	| { type: "turn_end"; runId: string; turnId: string; message: AssistantMessage; toolResults: ToolResultMessage[] }
	| {
			type: "retry_scheduled";
			runId: string;
			step: string;
			attempt: number;
			maxAttempts: number;
			delayMs: number;
			notBefore: number;
			errorMessage: string;
	  }
	| { type: "retry_start"; runId: string; step: string; attempt: number }
	| { type: "retry_end"; runId: string; step: string; attempt: number; success: boolean; finalError?: string }
	| { type: "message_start"; runId?: string; message: AgentMessage }
	| {
			type: "message_update";
			runId: string;
			message: AgentMessage;
			event: AssistantMessageEvent;
			frame?: AssistantMessageFrame;
	  }
	| { type: "message_end"; runId?: string; message: AgentMessage; entryId?: string }
	| { type: "tool_start"; runId: string; turnId: string; toolCallId: string; toolName: string; args: unknown }
	| {
			type: "tool_update";
			runId: string;
			turnId: string;
			toolCallId: string;
			toolName: string;
			partialResult: AgentToolResult<unknown>;
	  }
	| {
			type: "tool_end";
			runId: string;
			turnId: string;
			toolCallId: string;
			toolName: string;
			result: AgentToolResult<unknown>;
			isError: boolean;
			terminate: boolean;
	  }
	| { type: "entry_added"; entry: Entry }
	| { type: "queue_update"; queues: LaneQueuedItem[] }
	| { type: "lane_created"; at: string | null }
	| { type: "usage"; row: UsageRow; totals: Usage }
	| { type: "fault"; code: string; message: string }
	| ({ type: "value_update" } & (
			| { value: "session_name"; name: string | undefined }
			| { value: "entry_label"; targetId: string; label: string | undefined }
	  ))
	| ConfigUpdate
	| HandlerError
) & { lane?: string; recovery?: true };
export type HarnessEventType = HarnessEvent["type"];
export type EventListener<TEvent extends HarnessEvent = HarnessEvent> = (
	event: TEvent,
	context: Context,
) => void | Promise<void>;
export interface Events {
	on<TType extends HarnessEventType>(
		type: TType,
		listener: EventListener<Extract<HarnessEvent, { type: TType }>>,
	): () => void;
}

export interface HookMap {
	before_run: {
		event: { prompt: AgentMessage[]; resources: Resources };
		result: { messages?: AgentMessage[] } | undefined;
	};
	before_drive: { event: { operation: "run" | "compaction" | "navigation" }; result: undefined };
	before_run_end: { event: { runId: string; messages: AgentMessage[] }; result: { followUp?: string } | undefined };
	transform_context: {
		event: { messages: AgentMessage[]; systemPrompt: string };
		result: { messages?: AgentMessage[]; systemPrompt?: string } | undefined;
	};
	before_request: {
		event: { model: Model; step: "assistant"; attempt: number; streamOptions: AgentHarnessStreamOptions };
		result: { streamOptions?: AgentHarnessStreamOptionsPatch } | undefined;
	};
	before_payload: { event: { model: Model; payload: unknown }; result: { payload: unknown } | undefined };
	after_response: {
		event: { status?: number; headers?: Record<string, string>; message: SettledAssistantMessage };
		result: { message?: SettledAssistantMessage } | undefined;
	};
	before_tool: {
		event: { toolCallId: string; toolName: string; args: Record<string, JsonValue> };
		result: { args?: Record<string, JsonValue>; block?: { reason: string; terminate?: boolean } } | undefined;
	};
	after_tool: {
		event: {
			toolCallId: string;
			toolName: string;
			args: Record<string, JsonValue>;
			content: AgentToolResult<unknown>["content"];
			details?: JsonValue;
			isError: boolean;
			usage?: Usage;
		};
		result:
			| {
					content?: AgentToolResult<unknown>["content"];
					details?: JsonValue;
					isError?: boolean;
					usage?: Usage;
					terminate?: boolean;
			  }
			| undefined;
	};
}
export type HookName = keyof HookMap;
export type HookInvocation<TName extends HookName> = HookMap[TName]["event"] & { lane: string; runId: string };
export type HookHandler<TName extends HookName> = (
	event: HookInvocation<TName>,
	context: Context,
) => Promise<HookMap[TName]["result"]> | HookMap[TName]["result"];
export interface Hooks {
	on<TName extends HookName>(name: TName, handler: HookHandler<TName>, options?: { id?: string }): () => void;
}

export interface AgentHarnessOptions<TContext = unknown> {
	session: Session;
	models: Pick<Models, "getModel" | "streamSimple">;
	model: Model;
	thinkingLevel?: ThinkingLevel;
	activeToolNames?: string[];
	tools?: HarnessTool<TContext>[];
	toolContext?: TContext | ((context: Context) => TContext | Promise<TContext>);
	systemPrompt?: string | ((toolContext: TContext, context: Context) => string | Promise<string>);
	resources?: Resources;
	streamOptions?: AgentHarnessStreamOptions;
	retry?: RetryPolicy;
	compaction?: CompactionSettings;
	steeringMode?: QueueMode;
	followUpMode?: QueueMode;
	toolExecution?: "sequential" | "parallel";
	toProviderMessages?: (messages: AgentMessage[], context: Context) => Message[] | Promise<Message[]>;
	entryProjectors?: Record<string, EntryProjector>;
}

/** The harness-wide configuration every lane reads when it starts a step. */
export interface HarnessConfig<TContext = unknown> {
	tools: HarnessTool<TContext>[];
	resources: Resources;
	streamOptions: AgentHarnessStreamOptions;
	retryPolicy: RetryPolicy;
	compaction: CompactionSettings;
	steeringMode: QueueMode;
	followUpMode: QueueMode;
	toolExecution: "sequential" | "parallel";
	toolContext: AgentHarnessOptions<TContext>["toolContext"];
	systemPrompt: AgentHarnessOptions<TContext>["systemPrompt"];
	toProviderMessages: (messages: AgentMessage[], context: Context) => Message[] | Promise<Message[]>;
	entryProjectors: Record<string, EntryProjector>;
}
