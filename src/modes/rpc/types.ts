/**
 * The RPC protocol (`pi --mode rpc`, pi 0.87.1): what travels over the child's stdin and stdout.
 *
 * Contract:
 * - stdin carries one `RpcCommand` (or an `RpcExtensionUIResponse`) per LF-terminated JSON line.
 * - stdout carries `RpcResponse` records (one per command, in completion order, not input order), session events
 *   (`JsonAgentSessionEvent`, see types-events.ts) and `RpcExtensionUIRequest` records.
 * - A command's optional `id` is echoed on its response unchanged; responses never carry an id the command did not
 *   send, and events carry none (except `bash_execution_update`, which repeats its `bash` command's id).
 * - `data` is present only for the commands listed with it below; a failure has `error` and never `data`.
 *
 * These names and shapes match pi's exported `rpc-types` so clients written against pi type-check unchanged.
 */
import type { AgentMessage, ThinkingLevel } from "../../agent/index.ts";
import type { ImageContent, Model } from "../../ai/index.ts";
import type { BashResult, CompactionResult, ContextUsage, SourceInfo } from "../../extensions/index.ts";
import type { SessionEntry, SessionTreeNode } from "../../session/index.ts";

export type { JsonAgentSessionEvent, JsonAssistantMessageEvent, RpcExtensionErrorEvent } from "./types-events.ts";

/** How queued steering / follow-up messages are released: all at once, or one per turn. */
export type RpcQueueMode = "all" | "one-at-a-time";

/** What `prompt` does while a run is active; without it a prompt during streaming is rejected. */
export type RpcStreamingBehavior = "steer" | "followUp";

// ---- commands (stdin) ---------------------------------------------------------------------------------------

/**
 * One command on stdin, discriminated on `type`. Every command takes an optional `id` for correlation. Unknown
 * extra fields are ignored by the server.
 */
export type RpcCommand =
	// prompting
	| { id?: string; type: "prompt"; message: string; images?: ImageContent[]; streamingBehavior?: RpcStreamingBehavior }
	| { id?: string; type: "steer"; message: string; images?: ImageContent[] }
	| { id?: string; type: "follow_up"; message: string; images?: ImageContent[] }
	| { id?: string; type: "abort" }
	| { id?: string; type: "clear_queue" }
	| { id?: string; type: "new_session"; parentSession?: string }
	// state
	| { id?: string; type: "get_state" }
	// model
	| { id?: string; type: "set_model"; provider: string; modelId: string }
	| { id?: string; type: "cycle_model" }
	| { id?: string; type: "get_available_models" }
	// thinking
	| { id?: string; type: "set_thinking_level"; level: ThinkingLevel }
	| { id?: string; type: "cycle_thinking_level" }
	| { id?: string; type: "get_available_thinking_levels" }
	// queue modes
	| { id?: string; type: "set_steering_mode"; mode: RpcQueueMode }
	| { id?: string; type: "set_follow_up_mode"; mode: RpcQueueMode }
	// compaction
	| { id?: string; type: "compact"; customInstructions?: string }
	| { id?: string; type: "set_auto_compaction"; enabled: boolean }
	// retry
	| { id?: string; type: "set_auto_retry"; enabled: boolean }
	| { id?: string; type: "abort_retry" }
	// bash
	| { id?: string; type: "bash"; command: string; excludeFromContext?: boolean }
	| { id?: string; type: "abort_bash" }
	// session
	| { id?: string; type: "get_session_stats" }
	| { id?: string; type: "export_html"; outputPath?: string }
	| { id?: string; type: "switch_session"; sessionPath: string }
	| { id?: string; type: "fork"; entryId: string }
	| { id?: string; type: "clone" }
	| { id?: string; type: "get_fork_messages" }
	| { id?: string; type: "get_entries"; since?: string }
	| { id?: string; type: "get_tree" }
	| { id?: string; type: "get_last_assistant_text" }
	| { id?: string; type: "set_session_name"; name: string }
	| { id?: string; type: "get_messages" }
	// discovery
	| { id?: string; type: "get_commands" };

export type RpcCommandType = RpcCommand["type"];

