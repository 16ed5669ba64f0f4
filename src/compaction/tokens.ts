/** Token estimates (≈ 4 characters per token) and the auto-compaction threshold. */
import type { AgentMessage } from "../agent/index.ts";
import type { AssistantMessage, ImageContent, TextContent, Usage } from "../ai/index.ts";
import type { SessionEntry } from "../session/index.ts";
import { measuredContent } from "../util/index.ts";

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
	/** Index of the assistant message whose usage was used, or null. */
	lastUsageIndex: number | null;
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
	if ((message as { role: string }).role === "system") {
		// A system message of the transcript: its text, every section and the declared tools.
		const system = message as unknown as {
			content: string | (TextContent | ImageContent)[];
			sections?: Record<string, string | null>;
			toolsAdded?: unknown[];
		};
		chars = contentChars(system.content ?? "").chars;
		for (const section of Object.values(system.sections ?? {})) if (section) chars += section.length;
		if (system.toolsAdded) chars += JSON.stringify(system.toolsAdded).length;
		return Math.ceil(chars / 4);
	}
	switch (message.role) {
		case "user":
		case "toolResult":
		case "custom": {
			// A large content left on disk is measured there rather than read.
			const c = measuredContent(message) ?? contentChars(message.content);
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

/** Context size a usage report stands for: the provider's `totalTokens`, else the sum of its parts (pi's rule). */
export function calculateContextTokens(usage: Usage): number {
	return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** Total of what the provider reported for one response (0 without a usage). */
export function usageTokens(message: AssistantMessage): number {
	return message.usage ? calculateContextTokens(message.usage) : 0;
}

/** The usage of an assistant message that describes a full context: not aborted, not failed, not all zero. */
function validUsage(message: AgentMessage): Usage | undefined {
	if (message.role !== "assistant" || message.stopReason === "aborted" || message.stopReason === "error") return;
	return message.usage && calculateContextTokens(message.usage) > 0 ? message.usage : undefined;
}

/** The usage of the newest assistant message entry on `entries` that has a valid one. */
export function getLastAssistantUsage(entries: readonly SessionEntry[]): Usage | undefined {
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i]!;
		if (entry.type !== "message") continue;
		const usage = validUsage(entry.message as AgentMessage);
		if (usage) return usage;
	}
	return undefined;
}

/**
 * Context size of `messages`: the usage of the newest assistant message that reported one, plus estimates of the
 * messages after it. Aborted and failed responses are passed over (their usage does not describe a full context).
 * Without any usage, every message is estimated and `lastUsageIndex` is null.
 */
export function estimateContextTokens(messages: readonly AgentMessage[]): ContextEstimate {
	let lastUsageIndex: number | null = null;
	let used = 0;
	for (let i = messages.length - 1; i >= 0; i--) {
		const usage = validUsage(messages[i]!);
		if (usage) {
			lastUsageIndex = i;
			used = calculateContextTokens(usage);
			break;
		}
	}
	let trailing = 0;
	for (let i = (lastUsageIndex ?? -1) + 1; i < messages.length; i++) trailing += estimateTokens(messages[i]!);
	return { tokens: used + trailing, usageTokens: used, trailingTokens: trailing, lastUsageIndex };
}

export function getContextUsage(messages: readonly AgentMessage[], contextWindow: number): ContextUsage {
	const { tokens } = estimateContextTokens(messages);
	const percent = contextWindow > 0 ? (tokens / contextWindow) * 100 : 0;
	return { tokens, contextWindow, percent };
}

/** True when auto-compaction is on and `tokens` reach into the reserve kept for the reply (pi's rule). */
export function shouldCompact(tokens: number, contextWindow: number, settings: CompactionSettings): boolean {
	if (!settings.enabled) return false;
	return tokens > contextWindow - settings.reserveTokens;
}
