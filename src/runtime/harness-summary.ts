/**
 * pi-agent-core's summary functions (its "harness" flavour): the provider call goes through a `models` object
 * (`completeSimple`), cancellation comes from the harness context's `abortSignal`, and failures are returned as
 * `{ ok: false, error }` with a `CompactionError` / `BranchSummaryError` (code "aborted" or "summarization_failed")
 * instead of being thrown. The requests are the same as a session's own summaries.
 */
import type { AgentMessage, ThinkingLevel } from "../agent/index.ts";
import type { AssistantMessage, Context, Model, SimpleStreamOptions, Usage } from "../ai/index.ts";
import {
	buildSummaryPrompt,
	type CompactionSettings,
	computeFileLists,
	formatFileLists,
	type HarnessCompactionPreparation,
	type HarnessEntry,
	maxSummaryTokens,
	prepareHarnessBranchEntries,
	prepareHarnessCompaction,
	summaryRequestText,
} from "../compaction/index.ts";
import { branchInstructions } from "./branch-summary.ts";
import { askForSummary, generateCompactionSummary, type SummaryRequest } from "./compaction-summary.ts";
import { convertToLlm } from "./convert-to-llm.ts";

export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

export type CompactionErrorCode = "aborted" | "summarization_failed";
export type BranchSummaryErrorCode = "aborted" | "summarization_failed";

export class CompactionError extends Error {
	code: CompactionErrorCode;
	constructor(code: CompactionErrorCode, message: string, cause?: Error) {
		super(message, cause === undefined ? undefined : { cause });
		this.name = "CompactionError";
		this.code = code;
	}
}

export class BranchSummaryError extends Error {
	code: BranchSummaryErrorCode;
	constructor(code: BranchSummaryErrorCode, message: string, cause?: Error) {
		super(message, cause === undefined ? undefined : { cause });
		this.name = "BranchSummaryError";
		this.code = code;
	}
}

/** The harness's answer to compacting a lane with nothing to compact (a tagged error: `_tag`, `lane`, `message`). */
export class NothingToCompact extends Error {
	readonly _tag = "NothingToCompact" as const;
	readonly lane!: string;
	constructor(props: { lane: string; message: string; [key: string]: unknown }) {
		super(props.message);
		this.name = "NothingToCompact";
		Object.assign(this, props);
	}
	toJSON(): Record<string, unknown> {
		const payload: Record<string, unknown> = {};
		for (const key of Object.keys(this)) if (key !== "_tag") payload[key] = (this as Record<string, unknown>)[key];
		return { _tag: this._tag, message: this.message, ...payload };
	}
	static is(value: unknown): value is NothingToCompact {
		return value instanceof NothingToCompact;
	}
}

/** What the functions need of pi-ai's `Models` collection. */
export interface SummaryModels {
	completeSimple(model: Model, context: Context, options?: SimpleStreamOptions): Promise<AssistantMessage>;
}

/** What the functions read of a harness context. */
export interface SummaryCallContext {
	abortSignal?: AbortSignal;
}

function harnessRequest(
	models: SummaryModels,
	model: Model,
	context: SummaryCallContext | undefined,
	customInstructions?: string,
	thinkingLevel?: ThinkingLevel,
): SummaryRequest {
	return {
		model,
		complete: (m, ctx, options) => models.completeSimple(m, ctx, options),
		...(context?.abortSignal ? { signal: context.abortSignal } : {}),
		...(customInstructions ? { customInstructions } : {}),
		...(thinkingLevel ? { thinkingLevel } : {}),
	};
}

/** The reply's text blocks, joined by a newline. */
function replyTextOf(reply: AssistantMessage): string {
	return reply.content
		.filter((b) => b.type === "text")
		.map((b) => (b as { text: string }).text)
		.join("\n");
}

