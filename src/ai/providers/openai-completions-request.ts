/**
 * Request side of `openai-completions`, as pi-ai 0.87.1 builds it: the conversion of our messages to Chat
 * Completions messages and the request body. Server differences come from `openai-completions-compat.ts`.
 *
 * Message rules:
 * - the system prompt is a `developer` message for reasoning models of servers that know that role, else `system`;
 * - assistant text parts are joined into one string; thinking goes back only in the reasoning field it came in
 *   (`reasoning_content`, `reasoning`, `reasoning_text`: its signature names it), or as leading text when
 *   `requiresThinkingAsText`;
 * - tool results become `tool` messages (text joined with "\n"; a placeholder when empty or image-only); their
 *   images follow in one `user` message after the run of results, for models that take images.
 */

import { type RequestView, requestView } from "../transcript.ts";
import type {
	AssistantMessage,
	Context,
	ImageContent,
	Message,
	Model,
	StreamOptions,
	TextContent,
	ToolResultMessage,
} from "../types.ts";
import { type ResolvedCompat, resolveCompat } from "./openai-completions-compat.ts";
import { cacheRetention } from "./simple-options.ts";
import { transformMessages } from "./transform-messages.ts";

export { type ResolvedCompat, resolveCompat, type ThinkingFormat } from "./openai-completions-compat.ts";

export interface OpenAICompletionsOptions extends StreamOptions {
	toolChoice?: "auto" | "none" | "required" | { type: "function"; function: { name: string } };
	/** The reasoning level asked for ("low", "high", ...; the model's thinkingLevelMap maps it); unset = none. */
	reasoningEffort?: string;
}

export type ChatPart =
	| { type: "text"; text: string; cache_control?: object }
	| { type: "image_url"; image_url: { url: string } };

export interface ChatToolCall {
	id: string;
	type: "function";
	function: { name: string; arguments: string };
}

export interface ChatMessage {
	role: "system" | "developer" | "user" | "assistant" | "tool";
	content: string | ChatPart[] | null;
	name?: string;
	tool_call_id?: string;
	tool_calls?: ChatToolCall[];
	reasoning_content?: string;
	reasoning?: string;
	reasoning_text?: string;
}

const PROMPT_CACHE_KEY_MAX = 64;

export function buildRequest(
	model: Model,
	full: Context,
	options: OpenAICompletionsOptions | undefined,
	compat: ResolvedCompat = resolveCompat(model),
): Record<string, unknown> {
	const context = requestView(full);
	const messages = convertMessages(model, context, compat);
	const cache = cacheRetention(options);
	const longCache = cache === "long" && compat.supportsLongCacheRetention;
	const body: Record<string, unknown> = { model: model.id, messages, stream: true };
	if ((model.baseUrl.includes("api.openai.com") && cache !== "none") || longCache) {
		if (options?.sessionId)
			body.prompt_cache_key = Array.from(options.sessionId).slice(0, PROMPT_CACHE_KEY_MAX).join("");
	}
	if (longCache) body.prompt_cache_retention = "24h";
	if (compat.supportsUsageInStreaming !== false) body.stream_options = { include_usage: true };
	if (compat.supportsStore) body.store = false;
	if (options?.maxTokens) body[compat.maxTokensField] = options.maxTokens;
	if (options?.temperature !== undefined) body.temperature = options.temperature;
	const tools = context.tools ?? [];
	if (tools.length > 0) {
		body.tools = tools.map((tool) => ({
			type: "function",
			function: {
				name: tool.name,
				description: tool.description,
				parameters: tool.parameters,
				...(compat.supportsStrictMode ? { strict: false } : {}),
			},
		}));
		if (compat.zaiToolStream) body.tool_stream = true;
	} else if (context.messages.some(hasToolTraffic)) {
		// Proxies in front of Anthropic want a tools list whenever the history holds tool calls or results.
		body.tools = [];
	}
	if (compat.cacheControlFormat === "anthropic" && cache !== "none") {
		const ttl = cache === "long" && compat.supportsLongCacheRetention ? { ttl: "1h" } : {};
		markCacheBreakpoints(messages, body.tools as Record<string, unknown>[] | undefined, { type: "ephemeral", ...ttl });
	}
	if (options?.toolChoice) body.tool_choice = options.toolChoice;
	applyReasoning(body, model, compat, options?.reasoningEffort);
	if (model.compat?.openRouterRouting) body.provider = model.compat.openRouterRouting;
	const gateway = model.compat?.vercelGatewayRouting as { only?: unknown; order?: unknown } | undefined;
	if (gateway && (gateway.only || gateway.order)) {
		body.providerOptions = {
			gateway: { ...(gateway.only ? { only: gateway.only } : {}), ...(gateway.order ? { order: gateway.order } : {}) },
		};
	}
	return body;
}

