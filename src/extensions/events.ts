/**
 * The extension event table: every event `pi.on()` accepts, what a handler receives, what it may return, and how
 * the runner combines the handlers' answers (the KIND). Names, payload fields and result fields follow pi 0.87.1;
 * `session_switch` and `session_fork` (dropped by pi 0.65) stay for extensions written against 0.58–0.64.
 *
 * Kinds:
 * - notify       the return value is ignored.
 * - cancellable  the last object returned wins; `{ cancel: true }` ends the dispatch at once.
 * - blocking     `{ block: true }` ends the dispatch; a handler that throws blocks the call (fails closed).
 * - chained      each handler sees what the previous ones produced (per-event rule in reducers.ts).
 * - first-wins   the first handler that answers decides; the rest do not run.
 * - aggregate    answers of every handler are collected.
 *
 * `failClosed`: a throwing (or abandoned) handler turns into a refusal (block / error result) instead of being
 * reported and skipped.
 */

import type { AgentMessage, ThinkingLevel } from "../agent/index.ts";
import type {
	AssistantMessageEvent,
	ImageContent,
	Message,
	Model,
	TextContent,
	ToolResultMessage,
	Usage,
} from "../ai/index.ts";
import type { ExtensionContext, ProjectTrustContext } from "./context.ts";
import type {
	BashOperations,
	BashResult,
	BranchSummaryEntry,
	CacheWarmingAction,
	CompactionEntry,
	CompactionPreparation,
	CompactionResult,
	CustomMessageInput,
	NormalizedSystemPromptOptions,
	SessionEntry,
} from "./types.ts";

// ---- resources, trust, session ------------------------------------------------------------------------------

export interface ProjectTrustEvent {
	type: "project_trust";
	cwd: string;
}
export interface ProjectTrustEventResult {
	trusted: "yes" | "no" | "undecided";
	remember?: boolean;
}
export interface ResourcesDiscoverEvent {
	type: "resources_discover";
	cwd: string;
	reason: "startup" | "reload";
}
export interface ResourcesDiscoverResult {
	skillPaths?: string[];
	promptPaths?: string[];
	themePaths?: string[];
}
export interface TaggedPath {
	path: string;
	/** The extension whose handler returned the path. */
	extensionPath: string;
}
export interface DiscoveredResources {
	skillPaths: TaggedPath[];
	promptPaths: TaggedPath[];
	themePaths: TaggedPath[];
}
export interface SessionStartEvent {
	type: "session_start";
	/** Added in pi 0.65 (0.58-era handlers ignore it). */
	reason: "startup" | "reload" | "new" | "resume" | "fork";
	previousSessionFile?: string;
}
export interface SessionInfoChangedEvent {
	type: "session_info_changed";
	name: string | undefined;
}
export interface SessionBeforeSwitchEvent {
	type: "session_before_switch";
	reason: "new" | "resume";
	targetSessionFile?: string;
}
/** Legacy (≤ 0.64): after a switch; newer pi sends `session_start` with reason new/resume instead. */
export interface SessionSwitchEvent {
	type: "session_switch";
	reason: "new" | "resume";
	previousSessionFile: string | undefined;
}
export interface SessionBeforeForkEvent {
	type: "session_before_fork";
	entryId: string;
	position: "before" | "at";
}
/** Legacy (≤ 0.64): after a fork; newer pi sends `session_start` with reason fork instead. */
export interface SessionForkEvent {
	type: "session_fork";
	previousSessionFile: string | undefined;
}
export type CompactionReason = "manual" | "threshold" | "overflow";
export interface SessionBeforeCompactEvent {
	type: "session_before_compact";
	preparation: CompactionPreparation;
	branchEntries: SessionEntry[];
	customInstructions?: string;
	reason: CompactionReason;
	willRetry: boolean;
	signal: AbortSignal;
}
export interface SessionCompactEvent {
	type: "session_compact";
	compactionEntry: CompactionEntry;
	fromExtension: boolean;
	reason: CompactionReason;
	willRetry: boolean;
}
export interface SessionCompactFailedEvent {
	type: "session_compact_failed";
	reason: CompactionReason;
	errorMessage?: string;
	aborted: boolean;
	willRetry: boolean;
	fromExtension: boolean;
}
export interface SessionShutdownEvent {
	type: "session_shutdown";
	reason: "quit" | "reload" | "new" | "resume" | "fork";
	targetSessionFile?: string;
}
export interface TreePreparation {
	targetId: string;
	oldLeafId: string | null;
	commonAncestorId: string | null;
	entriesToSummarize: SessionEntry[];
	userWantsSummary: boolean;
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}
export interface SessionBeforeTreeEvent {
	type: "session_before_tree";
	preparation: TreePreparation;
	signal: AbortSignal;
}
export interface SessionTreeEvent {
	type: "session_tree";
	newLeafId: string | null;
	oldLeafId: string | null;
	summaryEntry?: BranchSummaryEntry;
	fromExtension?: boolean;
}
export interface SessionBeforeSwitchResult {
	cancel?: boolean;
}
export interface SessionBeforeForkResult {
	cancel?: boolean;
	skipConversationRestore?: boolean;
}
export interface SessionBeforeCompactResult {
	cancel?: boolean;
	compaction?: CompactionResult;
}
export interface SessionBeforeTreeResult {
	cancel?: boolean;
	summary?: { summary: string; details?: unknown; usage?: Usage };
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}

