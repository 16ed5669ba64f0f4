/**
 * Summarising a branch the user leaves in the session tree, with pi 0.87.1's functions and behaviour:
 * `collectEntriesForBranchSummary` (the entries from the old leaf back to the common ancestor),
 * `prepareBranchEntries` (the newest messages that fit the token budget, earlier summaries squeezed in while the
 * budget is below 90 %, and the files the branch touched, with those recorded by earlier branch summaries) and
 * `generateBranchSummary` (one model call capped at 4096 output tokens or the model's `maxTokens`; failures are
 * returned as data, never thrown).
 */
import type { AgentMessage, StreamFn } from "../agent/index.ts";
import type { Model, Usage } from "../ai/index.ts";
import {
	computeFileLists,
	createFileOps,
	estimateTokens,
	extractFileOpsFromMessage,
	type FileOperations,
	formatFileLists,
	maxBranchSummaryTokens,
	summaryRequestText,
} from "../compaction/index.ts";
import type { SessionEntry } from "../session/index.ts";
import { askForSummary, replyText, type SummaryRetry } from "./compaction-summary.ts";
import { convertToLlm } from "./convert-to-llm.ts";

/** pi's default for settings `branchSummary.reserveTokens`. */
export const DEFAULT_BRANCH_SUMMARY_RESERVE = 16384;

const BRANCH_PROMPT = `Summarise the conversation above: it is a branch the user is leaving. Write what was tried, what was
learned or decided, and what state the work was left in, so the conversation can continue elsewhere with that
knowledge. Use short sections (## Tried, ## Learned, ## State). Keep file paths and names exact.`;

/** Put before every generated branch summary, so the model reading it later knows where it comes from. */
const BRANCH_SUMMARY_PREAMBLE =
	"Before coming back to this point, the user explored another branch. What happened there:\n\n";

export interface BranchPreparation {
	/** The messages to summarise, oldest first. */
	messages: AgentMessage[];
	/** Files the branch read, wrote and edited. */
	fileOps: FileOperations;
	/** Estimated tokens of `messages`. */
	totalTokens: number;
}

export interface CollectEntriesResult {
	/** The entries of the branch being left, oldest first. */
	entries: SessionEntry[];
	/** The deepest entry on both the old and the target path, or null. */
	commonAncestorId: string | null;
}

/** What `collectEntriesForBranchSummary` reads of a session (a `SessionManager` has both). */
export interface BranchSource {
	getBranch(fromId?: string): SessionEntry[];
	getEntry(id: string): SessionEntry | undefined;
}

/**
 * The entries to summarise when moving from `oldLeafId` to `targetId`: from the old leaf back to (not including)
 * the deepest common ancestor, oldest first. Compactions on the way are included (their summary becomes context).
 */
export function collectEntriesForBranchSummary(
	session: BranchSource,
	oldLeafId: string | null,
	targetId: string,
): CollectEntriesResult {
	if (!oldLeafId) return { entries: [], commonAncestorId: null };
	const oldPath = new Set(session.getBranch(oldLeafId).map((entry) => entry.id));
	const targetPath = session.getBranch(targetId);
	let commonAncestorId: string | null = null;
	for (let i = targetPath.length - 1; i >= 0; i--) {
		if (oldPath.has(targetPath[i]!.id)) {
			commonAncestorId = targetPath[i]!.id;
			break;
		}
	}
	const entries: SessionEntry[] = [];
	for (let id: string | null = oldLeafId; id && id !== commonAncestorId; ) {
		const entry = session.getEntry(id);
		if (!entry) break;
		entries.push(entry);
		id = entry.parentId;
	}
	entries.reverse();
	return { entries, commonAncestorId };
}

function ms(timestamp: string): number {
	return new Date(timestamp).getTime();
}

/** The message an entry contributes to a branch summary; tool results are left out (the call says enough). */
function branchMessage(entry: SessionEntry): AgentMessage | undefined {
	switch (entry.type) {
		case "message":
			return entry.message.role === "toolResult" ? undefined : (entry.message as AgentMessage);
		case "custom_message":
			return {
				role: "custom",
				customType: entry.customType,
				content: entry.content,
				display: entry.display,
				details: entry.details,
				timestamp: ms(entry.timestamp),
			} as AgentMessage;
		case "branch_summary":
			return { role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: ms(entry.timestamp) };
		case "compaction":
			return {
				role: "compactionSummary",
				summary: entry.summary,
				tokensBefore: entry.tokensBefore,
				timestamp: ms(entry.timestamp),
			};
		default:
			return undefined;
	}
}

