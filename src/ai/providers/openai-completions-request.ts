/**
 * Request side of `openai-completions`: the compat flags with their defaults (inferred from the server), the
 * conversion of our messages to Chat Completions messages, and the request body.
 *
 * Message rules:
 * - tool results become `tool` messages; their images cannot travel there, so they follow in one `user` message
 *   after the run of tool results;
 * - thinking is sent back only as `reasoning_content` to servers that want it (deepseek/zai style, or
 *   `requiresReasoningContentOnAssistantMessages`) and only from the same model, as plain text when
 *   `requiresThinkingAsText`, and is dropped otherwise;
 * - tool-call ids are made safe for OpenAI (at most 40 characters of [a-zA-Z0-9_-]).
 */

import { type RequestView, requestView } from "../transcript.ts";
import type {
	AssistantMessage,
	Context,
	ImageContent,
	Model,
	OpenAICompletionsCompat,
	StreamOptions,
	TextContent,
	ToolResultMessage,
} from "../types.ts";
import { transformMessages } from "./transform-messages.ts";

export type ThinkingFormat = NonNullable<OpenAICompletionsCompat["thinkingFormat"]>;

export interface OpenAICompletionsOptions extends StreamOptions {
	toolChoice?: "auto" | "none" | "required" | { type: "function"; function: { name: string } };
	/** The provider's effort value ("low", "medium", "high", ...); unset = no reasoning requested. */
	reasoningEffort?: string;
}

/** Compat flags with every default filled in. */
export interface ResolvedCompat extends OpenAICompletionsCompat {
	isOpenAI: boolean;
	supportsStore: boolean;
	supportsDeveloperRole: boolean;
	supportsReasoningEffort: boolean;
	supportsUsageInStreaming: boolean;
	supportsLongCacheRetention: boolean;
	maxTokensField: "max_completion_tokens" | "max_tokens";
	thinkingFormat: ThinkingFormat;
}

function hostOf(url: string): string {
	try {
		return new URL(url).hostname.toLowerCase();
	} catch {
		return "";
	}
}

export function resolveCompat(model: Model): ResolvedCompat {
	const compat = model.compat ?? {};
	const host = hostOf(model.baseUrl);
	const isOpenAI = host === "api.openai.com";
	const is = (provider: string, domain: string) =>
		model.provider === provider || host === domain || host.endsWith(`.${domain}`);
	const inferredFormat: ThinkingFormat = is("openrouter", "openrouter.ai")
		? "openrouter"
		: is("zai", "z.ai")
			? "zai"
			: is("deepseek", "deepseek.com")
				? "deepseek"
				: "openai";
	return {
		...compat,
		isOpenAI,
		supportsStore: compat.supportsStore ?? isOpenAI,
		supportsDeveloperRole: compat.supportsDeveloperRole ?? isOpenAI,
		supportsReasoningEffort: compat.supportsReasoningEffort ?? true,
		supportsUsageInStreaming: compat.supportsUsageInStreaming ?? true,
		supportsLongCacheRetention: compat.supportsLongCacheRetention ?? isOpenAI,
		maxTokensField: compat.maxTokensField ?? (isOpenAI ? "max_completion_tokens" : "max_tokens"),
		thinkingFormat: compat.thinkingFormat ?? inferredFormat,
	};
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
}

export function buildRequest(
	model: Model,
	full: Context,
	options: OpenAICompletionsOptions | undefined,
	compat: ResolvedCompat,
): Record<string, unknown> {
	const context = requestView(full);
	const messages = convertMessages(model, context, compat);
	const cache = options?.cacheRetention ?? "short";
	if (compat.cacheControlFormat === "anthropic" && cache !== "none") {
		markCacheBreakpoints(messages, cache === "long" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" });
	}
	const body: Record<string, unknown> = { model: model.id, messages, stream: true };
	if (compat.supportsUsageInStreaming) body.stream_options = { include_usage: true };
	if (compat.supportsStore) body.store = false;
	if (options?.maxTokens !== undefined) body[compat.maxTokensField] = options.maxTokens;
	if (options?.temperature !== undefined) body.temperature = options.temperature;
	if (context.tools && context.tools.length > 0) {
		body.tools = context.tools.map((tool) => ({
			type: "function",
			function: { name: tool.name, description: tool.description, parameters: tool.parameters },
		}));
		if (options?.toolChoice) body.tool_choice = options.toolChoice;
		if (compat.zaiToolStream) body.tool_stream = true;
	}
	applyReasoning(body, model, compat, options?.reasoningEffort);
	if (compat.isOpenAI && options?.sessionId && cache !== "none") body.prompt_cache_key = options.sessionId;
	if (cache === "long" && compat.supportsLongCacheRetention) body.prompt_cache_retention = "24h";
	if (compat.openRouterRouting) body.provider = compat.openRouterRouting;
	if (compat.vercelGatewayRouting) body.providerOptions = { gateway: compat.vercelGatewayRouting };
	return body;
}

/** Requests reasoning in the server's dialect; reasoning models of servers that think by default are told not to. */
function applyReasoning(
	body: Record<string, unknown>,
	model: Model,
	compat: ResolvedCompat,
	effort: string | undefined,
): void {
	if (!model.reasoning) return;
	switch (compat.thinkingFormat) {
		case "openrouter":
			if (effort) body.reasoning = compat.supportsReasoningEffort ? { effort } : { enabled: true };
			break;
		case "zai":
			body.thinking = { type: effort ? "enabled" : "disabled" };
			break;
		case "deepseek":
			if (effort) body.thinking = { type: "enabled" };
			break;
		case "qwen":
			body.enable_thinking = effort !== undefined;
			break;
		case "qwen-chat-template":
			body.chat_template_kwargs = { enable_thinking: effort !== undefined };
			break;
		default:
			if (effort && compat.supportsReasoningEffort) body.reasoning_effort = effort;
	}
}

export function convertMessages(model: Model, full: Context | RequestView, compat: ResolvedCompat): ChatMessage[] {
	const context = requestView(full as Context);
	const out: ChatMessage[] = [];
	if (context.systemPrompt) {
		const role = model.reasoning && compat.supportsDeveloperRole ? "developer" : "system";
		out.push({ role, content: context.systemPrompt });
	}
	const acceptsImages = model.input.includes("image");
	let toolImages: ImageContent[] = [];
	const pushUser = (content: string | ChatPart[]) => {
		if (compat.requiresAssistantAfterToolResult && out[out.length - 1]?.role === "tool") {
			out.push({ role: "assistant", content: "I have processed the tool results." });
		}
		out.push({ role: "user", content });
	};
	const flushToolImages = () => {
		if (toolImages.length === 0) return;
		pushUser([{ type: "text", text: "Images from the tool results above:" }, ...toolImages.map(imagePart)]);
		toolImages = [];
	};
	for (const message of transformMessages(context.messages)) {
		if (message.role !== "toolResult") flushToolImages();
		if (message.role === "user") {
			const content = userContent(message.content, acceptsImages);
			if (content !== undefined) pushUser(content);
		} else if (message.role === "assistant") {
			const converted = assistantMessage(message, model, compat);
			if (converted) out.push(converted);
		} else {
			out.push(toolMessage(message, compat, acceptsImages));
			if (acceptsImages) toolImages.push(...message.content.filter((b): b is ImageContent => b.type === "image"));
		}
	}
	flushToolImages();
	return out;
}

const IMAGE_OMITTED = "(image omitted: this model does not accept images)";

function imagePart(image: ImageContent): ChatPart {
	return { type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } };
}