// ---- request, agent run, messages ---------------------------------------------------------------------------

export interface ContextEvent {
	type: "context";
	/** The conversation without system messages; a deep copy, so handlers may edit it freely. */
	messages: AgentMessage[];
}
export interface ContextWithSystemEvent {
	type: "context_with_system";
	/** The whole transcript, system messages included; the handler owns prompt and tool declarations. */
	messages: AgentMessage[];
}
export interface ContextEventResult {
	messages?: AgentMessage[];
}
export interface CacheWarmingDecisionEvent {
	type: "cache_warming_decision";
	warmCost: number;
	missCost: number;
	continuationProbability: number;
	action: CacheWarmingAction;
}
export interface CacheWarmingDecisionEventResult {
	action?: CacheWarmingAction;
}
export interface BeforeProviderRequestEvent {
	type: "before_provider_request";
	payload: unknown;
}
export interface BeforeProviderHeadersEvent {
	type: "before_provider_headers";
	/** Edit in place; `null` deletes a header. */
	headers: Record<string, string | null>;
}
export interface AfterProviderResponseEvent {
	type: "after_provider_response";
	status: number;
	headers: Record<string, string>;
}
export interface BeforeAgentStartEvent {
	type: "before_agent_start";
	prompt: string;
	images?: ImageContent[];
	/** The prompt as it stands after earlier handlers (their `systemPrompt` override, else the rendered options). */
	readonly systemPrompt: string;
	/** Prompt sections; edits made by one handler are seen by the next. */
	systemPromptOptions: NormalizedSystemPromptOptions;
}
export interface BeforeAgentStartEventResult {
	message?: CustomMessageInput;
	/** Replaces the whole system prompt for this run only. */
	systemPrompt?: string;
}
export interface BeforeAgentStartOutcome {
	/** One per handler that returned a `message`, in handler order. */
	messages: CustomMessageInput[];
	/** The last override returned, if any. */
	systemPrompt: string | undefined;
	systemPromptOptions: NormalizedSystemPromptOptions;
}
export interface AgentStartEvent {
	type: "agent_start";
}
export interface AgentEndEvent {
	type: "agent_end";
	messages: AgentMessage[];
}
export type AgentActivityOutcome = "completed" | "aborted" | "error";
export type SessionBoundaryDraft =
	| { type: "custom"; customType: string; data?: unknown }
	| {
			type: "custom_message";
			customType: string;
			content: string | (TextContent | ImageContent)[];
			display: boolean;
			details?: unknown;
	  }
	| { type: "context_edit"; targetId: string; replacement: unknown }
	| { type: "compaction"; summary: string; firstKeptEntryId: string | null; details?: unknown; usage?: Usage };
