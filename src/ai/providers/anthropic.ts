/**
 * `anthropic-messages`: the Anthropic Messages API over fetch + SSE.
 * Thinking (with signatures and redacted blocks), prompt caching (`cache_control` on the system prompt and the
 * last user turn), tool use with streamed input JSON, and images.
 */
import { joinUrl, postJson } from "../http.ts";
import { readSseBatches } from "../sse.ts";
import { requestView } from "../transcript.ts";
import type { Context, Model, SimpleStreamOptions, ThinkingLevel } from "../types.ts";
import { type AnthropicOptions, buildRequest, fromClaudeCodeName, isOAuthToken } from "./anthropic-request.ts";
import { clampMaxTokensToContext } from "./context-estimate.ts";
import { copilotRequestHeaders } from "./github-copilot-headers.ts";
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
		// Under a subscription token the model calls tools by Claude Code's names: map them back to ours.
		const tools = requestView(context).tools;
		const toolName = isOAuthToken(options?.apiKey)
			? (name: string) => fromClaudeCodeName(name, tools)
			: (name: string) => name;
		await consume(response.body as ReadableStream<Uint8Array>, builder, toolName);
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

/** Claude Code's version named in the user agent of subscription (OAuth) requests. */
const CLAUDE_CODE_VERSION = "2.1.280";

/**
 * The beta features pi-ai asks for: Claude Code's for subscription tokens, fine-grained tool streaming where tools
 * stream without eager input, interleaved thinking with budget thinking. An `anthropic-beta` header configured on
 * the model or request replaces the list.
 */
function betaFeatures(model: Model, context: Context, options: AnthropicOptions | undefined): string[] {
	let configured: string | undefined;
	for (const headers of [model.headers, options?.headers]) {
		for (const [name, value] of Object.entries(headers ?? {})) {
			if (name.toLowerCase() === "anthropic-beta") configured = value;
		}
	}
	if (configured !== undefined) {
		return [
			...new Set(
				configured
					.split(",")
					.map((feature) => feature.trim())
					.filter(Boolean),
			),
		];
	}
	const features: string[] = [];
	if (isOAuthToken(options?.apiKey)) features.push("claude-code-20250219", "oauth-2025-04-20");
	const eager = model.compat?.supportsEagerToolInputStreaming;
	if (eager === false && (requestView(context).tools?.length ?? 0) > 0)
		features.push("fine-grained-tool-streaming-2025-05-14");
	if (
		model.reasoning &&
		options?.thinkingEnabled === true &&
		(options.interleavedThinking ?? true) &&
		model.compat?.forceAdaptiveThinking !== true
	)
		features.push("interleaved-thinking-2025-05-14");
	return [...new Set(features)];
}

function buildHeaders(model: Model, context: Context, options: AnthropicOptions | undefined): Record<string, string> {
	const key = options?.apiKey ?? "";
	const betas = betaFeatures(model, context, options);
	const headers: Record<string, string> = {
		accept: "text/event-stream",
		"anthropic-version": API_VERSION,
		...(betas.length > 0 ? { "anthropic-beta": betas.join(",") } : {}),
	};
	// Subscription (OAuth) tokens go in Authorization with Claude Code's identity; API keys in x-api-key.
	if (model.provider === "github-copilot" && key) headers.authorization = `Bearer ${key}`;
	else if (isOAuthToken(key)) {
		headers.authorization = `Bearer ${key}`;
		headers["user-agent"] = `claude-cli/${CLAUDE_CODE_VERSION}`;
		headers["x-app"] = "cli";
	} else if (key) headers["x-api-key"] = key;
	const merged = {
		...headers,
		...model.headers,
		...copilotRequestHeaders(model, context.messages),
		...options?.headers,
	};
	// The list above already honours a configured anthropic-beta; keep one spelling of the header.
	for (const name of Object.keys(merged))
		if (name !== "anthropic-beta" && name.toLowerCase() === "anthropic-beta") delete merged[name];
	if (betas.length > 0) merged["anthropic-beta"] = betas.join(",");
	else delete merged["anthropic-beta"];
	return merged;
}

const STOP_REASONS: Record<string, "stop" | "length" | "toolUse"> = {
	end_turn: "stop",
	stop_sequence: "stop",
	pause_turn: "stop",
	max_tokens: "length",
	model_context_window_exceeded: "length",
	tool_use: "toolUse",
};

async function consume(
	body: ReadableStream<Uint8Array>,
	builder: MessageBuilder,
	toolName: (name: string) => string,
): Promise<void> {
	const state: StreamState = { stopReason: "stop", toolName };
	for await (const batch of readSseBatches(body)) {
		for (const sse of batch) {
			if (sse.event === "ping") continue;
			if (!handleEvent(builder, parseEventJson(NAME, sse.data), state)) return;
		}
	}
}

interface StreamState {
	stopReason: "stop" | "length" | "toolUse";
	toolName: (name: string) => string;
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
				builder.toolCall(block.id, state.toolName(block.name ?? ""));
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
