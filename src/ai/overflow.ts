/**
 * Recognising "the context no longer fits" in a provider's answer: error texts of the providers pi 0.87.1 knows
 * (the same patterns), a reply whose reported input exceeds the window (servers that truncate silently), and a
 * length stop with no output after the input filled the window.
 */
import type { AssistantMessage } from "./types.ts";

const OVERFLOW_PATTERNS: readonly RegExp[] = [
	/prompt (?:is )?too long/i, // Anthropic, z.ai
	/request_too_large/i, // Anthropic, request over the byte limit (413)
	/input is too long for requested model/i, // Amazon Bedrock
	/exceeds the context window/i, // OpenAI
	/exceeds (?:the )?(?:model'?s )?maximum context length(?: of [\d,]+ tokens?|\s*\([\d,]+\))/i, // LiteLLM and other proxies
	/input token count.*exceeds the maximum/i, // Gemini
	/maximum prompt length is \d+/i, // xAI
	/reduce the length of the messages/i, // Groq
	/maximum context length is \d+ tokens/i, // OpenRouter
	/exceeds (?:the )?maximum allowed input length of [\d,]+ tokens?/i, // OpenRouter / Poolside
	/input \(\d+ tokens\) is longer than the model'?s context length \(\d+ tokens\)/i, // Together AI
	/exceeds the limit of \d+/i, // GitHub Copilot
	/exceeds the available context size/i, // llama.cpp
	/greater than the context length/i, // LM Studio
	/context window exceeds limit/i, // MiniMax
	/exceeded model token limit/i, // Kimi For Coding
	/too large for model with \d+ maximum context length/i, // Mistral
	/prompt has [\d,]+ tokens?, but the configured context size is [\d,]+ tokens?/i, // DS4
	/model_context_window_exceeded/i, // z.ai finish reason reported as an error
	/prompt too long; exceeded (?:max )?context length/i, // Ollama
	/range of input length should be/i, // DashScope / Qwen
	/context[_ ]length[_ ]exceeded/i,
	/too many tokens/i,
	/token limit exceeded/i,
];

/** Cerebras answers an oversized request with a bare 400/413. */
const CEREBRAS_BODYLESS = /^4(?:00|13)\s*(?:status code)?\s*\(no body\)/i;

/** Throttling texts that would otherwise match an overflow pattern ("Too many tokens, please wait"). */
const NOT_OVERFLOW: readonly RegExp[] = [
	/^(Throttling error|Service unavailable):/i,
	/rate limit/i,
	/too many requests/i,
];

/**
 * Whether `message` means the context overflowed. With `contextWindow`, a successful reply whose input (with cache
 * reads) exceeds it counts, and so does a length stop with no output whose input reached 99 % of it.
 */
export function isContextOverflow(message: AssistantMessage, contextWindow?: number): boolean {
	const text = message.errorMessage;
	if (message.stopReason === "error" && text && !NOT_OVERFLOW.some((re) => re.test(text))) {
		if (OVERFLOW_PATTERNS.some((re) => re.test(text))) return true;
		if (message.provider === "cerebras" && CEREBRAS_BODYLESS.test(text)) return true;
	}
	if (!contextWindow) return false;
	const input = message.usage.input + message.usage.cacheRead;
	if (message.stopReason === "stop" && input > contextWindow) return true;
	return message.stopReason === "length" && message.usage.output === 0 && input >= contextWindow * 0.99;
}

/**
 * Whether a length stop ended before the output limit the caller asked for (`desiredMaxOutput`, before any
 * clamping to the context): a sign of context pressure worth one compact-and-retry.
 */
export function isRecoverableLength(message: AssistantMessage, desiredMaxOutput: number): boolean {
	return message.stopReason === "length" && desiredMaxOutput > 0 && message.usage.output < desiredMaxOutput;
}

/** A copy of the overflow patterns (for tests and for callers that match texts themselves). */
export function getOverflowPatterns(): RegExp[] {
	return [...OVERFLOW_PATTERNS];
}