/** Plans a compaction of a harness branch; `value` is undefined when there is nothing to compact. */
export function prepareCompaction(
	pathEntries: HarnessEntry[],
	settings: CompactionSettings,
): Result<HarnessCompactionPreparation | undefined, CompactionError> {
	return { ok: true, value: prepareHarnessCompaction(pathEntries, settings) };
}

function failed(reply: AssistantMessage, label: string): CompactionError | undefined {
	if (reply.stopReason === "aborted") return new CompactionError("aborted", reply.errorMessage || `${label} aborted`);
	if (reply.stopReason === "error") {
		return new CompactionError("summarization_failed", `${label} failed: ${reply.errorMessage || "Unknown error"}`);
	}
	return undefined;
}

export async function generateSummaryWithUsage(
	currentMessages: AgentMessage[],
	models: SummaryModels,
	model: Model,
	reserveTokens: number,
	customInstructions: string | undefined,
	previousSummary: string | undefined,
	thinkingLevel: ThinkingLevel | undefined,
	_retry: unknown,
	_callbacks: unknown,
	context: SummaryCallContext,
): Promise<Result<{ text: string; usage: Usage }, CompactionError>> {
	const request = harnessRequest(models, model, context, customInstructions, thinkingLevel);
	const instructions = buildSummaryPrompt({
		...(previousSummary ? { previousSummary } : {}),
		...(customInstructions ? { customInstructions } : {}),
	});
	const text = summaryRequestText(convertToLlm(currentMessages), instructions, previousSummary || undefined);
	let reply: AssistantMessage;
	try {
		reply = await askForSummary(request, text, maxSummaryTokens(reserveTokens, model.maxTokens), thinkingLevel);
	} catch (error) {
		return { ok: false, error: new CompactionError("summarization_failed", String(error), error as Error) };
	}
	const error = failed(reply, "Summarization");
	if (error) return { ok: false, error };
	return { ok: true, value: { text: replyTextOf(reply), usage: reply.usage } };
}

export async function generateSummary(
	currentMessages: AgentMessage[],
	models: SummaryModels,
	model: Model,
	reserveTokens: number,
	customInstructions: string | undefined,
	previousSummary: string | undefined,
	thinkingLevel: ThinkingLevel | undefined,
	retry: unknown,
	callbacks: unknown,
	context: SummaryCallContext,
): Promise<Result<string, CompactionError>> {
	const result = await generateSummaryWithUsage(
		currentMessages,
		models,
		model,
		reserveTokens,
		customInstructions,
		previousSummary,
		thinkingLevel,
		retry,
		callbacks,
		context,
	);
	return result.ok ? { ok: true, value: result.value.text } : result;
}

export interface CompactResult {
	summary: string;
	tokensBefore: number;
	usage?: Usage;
	retainedTail: AgentMessage[];
	details?: { readFiles: string[]; modifiedFiles: string[] };
}

/** Summarises a harness preparation (`prepareCompaction`); the file lists are appended and kept in `details`. */
export async function compact(
	preparation: HarnessCompactionPreparation,
	models: SummaryModels,
	model: Model,
	customInstructions: string | undefined,
	thinkingLevel: ThinkingLevel | undefined,
	_retry: unknown,
	_callbacks: unknown,
	context: SummaryCallContext,
): Promise<Result<CompactResult, CompactionError>> {
	const request = harnessRequest(models, model, context, customInstructions, thinkingLevel);
	let generated: { text: string; usage: Usage };
	try {
		generated = await generateCompactionSummary(
			request,
			{ ...preparation, firstKeptEntryId: "", fileOps: { read: [], modified: [] } },
			true,
		);
	} catch (error) {
		const code = context?.abortSignal?.aborted ? "aborted" : "summarization_failed";
		return { ok: false, error: new CompactionError(code, (error as Error).message, error as Error) };
	}
	const { readFiles, modifiedFiles } = computeFileLists(preparation.fileOps);
	return {
		ok: true,
		value: {
			summary: `${generated.text}${formatFileLists({ read: readFiles, modified: modifiedFiles })}`,
			tokensBefore: preparation.tokensBefore,
			usage: generated.usage,
			retainedTail: preparation.retainedTail,
			details: { readFiles, modifiedFiles },
		},
	};
}