function userContent(
	content: string | (TextContent | ImageContent)[],
	acceptsImages: boolean,
): string | ChatPart[] | undefined {
	if (typeof content === "string") return content === "" ? undefined : content;
	const parts: ChatPart[] = [];
	for (const block of content) {
		if (block.type === "text") {
			if (block.text !== "") parts.push({ type: "text", text: block.text });
		} else if (acceptsImages) parts.push(imagePart(block));
		else if (!parts.some((p) => p.type === "text" && p.text === IMAGE_OMITTED)) {
			parts.push({ type: "text", text: IMAGE_OMITTED });
		}
	}
	return parts.length > 0 ? parts : undefined;
}

function assistantMessage(message: AssistantMessage, model: Model, compat: ResolvedCompat): ChatMessage | undefined {
	const sameModel = message.api === model.api && message.provider === model.provider && message.model === model.id;
	const wantsReasoning =
		compat.requiresReasoningContentOnAssistantMessages ||
		compat.thinkingFormat === "deepseek" ||
		compat.thinkingFormat === "zai";
	const texts: string[] = [];
	const reasoning: string[] = [];
	const toolCalls: ChatToolCall[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text.trim() !== "") texts.push(block.text);
		} else if (block.type === "thinking") {
			if (block.thinking.trim() === "") continue;
			if (compat.requiresThinkingAsText) texts.push(block.thinking);
			else if (sameModel && wantsReasoning) reasoning.push(block.thinking);
		} else {
			toolCalls.push({
				id: safeToolCallId(block.id),
				type: "function",
				function: { name: block.name, arguments: JSON.stringify(block.arguments ?? {}) },
			});
		}
	}
	if (texts.length === 0 && toolCalls.length === 0 && reasoning.length === 0) return undefined;
	const out: ChatMessage = { role: "assistant", content: texts.length > 0 ? texts.join("\n") : null };
	if (toolCalls.length > 0) out.tool_calls = toolCalls;
	if (reasoning.length > 0 || compat.requiresReasoningContentOnAssistantMessages) {
		out.reasoning_content = reasoning.join("\n");
	}
	if (out.content === null && toolCalls.length === 0) out.content = "";
	return out;
}

function toolMessage(message: ToolResultMessage, compat: ResolvedCompat, acceptsImages: boolean): ChatMessage {
	const texts = message.content.filter((b): b is TextContent => b.type === "text").map((b) => b.text);
	if (message.content.some((b) => b.type === "image")) {
		texts.push(acceptsImages ? "(image attached in the next message)" : IMAGE_OMITTED);
	}
	const text = texts.join("\n");
	const out: ChatMessage = {
		role: "tool",
		tool_call_id: safeToolCallId(message.toolCallId),
		content: text === "" ? "(no output)" : text,
	};
	if (compat.requiresToolResultName) out.name = message.toolName;
	return out;
}

/** OpenAI accepts tool-call ids of at most 40 characters; ids from other APIs ("call|item") are shortened. */
export function safeToolCallId(id: string): string {
	return (id.split("|")[0] || id).replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 40);
}

/** `cache_control` on the system prompt and the last user or tool message (Anthropic models behind a proxy). */
function markCacheBreakpoints(messages: ChatMessage[], cacheControl: object): void {
	const mark = (message: ChatMessage | undefined) => {
		if (!message || message.content === null || message.content === "") return;
		if (typeof message.content === "string") message.content = [{ type: "text", text: message.content }];
		const lastText = message.content.findLast((p) => p.type === "text");
		if (lastText && lastText.type === "text") lastText.cache_control = cacheControl;
	};
	mark(messages.find((m) => m.role === "system" || m.role === "developer"));
	mark(messages.findLast((m) => m.role === "user" || m.role === "tool"));
}