export interface BoundaryContextPreview {
	contextEntries: SessionEntry[];
	contextMessages: AgentMessage[];
	llmMessages: Message[];
	pendingMessages: AgentMessage[];
	canContinue: boolean;
}
export interface BoundaryState {
	entries: SessionBoundaryDraft[];
	continue: boolean;
	context: BoundaryContextPreview;
	outcome: AgentActivityOutcome;
}
export interface BoundaryResult {
	entries?: SessionBoundaryDraft[];
	continue?: boolean;
}
/** What the runtime passes for a boundary event: the fixed fields plus a way to preview proposed entries. */
export type BoundaryPayload<E> = Omit<E, "type" | "entries" | "continue" | "context"> & {
	/** Builds the preview for the proposed entries; a throw marks them invalid (reported, then discarded). */
	buildContext(entries: SessionBoundaryDraft[]): BoundaryContextPreview | Promise<BoundaryContextPreview>;
};
export interface BoundaryOutcome {
	entries: SessionBoundaryDraft[];
	continue: boolean;
	context: BoundaryContextPreview;
	/** False when the last proposal could not be previewed; entries are then empty and continue false. */
	valid: boolean;
}
export interface AgentBeforeSettleEvent extends BoundaryState {
	type: "agent_before_settle";
}
export interface AgentSettledEvent {
	type: "agent_settled";
}
export type UIPromptKind = "select" | "confirm" | "input" | "editor" | "custom";
export interface UIPromptStartEvent {
	type: "ui_prompt_start";
	reason: "ui_prompt";
	kind: UIPromptKind;
	title?: string;
}
export interface UIPromptEndEvent {
	type: "ui_prompt_end";
	reason: "ui_prompt";
	kind: UIPromptKind;
	title?: string;
}
export interface TurnStartEvent {
	type: "turn_start";
	turnIndex: number;
	timestamp: number;
}
export interface TurnEndEvent extends BoundaryState {
	type: "turn_end";
	turnIndex: number;
	message: AgentMessage;
	toolResults: ToolResultMessage[];
	messageEntryId: string;
	toolResultEntryIds: string[];
}
export interface MessageStartEvent {
	type: "message_start";
	message: AgentMessage;
}
export interface MessageUpdateEvent {
	type: "message_update";
	message: AgentMessage;
	assistantMessageEvent: AssistantMessageEvent;
}
export interface MessageEndEvent {
	type: "message_end";
	message: AgentMessage;
}
export interface MessageEndEventResult {
	/** Replacement for the finished message; it must keep the original `role`. */
	message?: AgentMessage;
}

// ---- tools, model, input ------------------------------------------------------------------------------------

export interface ToolExecutionStartEvent {
	type: "tool_execution_start";
	toolCallId: string;
	toolName: string;
	args: any;
}
export interface ToolExecutionUpdateEvent {
	type: "tool_execution_update";
	toolCallId: string;
	toolName: string;
	args: any;
	partialResult: any;
}
export interface ToolExecutionEndEvent {
	type: "tool_execution_end";
	toolCallId: string;
	toolName: string;
	result: any;
	isError: boolean;
}
export interface ModelSelectEvent {
	type: "model_select";
	model: Model;
	previousModel: Model | undefined;
	source: "set" | "cycle" | "restore";
}
export interface ThinkingLevelSelectEvent {
	type: "thinking_level_select";
	level: ThinkingLevel;
	previousLevel: ThinkingLevel;
}
export interface BuiltinToolInputs {
	bash: { command: string; timeout?: number };
	powershell: { command: string; timeout?: number };
	read: { path: string; offset?: number; limit?: number };
	edit: { path: string; edits: Array<{ oldText: string; newText: string }> };
	write: { path: string; content: string };
	grep: {
		pattern: string;
		path?: string;
		glob?: string;
		ignoreCase?: boolean;
		literal?: boolean;
		context?: number;
		limit?: number;
	};
	find: { pattern: string; path?: string; limit?: number };
	ls: { path?: string; limit?: number };
}
/** `input` is the live argument object: edit it in place to patch the call (no re-validation follows). */
export type ToolCallEvent =
	| {
			[N in keyof BuiltinToolInputs]: {
				type: "tool_call";
				toolCallId: string;
				toolName: N;
				input: BuiltinToolInputs[N];
			};
	  }[keyof BuiltinToolInputs]
	| { type: "tool_call"; toolCallId: string; toolName: string; input: Record<string, unknown> };
export interface ToolCallEventResult {
	block?: boolean;
	reason?: string;
	/** With `block`: stop after this tool batch if every result in it agrees. */
	terminate?: boolean;
}
export interface ToolResultEvent {
	type: "tool_result";
	toolCallId: string;
	toolName: string;
	input: Record<string, unknown>;
	content: (TextContent | ImageContent)[];
	details: unknown;
	isError: boolean;
	usage?: Usage;
}
export interface ToolResultEventResult {
	content?: (TextContent | ImageContent)[];
	details?: unknown;
	isError?: boolean;
	usage?: Usage;
}
export interface UserBashEvent {
	type: "user_bash";
	command: string;
	/** True for `!!` (output kept out of the model's context). */
	excludeFromContext: boolean;
	cwd: string;
}
export type UserBashEventResult =
	| { operations: BashOperations; result?: never }
	| { operations?: never; result: BashResult };
