/**
 * pi-coding-agent's compaction functions with its signatures (`compact`, `generateSummary`,
 * `generateSummaryWithUsage`), for extensions and SDK scripts. They send the same summary requests as a session's
 * own compaction (see compaction-summary.ts) and throw an `Error` naming what failed.
 */
import type { AgentMessage, StreamFn, ThinkingLevel } from "../agent/index.ts";
import type { Model, Usage } from "../ai/index.ts";
import {
	buildSummaryPrompt,
	type CompactionPreparation,
	computeFileLists,
	type FileOperations,
	type FileOps,
	formatFileLists,
	maxSummaryTokens,
	summaryRequestText,
} from "../compaction/index.ts";
import { askForSummary, generateCompactionSummary, replyText, type SummaryRequest } from "./compaction-summary.ts";
import { convertToLlm } from "./convert-to-llm.ts";
import type { RetrySettings } from "./retry.ts";

/** What `compact` returns; the session manager adds ids when it records it. */
export interface CompactionResult<T = unknown> {
	summary: string;
	firstKeptEntryId: string;
	tokensBefore: number;
	estimatedTokensAfter?: number;
	usage?: Usage;
	details?: T;
}

/** pi-ai's retry policy (settings `retry`). */
export interface SummaryRetryPolicy {
	enabled: boolean;
	maxRetries: number;
	baseDelayMs: number;
	maxAgentDelayMs?: number;
}

/** pi-ai's retry callbacks. */
export interface SummaryRetryCallbacks {
	onRetryScheduled?: (attempt: number, maxAttempts: number, delayMs: number, errorMessage: string) => unknown;
	onRetryAttemptStart?: () => unknown;
	onRetryFinished?: (success: boolean, attempt: number, finalError?: string) => unknown;
}

function request(
	model: Model,
	apiKey: string | undefined,
	headers: Record<string, string> | undefined,
	signal: AbortSignal | undefined,
	customInstructions: string | undefined,
	thinkingLevel: ThinkingLevel | undefined,
	streamFn: StreamFn | undefined,
	retry: SummaryRetryPolicy | undefined,
	callbacks: SummaryRetryCallbacks | undefined,
	sessionId: string | undefined,
): SummaryRequest {
	const out: SummaryRequest = { model };
	if (apiKey) out.apiKey = apiKey;
	if (headers) out.headers = headers;
	if (signal) out.signal = signal;
	if (customInstructions) out.customInstructions = customInstructions;
	if (thinkingLevel) out.thinkingLevel = thinkingLevel;
	if (streamFn) out.streamFn = streamFn;
	if (sessionId) out.sessionId = sessionId;
	if (retry?.enabled && retry.maxRetries > 0) {
		const settings: RetrySettings = {
			enabled: true,
			maxRetries: retry.maxRetries,
			baseDelayMs: retry.baseDelayMs,
			maxDelayMs: retry.maxAgentDelayMs ?? 60_000,
		};
		let attempts = 0;
		out.retry = {
			settings,
			source: { source: "compaction", reason: "manual" },
			emit: async (event) => {
				if (event.type === "summarization_retry_scheduled") {
					attempts = event.attempt;
					await callbacks?.onRetryScheduled?.(event.attempt, event.maxAttempts, event.delayMs, event.errorMessage);
				} else if (event.type === "summarization_retry_attempt_start") {
					await callbacks?.onRetryAttemptStart?.();
				} else if (event.type === "summarization_retry_finished") {
					await callbacks?.onRetryFinished?.(true, attempts);
				}
			},
		};
	}
	return out;
}

/**
 * Writes (or, with `previousSummary`, updates) the summary of `currentMessages` and returns it with the usage of the
 * request. The output is capped at 80 % of `reserveTokens` and the model's `maxTokens`.
 */
