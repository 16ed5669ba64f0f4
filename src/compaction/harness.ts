/**
 * pi-agent-core's compaction helpers (its "harness" flavour), which work on the harness session's entries: a
 * `compaction` entry carries its `retainedTail` messages instead of a `firstKeptEntryId`, and only `message`,
 * `compaction`, `branch_summary` and `custom` entries exist. Pure functions, same rules as pi-agent-core 0.87.1:
 * cut points are message entries (not tool results) and branch summaries; a cut splits a turn unless it lands on a
 * user message.
 */
import type { AgentMessage } from "../agent/index.ts";
import type { ImageContent, TextContent } from "../ai/index.ts";
import type { CutPointResult } from "./cut-point.ts";
import { createFileOps, extractFileOpsFromMessage, type FileOperations } from "./file-ops.ts";
import { type CompactionSettings, estimateContextTokens, estimateTokens } from "./tokens.ts";

/** A harness session entry, as far as these helpers read it. */
export interface HarnessEntry {
	type: "message" | "compaction" | "branch_summary" | "custom" | (string & {});
	id: string;
	parentId: string | null;
	timestamp: string | number;
	message?: AgentMessage;
	summary?: string;
	retainedTail?: AgentMessage[];
	tokensBefore?: number;
	fromId?: string | null;
	details?: unknown;
	[key: string]: unknown;
}

function ms(timestamp: string | number): number {
	return typeof timestamp === "number" ? timestamp : new Date(timestamp).getTime();
}

export function createBranchSummaryMessage(summary: string, fromId: string | null, timestamp: string | number) {
	return { role: "branchSummary" as const, summary, fromId, timestamp: ms(timestamp) };
}

export function createCompactionSummaryMessage(summary: string, tokensBefore: number, timestamp: string | number) {
	return { role: "compactionSummary" as const, summary, tokensBefore, timestamp: ms(timestamp) };
}

export function createCustomMessage(
	customType: string,
	content: string | (TextContent | ImageContent)[],
	display: boolean,
	details: unknown,
	timestamp: string | number,
) {
	return { role: "custom" as const, customType, content, display, details, timestamp: ms(timestamp) };
}

const CUT_ROLES = new Set(["bashExecution", "custom", "branchSummary", "compactionSummary", "user", "assistant"]);

function roleOf(entry: HarnessEntry): string | undefined {
	return entry.type === "message" ? (entry.message as { role?: string } | undefined)?.role : undefined;
}

/** The entry that starts the turn holding `entryIndex`: a branch summary, a user message or a shell run; or -1. */
export function findHarnessTurnStartIndex(entries: readonly HarnessEntry[], entryIndex: number, startIndex: number) {
	for (let i = entryIndex; i >= startIndex; i--) {
		const entry = entries[i]!;
		if (entry.type === "branch_summary") return i;
		const role = roleOf(entry);
		if (role === "user" || role === "bashExecution") return i;
	}
	return -1;
}

/** Where to cut so that about `keepRecentTokens` of the newest messages stay. */
export function findHarnessCutPoint(
	entries: readonly HarnessEntry[],
	startIndex: number,
	endIndex: number,
	keepRecentTokens: number,
): CutPointResult {
	const cutPoints: number[] = [];
	for (let i = startIndex; i < endIndex; i++) {
		const entry = entries[i]!;
		if (entry.type === "branch_summary" || CUT_ROLES.has(roleOf(entry) ?? "")) cutPoints.push(i);
	}
	if (cutPoints.length === 0) return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };
	let kept = 0;
	let cutIndex = cutPoints[0]!;
	for (let i = endIndex - 1; i >= startIndex; i--) {
		const entry = entries[i]!;
		if (entry.type !== "message" || !entry.message) continue;
		kept += estimateTokens(entry.message);
		if (kept >= keepRecentTokens) {
			const at = cutPoints.find((c) => c >= i);
			if (at !== undefined) cutIndex = at;
			break;
		}
	}
	while (cutIndex > startIndex) {
		const previous = entries[cutIndex - 1]!;
		if (previous.type === "compaction" || previous.type === "message") break;
		cutIndex--;
	}
	const atUser = roleOf(entries[cutIndex]!) === "user";
	const turnStartIndex = atUser ? -1 : findHarnessTurnStartIndex(entries, cutIndex, startIndex);
	return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !atUser && turnStartIndex !== -1 };
}

/** What a harness compaction summarises and keeps. */
export interface HarnessCompactionPreparation {
	messagesToSummarize: AgentMessage[];
	turnPrefixMessages: AgentMessage[];
	/** The recent messages the compaction entry stores. */
	retainedTail: AgentMessage[];
	isSplitTurn: boolean;
	tokensBefore: number;
	previousSummary?: string;
	fileOps: FileOperations;
	settings: CompactionSettings;
}

function entryMessage(entry: HarnessEntry): AgentMessage | undefined {
	if (entry.type === "message") return entry.message;
	if (entry.type === "branch_summary") {
		return createBranchSummaryMessage(entry.summary ?? "", entry.fromId ?? null, entry.timestamp) as AgentMessage;
	}
	return undefined;
}