function hasToolTraffic(message: Message): boolean {
	if (message.role === "toolResult") return true;
	return message.role === "assistant" && message.content.some((block) => block.type === "toolCall");
}

/** The provider's value for a level: the model's thinkingLevelMap (then our reasoningEffortMap) wins. */
function effortValue(model: Model, level: string): string | null | undefined {
	const mapped = model.thinkingLevelMap?.[level as keyof NonNullable<Model["thinkingLevelMap"]>];
	if (mapped !== undefined) return mapped;
	return model.compat?.reasoningEffortMap?.[level] ?? level;
}

/** Requests reasoning (or its absence) in the server's dialect, as pi-ai does per thinking format. */
function applyReasoning(
	body: Record<string, unknown>,
	model: Model,
	compat: ResolvedCompat,
	level: string | undefined,
): void {
	if (!model.reasoning) return;
	const map = model.thinkingLevelMap;
	const effort = level ? effortValue(model, level) : undefined;
	switch (compat.thinkingFormat) {
		case "zai":
			body.thinking = level ? { type: "enabled", clear_thinking: false } : { type: "disabled" };
			if (level && compat.supportsReasoningEffort && typeof effort === "string") body.reasoning_effort = effort;
			return;
		case "qwen":
			body.enable_thinking = !!level;
			if (level && compat.supportsReasoningEffort && typeof effort === "string") body.reasoning_effort = effort;
			return;
		case "qwen-chat-template":
			body.chat_template_kwargs = { enable_thinking: !!level, preserve_thinking: true };
			return;
		case "deepseek":
			if (level) body.thinking = { type: "enabled" };
			else if (map?.off !== null) body.thinking = { type: "disabled" };
			if (level && compat.supportsReasoningEffort) body.reasoning_effort = effort;
			return;
		case "openrouter":
			if (level) body.reasoning = { effort };
			else if (map?.off !== null) body.reasoning = { effort: map?.off ?? "none" };
			return;
		case "ant-ling":
			if (level && typeof map?.[level as "low"] === "string") body.reasoning = { effort: map?.[level as "low"] };
			return;
		case "together":
			body.reasoning = { enabled: !!level };
			if (level && compat.supportsReasoningEffort) body.reasoning_effort = effort;
			return;
		case "string-thinking":
			if (level) body.thinking = effort;
			else if (map?.off !== null) body.thinking = map?.off ?? "none";
			return;
		default:
			if (!compat.supportsReasoningEffort) return;
			if (level) body.reasoning_effort = effort;
			else if (typeof map?.off === "string") body.reasoning_effort = map.off;
	}
}

export function convertMessages(model: Model, full: Context | RequestView, compat: ResolvedCompat): ChatMessage[] {
	const context = requestView(full as Context);
	const out: ChatMessage[] = [];
	if (context.systemPrompt) {
		out.push({
			role: model.reasoning && compat.supportsDeveloperRole ? "developer" : "system",
			content: context.systemPrompt,
		});
	}
	const messages = transformMessages(context.messages, model);
	let afterToolResult = false;
	for (let i = 0; i < messages.length; i++) {
		const message = messages[i] as Message;
		if (compat.requiresAssistantAfterToolResult && afterToolResult && message.role === "user") {
			out.push({ role: "assistant", content: "I have processed the tool results." });
		}
		afterToolResult = false;
		if (message.role === "user") {
			if (typeof message.content === "string") out.push({ role: "user", content: message.content });
			else {
				const parts = message.content
					.filter((block) => block.type !== "text" || block.text.length > 0)
					.map((block) => (block.type === "text" ? { type: "text" as const, text: block.text } : imagePart(block)));
				if (parts.length > 0) out.push({ role: "user", content: parts });
			}
		} else if (message.role === "assistant") {
			const converted = assistantMessage(message, model, compat);
			if (converted) out.push(converted);
		} else {
			const images: ChatPart[] = [];
			for (; i < messages.length && messages[i]?.role === "toolResult"; i++) {
				const result = messages[i] as ToolResultMessage;
				out.push(toolMessage(result, compat));
				if (model.input.includes("image")) {
					for (const block of result.content) if (block.type === "image") images.push(imagePart(block));
				}
			}
			i--;
			if (images.length > 0) {
				if (compat.requiresAssistantAfterToolResult) {
					out.push({ role: "assistant", content: "I have processed the tool results." });
				}
				out.push({ role: "user", content: [{ type: "text", text: "Attached image(s) from tool result:" }, ...images] });
			} else afterToolResult = true;
		}
	}
	return out;
}

