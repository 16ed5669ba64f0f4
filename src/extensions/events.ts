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
 *
 * The payload and result types live in events-session.ts, events-run.ts and events-tools.ts.
 */

import type { AgentMessage } from "../agent/index.ts";
import type { ExtensionContext, ProjectTrustContext } from "./context.ts";
import type {
	AfterProviderResponseEvent,
	AgentBeforeSettleEvent,
	AgentEndEvent,
	AgentSettledEvent,
	AgentStartEvent,
	BeforeAgentStartEvent,
	BeforeAgentStartEventResult,
	BeforeAgentStartOutcome,
	BeforeProviderHeadersEvent,
	BeforeProviderRequestEvent,
	BoundaryOutcome,
	BoundaryPayload,
	BoundaryResult,
	CacheWarmingDecisionEvent,
	CacheWarmingDecisionEventResult,
	ContextEvent,
	ContextEventResult,
	ContextWithSystemEvent,
	MessageEndEvent,
	MessageEndEventResult,
	MessageStartEvent,
	MessageUpdateEvent,
	TurnEndEvent,
	TurnStartEvent,
	UIPromptEndEvent,
	UIPromptStartEvent,
} from "./events-run.ts";
import type {
	DiscoveredResources,
	ProjectTrustEvent,
	ProjectTrustEventResult,
	ResourcesDiscoverEvent,
	ResourcesDiscoverResult,
	SessionBeforeCompactEvent,
	SessionBeforeCompactResult,
	SessionBeforeForkEvent,
	SessionBeforeForkResult,
	SessionBeforeSwitchEvent,
	SessionBeforeSwitchResult,
	SessionBeforeTreeEvent,
	SessionBeforeTreeResult,
	SessionCompactEvent,
	SessionCompactFailedEvent,
	SessionForkEvent,
	SessionInfoChangedEvent,
	SessionShutdownEvent,
	SessionStartEvent,
	SessionSwitchEvent,
	SessionTreeEvent,
} from "./events-session.ts";
import type {
	InputEvent,
	InputEventResult,
	ModelSelectEvent,
	ThinkingLevelSelectEvent,
	ToolCallEvent,
	ToolCallEventResult,
	ToolExecutionEndEvent,
	ToolExecutionStartEvent,
	ToolExecutionUpdateEvent,
	ToolResultEvent,
	ToolResultEventResult,
	UserBashEvent,
	UserBashEventResult,
	UserBashOutcome,
} from "./events-tools.ts";
import type { CacheWarmingAction } from "./types.ts";

export type * from "./events-run.ts";
export type * from "./events-session.ts";
export type * from "./events-tools.ts";

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
			/** How to put the system messages back around a changed conversation (default: one replayed head). */
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
