/**
 * Summarising a branch the user leaves in the session tree: the newest messages of the branch that fit in the
 * model's window minus `branchSummary.reserveTokens` (earlier summaries squeezed in while the budget is below 90 %),
 * the files they touched (with those recorded by earlier branch summaries), and one model call whose output is
 * capped at 4096 tokens or the model's `maxTokens`.
 */
import type { AgentMessage } from "../agent/index.ts";
import type { Model, Usage } from "../ai/index.ts";
import {
	collectFileOps,
	compactionDetails,
	emptyFileOps,
	entryMessage,
	estimateTokens,
	type FileOps,
	formatFileLists,
	maxBranchSummaryTokens,
	toFileOps,
} from "../compaction/index.ts";
import type { SessionEntry } from "../session/index.ts";
import { askForSummary, replyText, type SummaryRetry } from "./compaction-summary.ts";

/** pi's default for settings `branchSummary.reserveTokens`. */
export const DEFAULT_BRANCH_SUMMARY_RESERVE = 16384;

const BRANCH_PROMPT = `Summarise the conversation above: it is a branch the user is leaving. Write what was tried, what was
learned or decided, and what state the work was left in, so the conversation can continue elsewhere with that
knowledge. Use short sections (## Tried, ## Learned, ## State). Keep file paths and names exact.`;

export interface BranchMessages {
	messages: AgentMessage[];
	fileOps: FileOps;
	tokens: number;
}

function branchMessage(entry: SessionEntry): AgentMessage | undefined {
	if (entry.type !== "compaction") return entryMessage(entry);
	const timestamp = Date.parse(entry.timestamp);
	return {
		role: "compactionSummary",
		summary: entry.summary,
		tokensBefore: entry.tokensBefore,
		timestamp: Number.isNaN(timestamp) ? 0 : timestamp,
	};
}

/**
 * The messages to summarise, newest first until `tokenBudget` (0: no limit) is spent, and the files the whole
 * branch touched: tool calls of every message (kept or not) and the lists of earlier branch summaries of ours.
 */
export function prepareBranchMessages(entries: readonly SessionEntry[], tokenBudget: number): BranchMessages {
	const sets = emptyFileOps();
	for (const entry of entries) {
		if (entry.type !== "branch_summary" || entry.fromHook === true) continue;
		const details = entry.details as { readFiles?: unknown; modifiedFiles?: unknown } | undefined;
		for (const path of strings(details?.readFiles)) sets.read.add(path);
		for (const path of strings(details?.modifiedFiles)) sets.modified.add(path);
	}
	const messages: AgentMessage[] = [];
	let tokens = 0;
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i] as SessionEntry;
		const message = branchMessage(entry);
		if (!message) continue;
		collectFileOps([message], sets);
		const cost = estimateTokens(message);
		if (tokenBudget > 0 && tokens + cost > tokenBudget) {
			// An earlier summary carries the most per token: it still goes in while the budget is below 90 %.
			const summary = entry.type === "compaction" || entry.type === "branch_summary";
			if (summary && tokens < tokenBudget * 0.9) {
				messages.unshift(message);
				tokens += cost;
			}
			break;
		}
		messages.unshift(message);
		tokens += cost;
	}
	return { messages, fileOps: toFileOps(sets), tokens };
}

function strings(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

export interface BranchSummaryRequest {
	model: Model;
	apiKey?: string;
	signal: AbortSignal;
	customInstructions?: string;
	/** `customInstructions` replace the built-in prompt instead of being added to it. */
	replaceInstructions?: boolean;
	reserveTokens?: number;
	/** Retrying transient failures (`summarization_retry_*` events). */
	retry?: SummaryRetry;
}

/** The summary text (file lists appended), its details and usage; throws when the model call fails. */
export async function generateBranchSummary(
	entries: readonly SessionEntry[],
	request: BranchSummaryRequest,
): Promise<{ summary: string; details: { readFiles: string[]; modifiedFiles: string[] }; usage?: Usage }> {
	const window = request.model.contextWindow || 128000;
	const budget = window - (request.reserveTokens ?? DEFAULT_BRANCH_SUMMARY_RESERVE);
	const { messages, fileOps } = prepareBranchMessages(entries, budget);
	if (messages.length === 0) return { summary: "No content to summarize", details: compactionDetails(fileOps) };
	const reply = await askForSummary(
		{
			model: request.model,
			...(request.apiKey ? { apiKey: request.apiKey } : {}),
			signal: request.signal,
			...(request.retry ? { retry: request.retry } : {}),
		},
		messages,
		branchInstructions(request.customInstructions, request.replaceInstructions),
		maxBranchSummaryTokens(request.model.maxTokens),
	);
	const text = replyText(reply, "Branch summarization");
	return {
		summary: `${text}${formatFileLists(fileOps)}`,
		details: compactionDetails(fileOps),
		usage: reply.usage,
	};
}

/** The instruction after the transcript: ours, ours plus the user's focus, or the user's alone (`replace`). */
export function branchInstructions(customInstructions: string | undefined, replace: boolean | undefined): string {
	if (!customInstructions) return BRANCH_PROMPT;
	return replace ? customInstructions : `${BRANCH_PROMPT}\n\nAlso: ${customInstructions}`;
}