/** The command of one `type`. */
export type RpcCommandOf<T extends RpcCommandType> = Extract<RpcCommand, { type: T }>;

/** Every command type of pi 0.87.1, in documentation order. */
export const RPC_COMMAND_TYPES = [
	"prompt",
	"steer",
	"follow_up",
	"abort",
	"clear_queue",
	"new_session",
	"get_state",
	"set_model",
	"cycle_model",
	"get_available_models",
	"set_thinking_level",
	"cycle_thinking_level",
	"get_available_thinking_levels",
	"set_steering_mode",
	"set_follow_up_mode",
	"compact",
	"set_auto_compaction",
	"set_auto_retry",
	"abort_retry",
	"bash",
	"abort_bash",
	"get_session_stats",
	"export_html",
	"switch_session",
	"fork",
	"clone",
	"get_fork_messages",
	"get_entries",
	"get_tree",
	"get_last_assistant_text",
	"set_session_name",
	"get_messages",
	"get_commands",
] as const satisfies readonly RpcCommandType[];

// ---- data carried by responses ------------------------------------------------------------------------------

/** A command a client can run through `prompt` as `/name` (extension command, prompt template or skill). */
export interface RpcSlashCommand {
	/** Invocation name without the leading slash (skills are `skill:<name>`). */
	name: string;
	description?: string;
	source: "extension" | "prompt" | "skill";
	/** Where the owning resource came from. */
	sourceInfo: SourceInfo;
}

/** `get_state` data. Optional keys are omitted (not null) when unset. */
export interface RpcSessionState {
	/** The selected model; absent when none is selected. */
	model?: Model<any>;
	thinkingLevel: ThinkingLevel;
	isStreaming: boolean;
	isCompacting: boolean;
	steeringMode: RpcQueueMode;
	followUpMode: RpcQueueMode;
	/** Absent for an in-memory session (`--no-session`). */
	sessionFile?: string;
	sessionId: string;
	/** Display name from `set_session_name` / `--name`; absent when unset. */
	sessionName?: string;
	autoCompactionEnabled: boolean;
	messageCount: number;
	pendingMessageCount: number;
}

/** `get_session_stats` data: message counts, token and cost totals over the whole session. */
export interface SessionStats {
	sessionFile: string | undefined;
	sessionId: string;
	userMessages: number;
	assistantMessages: number;
	toolCalls: number;
	toolResults: number;
	totalMessages: number;
	tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
	/** US dollars. */
	cost: number;
	/** Current context-window use; absent without a model or context window. */
	contextUsage?: ContextUsage;
}

/** The model summary pi's client declares for `getAvailableModels()`; a full `Model` satisfies it. */
export interface ModelInfo {
	provider: string;
	id: string;
	contextWindow: number;
	reasoning: boolean;
}

/** One user message a session can be forked from. */
export interface RpcForkMessage {
	entryId: string;
	text: string;
}

/** `data` of a successful response, per command (`undefined` for commands that answer without data). */
export interface RpcResponseDataMap {
	prompt: undefined;
	steer: undefined;
	follow_up: undefined;
	abort: undefined;
	clear_queue: { steering: string[]; followUp: string[] };
	new_session: { cancelled: boolean };
	get_state: RpcSessionState;
	set_model: Model<any>;
	/** null when there is only one model to cycle through. */
	cycle_model: { model: Model<any>; thinkingLevel: ThinkingLevel; isScoped: boolean } | null;
	get_available_models: { models: Model<any>[] };
	set_thinking_level: undefined;
	/** null when the model has no thinking support. */
	cycle_thinking_level: { level: ThinkingLevel } | null;
	get_available_thinking_levels: { levels: ThinkingLevel[] };
	set_steering_mode: undefined;
	set_follow_up_mode: undefined;
	compact: CompactionResult;
	set_auto_compaction: undefined;
	set_auto_retry: undefined;
	abort_retry: undefined;
	bash: BashResult;
	abort_bash: undefined;
	get_session_stats: SessionStats;
	export_html: { path: string };
	switch_session: { cancelled: boolean };
	/** `text` is absent when an extension cancelled the fork. */
	fork: { text: string; cancelled: boolean };
	clone: { cancelled: boolean };
	get_fork_messages: { messages: RpcForkMessage[] };
	get_entries: { entries: SessionEntry[]; leafId: string | null };
	get_tree: { tree: SessionTreeNode[]; leafId: string | null };
	/** `text` is absent when the last assistant message has no text (pi sends `data: {}`). */
	get_last_assistant_text: { text?: string | null };
	set_session_name: undefined;
	get_messages: { messages: AgentMessage[] };
	get_commands: { commands: RpcSlashCommand[] };
}

