/** Token estimates (≈ 4 characters per token) and the auto-compaction threshold. */
import type { AgentMessage } from "../agent/index.ts";
import type { AssistantMessage, ImageContent, TextContent } from "../ai/index.ts";

/** Rough cost of one image in context. */
export const IMAGE_TOKENS = 1200;

export interface CompactionSettings {
	enabled: boolean;
	/** Room left for the model's reply; compaction triggers once the context eats into it. */
	reserveTokens: number;
	/** How many recent tokens stay verbatim after a compaction. */
	keepRecentTokens: number;
}

export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = {
	enabled: true,
	reserveTokens: 16384,
	keepRecentTokens: 20000,
};

/** Estimated context size: the last reported usage plus an estimate of what came after it. */
export interface ContextEstimate {
	tokens: number;
	/** From the last assistant usage (0 without one). */
	usageTokens: number;
	/** Estimated tokens of the messages after that assistant message. */
	trailingTokens: number;
	/** Index of the assistant message whose usage was used, or -1. */
	lastUsageIndex: number;
}

export interface ContextUsage {
	tokens: number;
	contextWindow: number;
	/** 0–100 (may exceed 100 on overflow); 0 for an unknown window. */
	percent: number;
}

function contentChars(content: string | readonly (TextContent | ImageContent)[]): { chars: number; images: number } {
	if (typeof content === "string") return { chars: content.length, images: 0 };
	let chars = 0;
	let images = 0;
	for (const part of content) {
		if (part.type === "text") chars += part.text.length;
		else if (part.type === "image") images++;
	}
	return { chars, images };
}

function assistantChars(message: AssistantMessage): number {
	let chars = 0;
	for (const part of message.content) {
		if (part.type === "text") chars += part.text.length;
		else if (part.type === "thinking") chars += part.thinking.length;
		else if (part.type === "toolCall") chars += part.name.length + JSON.stringify(part.arguments ?? {}).length;
	}
	return chars;
}

/** Estimated tokens of one context message: characters / 4 (rounded up), images ≈ {@link IMAGE_TOKENS}. */
export function estimateTokens(message: AgentMessage): number {
	let chars = 0;
	let images = 0;
	switch (message.role) {
		case "user":
		case "toolResult":
		case "custom": {
			const c = contentChars(message.content);
			chars = c.chars;
			images = c.images;
			break;
		}
		case "assistant":
			chars = assistantChars(message);
			break;
		case "bashExecution":
			chars = message.command.length + message.output.length;
			break;
		case "branchSummary":
		case "compactionSummary":
			chars = message.summary.length;
			break;
		default:
			return 0;
	}
	return Math.ceil(chars / 4) + images * IMAGE_TOKENS;
}

/** Total of what the provider reported for one response (the context it saw plus what it wrote). */
export function usageTokens(message: AssistantMessage): number {
	const u = message.usage;
	if (!u) return 0;
	return (u.input ?? 0) + (u.output ?? 0) + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0);
}

/**
 * Context size of `messages`: the usage of the newest assistant message that reported one, plus estimates of the
 * messages after it. Aborted and failed responses are passed over (their usage does not describe a full context).
 * Without any usage, every message is estimated.
 */
export function estimateContextTokens(messages: readonly AgentMessage[]): ContextEstimate {
	let lastUsageIndex = -1;
	let used = 0;
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i]!;
		if (m.role !== "assistant" || m.stopReason === "aborted" || m.stopReason === "error") continue;
		const total = usageTokens(m);
		if (total > 0) {
			lastUsageIndex = i;
			used = total;
			break;
		}
	}
	let trailing = 0;
	for (let i = lastUsageIndex + 1; i < messages.length; i++) trailing += estimateTokens(messages[i]!);
	return { tokens: used + trailing, usageTokens: used, trailingTokens: trailing, lastUsageIndex };
}

export function getContextUsage(messages: readonly AgentMessage[], contextWindow: number): ContextUsage {
	const { tokens } = estimateContextTokens(messages);
	const percent = contextWindow > 0 ? (tokens / contextWindow) * 100 : 0;
	return { tokens, contextWindow, percent };
}

/** True when auto-compaction is on and `tokens` reach into the reserve kept for the reply. */
export function shouldCompact(tokens: number, contextWindow: number, settings: CompactionSettings): boolean {
	if (!settings.enabled || contextWindow <= 0) return false;
	return tokens > contextWindow - settings.reserveTokens;
}