export async function generateSummaryWithUsage(
	currentMessages: AgentMessage[],
	model: Model,
	reserveTokens: number,
	apiKey: string | undefined,
	headers?: Record<string, string>,
	signal?: AbortSignal,
	customInstructions?: string,
	previousSummary?: string,
	thinkingLevel?: ThinkingLevel,
	streamFn?: StreamFn,
	_env?: Record<string, string>,
	retry?: SummaryRetryPolicy,
	callbacks?: SummaryRetryCallbacks,
	sessionId?: string,
): Promise<{ text: string; usage: Usage }> {
	const req = request(
		model,
		apiKey,
		headers,
		signal,
		customInstructions,
		thinkingLevel,
		streamFn,
		retry,
		callbacks,
		sessionId,
	);
	const instructions = buildSummaryPrompt({
		...(previousSummary ? { previousSummary } : {}),
		...(customInstructions ? { customInstructions } : {}),
	});
	const text = summaryRequestText(convertToLlm(currentMessages), instructions, previousSummary || undefined);
	const reply = await askForSummary(req, text, maxSummaryTokens(reserveTokens, model.maxTokens), thinkingLevel);
	return { text: replyText(reply, "Summarization"), usage: reply.usage };
}

/** `generateSummaryWithUsage` without the usage. */
export async function generateSummary(
	currentMessages: AgentMessage[],
	model: Model,
	reserveTokens: number,
	apiKey: string | undefined,
	headers?: Record<string, string>,
	signal?: AbortSignal,
	customInstructions?: string,
	previousSummary?: string,
	thinkingLevel?: ThinkingLevel,
	streamFn?: StreamFn,
	env?: Record<string, string>,
	retry?: SummaryRetryPolicy,
	callbacks?: SummaryRetryCallbacks,
	sessionId?: string,
): Promise<string> {
	const result = await generateSummaryWithUsage(
		currentMessages,
		model,
		reserveTokens,
		apiKey,
		headers,
		signal,
		customInstructions,
		previousSummary,
		thinkingLevel,
		streamFn,
		env,
		retry,
		callbacks,
		sessionId,
	);
	return result.text;
}

/** File lists of a preparation: ours (`read` / `modified` arrays) or pi's (`read` / `written` / `edited` sets). */
function fileLists(fileOps: FileOps | FileOperations): { readFiles: string[]; modifiedFiles: string[] } {
	if (fileOps.read instanceof Set) return computeFileLists(fileOps as FileOperations);
	const ops = fileOps as FileOps;
	return { readFiles: [...ops.read], modifiedFiles: [...ops.modified] };
}

/**
 * Summarises a prepared compaction (`prepareCompaction`): the history (a rolling update of the previous summary)
 * and, for a split turn, the turn's early part; the file lists are appended and kept in `details`.
 */
export async function compact(
	preparation: CompactionPreparation,
	model: Model,
	apiKey: string | undefined,
	headers?: Record<string, string>,
	customInstructions?: string,
	signal?: AbortSignal,
	thinkingLevel?: ThinkingLevel,
	streamFn?: StreamFn,
	_env?: Record<string, string>,
	retry?: SummaryRetryPolicy,
	callbacks?: SummaryRetryCallbacks,
	sessionId?: string,
): Promise<CompactionResult> {
	if (!preparation.firstKeptEntryId) throw new Error("First kept entry has no UUID - session may need migration");
	const req = request(
		model,
		apiKey,
		headers,
		signal,
		customInstructions,
		thinkingLevel,
		streamFn,
		retry,
		callbacks,
		sessionId,
	);
	const generated = await generateCompactionSummary(req, preparation);
	const { readFiles, modifiedFiles } = fileLists(preparation.fileOps);
	return {
		summary: `${generated.text}${formatFileLists({ read: readFiles, modified: modifiedFiles })}`,
		firstKeptEntryId: preparation.firstKeptEntryId,
		tokensBefore: preparation.tokensBefore,
		usage: generated.usage,
		details: { readFiles, modifiedFiles },
	};
}
