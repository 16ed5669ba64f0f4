/**
 * `anthropic-messages`: the Anthropic Messages API over fetch + SSE.
 * Thinking (with signatures and redacted blocks), prompt caching (`cache_control` on the system prompt and the
 * last user turn), tool use with streamed input JSON, and images.
 */
import { joinUrl, postJson } from "../http.ts";
import { readSseBatches } from "../sse.ts";
import { requestView } from "../transcript.ts";
import type {
	AssistantMessage,
	Context,
	ImageContent,
	Message,
	Model,
	SimpleStreamOptions,
	StreamOptions,
	TextContent,
	ToolResultMessage,
} from "../types.ts";
import type { MessageBuilder } from "./message-builder.ts";
import { parseEventJson, runProviderStream } from "./run.ts";
import { maxOutputTokens, thinkingBudget } from "./simple-options.ts";
import { transformMessages } from "./transform-messages.ts";

export interface AnthropicOptions extends StreamOptions {
	thinkingEnabled?: boolean;
	thinkingBudgetTokens?: number;
	toolChoice?: "auto" | "any" | "none" | { type: "tool"; name: string };
}

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
	if (!level || !model.reasoning) return streamAnthropic(model, context, { ...options, thinkingEnabled: false });
	const budget = thinkingBudget(level, options?.thinkingBudgets);
	const maxTokens = Math.min(model.maxTokens, Math.max(maxOutputTokens(model, options), budget + 4096));
	return streamAnthropic(model, context, {
		...options,
		maxTokens,
		thinkingEnabled: true,
		thinkingBudgetTokens: Math.min(budget, maxTokens - 1024),
	});
}

/** The beta features pi-ai asks for: fine-grained tool streaming where tools stream without eager input, interleaved thinking. */
function betaFeatures(model: Model, context: Context, options: AnthropicOptions | undefined): string[] {
	const features: string[] = [];
	const eager = (model.compat as { supportsEagerToolInputStreaming?: boolean } | undefined)
		?.supportsEagerToolInputStreaming;
	if (eager === false && (requestView(context).tools?.length ?? 0) > 0)
		features.push("fine-grained-tool-streaming-2025-05-14");
	if (model.reasoning && options?.thinkingEnabled === true) features.push("interleaved-thinking-2025-05-14");
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

export function buildRequest(model: Model, full: Context, options: AnthropicOptions | undefined) {
	const context = requestView(full);
	const cache = options?.cacheRetention ?? "short";
	const cacheControl =
		cache === "none" ? undefined : cache === "long" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
	const body: Record<string, unknown> = {
		model: model.id,
		max_tokens: options?.maxTokens ?? model.maxTokens,
		stream: true,
		messages: convertMessages(transformMessages(context.messages), cacheControl),
	};
	if (context.systemPrompt) {
		body.system = [
			{ type: "text", text: context.systemPrompt, ...(cacheControl ? { cache_control: cacheControl } : {}) },
		];
	}
	if (context.tools && context.tools.length > 0) {
		// As pi-ai sends them: an object schema of the parameters' properties and required names, and eager input
		// streaming unless the model's compat turns it off.
		const eager = (model.compat as { supportsEagerToolInputStreaming?: boolean } | undefined)
			?.supportsEagerToolInputStreaming;
		body.tools = context.tools.map((tool) => {
			const schema = tool.parameters as { properties?: unknown; required?: unknown };
			return {
				name: tool.name,
				description: tool.description,
				...(eager !== false ? { eager_input_streaming: true } : {}),
				input_schema: { type: "object", properties: schema.properties ?? {}, required: schema.required ?? [] },
			};
		});
		if (options?.toolChoice) {
			body.tool_choice = typeof options.toolChoice === "string" ? { type: options.toolChoice } : options.toolChoice;
		}
	}
	if (options?.thinkingEnabled) {
		body.thinking = { type: "enabled", budget_tokens: options.thinkingBudgetTokens ?? 1024 };
	} else if (options?.temperature !== undefined) {
		body.temperature = options.temperature;
	}
	if (options?.metadata?.user_id !== undefined) body.metadata = { user_id: options.metadata.user_id };
	return body;
}

type Block = Record<string, unknown>;

function convertMessages(
	messages: Message[],
	cacheControl: object | undefined,
): Array<{ role: string; content: Block[] }> {
	const out: Array<{ role: string; content: Block[] }> = [];
	for (const message of messages) {
		if (message.role === "user") {
			const content =
				typeof message.content === "string" ? [textBlock(message.content)] : message.content.map(contentBlock);
			if (content.length > 0) out.push({ role: "user", content });
		} else if (message.role === "assistant") {
			const content = assistantBlocks(message);
			if (content.length > 0) out.push({ role: "assistant", content });
		} else {
			const block = toolResultBlock(message);
			const last = out[out.length - 1];
			if (last?.role === "user" && last.content.every((b) => b.type === "tool_result")) last.content.push(block);
			else out.push({ role: "user", content: [block] });
		}
	}
	if (cacheControl) {
		const lastUser = [...out].reverse().find((m) => m.role === "user");
		const lastBlock = lastUser?.content[lastUser.content.length - 1];
		if (lastBlock) lastBlock.cache_control = cacheControl;
	}
	return out;
}

function textBlock(text: string): Block {
	return { type: "text", text };
}

function contentBlock(block: TextContent | ImageContent): Block {
	if (block.type === "text") return textBlock(block.text);
	return { type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } };
}

function assistantBlocks(message: AssistantMessage): Block[] {
	const sameModel = message.api === "anthropic-messages";
	const blocks: Block[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text.trim() !== "") blocks.push(textBlock(block.text));
		} else if (block.type === "thinking") {
			if (block.redacted && sameModel && block.thinkingSignature) {
				blocks.push({ type: "redacted_thinking", data: block.thinkingSignature });
			} else if (sameModel && block.thinkingSignature) {
				blocks.push({ type: "thinking", thinking: block.thinking, signature: block.thinkingSignature });
			} else if (block.thinking.trim() !== "") {
				blocks.push(textBlock(block.thinking)); // thinking from another provider travels as plain text
			}
		} else {
			blocks.push({ type: "tool_use", id: safeToolId(block.id), name: block.name, input: block.arguments });
		}
	}
	return blocks;
}

function toolResultBlock(message: ToolResultMessage): Block {
	const content = message.content.map(contentBlock);
	return {
		type: "tool_result",
		tool_use_id: safeToolId(message.toolCallId),
		content: content.length > 0 ? content : [textBlock("(no output)")],
		...(message.isError ? { is_error: true } : {}),
	};
}

/** Anthropic accepts tool ids of [a-zA-Z0-9_-], at most 64 characters; ids from other providers are mapped. */
function safeToolId(id: string): string {
	return id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
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
