/**
 * `mistral-conversations`: Mistral's native chat completions endpoint (`<baseUrl>/v1/chat/completions`) over fetch +
 * SSE, with the event sequence pi-ai 0.87.1 gives for the same bytes:
 * - `start` once the server answered OK; text and thinking blocks close when another kind of content arrives;
 * - tool calls (keyed by `index`, else id) open as their first piece arrives and all close at the end of the stream,
 *   in the order they opened;
 * - `finish_reason` sets the stop reason as sent (`tool_calls` → toolUse, `length`/`model_length` → length); any
 *   other reason fails the message ("Provider stopped with: …"), as does a stream without one;
 * - usage counts cached prompt tokens as cache reads and keeps the server's `total_tokens`.
 * HTTP errors read `Mistral API error (<status>): <body>`, which the retry and overflow rules classify.
 */
import { retryAfterNote } from "../errors.ts";
import { createAssistantMessageEventStream } from "../event-stream.ts";
import { joinUrl } from "../http.ts";
import { fetchWithIdleTimeout } from "../idle-fetch.ts";
import { parseStreamingJson } from "../partial-json.ts";
import { readSseBatches } from "../sse.ts";
import type {
	AssistantMessage,
	AssistantMessageEventStream,
	Context,
	Model,
	SimpleStreamOptions,
	TextContent,
	ThinkingContent,
	ToolCall,
} from "../types.ts";
import { calculateCost, emptyUsage } from "../usage.ts";
import {
	buildMistralRequest,
	type MistralOptions,
	mistralToolCallId,
	usesPromptCaching,
	usesReasoningEffort,
} from "./mistral-request.ts";
import { maxOutputTokens, supportedLevel } from "./simple-options.ts";

export type { MistralOptions } from "./mistral-request.ts";

const MAX_ERROR_BODY = 4000;

class MistralHttpError extends Error {
	constructor(
		readonly status: number,
		readonly body: string,
		note = "",
	) {
		const text = body.trim();
		const shown =
			text.length > MAX_ERROR_BODY
				? `${text.slice(0, MAX_ERROR_BODY)}... [truncated ${text.length - MAX_ERROR_BODY} chars]`
				: text;
		super(`Mistral API error (${status}): ${shown || `Request failed with status ${status}`}${note}`);
	}
}

export function streamMistral(model: Model, context: Context, options?: MistralOptions): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const output: AssistantMessage = {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: emptyUsage(),
		stopReason: "pending",
		timestamp: Date.now(),
	};
	void (async () => {
		try {
			if (!options?.apiKey) throw new Error(`No API key for provider: ${model.provider}`);
			let body = buildMistralRequest(model, context, options);
			const replaced = await options.onPayload?.(body, model);
			if (replaced !== undefined) body = replaced;
			const response = await send(model, body, options);
			stream.push({ type: "start", partial: output });
			await consume(model, output, stream, response.body as ReadableStream<Uint8Array>, options.signal);
			if (options.signal?.aborted) throw new Error("Request was aborted");
			if (output.stopReason === "pending") throw new Error("Mistral stream ended without a finish reason");
			if (output.stopReason === "error" || output.stopReason === "aborted") {
				throw new Error(output.errorMessage || "An unknown error occurred");
			}
			stream.push({ type: "done", reason: output.stopReason, message: output });
		} catch (error) {
			output.stopReason = options?.signal?.aborted ? "aborted" : "error";
			// As pi-ai: an abort reports the signal's reason (its message), else what was thrown.
			const reason = output.stopReason === "aborted" ? (options?.signal?.reason ?? error) : error;
			output.errorMessage = reason instanceof Error ? reason.message : String(reason);
			stream.push({ type: "error", reason: output.stopReason, error: output });
		}
		stream.end();
	})();
	return stream;
}

export function streamSimpleMistral(model: Model, context: Context, options?: SimpleStreamOptions) {
	const level = model.reasoning && options?.reasoning ? supportedLevel(model, options.reasoning) : undefined;
	const { reasoning: _level, thinkingBudgets: _budgets, ...rest } = options ?? {};
	const effort = level && usesReasoningEffort(model);
	return streamMistral(model, context, {
		...rest,
		maxTokens: maxOutputTokens(model, context, options),
		...(level && !effort ? { promptMode: "reasoning" as const } : {}),
		...(level && effort ? { reasoningEffort: (model.thinkingLevelMap?.[level] as "high" | null) ?? "high" } : {}),
	});
}

async function send(model: Model, body: unknown, options: MistralOptions): Promise<Response> {
	const headers: Record<string, string> = {
		accept: "text/event-stream",
		authorization: `Bearer ${options.apiKey}`,
		"content-type": "application/json",
	};
	const overrides = [model.headers, options.headers];
	for (const set of overrides) for (const [name, value] of Object.entries(set ?? {})) setHeader(headers, name, value);
	const explicitAffinity = overrides.some((set) =>
		Object.keys(set ?? {}).some((n) => n.toLowerCase() === "x-affinity"),
	);
	if (usesPromptCaching(options) && !explicitAffinity) headers["x-affinity"] = options.sessionId;
	const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000);
	const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
	const response = await fetchWithIdleTimeout(joinUrl(model.baseUrl, "v1/chat/completions"), {
		method: "POST",
		headers,
		body: JSON.stringify(body),
		signal,
	});
	if (options.onResponse) {
		const seen: Record<string, string> = {};
		response.headers.forEach((value, key) => {
			seen[key] = value;
		});
		await options.onResponse({ status: response.status, headers: seen }, model);
	}
	if (!response.ok) {
		throw new MistralHttpError(response.status, await response.text(), retryAfterNote(response.headers));
	}
	if (!response.body) throw new Error("Mistral response has no body");
	return response;
}

