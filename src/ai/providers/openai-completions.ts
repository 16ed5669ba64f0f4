/**
 * `openai-completions`: the OpenAI Chat Completions API over fetch + SSE, for OpenAI and the many servers that
 * speak it (Groq, OpenRouter, DeepSeek, Ollama, vLLM, ...). Server differences are `model.compat` flags; the
 * request side lives in `openai-completions-request.ts`.
 *
 * Stream rules: `data: [DONE]` ends the response; a server that closes the connection after sending a
 * `finish_reason` (without [DONE]) also ends it cleanly; a chunk carrying `error` fails the message.
 * Tool calls arrive as pieces keyed by `index` (see `ToolCallAssembler` for interleaved calls).
 */
import { joinUrl, postJson } from "../http.ts";
import { parseToolArguments } from "../partial-json.ts";
import { readSseBatches } from "../sse.ts";
import type { Context, Model, SimpleStreamOptions } from "../types.ts";
import { copilotRequestHeaders } from "./github-copilot-headers.ts";
import type { MessageBuilder } from "./message-builder.ts";
import {
	buildRequest,
	type OpenAICompletionsOptions,
	type ResolvedCompat,
	resolveCompat,
} from "./openai-completions-request.ts";
import { parseEventJson, runProviderStream } from "./run.ts";
import { maxOutputTokens, supportedLevel } from "./simple-options.ts";

export type { OpenAICompletionsOptions } from "./openai-completions-request.ts";

/** "OpenAI" for api.openai.com, else the model's provider ("groq", "openrouter", ...), for error messages. */
function providerName(model: Model, compat: ResolvedCompat): string {
	return compat.isOpenAI ? "OpenAI" : model.provider || "OpenAI-compatible server";
}

export function streamOpenAICompletions(model: Model, context: Context, options?: OpenAICompletionsOptions) {
	const compat = resolveCompat(model);
	const name = providerName(model, compat);
	return runProviderStream(name, model, options, async (builder) => {
		const response = await postJson({
			providerName: name,
			url: joinUrl(model.baseUrl, "chat/completions"),
			headers: buildHeaders(model, options, copilotRequestHeaders(model, context.messages)),
			body: buildRequest(model, context, options, compat),
			model,
			options,
		});
		await consume(name, response.body as ReadableStream<Uint8Array>, builder);
	});
}

export function streamSimpleOpenAICompletions(model: Model, context: Context, options?: SimpleStreamOptions) {
	const level = options?.reasoning ? supportedLevel(model, options.reasoning) : undefined;
	const { reasoning: _level, thinkingBudgets: _budgets, ...rest } = options ?? {};
	return streamOpenAICompletions(model, context, {
		...rest,
		maxTokens: maxOutputTokens(model, context, options),
		...(level ? { reasoningEffort: level } : {}),
	});
}