function strings(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * The messages to summarise, newest first until `tokenBudget` (0: no limit) is spent, and the files touched: the
 * lists of earlier branch summaries of ours (all of them) and the tool calls of the messages visited.
 */
export function prepareBranchEntries(entries: readonly SessionEntry[], tokenBudget = 0): BranchPreparation {
	const fileOps = createFileOps();
	for (const entry of entries) {
		if (entry.type !== "branch_summary" || entry.fromHook === true || !entry.details) continue;
		const details = entry.details as { readFiles?: unknown; modifiedFiles?: unknown };
		for (const path of strings(details.readFiles)) fileOps.read.add(path);
		for (const path of strings(details.modifiedFiles)) fileOps.edited.add(path);
	}
	const messages: AgentMessage[] = [];
	let totalTokens = 0;
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i] as SessionEntry;
		const message = branchMessage(entry);
		if (!message) continue;
		extractFileOpsFromMessage(message, fileOps);
		const tokens = estimateTokens(message);
		if (tokenBudget > 0 && totalTokens + tokens > tokenBudget) {
			// An earlier summary carries the most per token: it still goes in while the budget is below 90 %.
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

export interface GenerateBranchSummaryOptions {
	model: Model;
	apiKey?: string;
	headers?: Record<string, string>;
	env?: Record<string, string>;
	signal: AbortSignal;
	customInstructions?: string;
	/** `customInstructions` replace the built-in instructions instead of being added to them. */
	replaceInstructions?: boolean;
	/** Tokens kept free of branch history (default 16384). */
	reserveTokens?: number;
	/** Sends the request instead of the provider registry. */
	streamFn?: StreamFn;
	/** Retrying transient failures (`summarization_retry_*` events). */
	retry?: SummaryRetry;
	callbacks?: unknown;
}

export interface BranchSummaryResult {
	summary?: string;
	usage?: Usage;
	readFiles?: string[];
	modifiedFiles?: string[];
	aborted?: boolean;
	error?: string;
}

/**
 * Summarises `entries` (oldest first) in one request shaped like every summary request: system prompt with the
 * summariser's rules, one user message with the transcript and the instructions, no tools. An aborted request
 * gives `{ aborted: true }`, a failed one `{ error }`.
 */
export async function generateBranchSummary(
	entries: readonly SessionEntry[],
	options: GenerateBranchSummaryOptions,
): Promise<BranchSummaryResult> {
	const window = options.model.contextWindow || 128000;
	const budget = window - (options.reserveTokens ?? DEFAULT_BRANCH_SUMMARY_RESERVE);
	const { messages, fileOps } = prepareBranchEntries(entries, budget);
	if (messages.length === 0) return { summary: "No content to summarize" };
	const reply = await askForSummary(
		{
			model: options.model,
			...(options.apiKey ? { apiKey: options.apiKey } : {}),
			...(options.headers ? { headers: options.headers } : {}),
			...(options.streamFn ? { streamFn: options.streamFn } : {}),
			signal: options.signal,
			...(options.retry ? { retry: options.retry } : {}),
		},
		summaryRequestText(
			convertToLlm(messages),
			branchInstructions(options.customInstructions, options.replaceInstructions),
		),
		maxBranchSummaryTokens(options.model.maxTokens),
	);
	if (reply.stopReason === "aborted") return { aborted: true };
	let text: string;
	try {
		text = replyText(reply, "Branch summarization");
	} catch (error) {
		return { error: (error as Error).message };
	}
	const { readFiles, modifiedFiles } = computeFileLists(fileOps);
	return {
		summary: `${BRANCH_SUMMARY_PREAMBLE}${text}${formatFileLists({ read: readFiles, modified: modifiedFiles })}`,
		usage: reply.usage,
		readFiles,
		modifiedFiles,
	};
}

/** The instructions after the transcript: ours, ours plus the user's focus, or the user's alone (`replace`). */
export function branchInstructions(customInstructions: string | undefined, replace: boolean | undefined): string {
	if (!customInstructions) return BRANCH_PROMPT;
	return replace ? customInstructions : `${BRANCH_PROMPT}\n\nAlso: ${customInstructions}`;
}