function imagePart(image: ImageContent): ChatPart {
	return { type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } };
}

const REASONING_FIELDS = ["reasoning", "reasoning_content", "reasoning_text"] as const;

function assistantMessage(message: AssistantMessage, model: Model, compat: ResolvedCompat): ChatMessage | undefined {
	const out: ChatMessage = { role: "assistant", content: compat.requiresAssistantAfterToolResult ? "" : null };
	// Thinking of another model (or API) cannot be sent back as such: it becomes text where it stood.
	const sameModel = message.api === model.api && message.provider === model.provider && message.model === model.id;
	const content = sameModel
		? message.content
		: message.content.map((block) =>
				block.type === "thinking" && !block.redacted ? { type: "text" as const, text: block.thinking } : block,
			);
	const texts = content
		.filter((block): block is TextContent => block.type === "text" && block.text.trim().length > 0)
		.map((block) => block.text);
	const text = texts.join("");
	const thinking = content.filter(
		(block): block is Extract<AssistantMessage["content"][number], { type: "thinking" }> =>
			block.type === "thinking" && block.thinking.trim().length > 0,
	);
	if (thinking.length > 0 && compat.requiresThinkingAsText) {
		out.content = [
			{ type: "text", text: thinking.map((block) => block.thinking).join("\n\n") },
			...texts.map((t) => ({ type: "text" as const, text: t })),
		];
	} else {
		if (text.length > 0) out.content = text;
		const field = thinking[0]?.thinkingSignature;
		const named = REASONING_FIELDS.find((name) => name === field);
		if (named) out[named] = thinking.map((block) => block.thinking).join("\n");
	}
	const calls = content.filter((block) => block.type === "toolCall");
	if (calls.length > 0) {
		out.tool_calls = calls.map((call) => ({
			id: safeToolCallId(call.id),
			type: "function",
			function: { name: call.name, arguments: JSON.stringify(call.arguments) },
		}));
	}
	if (compat.requiresReasoningContentOnAssistantMessages && model.reasoning && out.reasoning_content === undefined) {
		out.reasoning_content = "";
	}
	const hasContent = out.content !== null && out.content.length > 0;
	return hasContent || out.tool_calls ? out : undefined;
}

function toolMessage(message: ToolResultMessage, compat: ResolvedCompat): ChatMessage {
	const text = message.content
		.filter((block): block is TextContent => block.type === "text")
		.map((block) => block.text)
		.join("\n");
	const hasImages = message.content.some((block) => block.type === "image");
	const out: ChatMessage = {
		role: "tool",
		content: text.length > 0 ? text : hasImages ? "(see attached image)" : "(no tool output)",
		tool_call_id: safeToolCallId(message.toolCallId),
	};
	if (compat.requiresToolResultName && message.toolName) out.name = message.toolName;
	return out;
}

/** OpenAI accepts tool-call ids of at most 40 characters; ids from other APIs ("call|item") are shortened. */
export function safeToolCallId(id: string): string {
	return (id.split("|")[0] || id).replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 40);
}

/** `cache_control` on the instructions, the last tool and the last conversation message with text. */
function markCacheBreakpoints(
	messages: ChatMessage[],
	tools: Record<string, unknown>[] | undefined,
	cacheControl: object,
): void {
	const mark = (message: ChatMessage): boolean => {
		if (typeof message.content === "string") {
			if (message.content.length === 0) return false;
			message.content = [{ type: "text", text: message.content, cache_control: cacheControl }];
			return true;
		}
		const lastText = message.content?.findLast((part) => part.type === "text");
		if (!lastText || lastText.type !== "text") return false;
		lastText.cache_control = cacheControl;
		return true;
	};
	const instructions = messages.find((m) => m.role === "system" || m.role === "developer");
	if (instructions) mark(instructions);
	const lastTool = tools?.[tools.length - 1];
	if (lastTool) lastTool.cache_control = cacheControl;
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i] as ChatMessage;
		if ((message.role === "user" || message.role === "assistant" || message.role === "tool") && mark(message)) return;
	}
}
