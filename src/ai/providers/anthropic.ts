/**
 * `anthropic-messages`: the Anthropic Messages API over fetch + SSE.
 * Thinking (with signatures and redacted blocks), prompt caching (`cache_control` on the system prompt and the
 * last user turn), tool use with streamed input JSON, and images.
 */
import { joinUrl, postJson } from "../http.ts";
import { readSseBatches } from "../sse.ts";
import { requestView } from "../transcript.ts";
import type { Context, Model, SimpleStreamOptions, ThinkingLevel } from "../types.ts";
import { type AnthropicOptions, buildRequest } from "./anthropic-request.ts";
import { clampMaxTokensToContext } from "./context-estimate.ts";
import type { MessageBuilder } from "./message-builder.ts";
import { parseEventJson, runProviderStream } from "./run.ts";
import { adjustMaxTokensForThinking, maxOutputTokens } from "./simple-options.ts";

export { type AnthropicOptions, buildRequest } from "./anthropic-request.ts";

const NAME = "Anthropic";
const API_VERSION = "2023-06-01";

export function streamAnthropic(model: Model, context: Context, options?: AnthropicOptions) {
	return runProviderStream(NAME, model, options, async (builder) => {
		const response = await postJson({
			providerName: NAME,
			url: joinUrl(model.baseUrl, model.baseUrl.replace(/\/+$/, "").endsWith("/v1") ? "messages" : "v1/messages"),
			headers: buildHeaders(model, context, options),
			body: buildRequest(model, context, options),
			model,
			options,
		});
		await consume(response.body as ReadableStream<Uint8Array>, builder);
	});
}

export function streamSimpleAnthropic(model: Model, context: Context, options?: SimpleStreamOptions) {
	const level = options?.reasoning;
	const base = { ...options, maxTokens: maxOutputTokens(model, context, options) };
	if (!level) return streamAnthropic(model, context, { ...base, thinkingEnabled: false });
	if (model.compat?.forceAdaptiveThinking === true) {
		return streamAnthropic(model, context, { ...base, thinkingEnabled: true, effort: adaptiveEffort(model, level) });
	}
	const adjusted = adjustMaxTokensForThinking(base.maxTokens, model.maxTokens, level, options?.thinkingBudgets);
	const maxTokens = clampMaxTokensToContext(model, context, adjusted.maxTokens);
	return streamAnthropic(model, context, {
		...base,
		maxTokens,
		thinkingEnabled: true,
		thinkingBudgetTokens: Math.min(adjusted.thinkingBudget, Math.max(0, maxTokens - 1024)),
	});
}

/** Adaptive thinking's effort for a level: the model's map wins; minimal reads low and xhigh/max read high. */
function adaptiveEffort(model: Model, level: ThinkingLevel): AnthropicOptions["effort"] {
	const mapped = model.thinkingLevelMap?.[level];
	if (typeof mapped === "string") return mapped as AnthropicOptions["effort"];
	if (level === "minimal" || level === "low") return "low";
	return level === "medium" ? "medium" : "high";
}

/** The beta features pi-ai asks for: fine-grained tool streaming where tools stream without eager input, interleaved thinking. */
function betaFeatures(model: Model, context: Context, options: AnthropicOptions | undefined): string[] {
	const features: string[] = [];
	const eager = (model.compat as { supportsEagerToolInputStreaming?: boolean } | undefined)
		?.supportsEagerToolInputStreaming;
	if (eager === false && (requestView(context).tools?.length ?? 0) > 0)
		features.push("fine-grained-tool-streaming-2025-05-14");
	if (
		model.reasoning &&
		options?.thinkingEnabled === true &&
		(options.interleavedThinking ?? true) &&
		model.compat?.forceAdaptiveThinking !== true
	)
		features.push("interleaved-thinking-2025-05-14");
	return features;
}

