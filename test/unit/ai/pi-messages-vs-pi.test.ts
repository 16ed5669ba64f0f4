/**
 * `pi-messages` side by side with pi-ai 0.87.1 (its `api/pi-messages` module under Node 22 from the conformance
 * cache): the same scenarios, each answered with the same bytes by a mock LLM, must give the same events and final
 * message, and both must send the same request (URL, headers, body bytes). Without the cache the tests skip, saying
 * why.
 */
import { describe, expect, test } from "bun:test";
import { isContextOverflow, isRetryableAssistantError, piMessagesApi } from "../../../src/ai/index.ts";
import {
	expectSameRequests,
	piSkipReason,
	scenarioRunner,
	sideBySide,
	systemWith,
	usage,
	user,
} from "../../helpers/provider-vs-pi.ts";
import type { MockReply, MockStep } from "../../support/mock-llm/index.ts";
import { piMessagesFormat } from "../../support/mock-llm/pi-messages.ts";
import { sseFrame } from "../../support/mock-llm/types.ts";
import { RED_PIXEL_PNG } from "../../support/models.ts";

interface Scenario {
	name: string;
	step: MockStep;
	model?: Record<string, unknown>;
	context?: Record<string, unknown>;
	options?: Record<string, unknown>;
	simple?: boolean;
	/** Abort at the first text delta (the runtimes word an abort differently: masked). */
	abortAtDelta?: boolean;
}

const REQUEST = { method: "POST", path: "/pi/messages", headers: {}, body: {}, vendor: "pi-messages" as const };

/** One reply rendered once, so both sides read identical bytes (the renderer picks a random response id). */
function bytes(reply: Omit<MockReply, "kind">): MockStep {
	return { kind: "raw", body: piMessagesFormat.renderReply({ kind: "reply", ...reply }, REQUEST).join("") };
}
const raw = (...events: unknown[]): MockStep => ({ kind: "raw", body: events.map((e) => sseFrame(e)).join("") });

