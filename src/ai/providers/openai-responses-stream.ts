/**
 * The receiving side of `openai-responses`: Responses API stream events → message builder calls.
 * Output items arrive one at a time (`output_item.added` … deltas … `output_item.done`):
 * - `reasoning` → a thinking block of its summary parts (joined by a blank line, or raw `reasoning_text` from
 *   compatible servers); the finished item's JSON (with `encrypted_content`) becomes the `thinkingSignature`;
 * - `message` → a text block (refusals included); the item id becomes the `textSignature`;
 * - `function_call` → a tool call with id `"<call_id>|<item_id>"` and streamed arguments.
 * The response ends with `response.completed` (usage; `incomplete` at max_output_tokens → "length"),
 * `response.incomplete`, `response.failed` or an `error` event; the last two fail the message.
 */
import { readSseBatches } from "../sse.ts";
import type { MessageBuilder } from "./message-builder.ts";
import { parseEventJson } from "./run.ts";

interface CurrentItem {
	type: "reasoning" | "message" | "function_call";
	/** Whether any content arrived as deltas (else the finished item's content is used). */
	streamed: boolean;
}

export async function consumeResponsesStream(
	providerName: string,
	body: ReadableStream<Uint8Array>,
	builder: MessageBuilder,
): Promise<void> {
	await consumeResponsesEvents(providerName, responsesEvents(providerName, body), builder);
}

/** One parsed stream event and its type (the JSON's `type`, else the SSE event name). */
export interface ResponsesEvent {
	type: string;
	event: any;
}

/** The SSE body as parsed events (`[DONE]` skipped); malformed JSON is a protocol error naming the provider. */
export async function* responsesEvents(
	providerName: string,
	body: ReadableStream<Uint8Array>,
): AsyncGenerator<ResponsesEvent> {
	for await (const batch of readSseBatches(body))
		for (const sse of batch) {
			if (sse.data === "[DONE]") continue;
			const event = parseEventJson(providerName, sse.data);
			yield { type: event?.type ?? sse.event, event };
		}
}

/**
 * Applies Responses events to the builder until the response ends. `end`, when given, takes the place of the
 * standard handling of the terminal `response.completed`/`incomplete`/`failed`/`cancelled` event (a variant of
 * the API with its own stop rules; `noteResponseEnd` does the common part).
 */
export async function consumeResponsesEvents(
	providerName: string,
	events: AsyncIterable<ResponsesEvent>,
	builder: MessageBuilder,
	end: (builder: MessageBuilder, response: any) => void = (b, response) => endResponse(providerName, b, response),
): Promise<void> {
	let current: CurrentItem | undefined;
	for await (const { type, event } of events) {
		switch (type) {
			case "response.created":
			case "response.in_progress":
				noteResponse(builder, event.response);
				builder.start();
				break;
			case "response.output_item.added": {
				const item = event.item ?? {};
				if (!builder.close()) return;
				current = undefined;
				if (item.type === "reasoning") {
					builder.thinking("");
					current = { type: "reasoning", streamed: false };
				} else if (item.type === "message") {
					builder.text("");
					current = { type: "message", streamed: false };
				} else if (item.type === "function_call") {
					builder.toolCall(toolCallId(item), item.name ?? "");
					current = { type: "function_call", streamed: false };
					if (item.arguments) {
						builder.toolArguments(item.arguments);
						current.streamed = true;
					}
				}
				break;
			}
			case "response.reasoning_summary_part.added":
				if (current?.type === "reasoning" && current.streamed) builder.thinking("\n\n");
				break;
			case "response.reasoning_summary_text.delta":
			case "response.reasoning_text.delta":
				if (current?.type !== "reasoning" || !event.delta) break;
				builder.thinking(event.delta);
				current.streamed = true;
				break;
			case "response.output_text.delta":
			case "response.refusal.delta":
				if (!event.delta) break;
				builder.text(event.delta);
				if (current?.type === "message") current.streamed = true;
				break;
			case "response.function_call_arguments.delta":
				if (current?.type !== "function_call" || !event.delta) break;
				builder.toolArguments(event.delta);
				current.streamed = true;
				break;
			case "response.function_call_arguments.done":
				if (current?.type !== "function_call" || current.streamed || !event.arguments) break;
				builder.toolArguments(event.arguments);
				current.streamed = true;
				break;
			case "response.output_item.done":
				if (!finishItem(builder, current, event.item ?? {})) return;
				current = undefined;
				break;
			case "response.completed":
			case "response.incomplete":
			case "response.failed":
			case "response.cancelled":
				end(builder, event.response ?? {});
				return;
			case "error": {
				const error = event.error ?? event;
				const code = error.code ?? (error === event ? undefined : error.type);
				builder.fail(`${providerName} API error: ${error.message ?? "stream error"}${code ? ` [${code}]` : ""}`);
				return;
			}
		}
	}
}