function buildHeaders(model: Model, context: Context, options: AnthropicOptions | undefined): Record<string, string> {
	const key = options?.apiKey ?? "";
	const betas = betaFeatures(model, context, options);
	const headers: Record<string, string> = {
		accept: "text/event-stream",
		"anthropic-version": API_VERSION,
		...(betas.length > 0 ? { "anthropic-beta": betas.join(",") } : {}),
	};
	// OAuth access tokens (Claude subscriptions) go in Authorization; API keys in x-api-key.
	if (key.startsWith("sk-ant-oat")) headers.authorization = `Bearer ${key}`;
	else if (key) headers["x-api-key"] = key;
	return { ...headers, ...model.headers, ...options?.headers };
}

const STOP_REASONS: Record<string, "stop" | "length" | "toolUse"> = {
	end_turn: "stop",
	stop_sequence: "stop",
	pause_turn: "stop",
	max_tokens: "length",
	model_context_window_exceeded: "length",
	tool_use: "toolUse",
};

async function consume(body: ReadableStream<Uint8Array>, builder: MessageBuilder): Promise<void> {
	const state: StreamState = { stopReason: "stop" };
	for await (const batch of readSseBatches(body)) {
		for (const sse of batch) {
			if (sse.event === "ping") continue;
			if (!handleEvent(builder, parseEventJson(NAME, sse.data), state)) return;
		}
	}
}

interface StreamState {
	stopReason: "stop" | "length" | "toolUse";
}

/** Applies one stream event; returns false once the message is finished or failed. */
function handleEvent(builder: MessageBuilder, event: any, state: StreamState): boolean {
	switch (event.type) {
		case "message_start":
			builder.message.responseId = event.message?.id;
			// Recorded only when the server answered with another model than the one asked for (pi-ai does the same).
			if (event.message?.model && event.message.model !== builder.model.id) {
				builder.message.responseModel = event.message.model;
			}
			applyUsage(builder, event.message?.usage);
			builder.usage({ cacheWrite1h: event.message?.usage?.cache_creation?.ephemeral_1h_input_tokens || 0 });
			builder.start();
			return true;
		case "content_block_start": {
			const block = event.content_block ?? {};
			if (block.type === "text") builder.text(block.text ?? "");
			else if (block.type === "thinking") builder.thinking(block.thinking ?? "", block.signature || undefined);
			else if (block.type === "redacted_thinking") builder.redactedThinking(block.data ?? "");
			else if (block.type === "tool_use") {
				builder.toolCall(block.id, block.name);
				const input = block.input && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : "";
				if (input) builder.toolArguments(input);
			}
			return true;
		}
		case "content_block_delta": {
			const delta = event.delta ?? {};
			if (delta.type === "text_delta") builder.text(delta.text ?? "");
			else if (delta.type === "thinking_delta") builder.thinking(delta.thinking ?? "");
			else if (delta.type === "signature_delta") builder.setThinkingSignature(delta.signature ?? "");
			else if (delta.type === "input_json_delta") builder.toolArguments(delta.partial_json ?? "");
			return true;
		}
		case "content_block_stop":
			return builder.close();
		case "message_delta":
			if (event.delta?.stop_reason) builder.message.rawStopReason = event.delta.stop_reason;
			if (event.delta?.stop_reason === "refusal") {
				builder.fail(`${NAME} refused to answer (stop_reason: refusal)`);
				return false;
			}
			if (event.delta?.stop_reason) state.stopReason = STOP_REASONS[event.delta.stop_reason] ?? "stop";
			applyUsage(builder, event.usage);
			return true;
		case "message_stop":
			builder.finish(state.stopReason);
			return false;
		case "error": {
			const error = event.error ?? {};
			builder.fail(`${NAME} API error: ${error.message ?? "stream error"}${error.type ? ` [${error.type}]` : ""}`);
			return false;
		}
		default:
			return true;
	}
}

function applyUsage(builder: MessageBuilder, usage: any): void {
	if (!usage) return;
	builder.usage({
		input: usage.input_tokens,
		output: usage.output_tokens,
		cacheRead: usage.cache_read_input_tokens,
		cacheWrite: usage.cache_creation_input_tokens,
	});
	// Thinking tokens (part of the output), when the API breaks them out.
	const thinking = usage.output_tokens_details?.thinking_tokens;
	if (typeof thinking === "number") builder.message.usage.reasoning = thinking;
}
