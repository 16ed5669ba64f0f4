/**
 * The model calls of a compaction: the summary of the older turns (a rolling update when an earlier summary exists)
 * and, for a split turn, the summary of the turn's early part, requested in parallel and merged into one text.
 * Output budgets follow pi (80 % / 50 % of `reserveTokens`, capped by the model's `maxTokens`).
 */
import type { AgentMessage, StreamFn, ThinkingLevel } from "../agent/index.ts";
import {
	type AssistantMessage,
	type Context,
	completeSimple,
	isContextOverflow,
	type Model,
	type SimpleStreamOptions,
	type Usage,
} from "../ai/index.ts";
import {
	buildSummaryPrompt,
	buildTurnPrefixPrompt,
	type CompactionPreparation,
	maxSummaryTokens,
	SUMMARY_SYSTEM_PROMPT,
	summaryRequestText,
	turnPrefixRequestText,
} from "../compaction/index.ts";
import { convertToLlm } from "./convert-to-llm.ts";
import type { SessionEvent, SummarizationSource } from "./events.ts";
import { type RetrySettings, retryDelay, sleepAbortable } from "./retry.ts";

export interface GeneratedSummary {
	/** The summary text, without the file lists. */
	text: string;
	/** What the summary requests cost, summed. */
	usage: Usage;
}

export interface SummaryRequest {
	model: Model;
	apiKey?: string;
	customInstructions?: string;
	signal?: AbortSignal;
	/** The session's thinking level: a reasoning model summarises at it (compaction only, as pi). */
	thinkingLevel?: ThinkingLevel;
	/** Headers for the provider request. */
	headers?: Record<string, string>;
	/** Routing id for the provider (no prompt cache is written either way). */
	sessionId?: string;
	/** Sends the request instead of the provider registry (pi's `streamFn` parameter). */
	streamFn?: StreamFn;
	/** Sends the request and gives the whole reply (pi-agent-core's `models.completeSimple`). */
	complete?: (model: Model, context: Context, options: SimpleStreamOptions) => Promise<AssistantMessage>;
	/** Retrying transient failures; without it a failed request fails the summary at once. */
	retry?: SummaryRetry;
}

/**
 * A summary request that fails transiently (overload, rate limit, dropped stream) is retried with the same
 * settings and backoff as an agent turn, and the session hears about it through `summarization_retry_*` events.
 */
export interface SummaryRetry {
	settings: RetrySettings;
	source: SummarizationSource;
	emit(event: SessionEvent): Promise<void>;
}

/**
 * The request of every summary: the summariser's role and rules as the system prompt, one user message with the
 * transcript and the instructions, and no tools (pi 0.87.1 sends the same shape).
 */
export function summaryContext(userText: string): Context {
	return {
		systemPrompt: SUMMARY_SYSTEM_PROMPT,
		messages: [{ role: "user", content: [{ type: "text", text: userText }], timestamp: Date.now() }],
	};
}

/**
 * Asks the model for one summary over `userText` (see `summaryContext`), retrying transient failures when the
 * request says so. Summaries write no prompt cache (`cacheRetention: "none"`). The reply comes back as the model gave
 * it (check it with `replyText`); an abort while waiting to retry gives the failed reply marked "aborted".
 */
export async function askForSummary(
	request: SummaryRequest,
	userText: string,
	maxTokens: number,
	reasoning?: ThinkingLevel,
): Promise<AssistantMessage> {
	const retry = request.retry;
	let attempt = 0;
	const finish = async (reply: AssistantMessage) => {
		if (attempt > 0) await retry?.emit({ type: "summarization_retry_finished" });
		return reply;
	};
	const options: SimpleStreamOptions = {
		maxTokens,
		cacheRetention: "none",
		...(request.apiKey ? { apiKey: request.apiKey } : {}),
		...(request.headers ? { headers: request.headers } : {}),
		...(request.sessionId ? { sessionId: request.sessionId } : {}),
		...(request.signal ? { signal: request.signal } : {}),
		...(reasoning && reasoning !== "off" && request.model.reasoning ? { reasoning } : {}),
	};
	for (;;) {
		const context = summaryContext(userText);
		const reply = request.complete
			? await request.complete(request.model, context, options)
			: request.streamFn
				? await (await request.streamFn(request.model, context, options)).result()
				: await completeSimple(request.model, context, options);
		if (reply.stopReason !== "error" || !retry) return finish(reply);
		const delayMs = retryDelay(reply, attempt + 1, retry.settings);
		if (delayMs === undefined) return finish(reply);
		attempt++;
		await retry.emit({
			type: "summarization_retry_scheduled",
			attempt,
			maxAttempts: retry.settings.maxRetries,
			delayMs,
			errorMessage: reply.errorMessage || "Unknown error",
		});
		if (!(await sleepAbortable(delayMs, request.signal ?? new AbortController().signal))) {
			const { errorMessage: _dropped, ...rest } = reply;
			return finish({ ...rest, stopReason: "aborted" });
		}
		await retry.emit({ type: "summarization_retry_attempt_start", ...retry.source });
	}
}

