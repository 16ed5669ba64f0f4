/**
 * The faux provider's streaming and accounting: replaying a scripted message as chunked deltas (optionally paced in
 * real time) and estimating prompt usage with a simulated prompt cache.
 */

import { requestView } from "../transcript.ts";
import type { AssistantMessage, Context, Message, StreamOptions, Usage } from "../types.ts";
import type { MessageBuilder } from "./message-builder.ts";

const CHARS_PER_TOKEN = 4;
const DEFAULT_TOKEN_SIZE = { min: 3, max: 5 };

export interface TokenRange {
	min: number;
	max: number;
}

interface ReplayOptions {
	tokenRange: TokenRange;
	tokensPerSecond: number | undefined;
	signal: AbortSignal | undefined;
}

type PromptUsage = Pick<Usage, "input" | "cacheRead" | "cacheWrite">;

/** Streams the scripted message through the builder; ends with its stop reason, or "aborted" if the signal fires. */
export async function replay(
	builder: MessageBuilder,
	scripted: AssistantMessage,
	prompt: PromptUsage,
	options: ReplayOptions,
): Promise<void> {
	const target = builder.message;
	if (typeof scripted.timestamp === "number") target.timestamp = scripted.timestamp;
	if (scripted.responseId !== undefined) target.responseId = scripted.responseId;
	if (scripted.responseModel !== undefined) target.responseModel = scripted.responseModel;

	const aborted = (): boolean => {
		if (!options.signal?.aborted) return false;
		builder.usage({ ...prompt, output: estimateTokens(assistantText(target.content)) });
		builder.fail("Request was aborted", "aborted");
		return true;
	};
	/** Emits `text` in chunks through `emit`; false if aborted on the way. */
	const chunked = async (text: string, emit: (chunk: string) => void): Promise<boolean> => {
		for (const chunk of splitIntoChunks(text, options.tokenRange)) {
			await pace(chunk, options.tokensPerSecond, options.signal);
			if (aborted()) return false;
			emit(chunk);
		}
		return true;
	};

	builder.start();
	for (const block of scripted.content) {
		if (aborted()) return;
		if (block.type === "text") {
			builder.text("", block.textSignature);
			if (!(await chunked(block.text ?? "", (c) => builder.text(c)))) return;
		} else if (block.type === "thinking") {
			if (block.redacted) {
				builder.redactedThinking(block.thinkingSignature ?? "");
				continue;
			}
			builder.thinking("", block.thinkingSignature);
			if (!(await chunked(block.thinking ?? "", (c) => builder.thinking(c)))) return;
		} else if (block.type === "toolCall") {
			builder.toolCall(
				block.id,
				block.name,
				block.thoughtSignature !== undefined ? { thoughtSignature: block.thoughtSignature } : undefined,
			);
			const json = JSON.stringify(block.arguments ?? {});
			if (!(await chunked(json, (c) => builder.toolArguments(c)))) return;
		} else {
			continue;
		}
		if (!builder.close()) return;
	}

	builder.usage({ ...prompt, output: estimateTokens(assistantText(scripted.content)) });
	const reason = scripted.stopReason;
	if (reason === "error" || reason === "aborted") {
		const fallback = reason === "aborted" ? "Request was aborted" : "Faux provider error";
		builder.fail(scripted.errorMessage ?? fallback, reason);
	} else {
		builder.finish(reason === "length" || reason === "toolUse" ? reason : "stop");
	}
}

export function normalizeTokenSize(size: number | { min?: number; max?: number } | undefined): TokenRange {
	const positive = (n: number | undefined, fallback: number): number =>
		typeof n === "number" && Number.isFinite(n) && n > 0 ? n : fallback;
	if (typeof size === "number") {
		const fixed = positive(size, DEFAULT_TOKEN_SIZE.min);
		return { min: fixed, max: fixed };
	}
	const min = positive(size?.min, Math.min(DEFAULT_TOKEN_SIZE.min, positive(size?.max, DEFAULT_TOKEN_SIZE.min)));
	const max = Math.max(min, positive(size?.max, Math.max(DEFAULT_TOKEN_SIZE.max, min)));
	return { min, max };
}

