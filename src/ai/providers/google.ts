/**
 * `google-generative-ai`: the Gemini API (`models/{id}:streamGenerateContent?alt=sse`) over fetch + SSE.
 * Thinking (thought parts and thought signatures), function calling (Gemini sends each call's arguments whole, and
 * usually no id: ids are generated), images, and Gemini's finish reasons. The stream has no end event: it is
 * complete when the body ends after a chunk with a finishReason.
 */
import { joinUrl, ProviderError, postJson } from "../http.ts";
import { readSseBatches } from "../sse.ts";
import type { Context, Model, SimpleStreamOptions } from "../types.ts";
import {
	buildRequest,
	type GoogleBudgetTable,
	type GoogleOptions,
	googleBudget,
	googleLevel,
	usesThinkingLevels,
} from "./google-request.ts";
import type { MessageBuilder } from "./message-builder.ts";
import { parseEventJson, runProviderStream } from "./run.ts";
import { maxOutputTokens, supportedLevel } from "./simple-options.ts";

export { buildRequest, type GoogleOptions, type GoogleThinking } from "./google-request.ts";

const NAME = "Google";

export function streamGoogle(model: Model, context: Context, options?: GoogleOptions) {
	return runProviderStream(NAME, model, options, async (builder) => {
		const response = await postJson({
			providerName: NAME,
			url: joinUrl(model.baseUrl, `models/${model.id.replace(/^models\//, "")}:streamGenerateContent?alt=sse`),
			headers: buildHeaders(model, options),
			body: buildRequest(model, context, options),
			model,
			options,
		});
		await consumeGenerateContentStream(NAME, response.body as ReadableStream<Uint8Array>, builder);
	});
}

/**
 * pi-ai's rules: no level turns thinking off (budget 0, or the model's lowest level for level-based models); Gemini
 * 3 style models get a `thinkingLevel`, others a token budget (fixed tables for Gemini 2.5, else -1: dynamic).
 */
export function streamSimpleGoogle(model: Model, context: Context, options?: SimpleStreamOptions) {
	return streamGoogle(model, context, simpleGoogleOptions(model, context, options, "gemini"));
}

/** The `GoogleOptions` a simple request becomes (shared with `google-vertex`, whose budget table differs). */
export function simpleGoogleOptions(
	model: Model,
	context: Context,
	options: SimpleStreamOptions | undefined,
	budgets: GoogleBudgetTable,
): GoogleOptions {
	const base = { ...options, maxTokens: maxOutputTokens(model, context, options) };
	const level = options?.reasoning ? supportedLevel(model, options.reasoning) : undefined;
	if (!level) return { ...base, thinking: { enabled: false } };
	const resolved = googleLevel(model, level);
	if (usesThinkingLevels(model)) return { ...base, thinking: { enabled: true, level: resolved.toUpperCase() } };
	const budget = options?.thinkingBudgets?.[resolved] ?? googleBudget(model, resolved, budgets);
	return { ...base, thinking: { enabled: true, budgetTokens: budget } };
}

function buildHeaders(model: Model, options: GoogleOptions | undefined): Record<string, string> {
	const headers: Record<string, string> = { accept: "text/event-stream" };
	if (options?.apiKey) headers["x-goog-api-key"] = options.apiKey;
	return { ...headers, ...model.headers, ...options?.headers };
}

// ---- response stream ---------------------------------------------------------------------------------------

/** Finish reasons that end the reply normally; every other one is an error (the content is kept). */
const FINISH_REASONS: Record<string, "stop" | "length"> = { STOP: "stop", MAX_TOKENS: "length" };
const FINISH_EXPLANATIONS: Record<string, string> = {
	SAFETY: "blocked by the safety filters",
	RECITATION: "blocked for reciting training data",
	LANGUAGE: "unsupported language",
	BLOCKLIST: "blocked by a terms blocklist",
	PROHIBITED_CONTENT: "blocked for prohibited content",
	SPII: "blocked for sensitive personal information",
	IMAGE_SAFETY: "image blocked by the safety filters",
	MALFORMED_FUNCTION_CALL: "the model produced a malformed function call",
	UNEXPECTED_TOOL_CALL: "the model called a tool that was not offered",
	TOO_MANY_TOOL_CALLS: "too many tool calls in a row",
	OTHER: "stopped for an unspecified reason",
};

let generatedIds = 0;

/**
 * Reads a `streamGenerateContent?alt=sse` body into `builder` (the Gemini API and Vertex AI send the same chunks);
 * `providerName` starts the messages of in-stream errors.
 */