/** Sets a header case-insensitively; `null` removes it. */
function setHeader(headers: Record<string, string>, name: string, value: string | null): void {
	for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
	if (value !== null) headers[name.toLowerCase()] = value;
}

type Open = TextContent | ThinkingContent | null;
type StreamingCall = ToolCall & { json: string };

async function consume(
	model: Model,
	output: AssistantMessage,
	stream: ReturnType<typeof createAssistantMessageEventStream>,
	body: ReadableStream<Uint8Array>,
	signal: AbortSignal | undefined,
): Promise<void> {
	let open: Open = null;
	const calls = new Map<number | string, number>();
	const last = () => output.content.length - 1;
	const close = () => {
		if (open?.type === "text")
			stream.push({ type: "text_end", contentIndex: last(), content: open.text, partial: output });
		if (open?.type === "thinking") {
			stream.push({ type: "thinking_end", contentIndex: last(), content: open.thinking, partial: output });
		}
		open = null;
	};
	const text = (delta: string) => {
		if (open?.type !== "text") {
			close();
			open = { type: "text", text: "" };
			output.content.push(open);
			stream.push({ type: "text_start", contentIndex: last(), partial: output });
		}
		open.text += delta;
		stream.push({ type: "text_delta", contentIndex: last(), delta, partial: output });
	};
	const thinking = (delta: string) => {
		if (open?.type !== "thinking") {
			close();
			open = { type: "thinking", thinking: "" };
			output.content.push(open);
			stream.push({ type: "thinking_start", contentIndex: last(), partial: output });
		}
		open.thinking += delta;
		stream.push({ type: "thinking_delta", contentIndex: last(), delta, partial: output });
	};
	const toolPiece = (piece: any) => {
		close();
		const id =
			typeof piece.id === "string" && piece.id !== "" && piece.id !== "null"
				? piece.id
				: mistralToolCallId(`toolcall:${piece.index ?? 0}`);
		const key = piece.index ?? id;
		let index = calls.get(key);
		if (index === undefined || output.content[index]?.type !== "toolCall") {
			const block: StreamingCall = { type: "toolCall", id, name: piece.function?.name, arguments: {}, json: "" };
			Object.defineProperty(block, "json", { enumerable: false, writable: true });
			index = output.content.push(block) - 1;
			calls.set(key, index);
			stream.push({ type: "toolcall_start", contentIndex: index, partial: output });
		}
		const block = output.content[index] as StreamingCall;
		const raw = piece.function?.arguments;
		const delta = typeof raw === "string" ? raw : JSON.stringify(raw || {});
		block.json += delta;
		block.arguments = parseStreamingJson(block.json);
		stream.push({ type: "toolcall_delta", contentIndex: index, delta, partial: output });
	};

	outer: for await (const batch of readSseBatches(body)) {
		for (const event of batch) {
			if (signal?.aborted) throw signal.reason;
			const data = event.data.trim();
			if (data === "") continue;
			if (data === "[DONE]") break outer;
			const chunk = JSON.parse(data);
			if (!chunk || typeof chunk !== "object" || !Array.isArray(chunk.choices)) {
				throw new Error("Invalid Mistral streaming event");
			}
			output.responseId ||= chunk.id;
			if (chunk.usage) applyUsage(model, output, chunk.usage);
			const choice = chunk.choices[0];
			if (!choice) continue;
			if (choice.finish_reason) {
				output.rawStopReason = choice.finish_reason;
				applyFinish(output, choice.finish_reason);
			}
			const delta = choice.delta ?? {};
			if (delta.content !== null && delta.content !== undefined) {
				for (const item of typeof delta.content === "string" ? [delta.content] : delta.content) {
					if (typeof item === "string") text(sanitize(item));
					else if (item?.type === "text") text(sanitize(item.text ?? ""));
					else if (item?.type === "thinking") {
						const parts = (item.thinking ?? []).map((p: any) => p?.text ?? "").join("");
						if (parts !== "") thinking(sanitize(parts));
					}
				}
			}
			for (const piece of delta.tool_calls ?? []) toolPiece(piece);
		}
	}
	close();
	for (const index of calls.values()) {
		const block = output.content[index] as StreamingCall;
		block.arguments = parseStreamingJson(block.json);
		stream.push({ type: "toolcall_end", contentIndex: index, toolCall: block, partial: output });
	}
}

function applyFinish(output: AssistantMessage, reason: string): void {
	if (reason === "stop") output.stopReason = "stop";
	else if (reason === "length" || reason === "model_length") output.stopReason = "length";
	else if (reason === "tool_calls") output.stopReason = "toolUse";
	else {
		output.stopReason = "error";
		output.errorMessage = `Provider stopped with: ${reason}`;
	}
}

function applyUsage(model: Model, output: AssistantMessage, usage: any): void {
	const prompt = usage.prompt_tokens || 0;
	const rawCached =
		usage.promptTokensDetails?.cachedTokens ??
		usage.prompt_tokens_details?.cached_tokens ??
		usage.promptTokenDetails?.cachedTokens ??
		usage.prompt_token_details?.cached_tokens ??
		usage.numCachedTokens ??
		usage.num_cached_tokens ??
		0;
	const cached = Math.min(
		prompt,
		Math.max(0, typeof rawCached === "number" && Number.isFinite(rawCached) ? rawCached : 0),
	);
	const u = output.usage;
	u.input = Math.max(0, prompt - cached);
	u.output = usage.completion_tokens || 0;
	u.cacheRead = cached;
	u.cacheWrite = 0;
	u.totalTokens = usage.total_tokens || u.input + u.output + u.cacheRead;
	calculateCost(model, u);
}

/** Drops lone UTF-16 surrogates (servers reject them when the text is sent back). */
function sanitize(text: string): string {
	return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "");
}
