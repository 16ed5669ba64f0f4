/**
 * pi-ai's estimate of a request's context size, used to keep the output limit inside the context window: the
 * usage the newest usable assistant reply reported, plus about one token per four characters of what came after
 * it (an image counts as 4800 characters). A reply's usage no longer applies once an older-dated message was
 * put before it (e.g. a compaction summary); failed and aborted replies never count.
 */
import { getSystemMessageText, normalizeContext } from "../transcript.ts";
import type { AssistantMessage, Context, ImageContent, TextContent, Tool, TranscriptMessage } from "../types.ts";

const CHARS_PER_TOKEN = 4;
const IMAGE_CHARS = 4800;
/** Tokens kept free between the context and the output limit. */
const CONTEXT_SAFETY_TOKENS = 4096;

function tokensOf(chars: number): number {
	return Math.ceil(chars / CHARS_PER_TOKEN);
}

function contentChars(content: string | (TextContent | ImageContent)[]): number {
	if (typeof content === "string") return content.length;
	return content.reduce((sum, block) => sum + (block.type === "text" ? block.text.length : IMAGE_CHARS), 0);
}

function json(value: unknown): string {
	try {
		return JSON.stringify(value) ?? "undefined";
	} catch {
		return "[unserializable]";
	}
}

function toolsTokens(tools: readonly unknown[] | undefined): number {
	return tools && tools.length > 0 ? tokensOf(json(tools).length) : 0;
}

function messageTokens(message: TranscriptMessage): number {
	if (message.role === "system") {
		return (
			tokensOf(getSystemMessageText(message).length) +
			toolsTokens(message.toolsAdded as Tool[] | undefined) +
			toolsTokens(message.toolsRemoved)
		);
	}
	if (message.role === "user" || message.role === "toolResult") return tokensOf(contentChars(message.content));
	let chars = 0;
	for (const block of message.content) {
		if (block.type === "text") chars += block.text.length;
		else if (block.type === "thinking") chars += block.thinking.length;
		else chars += block.name.length + json(block.arguments).length;
	}
	return tokensOf(chars);
}

function usageTokens(message: AssistantMessage): number {
	const usage = message.usage;
	return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

export function estimateContextTokens(messages: readonly TranscriptMessage[]): number {
	let newestPrefix = Number.NEGATIVE_INFINITY;
	let usageIndex = -1;
	let used = 0;
	messages.forEach((message, index) => {
		if (
			message.role === "assistant" &&
			message.timestamp >= newestPrefix &&
			message.stopReason !== "aborted" &&
			message.stopReason !== "error" &&
			usageTokens(message) > 0
		) {
			usageIndex = index;
			used = usageTokens(message);
		}
		newestPrefix = Math.max(newestPrefix, message.timestamp);
	});
	let trailing = 0;
	for (let i = usageIndex + 1; i < messages.length; i++) trailing += messageTokens(messages[i] as TranscriptMessage);
	return used + trailing;
}

/** The output limit, lowered so that context plus output stay inside the model's window (never below 1). */
export function clampMaxTokensToContext(model: { contextWindow: number }, context: Context, maxTokens: number): number {
	if (model.contextWindow <= 0) return Math.max(1, maxTokens);
	// The transcript form carries prompt and tools in system messages; a plain context gets them folded in.
	const transcript = context.messages as readonly TranscriptMessage[];
	const messages = transcript.some((m) => m.role === "system") ? transcript : normalizeContext(context).messages;
	const available = model.contextWindow - estimateContextTokens(messages) - CONTEXT_SAFETY_TOKENS;
	return Math.min(maxTokens, Math.max(1, available));
}