export type RpcResponseData<T extends RpcCommandType> = RpcResponseDataMap[T];

// ---- responses (stdout) -------------------------------------------------------------------------------------

/** Success envelope of one command: `data` only where the command has data. */
export type RpcSuccessResponse<T extends RpcCommandType = RpcCommandType> = {
	[K in T]: RpcResponseDataMap[K] extends undefined
		? { id?: string; type: "response"; command: K; success: true }
		: { id?: string; type: "response"; command: K; success: true; data: RpcResponseDataMap[K] };
}[T];

/**
 * Failure envelope. `command` is the command's `type` ("parse" for a line that is not JSON, the unknown type for
 * an unknown command); `id` is absent for parse errors.
 */
export interface RpcErrorResponse {
	id?: string;
	type: "response";
	command: string;
	success: false;
	error: string;
}

/** One response line: the success envelope of some command, or a failure. */
export type RpcResponse = RpcSuccessResponse | RpcErrorResponse;

// ---- extension UI sub-protocol ------------------------------------------------------------------------------

/**
 * An extension asks the client for UI (stdout). Dialogs (`select`, `confirm`, `input`, `editor`) wait for an
 * `RpcExtensionUIResponse` with the same `id`; when `timeout` (ms) is set the server resolves with the default by
 * itself. The other methods are fire-and-forget: no response is expected.
 */
export type RpcExtensionUIRequest =
	| { type: "extension_ui_request"; id: string; method: "select"; title: string; options: string[]; timeout?: number }
	| { type: "extension_ui_request"; id: string; method: "confirm"; title: string; message: string; timeout?: number }
	| { type: "extension_ui_request"; id: string; method: "input"; title: string; placeholder?: string; timeout?: number }
	| { type: "extension_ui_request"; id: string; method: "editor"; title: string; prefill?: string }
	| {
			type: "extension_ui_request";
			id: string;
			method: "notify";
			message: string;
			/** Defaults to "info". */
			notifyType?: "info" | "warning" | "error";
	  }
	| {
			type: "extension_ui_request";
			id: string;
			method: "setStatus";
			statusKey: string;
			/** Absent clears the entry. */
			statusText: string | undefined;
	  }
	| {
			type: "extension_ui_request";
			id: string;
			method: "setWidget";
			widgetKey: string;
			/** Absent clears the widget. */
			widgetLines: string[] | undefined;
			/** Defaults to "aboveEditor". */
			widgetPlacement?: "aboveEditor" | "belowEditor";
	  }
	| { type: "extension_ui_request"; id: string; method: "setTitle"; title: string }
	| { type: "extension_ui_request"; id: string; method: "set_editor_text"; text: string };

export type RpcExtensionUIMethod = RpcExtensionUIRequest["method"];

/** The dialog methods, which expect an `RpcExtensionUIResponse`. */
export const RPC_UI_DIALOG_METHODS = ["select", "confirm", "input", "editor"] as const;

/**
 * The client's answer to a dialog (stdin). `value` answers select/input/editor, `confirmed` answers confirm, and
 * `cancelled` dismisses any dialog (the extension gets `undefined`, or `false` for confirm). No response line
 * follows; an unknown `id` is ignored.
 */
export type RpcExtensionUIResponse =
	| { type: "extension_ui_response"; id: string; value: string }
	| { type: "extension_ui_response"; id: string; confirmed: boolean }
	| { type: "extension_ui_response"; id: string; cancelled: true };

/** What may arrive on stdin: a command, or an answer to an extension dialog. */
export type RpcInbound = RpcCommand | RpcExtensionUIResponse;