function buildHeaders(
	model: Model,
	options: OpenAICompletionsOptions | undefined,
	perRequest: Record<string, string>,
): Record<string, string> {
	const headers: Record<string, string> = { accept: "text/event-stream" };
	// Local servers (Ollama, llama.cpp) need no key: then no Authorization header at all.
	if (options?.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
	return { ...headers, ...model.headers, ...perRequest, ...options?.headers };
}

type FinishReason = "stop" | "length" | "toolUse";

const FINISH_REASONS: Record<string, FinishReason> = {
	stop: "stop",
	eos: "stop",
	end_turn: "stop",
	length: "length",
	max_tokens: "length",
	tool_calls: "toolUse",
	function_call: "toolUse",
};

async function consume(name: string, body: ReadableStream<Uint8Array>, builder: MessageBuilder): Promise<void> {
	const toolCalls = new ToolCallAssembler(builder);
	let finishReason: FinishReason | undefined;
	const finish = () => {
		if (toolCalls.flush()) builder.finish(finishReason ?? "stop");
	};
	for await (const batch of readSseBatches(body))
		for (const sse of batch) {
			const data = sse.data.trim();
			if (data === "[DONE]") return finish();
			if (data === "") continue;
			const chunk = parseEventJson(name, data);
			if (chunk?.error) return builder.fail(streamErrorMessage(name, chunk.error));
			if (typeof chunk?.id === "string" && chunk.id !== "" && !builder.message.responseId) {
				builder.message.responseId = chunk.id;
			}
			// Recorded only when the server answered with another model than the one asked for (pi-ai does the same).
			const served = chunk?.model;
			if (typeof served === "string" && served !== "" && served !== builder.model.id) {
				builder.message.responseModel ??= served;
			}
			builder.start();
			const choice = Array.isArray(chunk?.choices) ? chunk.choices[0] : undefined;
			applyUsage(builder, chunk?.usage ?? choice?.usage);
			if (!choice) continue;
			const delta = choice.delta ?? {};
			const { text: thinking, field } = reasoningText(delta);
			if (thinking !== "") {
				if (!toolCalls.settle()) return;
				builder.thinking(thinking);
				// As pi-ai: a thinking block remembers the field it came in, to be sent back in the same one.
				const block = builder.message.content.at(-1);
				if (field && block?.type === "thinking" && block.thinkingSignature === undefined) {
					block.thinkingSignature = field;
				}
			}
			if (typeof delta.content === "string" && delta.content !== "") {
				if (!toolCalls.settle()) return;
				builder.text(delta.content);
			}
			if (Array.isArray(delta.tool_calls)) {
				for (const part of delta.tool_calls) if (!toolCalls.piece(part ?? {})) return;
			}
			const reason = choice.finish_reason;
			if (typeof reason === "string" && reason !== "") {
				builder.message.rawStopReason = reason;
				if (reason === "content_filter" || reason === "error") {
					return builder.fail(`${name} stopped the response (finish_reason: ${reason})`);
				}
				finishReason = FINISH_REASONS[reason] ?? "stop";
			}
		}
	// No [DONE]: some servers just close after the final chunk. Without a finish_reason it was a cut connection,
	// which the caller reports.
	if (finishReason) finish();
}

/** Thinking text of a delta and the field it came in (first non-empty one wins). */
function reasoningText(delta: any): { text: string; field?: string } {
	for (const field of ["reasoning_content", "reasoning", "reasoning_text"]) {
		const value = delta[field];
		if (typeof value === "string" && value !== "") return { text: value, field };
	}
	if (!Array.isArray(delta.reasoning_details)) return { text: "" };
	const text = delta.reasoning_details
		.map((d: any) => (d?.type === "reasoning.text" && typeof d.text === "string" ? d.text : ""))
		.join("");
	return { text };
}

function streamErrorMessage(name: string, error: any): string {
	if (typeof error === "string") return `${name} API error: ${error}`;
	const message = typeof error?.message === "string" && error.message !== "" ? error.message : "stream error";
	// A numeric code is an HTTP status (OpenRouter): keep it where the retry classification looks for it.
	if (typeof error?.code === "number") return `${name} API error ${error.code}: ${message}`;
	const kind = typeof error?.type === "string" ? error.type : typeof error?.code === "string" ? error.code : "";
	return `${name} API error: ${message}${kind ? ` [${kind}]` : ""}`;
}

function applyUsage(builder: MessageBuilder, usage: any): void {
	if (!usage || typeof usage !== "object") return;
	const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);
	const prompt = count(usage.prompt_tokens);
	// OpenAI reports cached input in prompt_tokens_details; DeepSeek as prompt_cache_hit_tokens; Kimi as cached_tokens.
	const cacheRead = count(
		usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? usage.cached_tokens,
	);
	const cacheWrite = count(usage.prompt_tokens_details?.cache_write_tokens);
	const input = Math.max(0, prompt - cacheRead - cacheWrite);
	const output = count(usage.completion_tokens);
	builder.reportedUsage({
		input,
		output,
		cacheRead,
		cacheWrite,
		reasoning: count(usage.completion_tokens_details?.reasoning_tokens),
	});
}

