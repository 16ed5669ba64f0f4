/** Everything a compaction needs to know before any summary is generated. */
import type { AgentMessage } from "../agent/index.ts";
import type { CompactionEntry, SessionEntry } from "../session/index.ts";
import { findCutPoint } from "./cut-point.ts";
import { addCompactionFileOps, collectFileOps, emptyFileOps, type FileOps, toFileOps } from "./file-ops.ts";
import { type ContextEdits, collectEdits, messagesBetween } from "./messages.ts";
import { type CompactionSettings, estimateContextTokens } from "./tokens.ts";

export interface CompactionPreparation {
	/** The entry the rebuilt context continues with after the summary. */
	firstKeptEntryId: string;
	/** Whole turns to summarise (from the previous kept boundary up to the cut or the split turn's start). */
	messagesToSummarize: AgentMessage[];
	/** The early part of a split turn, summarised separately; empty unless `isSplitTurn`. */
	turnPrefixMessages: AgentMessage[];
	isSplitTurn: boolean;
	/** Context size of the branch before compacting. */
	tokensBefore: number;
	/** Summary of the previous compaction on the branch, to be updated rather than rewritten. */
	previousSummary?: string;
	/** Files read / modified, including those carried over from the previous compaction. */
	fileOps: FileOps;
	settings: CompactionSettings;
}

interface Boundary {
	/** First candidate entry index. */
	start: number;
	previous?: CompactionEntry;
}

/**
 * Where summarising starts: at the previous compaction's kept boundary (its `firstKeptEntryId`), or just after that
 * compaction when the kept entry is not on the path or is the compaction itself (retain-none). Without a previous
 * compaction: the branch root.
 */
function candidateStart(path: readonly SessionEntry[]): Boundary {
	for (let i = path.length - 1; i >= 0; i--) {
		const entry = path[i]!;
		if (entry.type !== "compaction") continue;
		let start = i + 1;
		if (entry.firstKeptEntryId !== entry.id) {
			for (let j = i - 1; j >= 0; j--) {
				if (path[j]!.id === entry.firstKeptEntryId) {
					start = j;
					break;
				}
			}
		}
		return { start, previous: entry };
	}
	return { start: 0 };
}

/**
 * The branch's current context size: what `buildSessionContext` would send (the previous summary, then every
 * message from the candidate start on), computed from the messages already collected instead of a second
 * projection of the whole branch.
 */
function contextTokens(
	path: readonly SessionEntry[],
	firstKeptIndex: number,
	previous: CompactionEntry | undefined,
	history: AgentMessage[],
	prefix: AgentMessage[],
	edits: ContextEdits,
): number {
	const messages: AgentMessage[] = [];
	if (previous) {
		const timestamp = Date.parse(previous.timestamp);
		messages.push({
			role: "compactionSummary",
			summary: previous.summary,
			tokensBefore: previous.tokensBefore,
			timestamp: Number.isNaN(timestamp) ? 0 : timestamp,
		});
	}
	const rest = messagesBetween(path, firstKeptIndex, path.length, edits);
	for (const list of [history, prefix, rest]) for (const m of list) messages.push(m);
	return estimateContextTokens(messages).tokens;
}

/**
 * Plans a compaction of the branch `pathEntries` (root → leaf). Returns undefined when there is nothing to
 * summarise: the branch ends in a compaction, or everything after the previous kept boundary fits into
 * `settings.keepRecentTokens`.
 */
export function prepareCompaction(
	pathEntries: readonly SessionEntry[],
	settings: CompactionSettings,
): CompactionPreparation | undefined {
	const last = pathEntries.at(-1);
	if (!last || last.type === "compaction") return undefined;

	const { start, previous } = candidateStart(pathEntries);
	const end = pathEntries.length;
	const edits = collectEdits(pathEntries);
	const cut = findCutPoint(pathEntries, start, end, settings.keepRecentTokens, edits);
	const firstKept = pathEntries[cut.firstKeptEntryIndex];
	if (!firstKept) return undefined;

	const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
	const messagesToSummarize = messagesBetween(pathEntries, start, historyEnd, edits);
	const turnPrefixMessages = cut.isSplitTurn
		? messagesBetween(pathEntries, cut.turnStartIndex, cut.firstKeptEntryIndex, edits)
		: [];
	if (messagesToSummarize.length === 0 && turnPrefixMessages.length === 0) return undefined;

	const sets = emptyFileOps();
	if (previous) addCompactionFileOps(previous, sets);
	collectFileOps(messagesToSummarize, sets);
	collectFileOps(turnPrefixMessages, sets);

	const preparation: CompactionPreparation = {
		firstKeptEntryId: firstKept.id,
		messagesToSummarize,
		turnPrefixMessages,
		isSplitTurn: cut.isSplitTurn,
		tokensBefore: contextTokens(
			pathEntries,
			cut.firstKeptEntryIndex,
			previous,
			messagesToSummarize,
			turnPrefixMessages,
			edits,
		),
		fileOps: toFileOps(sets),
		settings,
	};
	if (previous) preparation.previousSummary = previous.summary;
	return preparation;
}