/** Completes the open item from its final form (content that arrived only there, ids, the reasoning payload). */
function finishItem(builder: MessageBuilder, current: CurrentItem | undefined, item: any): boolean {
	if (!current || current.type !== item.type) return true;
	if (item.type === "reasoning") {
		if (!current.streamed) {
			const parts: any[] = Array.isArray(item.summary) ? item.summary : [];
			builder.thinking(parts.map((p) => p?.text ?? "").join("\n\n"));
		}
		builder.setThinkingSignature(JSON.stringify(item));
	} else if (item.type === "message") {
		if (!current.streamed) {
			const parts: any[] = Array.isArray(item.content) ? item.content : [];
			builder.text(parts.map((p) => p?.text ?? p?.refusal ?? "").join(""));
		}
		if (typeof item.id === "string") builder.text("", textSignature(item.id, item.phase));
	} else {
		if (!current.streamed && item.arguments) builder.toolArguments(item.arguments);
		if (item.call_id) builder.updateToolCall({ id: toolCallId(item) });
		if (item.name) builder.updateToolCall({ name: item.name });
	}
	return builder.close();
}

function toolCallId(item: any): string {
	const callId = String(item.call_id ?? item.id ?? "");
	return item.id && item.id !== callId ? `${callId}|${item.id}` : callId;
}

/** A message item's id as pi-ai signs text blocks: `{"v":1,"id":…}`, with the item's `phase` when it has one. */
function textSignature(id: string, phase: unknown): string {
	return JSON.stringify(typeof phase === "string" && phase !== "" ? { v: 1, id, phase } : { v: 1, id });
}

function noteResponse(builder: MessageBuilder, response: any): void {
	if (!response) return;
	if (typeof response.id === "string") builder.message.responseId = response.id;
}

/** The common part of a response's end: its id, the usage it reports and the raw stop reason. */
export function noteResponseEnd(builder: MessageBuilder, response: any): void {
	noteResponse(builder, response);
	const usage = response.usage;
	if (usage) {
		const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);
		// input_tokens includes the cached and cache-written tokens.
		const cached = count(usage.input_tokens_details?.cached_tokens);
		const written = count(usage.input_tokens_details?.cache_write_tokens);
		const total = count(usage.total_tokens);
		builder.reportedUsage({
			input: Math.max(0, count(usage.input_tokens) - cached - written),
			output: count(usage.output_tokens),
			cacheRead: cached,
			cacheWrite: written,
			reasoning: count(usage.output_tokens_details?.reasoning_tokens),
			...(total > 0 ? { totalTokens: total } : {}),
		});
	}
	const incomplete = response.incomplete_details?.reason;
	if (typeof response.status === "string") {
		builder.message.rawStopReason =
			typeof incomplete === "string" && incomplete !== "" ? `${response.status}.${incomplete}` : response.status;
	}
}

function endResponse(providerName: string, builder: MessageBuilder, response: any): void {
	noteResponseEnd(builder, response);
	const status: string = response.status ?? "completed";
	if (status === "failed" || status === "cancelled") {
		const error = response.error ?? {};
		const detail = error.message ?? `response ${status}`;
		builder.fail(`${providerName} API error: ${detail}${error.code ? ` [${error.code}]` : ""}`);
	} else if (status === "incomplete") {
		const reason = response.incomplete_details?.reason;
		if (reason === "max_output_tokens") builder.finish("length");
		else builder.fail(`${providerName} response incomplete: ${reason ?? "unknown reason"}`);
	} else {
		builder.finish("stop");
	}
}