function splitIntoChunks(text: string, range: TokenRange): string[] {
	const chunks: string[] = [];
	for (let at = 0; at < text.length; ) {
		const span = Math.floor(range.max - range.min);
		const tokens = span > 0 ? range.min + Math.floor(Math.random() * (span + 1)) : range.min;
		const size = Math.max(1, Math.round(tokens * CHARS_PER_TOKEN));
		chunks.push(text.slice(at, at + size));
		at += size;
	}
	return chunks;
}

/** Waits before a chunk: one microtask, or the chunk's share of real time at `tokensPerSecond` (cut short by abort). */
function pace(chunk: string, tokensPerSecond: number | undefined, signal: AbortSignal | undefined): Promise<void> {
	if (!tokensPerSecond || !(tokensPerSecond > 0)) return nextMicrotask();
	const ms = (estimateTokens(chunk) / tokensPerSecond) * 1000;
	return new Promise<void>((resolve) => {
		if (signal?.aborted) {
			resolve();
			return;
		}
		const done = (): void => {
			clearTimeout(timer);
			signal?.removeEventListener("abort", done);
			resolve();
		};
		const timer = setTimeout(done, ms);
		signal?.addEventListener("abort", done, { once: true });
	});
}

export function nextMicrotask(): Promise<void> {
	return new Promise<void>((resolve) => queueMicrotask(resolve));
}

// ---- usage estimate ----------------------------------------------------------------------------------------

function estimateTokens(text: string): number {
	return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Input-side usage of a request; updates the session's simulated prompt cache. */
export function estimatePrompt(
	promptText: string,
	options: StreamOptions | undefined,
	cache: Map<string, string>,
): PromptUsage {
	const total = estimateTokens(promptText);
	const sessionId = options?.sessionId;
	if (!sessionId || options?.cacheRetention === "none") return { input: total, cacheRead: 0, cacheWrite: 0 };
	const previous = cache.get(sessionId);
	cache.set(sessionId, promptText);
	if (previous === undefined) return { input: total, cacheRead: 0, cacheWrite: 0 };
	const shared = commonPrefixLength(previous, promptText);
	const cacheRead = Math.min(total, Math.floor(shared / CHARS_PER_TOKEN));
	return { input: total - cacheRead, cacheRead, cacheWrite: 0 };
}

function commonPrefixLength(a: string, b: string): number {
	const limit = Math.min(a.length, b.length);
	let i = 0;
	while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
	return i;
}

export function serializeContext(full: Context): string {
	const context = requestView(full);
	const parts: string[] = [];
	if (context.systemPrompt) parts.push(`system:${context.systemPrompt}`);
	for (const tool of context.tools ?? []) {
		parts.push(`tool:${tool.name}:${tool.description}:${JSON.stringify(tool.parameters)}`);
	}
	for (const message of context.messages ?? []) parts.push(`${message.role}:${messageText(message)}`);
	return parts.join("\n\n");
}

function messageText(message: Message): string {
	switch (message.role) {
		case "user":
			return typeof message.content === "string" ? message.content : partsText(message.content);
		case "assistant":
			return assistantText(message.content);
		case "toolResult":
			return `${message.toolName}\n${partsText(message.content)}`;
		default:
			return JSON.stringify(message);
	}
}

function partsText(parts: readonly { type: string; text?: string; mimeType?: string }[]): string {
	return parts.map((p) => (p.type === "text" ? (p.text ?? "") : `[${p.type}:${p.mimeType ?? ""}]`)).join("\n");
}

function assistantText(content: AssistantMessage["content"]): string {
	return content
		.map((b) => {
			if (b.type === "text") return b.text ?? "";
			if (b.type === "thinking") return b.thinking ?? "";
			if (b.type === "toolCall") return `${b.name}:${JSON.stringify(b.arguments ?? {})}`;
			return "";
		})
		.join("\n");
}
