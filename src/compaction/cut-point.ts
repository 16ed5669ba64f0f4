/** Where to cut a branch so that about `keepRecentTokens` of the newest context stay verbatim. */
import type { SessionEntry } from "../session/index.ts";
import { type ContextEdits, entryMessage } from "./messages.ts";
import { estimateTokens } from "./tokens.ts";

export interface CutPointResult {
	/** Index of the first entry that is kept verbatim. */
	firstKeptEntryIndex: number;
	/** Index of the entry that starts the turn the cut falls into, or -1 when the cut is at a turn start. */
	turnStartIndex: number;
	/** True when the cut falls inside a turn: entries turnStartIndex..firstKeptEntryIndex-1 form its prefix. */
	isSplitTurn: boolean;
}

const CUT_ROLES = new Set(["user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"]);
const TURN_START_ROLES = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

/** May the kept part start at this entry? Never at a tool result, which must stay next to its tool call. */
export function isCutPoint(entry: SessionEntry): boolean {
	if (entry.type === "custom_message" || entry.type === "branch_summary") return true;
	return entry.type === "message" && CUT_ROLES.has(entry.message.role);
}

/** Does a new turn (a new piece of input, not a model step) begin at this entry? */
export function isTurnStart(entry: SessionEntry): boolean {
	if (entry.type === "custom_message" || entry.type === "branch_summary") return true;
	return entry.type === "message" && TURN_START_ROLES.has(entry.message.role);
}

/** Entries that put something into the model context (they end the backwards pull of metadata entries). */
function carriesContext(entry: SessionEntry): boolean {
	return entry.type === "message" || entry.type === "custom_message" || entry.type === "branch_summary";
}

/** The newest turn start in `[startIndex, index]`, or -1 (pi's `findTurnStartIndex`). */
export function findTurnStart(entries: readonly SessionEntry[], index: number, startIndex: number): number {
	for (let i = index; i >= startIndex; i--) if (isTurnStart(entries[i]!)) return i;
	return -1;
}

/**
 * Walks `entries[startIndex..endIndex)` from the newest entry backwards, adding up estimated tokens, and cuts at
 * the first allowed cut point at or after the entry where `keepRecentTokens` is reached (or the nearest one before
 * it when no cut point follows). Metadata entries (model or thinking changes, labels, custom state, …) directly
 * before the cut move into the kept part. When the budget is never reached, everything from the first cut point on
 * is kept. Without any cut point in the range, the cut is at `startIndex`.
 */
export function findCutPoint(
	entries: readonly SessionEntry[],
	startIndex: number,
	endIndex: number,
	keepRecentTokens: number,
	edits?: ContextEdits,
): CutPointResult {
	const cutPoints: number[] = [];
	for (let i = startIndex; i < endIndex; i++) if (isCutPoint(entries[i]!)) cutPoints.push(i);
	if (cutPoints.length === 0) return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };

	let cutIndex = cutPoints[0]!;
	let kept = 0;
	let c = cutPoints.length - 1;
	for (let i = endIndex - 1; i >= startIndex; i--) {
		const entry = entries[i]!;
		const message = entryMessage(entry, edits);
		const tokens = message ? estimateTokens(message) : 0;
		if (tokens === 0) continue;
		kept += tokens;
		if (kept < keepRecentTokens) continue;
		// the first cut point at or after i; else the newest one before it
		while (c > 0 && cutPoints[c - 1]! >= i) c--;
		cutIndex = cutPoints[c]!;
		break;
	}

	let firstKeptEntryIndex = cutIndex;
	while (firstKeptEntryIndex > startIndex) {
		const previous = entries[firstKeptEntryIndex - 1]!;
		if (previous.type === "compaction" || carriesContext(previous)) break;
		firstKeptEntryIndex--;
	}
	// As pi, the turn check looks at the first kept entry (a metadata entry pulled in counts as mid-turn).
	const startsTurn = isTurnStart(entries[firstKeptEntryIndex]!);
	const turnStartIndex = startsTurn ? -1 : findTurnStart(entries, firstKeptEntryIndex, startIndex);
	return { firstKeptEntryIndex, turnStartIndex, isSplitTurn: !startsTurn && turnStartIndex !== -1 };
}