/**
 * The reply's text blocks (joined by a newline, as pi), or an error naming what failed: an error or aborted reply,
 * a summary cut at the token cap, or a reply that tried to call a tool.
 */
export function replyText(reply: AssistantMessage, label: string): string {
	if (reply.stopReason === "error" || reply.stopReason === "aborted") {
		throw new Error(`${label} failed: ${reply.errorMessage || reply.stopReason}`);
	}
	if (reply.stopReason === "length") {
		throw new Error(`${label} failed: generation hit the token cap and the summary is incomplete`);
	}
	if (reply.content.some((b) => b.type === "toolCall")) throw new Error(`${label} attempted to call a tool`);
	return reply.content
		.filter((b) => b.type === "text")
		.map((b) => (b as { text: string }).text)
		.join("\n");
}

/** Writes the compaction summary for a preparation. */
export async function generateCompactionSummary(
	request: SummaryRequest,
	preparation: CompactionPreparation,
	/** pi-agent-core wraps the split turn's prefix in `<conversation>` tags too (the session uses `# Conversation`). */
	prefixInTags = false,
): Promise<GeneratedSummary> {
	const { reserveTokens } = preparation.settings;
	const instructions = buildSummaryPrompt({
		...(preparation.previousSummary !== undefined ? { previousSummary: preparation.previousSummary } : {}),
		...(request.customInstructions ? { customInstructions: request.customInstructions } : {}),
	});
	const maxTokens = maxSummaryTokens(reserveTokens, request.model.maxTokens);
	// A transcript too long for the summary model itself is retried on its newer half, up to three times.
	const summarise = async (messages: AgentMessage[]): Promise<AssistantMessage> => {
		let slice = messages;
		for (let attempt = 0; ; attempt++) {
			const text = summaryRequestText(convertToLlm(slice), instructions, preparation.previousSummary);
			const reply = await askForSummary(request, text, maxTokens, request.thinkingLevel);
			if (!isContextOverflow(reply) || attempt >= 3 || slice.length < 2) return reply;
			slice = slice.slice(Math.floor(slice.length / 2));
		}
	};
	const split = preparation.isSplitTurn && preparation.turnPrefixMessages.length > 0;
	const history = split && preparation.messagesToSummarize.length === 0 ? undefined : preparation.messagesToSummarize;
	const [main, prefix] = await Promise.all([
		history ? summarise(history) : Promise.resolve(undefined),
		split
			? askForSummary(
					request,
					(prefixInTags ? summaryRequestText : turnPrefixRequestText)(
						convertToLlm(preparation.turnPrefixMessages),
						buildTurnPrefixPrompt(),
					),
					maxSummaryTokens(reserveTokens, request.model.maxTokens, true),
					request.thinkingLevel,
				)
			: Promise.resolve(undefined),
	]);
	// Only the turn prefix is new: the earlier summary (if any) stays the history part.
	const historyText = main ? replyText(main, "Summarization") : (preparation.previousSummary ?? "No prior history.");
	if (!prefix) return { text: historyText, usage: (main as AssistantMessage).usage };
	const prefixText = replyText(prefix, "Turn prefix summarization");
	return {
		text: `${historyText}\n\n---\n\n**Turn Context (split turn):**\n\n${prefixText}`,
		usage: main ? addUsage(main.usage, prefix.usage) : prefix.usage,
	};
}

/** The usage of two summary requests added up (`cacheWrite1h` and `reasoning` when either reports them). */
export function addUsage(a: Usage, b: Usage): Usage {
	return {
		input: a.input + b.input,
		output: a.output + b.output,
		cacheRead: a.cacheRead + b.cacheRead,
		cacheWrite: a.cacheWrite + b.cacheWrite,
		...(a.cacheWrite1h !== undefined || b.cacheWrite1h !== undefined
			? { cacheWrite1h: (a.cacheWrite1h ?? 0) + (b.cacheWrite1h ?? 0) }
			: {}),
		...(a.reasoning !== undefined || b.reasoning !== undefined
			? { reasoning: (a.reasoning ?? 0) + (b.reasoning ?? 0) }
			: {}),
		totalTokens: a.totalTokens + b.totalTokens,
		cost: {
			input: a.cost.input + b.cost.input,
			output: a.cost.output + b.cost.output,
			cacheRead: a.cost.cacheRead + b.cost.cacheRead,
			cacheWrite: a.cost.cacheWrite + b.cost.cacheWrite,
			total: a.cost.total + b.cost.total,
		},
	};
}