/** `{}`: run locally. `result`: a handler took over. `error`: a handler failed, so the command must not run. */
export interface UserBashOutcome {
	result?: UserBashEventResult;
	error?: string;
	extensionPath?: string;
}
export interface InputEvent {
	type: "input";
	text: string;
	images?: ImageContent[];
	source: "interactive" | "rpc" | "extension";
	streamingBehavior?: "steer" | "followUp";
}
export type InputEventResult =
	| { action: "continue" }
	| { action: "transform"; text: string; images?: ImageContent[] }
	| { action: "handled" };

// ---- the table ----------------------------------------------------------------------------------------------

/**
 * Per event: `event` (what handlers receive), `result` (what they may return), `outcome` (what `emit` resolves
 * to), optionally `payload` (what the runtime passes when it differs from the event minus `type`) and `ctx`.
 */
export interface ExtensionEventMap {
	project_trust: {
		event: ProjectTrustEvent;
		result: ProjectTrustEventResult;
		outcome: ProjectTrustEventResult | undefined;
		ctx: ProjectTrustContext;
	};
	resources_discover: { event: ResourcesDiscoverEvent; result: ResourcesDiscoverResult; outcome: DiscoveredResources };
	session_start: Notify<SessionStartEvent>;
	session_info_changed: Notify<SessionInfoChangedEvent>;
	session_before_switch: Cancel<SessionBeforeSwitchEvent, SessionBeforeSwitchResult>;
	session_switch: Notify<SessionSwitchEvent>;
	session_before_fork: Cancel<SessionBeforeForkEvent, SessionBeforeForkResult>;
	session_fork: Notify<SessionForkEvent>;
	session_before_compact: Cancel<SessionBeforeCompactEvent, SessionBeforeCompactResult>;
	session_compact: Notify<SessionCompactEvent>;
	session_compact_failed: Notify<SessionCompactFailedEvent>;
	session_shutdown: Notify<SessionShutdownEvent>;
	session_before_tree: Cancel<SessionBeforeTreeEvent, SessionBeforeTreeResult>;
	session_tree: Notify<SessionTreeEvent>;
	context: {
		event: ContextEvent;
		result: ContextEventResult;
		outcome: AgentMessage[];
		payload: {
			messages: AgentMessage[];
			/** How to put the system messages back around a changed conversation (default: all of them first). */
			restoreSystemMessages?: (current: AgentMessage[], conversation: AgentMessage[]) => AgentMessage[];
		};
	};
	context_with_system: { event: ContextWithSystemEvent; result: ContextEventResult; outcome: AgentMessage[] };
	cache_warming_decision: {
		event: CacheWarmingDecisionEvent;
		result: CacheWarmingDecisionEventResult;
		outcome: CacheWarmingAction;
	};
	before_provider_request: { event: BeforeProviderRequestEvent; result: unknown; outcome: unknown };
	before_provider_headers: Notify<BeforeProviderHeadersEvent>;
	after_provider_response: Notify<AfterProviderResponseEvent>;
	before_agent_start: {
		event: BeforeAgentStartEvent;
		result: BeforeAgentStartEventResult;
		outcome: BeforeAgentStartOutcome;
	};
	agent_start: Notify<AgentStartEvent>;
	agent_end: Notify<AgentEndEvent>;
	agent_before_settle: Boundary<AgentBeforeSettleEvent>;
	agent_settled: Notify<AgentSettledEvent>;
	ui_prompt_start: Notify<UIPromptStartEvent>;
	ui_prompt_end: Notify<UIPromptEndEvent>;
	turn_start: Notify<TurnStartEvent>;
	turn_end: Boundary<TurnEndEvent>;
	message_start: Notify<MessageStartEvent>;
	message_update: Notify<MessageUpdateEvent>;
	message_end: { event: MessageEndEvent; result: MessageEndEventResult; outcome: AgentMessage | undefined };
	tool_execution_start: Notify<ToolExecutionStartEvent>;
	tool_execution_update: Notify<ToolExecutionUpdateEvent>;
	tool_execution_end: Notify<ToolExecutionEndEvent>;
	model_select: Notify<ModelSelectEvent>;
	thinking_level_select: Notify<ThinkingLevelSelectEvent>;
	tool_call: { event: ToolCallEvent; result: ToolCallEventResult; outcome: ToolCallEventResult | undefined };
	tool_result: {
		event: ToolResultEvent;
		result: ToolResultEventResult;
		outcome: ToolResultEventResult | undefined;
	};
	user_bash: { event: UserBashEvent; result: UserBashEventResult; outcome: UserBashOutcome };
	input: { event: InputEvent; result: InputEventResult; outcome: InputEventResult };
}
/** Notify events: nothing a handler returns is read, and `emit` resolves to undefined. */
type Notify<E> = { event: E; result: never; outcome: undefined };
type Cancel<E, R> = { event: E; result: R; outcome: R | undefined };
type Boundary<E> = { event: E; result: BoundaryResult; outcome: BoundaryOutcome; payload: BoundaryPayload<E> };