interface PendingCall {
	index: number | undefined;
	id: string;
	name: string;
	args: string;
	state: "pending" | "live" | "closed";
}

/**
 * Assembles `delta.tool_calls` pieces into tool-call blocks. The message builder has one open block at a time,
 * so exactly one call is "live" (streamed to the builder as its pieces arrive); pieces of any other call are
 * buffered. When a piece of another call arrives and the live call's arguments are complete JSON, the live call
 * is closed and the next buffered call (in order of first appearance) becomes live, its buffered text sent as one
 * delta. Sequential servers (OpenAI) thus stream every call live; a server interleaving calls gets each call as
 * its own block, in order, the later ones streamed once the earlier ones are complete or at the end. Empty
 * arguments never count as complete (the pieces may still come). Text or thinking arriving while a call is live
 * closes it (invalid JSON then fails the message); more argument text for an already closed call fails it too.
 */
class ToolCallAssembler {
	private readonly calls: PendingCall[] = [];
	private live: PendingCall | undefined;

	constructor(private readonly builder: MessageBuilder) {}

	/** One entry of `delta.tool_calls`. Returns false when the message failed. */
	piece(part: any): boolean {
		const call = this.find(part);
		if (typeof part.id === "string" && part.id !== "") call.id = part.id;
		if (typeof part.function?.name === "string" && part.function.name !== "") call.name = part.function.name;
		const raw = part.function?.arguments;
		const text = typeof raw === "string" ? raw : raw && typeof raw === "object" ? JSON.stringify(raw) : "";
		if (call.state === "closed") {
			if (text.trim() === "") return true;
			this.builder.fail(
				`invalid JSON in arguments of tool call "${call.name}" (${call.id}): arguments continued after the call was complete`,
			);
			return false;
		}
		call.args += text;
		if (call === this.live) {
			this.builder.updateToolCall({ id: call.id, name: call.name });
			this.builder.toolArguments(text);
			return true;
		}
		if (this.live && !isCompleteObject(this.live.args)) return true; // wait: the live call is not done yet
		if (this.live && !this.closeLive()) return false;
		this.openNext();
		return true;
	}

	/** Closes the live call before text or thinking. */
	settle(): boolean {
		return this.live ? this.closeLive() : true;
	}

	/** At the end of the response: closes the live call and emits every buffered one. */
	flush(): boolean {
		if (!this.settle()) return false;
		while (this.openNext()) if (!this.closeLive()) return false;
		return true;
	}

	private find(part: any): PendingCall {
		const index = typeof part.index === "number" ? part.index : undefined;
		const id = typeof part.id === "string" && part.id !== "" ? part.id : undefined;
		let call =
			index !== undefined
				? this.calls.findLast((c) => c.index === index)
				: id !== undefined
					? this.calls.findLast((c) => c.id === id)
					: this.calls.at(-1);
		// A new id on a known index (a server reusing index 0 for each call) starts a new call.
		if (call && id !== undefined && call.id !== "" && call.id !== id) call = undefined;
		if (!call) {
			call = { index, id: "", name: "", args: "", state: "pending" };
			this.calls.push(call);
		}
		return call;
	}

	private openNext(): boolean {
		const next = this.calls.find((c) => c.state === "pending");
		if (!next) return false;
		if (next.id === "") next.id = `call_${Math.random().toString(36).slice(2, 12)}`;
		next.state = "live";
		this.live = next;
		this.builder.toolCall(next.id, next.name);
		this.builder.toolArguments(next.args);
		return true;
	}

	private closeLive(): boolean {
		const live = this.live;
		if (!live) return true;
		live.state = "closed";
		this.live = undefined;
		return this.builder.close();
	}
}

function isCompleteObject(text: string): boolean {
	return text.trim() !== "" && parseToolArguments(text).ok;
}
