/**
 * Session events as they appear on the wire in JSON and RPC modes (pi 0.84+ form).
 *
 * Contract: every event is one JSON object with a `type`. `message_update` is delta-only: it carries the nested
 * provider event without its cumulative `partial` snapshot, plus the message's latest cumulative `usage`; clients
 * rebuild the message between `message_start` and `message_end` (whose `message` is authoritative).
 * `agent_end` closes one low-level run; `agent_settled` means no automatic work (retry, compaction recovery,
 * queued messages) follows. Consumers must ignore event types they do not know.
 */
import type { AgentMessage, AgentToolResult, ThinkingLevel } from "../../agent/index.ts";
import type { AssistantMessage, AssistantMessageEvent, ToolResultMessage, Usage } from "../../ai/index.ts";
import type { CompactionResult } from "../../extensions/index.ts";
import type { SessionEvent } from "../../runtime/index.ts";
import type { SessionEntry } from "../../session/index.ts";

type WithoutPartial<T> = T extends { partial: unknown } ? Omit<T, "partial"> : T;

/** A provider stream event without its `partial` snapshot; `toolcall_start` also names the call. */
export type JsonAssistantMessageEvent = AssistantMessageEvent extends infer E
	? E extends { type: "toolcall_start" }
		? WithoutPartial<E> & { id: string; toolName: string }
		: WithoutPartial<E>
	: never;

type CompactionReason = "manual" | "threshold" | "overflow";

/** One session event line on stdout (JSON mode, RPC mode). */
export type JsonAgentSessionEvent =
	| { type: "agent_start" }
	| { type: "agent_end"; messages: AgentMessage[]; willRetry: boolean }
	/** `aborted` is sent by newer servers; pi 0.87.1 sends the bare event. */
	| { type: "agent_settled"; aborted?: boolean }
	| { type: "turn_start" }
	| { type: "turn_end"; message: AssistantMessage; toolResults: ToolResultMessage[] }
	| { type: "message_start"; message: AgentMessage }
	| { type: "message_update"; usage: Usage; assistantMessageEvent: JsonAssistantMessageEvent }
	| { type: "message_end"; message: AgentMessage }
	| { type: "tool_execution_start"; toolCallId: string; toolName: string; args: any }
	| { type: "tool_execution_update"; toolCallId: string; toolName: string; args: any; partialResult: AgentToolResult }
	| { type: "tool_execution_end"; toolCallId: string; toolName: string; result: AgentToolResult; isError: boolean }
	/** Both lists hold the complete current queue. */
	| { type: "queue_update"; steering: readonly string[]; followUp: readonly string[] }
	| { type: "entry_appended"; entry: SessionEntry }
	/** `name` absent: the name was cleared. */
	| { type: "session_info_changed"; name: string | undefined }
	| { type: "thinking_level_changed"; level: ThinkingLevel }
	| { type: "compaction_start"; reason: CompactionReason }
	| {
			type: "compaction_end";
			reason: CompactionReason;
			/** Absent when compaction was aborted or failed. */
			result: CompactionResult | undefined;
			aborted: boolean;
			willRetry: boolean;
			errorMessage?: string;
	  }
	| { type: "auto_retry_start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
	| { type: "auto_retry_end"; success: boolean; attempt: number; finalError?: string }
	/** A compaction or branch summary request retried: as the session emits them. */
	| Extract<SessionEvent, { type: `summarization_retry_${string}` }>
	/** Recording stopped: a message could not be written to the session file (once; the run goes on). */
	| Extract<SessionEvent, { type: "session_save_failed" }>
	/** RPC only: one output chunk of a `bash` command; `id` repeats the command's id. */
	| { type: "bash_execution_update"; id?: string; delta: string };

/** RPC only: an extension handler threw. */
export interface RpcExtensionErrorEvent {
	type: "extension_error";
	extensionPath: string;
	event: string;
	error: string;
	/** Where the handler threw, `<file>:<line>:<column>`, when its stack names the file (ours; pi has no such field). */
	location?: string;
}
