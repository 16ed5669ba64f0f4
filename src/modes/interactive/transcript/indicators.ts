/**
 * What a session event does to the status indicator (drawn by the app in the editor's top border or its own row):
 * "Working" from `turn_start` to `agent_end`, compaction while compacting, the retry countdown while a retry
 * waits, branch summarising while a summary request is retried. The app keeps its own working-visible setting:
 * pi shows nothing for `turn_start` while `setWorkingVisible(false)` is in effect.
 */
import type { SessionEvent } from "../../../runtime/index.ts";

export type IndicatorKind = "working" | "retry" | "compaction" | "branchSummary";

export type IndicatorShow =
	| { kind: "working" }
	| { kind: "compaction"; reason: "manual" | "threshold" | "overflow" }
	| { kind: "retry"; attempt: number; maxAttempts: number; delayMs: number }
	| { kind: "branchSummary" };

/** In order: clear the active indicator when it is of that kind, then show one (replacing whatever is shown). */
export interface IndicatorChange {
	clear?: IndicatorKind;
	show?: IndicatorShow;
	/** `turn_start` shows "Working" only if the active indicator is not already "Working". */
	keepIfSameKind?: boolean;
}

export function statusIndicatorChange(event: SessionEvent): IndicatorChange | undefined {
	switch (event.type) {
		case "turn_start":
			return { show: { kind: "working" }, keepIfSameKind: true };
		case "agent_end":
			return { clear: "working" };
		case "compaction_start":
			return { show: { kind: "compaction", reason: event.reason } };
		case "compaction_end":
			return { clear: "compaction" };
		case "auto_retry_start":
		case "summarization_retry_scheduled": {
			const { attempt, maxAttempts, delayMs } = event;
			return { show: { kind: "retry", attempt, maxAttempts, delayMs } };
		}
		case "auto_retry_end":
		case "summarization_retry_finished":
			return { clear: "retry" };
		case "summarization_retry_attempt_start":
			return {
				clear: "retry",
				show:
					event.source === "branchSummary" ? { kind: "branchSummary" } : { kind: "compaction", reason: event.reason },
			};
		default:
			return undefined;
	}
}