export interface HarnessBranchSummaryOptions {
	models: SummaryModels;
	model: Model;
	customInstructions?: string;
	replaceInstructions?: boolean;
	reserveTokens?: number;
	retry?: unknown;
	callbacks?: unknown;
}

/** Summarises abandoned harness entries (output capped at 2048 tokens, as pi-agent-core). */
export async function generateBranchSummary(
	entries: HarnessEntry[],
	options: HarnessBranchSummaryOptions,
	context: SummaryCallContext,
): Promise<
	Result<{ summary: string; usage?: Usage; readFiles: string[]; modifiedFiles: string[] }, BranchSummaryError>
> {
	const window = options.model.contextWindow || 128000;
	const { messages, fileOps } = prepareHarnessBranchEntries(entries, window - (options.reserveTokens ?? 16384));
	if (messages.length === 0) {
		return { ok: true, value: { summary: "No content to summarize", readFiles: [], modifiedFiles: [] } };
	}
	const request = harnessRequest(options.models, options.model, context);
	const text = summaryRequestText(
		convertToLlm(messages),
		branchInstructions(options.customInstructions, options.replaceInstructions),
	);
	const reply = await askForSummary(request, text, 2048);
	if (reply.stopReason === "aborted") {
		return { ok: false, error: new BranchSummaryError("aborted", reply.errorMessage || "Branch summary aborted") };
	}
	if (reply.stopReason === "error") {
		const message = `Branch summary failed: ${reply.errorMessage || "Unknown error"}`;
		return { ok: false, error: new BranchSummaryError("summarization_failed", message) };
	}
	const { readFiles, modifiedFiles } = computeFileLists(fileOps);
	const body = replyTextOf(reply);
	return {
		ok: true,
		value: {
			summary: `${BRANCH_PREAMBLE}${body}${formatFileLists({ read: readFiles, modified: modifiedFiles })}`,
			usage: reply.usage,
			readFiles,
			modifiedFiles,
		},
	};
}

const BRANCH_PREAMBLE = "Before coming back to this point, the user explored another branch. What happened there:\n\n";

/** The harness branch and session reads `collectEntriesForBranchSummary` needs. */
export interface HarnessBranchReader {
	findEntries(query: { start: string }, context: SummaryCallContext): Promise<HarnessEntry[]> | HarnessEntry[];
}
export interface HarnessEntryReader {
	getEntry(id: string, context: SummaryCallContext): Promise<HarnessEntry | undefined> | HarnessEntry | undefined;
}

/** The entries from the old tip back to (not including) the deepest common ancestor with `targetId`, oldest first. */
export async function collectEntriesForBranchSummary(
	branch: HarnessBranchReader,
	session: HarnessEntryReader,
	oldTipId: string | null,
	targetId: string,
	context: SummaryCallContext,
): Promise<{ entries: HarnessEntry[]; commonAncestorId: string | null }> {
	if (!oldTipId) return { entries: [], commonAncestorId: null };
	const oldPath = new Set((await branch.findEntries({ start: oldTipId }, context)).map((entry) => entry.id));
	const targetPath = await branch.findEntries({ start: targetId }, context);
	const commonAncestorId = targetPath.find((entry) => oldPath.has(entry.id))?.id ?? null;
	const entries: HarnessEntry[] = [];
	for (let id: string | null = oldTipId; id && id !== commonAncestorId; ) {
		const entry: HarnessEntry | undefined = await session.getEntry(id, context);
		if (!entry) throw new Error(`Corrupt session: entry ${id} not found`);
		entries.push(entry);
		id = entry.parentId;
	}
	entries.reverse();
	return { entries, commonAncestorId };
}