/** The model context of a harness branch: the newest compaction's summary and tail, then what follows it. */
function contextMessages(entries: readonly HarnessEntry[]): AgentMessage[] {
	let start = 0;
	const out: AgentMessage[] = [];
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i]!;
		if (entry.type !== "compaction") continue;
		out.push(
			createCompactionSummaryMessage(entry.summary ?? "", entry.tokensBefore ?? 0, entry.timestamp) as AgentMessage,
		);
		out.push(...(entry.retainedTail ?? []));
		start = i + 1;
		break;
	}
	for (let i = start; i < entries.length; i++) {
		const message = entryMessage(entries[i]!);
		if (message) out.push(message);
	}
	return out;
}

function strings(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * Plans a compaction of a harness branch (root → tip); undefined when the branch is empty or ends in a compaction.
 * After an earlier compaction, its retained tail counts as the oldest messages.
 */
export function prepareHarnessCompaction(
	pathEntries: readonly HarnessEntry[],
	settings: CompactionSettings,
): HarnessCompactionPreparation | undefined {
	const last = pathEntries.at(-1);
	if (!last || last.type === "compaction") return undefined;
	let previousIndex = -1;
	for (let i = pathEntries.length - 1; i >= 0; i--) {
		if (pathEntries[i]!.type === "compaction") {
			previousIndex = i;
			break;
		}
	}
	const previous = previousIndex >= 0 ? pathEntries[previousIndex]! : undefined;
	let entries: readonly HarnessEntry[] = pathEntries;
	if (previous) {
		const tail = (previous.retainedTail ?? []).map(
			(message, index): HarnessEntry => ({
				type: "message",
				id: `${previous.id}:retained:${index}`,
				parentId: index === 0 ? previous.id : `${previous.id}:retained:${index - 1}`,
				timestamp: (message as { timestamp: number }).timestamp,
				message,
			}),
		);
		entries = [...tail, ...pathEntries.slice(previousIndex + 1)];
	}
	const tokensBefore = estimateContextTokens(contextMessages(pathEntries)).tokens;
	const cut = findHarnessCutPoint(entries, 0, entries.length, settings.keepRecentTokens);
	const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
	const between = (from: number, to: number) => {
		const out: AgentMessage[] = [];
		for (let i = from; i < to; i++) {
			const message = entryMessage(entries[i]!);
			if (message) out.push(message);
		}
		return out;
	};
	const messagesToSummarize = between(0, historyEnd);
	const turnPrefixMessages = cut.isSplitTurn ? between(cut.turnStartIndex, cut.firstKeptEntryIndex) : [];
	const retainedTail = between(cut.firstKeptEntryIndex, entries.length);
	const fileOps = createFileOps();
	if (previous && typeof previous.details === "object" && previous.details && !Array.isArray(previous.details)) {
		const details = previous.details as { readFiles?: unknown; modifiedFiles?: unknown };
		for (const path of strings(details.readFiles)) fileOps.read.add(path);
		for (const path of strings(details.modifiedFiles)) fileOps.edited.add(path);
	}
	for (const message of [...messagesToSummarize, ...turnPrefixMessages]) extractFileOpsFromMessage(message, fileOps);
	const preparation: HarnessCompactionPreparation = {
		messagesToSummarize,
		turnPrefixMessages,
		retainedTail,
		isSplitTurn: cut.isSplitTurn,
		tokensBefore,
		fileOps,
		settings,
	};
	if (previous) preparation.previousSummary = previous.summary ?? "";
	return preparation;
}

/** The branch messages to summarise within `tokenBudget` (0: no limit), and the files the branch touched. */
export function prepareHarnessBranchEntries(entries: readonly HarnessEntry[], tokenBudget = 0) {
	const fileOps = createFileOps();
	for (const entry of entries) {
		if (entry.type !== "branch_summary" || typeof entry.details !== "object" || !entry.details) continue;
		if (Array.isArray(entry.details)) continue;
		const details = entry.details as { readFiles?: unknown; modifiedFiles?: unknown };
		for (const path of strings(details.readFiles)) fileOps.read.add(path);
		for (const path of strings(details.modifiedFiles)) fileOps.edited.add(path);
	}
	const messages: AgentMessage[] = [];
	let totalTokens = 0;
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i]!;
		let message: AgentMessage | undefined;
		if (entry.type === "message") message = roleOf(entry) === "toolResult" ? undefined : entry.message;
		else if (entry.type === "branch_summary") message = entryMessage(entry);
		else if (entry.type === "compaction") {
			message = createCompactionSummaryMessage(
				entry.summary ?? "",
				entry.tokensBefore ?? 0,
				entry.timestamp,
			) as AgentMessage;
		}
		if (!message) continue;
		extractFileOpsFromMessage(message, fileOps);
		const tokens = estimateTokens(message);
		if (tokenBudget > 0 && totalTokens + tokens > tokenBudget) {
			const summary = entry.type === "compaction" || entry.type === "branch_summary";
			if (summary && totalTokens < tokenBudget * 0.9) {
				messages.unshift(message);
				totalTokens += tokens;
			}
			break;
		}
		messages.unshift(message);
		totalTokens += tokens;
	}
	return { messages, fileOps, totalTokens };
}
