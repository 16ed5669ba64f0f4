/**
 * Session events: the agent's events plus what the session layer adds. These flow to modes (print, JSON, RPC,
 * TUI) and, through the extension host, to extensions.
 */
import type { AgentEvent } from "../agent/index.ts";

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
			result?: { summary: string; firstKeptEntryId: string; tokensBefore: number };
			aborted: boolean;
			willRetry: boolean;
			errorMessage?: string;
	  };

export type SessionListener = (event: SessionEvent) => void | Promise<void>;