export async function consumeGenerateContentStream(
	providerName: string,
	body: ReadableStream<Uint8Array>,
	builder: MessageBuilder,
): Promise<void> {
	let finish: "stop" | "length" | undefined;
	for await (const batch of readSseBatches(body))
		for (const sse of batch) {
			const chunk = parseEventJson(providerName, sse.data);
			if (typeof chunk !== "object" || chunk === null) {
				throw new ProviderError(`${providerName} sent malformed stream data: ${sse.data.slice(0, 200)}`);
			}
			if (chunk.error) {
				const { code, message, status } =
					typeof chunk.error === "object" ? chunk.error : { message: String(chunk.error) };
				// As pi-ai: the open block is ended before the error.
				builder.close();
				builder.fail(
					`${providerName} API error${code ? ` ${code}` : ""}: ${message ?? "stream error"}${status ? ` [${status}]` : ""}`,
				);
				return;
			}
			if (typeof chunk.responseId === "string") builder.message.responseId ??= chunk.responseId;
			applyUsage(builder, chunk.usageMetadata);
			builder.start();
			const candidate = chunk.candidates?.[0];
			for (const part of candidate?.content?.parts ?? []) if (!applyPart(builder, part)) return;
			const blocked = chunk.promptFeedback?.blockReason;
			if (blocked && !candidate) {
				const detail = chunk.promptFeedback.blockReasonMessage;
				builder.fail(`${providerName} blocked the prompt (blockReason ${blocked})${detail ? `: ${detail}` : ""}`);
				return;
			}
			const reason = candidate?.finishReason;
			if (typeof reason === "string" && reason !== "") builder.message.rawStopReason = reason;
			if (typeof reason === "string" && reason !== "FINISH_REASON_UNSPECIFIED") {
				finish = FINISH_REASONS[reason];
				if (!finish) {
					const why = FINISH_EXPLANATIONS[reason];
					const detail = candidate.finishMessage;
					builder.close();
					builder.fail(
						`${providerName} ended the response with finishReason ${reason}${why ? ` (${why})` : ""}${detail ? `: ${detail}` : ""}`,
					);
					return;
				}
			}
		}
	// No finishReason: the connection was cut; the runner reports it.
	if (finish) builder.finish(finish);
}

/**
 * One part of a candidate, as pi-ai reads it: its text first (an empty text still opens or continues a block, as
 * Gemini's closing `{text: ""}` parts do in pi), then its function call. Returns false when the message failed.
 */
function applyPart(builder: MessageBuilder, part: any): boolean {
	if (typeof part !== "object" || part === null) return true;
	const signature =
		typeof part.thoughtSignature === "string" && part.thoughtSignature !== "" ? part.thoughtSignature : undefined;
	if (typeof part.text === "string") {
		if (part.thought === true) {
			builder.thinking(part.text, undefined, true);
			if (signature) builder.setThinkingSignature(signature);
		} else {
			builder.text(part.text, signature, true);
		}
	}
	if (part.functionCall) {
		const call = part.functionCall;
		const name = typeof call.name === "string" ? call.name : "";
		builder.toolCall(toolCallId(builder, call.id, name), name, signature ? { thoughtSignature: signature } : {});
		// Gemini sends the arguments whole: one delta, then the call is complete.
		builder.toolArguments(JSON.stringify(call.args ?? {}));
		return builder.close();
	}
	return true;
}

/** Gemini's id when it sends one (and it is unused in this message), else `<name>_<counter>_<random>`. */
function toolCallId(builder: MessageBuilder, id: unknown, name: string): string {
	const taken = (candidate: string) => builder.message.content.some((b) => b.type === "toolCall" && b.id === candidate);
	if (typeof id === "string" && id !== "" && !taken(id)) return id;
	return `${name || "call"}_${++generatedIds}_${Math.random().toString(36).slice(2, 10)}`;
}

function applyUsage(builder: MessageBuilder, usage: any): void {
	if (typeof usage !== "object" || usage === null) return;
	const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);
	// promptTokenCount includes the cached tokens; the thoughts are output too (and reported as reasoning).
	const cached = count(usage.cachedContentTokenCount);
	const thoughts = count(usage.thoughtsTokenCount);
	const total = count(usage.totalTokenCount);
	builder.reportedUsage({
		input: Math.max(0, count(usage.promptTokenCount) - cached),
		output: count(usage.candidatesTokenCount) + thoughts,
		cacheRead: cached,
		cacheWrite: 0,
		reasoning: thoughts,
		...(total > 0 ? { totalTokens: total } : {}),
	});
}
