/**
 * Session events: the agent's events plus what the session layer adds. These flow to modes (print, JSON, RPC,
 * TUI) and, through the extension host, to extensions.
 */
import type { AgentEvent, ThinkingLevel } from "../agent/index.ts";
import type { CompactionResult } from "./compaction-run.ts";

export type SessionEvent =
	| Exclude<AgentEvent, { type: "agent_end" }>
	| (Extract<AgentEvent, { type: "agent_end" }> & { willRetry: boolean })
	| { type: "agent_settled"; aborted: boolean }
	| { type: "auto_retry_start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
	| { type: "auto_retry_end"; success: boolean; attempt: number; finalError?: string }
	| { type: "compaction_start"; reason: "manual" | "threshold" | "overflow" }
	| {
			type: "compaction_end";
			reason: "manual" | "threshold" | "overflow";
			result?: CompactionResult;
			aborted: boolean;
			willRetry: boolean;
			errorMessage?: string;
	  }
	/** A compaction or branch summary request failed transiently and is retried after `delayMs` (settings `retry`). */
	| {
			type: "summarization_retry_scheduled";
			attempt: number;
			maxAttempts: number;
			delayMs: number;
			errorMessage: string;
	  }
	/** The retried summary request starts: for a compaction with its reason, for a branch summary without. */
	| ({ type: "summarization_retry_attempt_start" } & SummarizationSource)
	/** A summary request that was retried at least once has ended (succeeded, failed for good, or was aborted). */
	| { type: "summarization_retry_finished" }
	/** The steering / follow-up queues changed; both lists are complete (the text of each queued message). */
	| { type: "queue_update"; steering: string[]; followUp: string[] }
	/** An extension appended a custom entry (`pi.appendEntry`). */
	| { type: "entry_appended"; entry: unknown }
	/** The session's display name changed; no `name` = cleared. */
	| { type: "session_info_changed"; name?: string }
	| { type: "thinking_level_changed"; level: ThinkingLevel }
	/**
	 * Recording stopped: a message could not be appended to the session file (once per session; the run goes on).
	 * `file_changed`: another program wrote to the file since this process last did; `read_only`: the session may
	 * not be written (opened read-only, lock lost); `write_error`: the write itself failed (disk full, I/O error).
	 */
	| { type: "session_save_failed"; reason: SessionSaveFailure; sessionFile?: string; message: string };

/** Why `session_save_failed` was sent. */
export type SessionSaveFailure = "file_changed" | "read_only" | "write_error";

/** What a summary request is for, as `summarization_retry_attempt_start` names it. */
export type SummarizationSource =
	| { source: "compaction"; reason: "manual" | "threshold" | "overflow" }
	| { source: "branchSummary" };

export type SessionListener = (event: SessionEvent) => void | Promise<void>;