const tool = {
	name: "read",
	description: "read a file",
	parameters: { type: "object", properties: { path: { type: "string" } } },
};
const system = systemWith(tool);
const richContext = {
	messages: [
		system,
		user([
			{ type: "text", text: "what is in this picture?" },
			{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
		]),
		{
			role: "assistant",
			api: "pi-messages",
			provider: "radius",
			model: "m",
			usage,
			stopReason: "toolUse",
			timestamp: 3,
			content: [
				{ type: "thinking", thinking: "look", thinkingSignature: "SIG" },
				{ type: "text", text: "reading" },
				{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.txt" } },
			],
		},
		{
			role: "toolResult",
			toolCallId: "call_1",
			toolName: "read",
			content: [{ type: "text", text: "red" }],
			isError: false,
			timestamp: 4,
		},
		{ role: "system", content: "", sections: { mode: "terse" }, timestamp: 5 },
		user("thanks", 6),
	],
};

const SCENARIOS: Scenario[] = [
	{
		name: "thinking, text, priced usage (streamSimple, high reasoning, debug)",
		step: bytes({
			thinking: "let me think about it",
			thinkingSignature: "ENC",
			text: "Hello there, friend!",
			usage: { input: 1000, output: 200, cacheRead: 300, cacheWrite: 50 },
		}),
		simple: true,
		options: { reasoning: "high", sessionId: "session-1", debug: true },
	},
	{
		name: "two tool calls with every request option",
		step: bytes({
			text: "calling",
			toolCalls: [
				{ name: "read", arguments: { path: "a.txt" } },
				{ name: "read", arguments: { path: "b.txt", lines: [1, 2] } },
			],
			chunkSize: 3,
		}),
		options: {
			sessionId: "s-2",
			maxTokens: 5,
			temperature: 0.2,
			toolChoice: { type: "function", function: { name: "read" } },
			cacheRetention: "short",
			headers: { "x-extra": "1", "x-dropped": null },
		},
	},
	{ name: "length stop", step: bytes({ text: "truncated answer", stopReason: "length" }), simple: true },
	{ name: "stream error event", step: bytes({ text: "partial", streamError: "upstream model failed" }) },
	{
		name: "rich context: images, replayed blocks, a mid-transcript system message; long cache from env",
		step: bytes({ text: "ok" }),
		context: richContext,
		simple: true,
		options: { reasoning: "minimal", env: { PI_CACHE_RETENTION: "long" } },
	},
	{
		name: "rewrite diagnostic, provider thinking level, redacted thinking, extra event fields",
		step: raw(
			{ type: "start" },
			{ type: "thinking_start", contentIndex: 0 },
			{ type: "thinking_delta", contentIndex: 0, delta: "secret" },
			{ type: "thinking_end", contentIndex: 0, content: "", contentSignature: "opaque", redacted: true },
			{ type: "text_start", contentIndex: 1, note: "kept" },
			{ type: "text_delta", contentIndex: 1, delta: "hi" },
			{ type: "text_end", contentIndex: 1, content: "hi!", contentSignature: "msg_9" },
			{
				type: "done",
				reason: "stop",
				usage,
				responseId: "r-1",
				providerThinkingLevel: "very-high",
				rewrite: {
					policyId: "trim",
					policyVersion: 3,
					changed: true,
					tokenCountChange: -120,
					messageCountChange: -2,
					systemPromptChanged: false,
				},
			},
			{ type: "text_delta", contentIndex: 1, delta: "after the end: ignored" },
		),
	},
	{
		name: "tool call whose end replaces the streamed arguments",
		step: raw(
			{ type: "start" },
			{ type: "toolcall_start", contentIndex: 0, id: "c1", toolName: "read" },
			{ type: "toolcall_delta", contentIndex: 0, delta: '{"path":"a' },
			{
				type: "toolcall_end",
				contentIndex: 0,
				toolCall: { type: "toolCall", id: "c1", name: "read", arguments: { path: "final" }, thoughtSignature: "t" },
			},
			{ type: "done", reason: "toolUse", usage },
		),
	},
	{
		name: "[DONE], comments and CRLF between events",
		step: {
			kind: "raw",
			body: `: hello\r\n\r\ndata: {"type":"start"}\r\n\r\ndata: {"type":"text_start","contentIndex":0}\r\n\r\ndata: {"type":"text_delta","contentIndex":0,"delta":"x"}\r\n\r\ndata: [DONE]\r\n\r\ndata: ${JSON.stringify({ type: "done", reason: "stop", usage })}\r\n\r\n`,
		},
	},
	{
		name: "stream ends without a terminal event",
		step: raw(
			{ type: "start" },
			{ type: "text_start", contentIndex: 0 },
			{ type: "text_delta", contentIndex: 0, delta: "cut" },
		),
	},
	{
		name: "backend error event with its own reason",
		step: raw({ type: "start" }, { type: "error", reason: "aborted", usage, errorMessage: "client went away" }),
	},
	{
		name: "HTTP 429 with an error code",
		step: { kind: "http-error", status: 429, message: "Rate limit reached for requests" },
	},
	{
		name: "HTTP 400 context overflow",
		step: {
			kind: "http-error",
			status: 400,
			message: "prompt is too long: 250000 tokens > 200000 maximum",
		},
	},
	{ name: "HTTP 500 with a text body", step: { kind: "http-error", status: 500, body: "upstream exploded" } },
	{ name: "HTTP 401 JSON without an error object", step: { kind: "http-error", status: 401, body: { detail: "no" } } },
	{
		name: "abort at the first text delta",
		step: { kind: "reply", text: "a slow answer that will be interrupted", chunkSize: 4, frameDelayMs: 30 },
		abortAtDelta: true,
	},
	{ name: "no API key", step: bytes({ text: "never sent" }), options: { apiKey: "" } },
];

const MODEL = {
	id: "anthropic/claude-sonnet",
	name: "Claude Sonnet",
	api: "pi-messages",
	provider: "radius",
	reasoning: true,
	input: ["text", "image"],
	cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
	contextWindow: 200000,
	maxTokens: 64000,
};
const DEFAULT_CONTEXT = { messages: [system, user("hi")] };

/** Runs every scenario in order against `url`; the same source runs under pi's Node and here. */
const RUN = scenarioRunner(
	`
		const model = { ...input.model, baseUrl: input.url + "/pi/", ...(sc.model ?? {}) };
		const controller = new AbortController();
		const options = { apiKey: "radius-secret-key", signal: controller.signal, ...(sc.options ?? {}) };`,
);

/** Drops what differs by run (times, stacks, the mock's port); masks the runtime's own abort wording. */
function scrub(value: unknown, key = ""): unknown {
	if (Array.isArray(value)) return value.map((v) => scrub(v));
	if (value && typeof value === "object") {
		const out: Record<string, unknown> = {};
		const aborted = (value as { stopReason?: string }).stopReason === "aborted";
		for (const [k, v] of Object.entries(value)) {
			if (k === "timestamp" || k === "timestampMs" || k === "stack") continue;
			out[k] = k === "errorMessage" && aborted && key !== "keep" ? "<abort>" : scrub(v, k);
		}
		return out;
	}
	return typeof value === "string" ? value.replace(/127\.0\.0\.1:\d+/g, "HOST") : value;
}

const input = (url: string) => ({
	url,
	model: MODEL,
	context: DEFAULT_CONTEXT,
	scenarios: SCENARIOS.map(({ step: _step, ...sc }) => sc),
});

const runBoth = sideBySide({
	modulePath: "@earendil-works/pi-ai/dist/api/pi-messages.js",
	api: () => piMessagesApi(),
	run: RUN,
	input,
	load: (server) => {
		server.push(...SCENARIOS.filter((sc) => sc.options?.apiKey !== "").map((sc) => sc.step));
	},
});

const skip = piSkipReason();

describe("pi-messages behaves as pi-ai 0.87.1's", () => {
	if (skip) {
		test.skip(`skipped: ${skip}`, () => {});
		console.warn(`pi-messages vs pi: skipped: ${skip}`);
		return;
	}
	SCENARIOS.forEach((scenario, index) => {
		test(`same events and message: ${scenario.name}`, async () => {
			const { pi, ours } = await runBoth();
			expect(scrub(ours[index])).toEqual(scrub(pi[index]));
		}, 60_000);
	});

	test("same requests: URL, headers and body bytes", async () => {
		const { piServer, ourServer } = await runBoth();
		expectSameRequests(piServer, ourServer, ["authorization", "accept", "content-type", "x-extra", "x-dropped"]);
	}, 60_000);

	test("errors are classified: overflow, retryable rate limit and 5xx, not a 401", async () => {
		const { ours } = await runBoth();
		const at = (name: string) => ours[SCENARIOS.findIndex((sc) => sc.name === name)].result;
		expect(isContextOverflow(at("HTTP 400 context overflow"), 200000)).toBe(true);
		expect(isContextOverflow(at("HTTP 429 with an error code"), 200000)).toBe(false);
		expect(isRetryableAssistantError(at("HTTP 429 with an error code"))).toBe(true);
		expect(isRetryableAssistantError(at("HTTP 500 with a text body"))).toBe(true);
		expect(isRetryableAssistantError(at("HTTP 401 JSON without an error object"))).toBe(false);
	}, 60_000);

	test("the API key appears only in the authorization header", async () => {
		const { ours, ourServer } = await runBoth();
		expect(JSON.stringify(ours)).not.toContain("radius-secret-key");
		for (const request of ourServer.requests) expect(JSON.stringify(request.body)).not.toContain("radius-secret-key");
	}, 60_000);
});
