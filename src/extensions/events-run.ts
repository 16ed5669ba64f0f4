/**
 * Extension events around a request and an agent run: context, provider request and response, agent and turn
 * boundaries, messages.
 */
import type { AgentMessage } from "../agent/index.ts";
import type {
	AssistantMessageEvent,
	ImageContent,
	TextContent,
	ToolResultMessage,
	TranscriptMessage,
	Usage,
} from "../ai/index.ts";
import type { CacheWarmingAction, CustomMessageInput, NormalizedSystemPromptOptions, SessionEntry } from "./types.ts";

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
	llmMessages: TranscriptMessage[];
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