export type ExtensionEventName = keyof ExtensionEventMap;
export type EventOf<K extends ExtensionEventName> = ExtensionEventMap[K]["event"];
export type HandlerResultOf<K extends ExtensionEventName> = ExtensionEventMap[K]["result"];
export type EmitOutcome<K extends ExtensionEventName> = ExtensionEventMap[K]["outcome"];
type WithoutType<E> = E extends unknown ? Omit<E, "type"> : never;
export type EventPayload<K extends ExtensionEventName> = ExtensionEventMap[K] extends { payload: infer P }
	? P
	: WithoutType<EventOf<K>>;
export type HandlerContextOf<K extends ExtensionEventName> = ExtensionEventMap[K] extends { ctx: infer C }
	? C
	: ExtensionContext;
/** What a handler may return; `void` lets handlers without a return statement (sync or async) type-check. */
// biome-ignore lint/suspicious/noConfusingVoidType: see above
type HandlerReturn<R> = R | undefined | void;
/** A handler as extensions write it: may be sync or async and may return nothing. */
export type EventHandler<K extends ExtensionEventName> = (
	event: EventOf<K>,
	ctx: HandlerContextOf<K>,
) => HandlerReturn<HandlerResultOf<K>> | Promise<HandlerReturn<HandlerResultOf<K>>>;

export type EventKind = "notify" | "cancellable" | "blocking" | "chained" | "first-wins" | "aggregate";
export interface EventSpec {
	kind: EventKind;
	/** A throwing handler refuses (block / error result) instead of being reported and skipped. */
	failClosed: boolean;
	/** Not emitted by pi ≥ 0.65; kept so older extensions' handlers still run when the runtime emits it. */
	legacy?: true;
}

const notify: EventSpec = { kind: "notify", failClosed: false };
const cancellable: EventSpec = { kind: "cancellable", failClosed: false };
const chained: EventSpec = { kind: "chained", failClosed: false };

export const EVENT_TABLE: { readonly [K in ExtensionEventName]: EventSpec } = {
	project_trust: { kind: "first-wins", failClosed: false },
	resources_discover: { kind: "aggregate", failClosed: false },
	session_start: notify,
	session_info_changed: notify,
	session_before_switch: cancellable,
	session_switch: { ...notify, legacy: true },
	session_before_fork: cancellable,
	session_fork: { ...notify, legacy: true },
	session_before_compact: cancellable,
	session_compact: notify,
	session_compact_failed: notify,
	session_shutdown: notify,
	session_before_tree: cancellable,
	session_tree: notify,
	context: chained,
	context_with_system: chained,
	cache_warming_decision: chained,
	before_provider_request: chained,
	before_provider_headers: notify,
	after_provider_response: notify,
	before_agent_start: chained,
	agent_start: notify,
	agent_end: notify,
	agent_before_settle: chained,
	agent_settled: notify,
	ui_prompt_start: notify,
	ui_prompt_end: notify,
	turn_start: notify,
	turn_end: chained,
	message_start: notify,
	message_update: notify,
	message_end: chained,
	tool_execution_start: notify,
	tool_execution_update: notify,
	tool_execution_end: notify,
	model_select: notify,
	thinking_level_select: notify,
	tool_call: { kind: "blocking", failClosed: true },
	tool_result: chained,
	user_bash: { kind: "first-wins", failClosed: true },
	input: chained,
};

export const EVENT_NAMES = Object.keys(EVENT_TABLE) as ExtensionEventName[];

export function isExtensionEventName(name: string): name is ExtensionEventName {
	return Object.hasOwn(EVENT_TABLE, name);
}
