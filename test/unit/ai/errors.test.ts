import { describe, expect, test } from "bun:test";
import {
	type AssistantMessage,
	classifyError,
	emptyUsage,
	isContextOverflow,
	parseRetryAfter,
} from "../../../src/ai/index.ts";

const failed = (errorMessage: string): AssistantMessage => ({
	role: "assistant",
	content: [],
	api: "x",
	provider: "x",
	model: "m",
	usage: emptyUsage(),
	stopReason: "error",
	errorMessage,
	timestamp: 0,
});

describe("context overflow", () => {
	test.each([
		"Anthropic API error 400: prompt is too long: 213000 tokens > 200000 maximum [invalid_request_error]",
		"OpenAI API error 400: Your input exceeds the context window of this model. [invalid_request_error]",
		"groq API error 400: This model's maximum context length is 131072 tokens. Please reduce the length of the messages.",
		"Google API error 400: The input token count (1200000) exceeds the maximum number of tokens allowed (1048576). [INVALID_ARGUMENT]",
		"ollama API error 400: prompt too long; exceeded max context length",
		"openrouter API error 400: context_length_exceeded",
	])("%s", (text) => {
		expect(isContextOverflow(failed(text))).toBe(true);
	});
	test("other errors are not overflows", () => {
		expect(isContextOverflow(failed("Anthropic API error 529: Overloaded"))).toBe(false);
	});
	test("a silent overflow: usage above the window on a successful reply", () => {
		const ok = { ...failed(""), stopReason: "stop" as const, errorMessage: undefined };
		ok.usage.input = 130_000;
		expect(isContextOverflow(ok, 128_000)).toBe(true);
		expect(isContextOverflow(ok, 200_000)).toBe(false);
	});
});

describe("retry classification", () => {
	test.each([
		["Anthropic API error 529: Overloaded [overloaded_error]", true],
		["OpenAI API error 429: Rate limit reached (retry after 3s)", true],
		["OpenAI API error 503: Service Unavailable", true],
		["Anthropic connection error: fetch failed", true],
		["Anthropic stream ended before the response was complete (connection closed)", true],
		["OpenAI API error 429: You exceeded your current quota, please check your plan and billing details.", false],
		["Anthropic API error 400: Your credit balance is too low", false],
		["OpenAI API error 401: Incorrect API key provided", false],
		["OpenAI API error 400: bad request", false],
	])("%s → retryable %p", (text, retryable) => {
		expect(classifyError(failed(text as string)).retryable).toBe(retryable as boolean);
	});
	test("retry-after is carried", () => {
		expect(classifyError(failed("X API error 429: slow down (retry after 12s)")).retryAfterMs).toBe(12_000);
		expect(parseRetryAfter("3")).toBe(3000);
		expect(parseRetryAfter(null, "250")).toBe(250);
		expect(parseRetryAfter("garbage")).toBeUndefined();
	});
	test("a successful message is not retryable", () => {
		expect(classifyError({ ...failed(""), stopReason: "stop" }).retryable).toBe(false);
	});
});
