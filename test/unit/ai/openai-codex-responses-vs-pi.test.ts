/**
 * `openai-codex-responses` side by side with pi-ai 0.87.1 (its `api/openai-codex-responses` module under Node 22
 * from the conformance cache, SSE transport): the same scenarios, each answered with the same bytes by a mock LLM,
 * must give the same events and final message, and the requests both send must have the same path, headers and
 * (decompressed) body. Without the cache the tests skip, saying why.
 */
import { describe, expect, test } from "bun:test";
import {
	isContextOverflow,
	isRetryableAssistantError,
	streamOpenAICodexResponses,
	streamSimpleOpenAICodexResponses,
} from "../../../src/ai/index.ts";
import {
	piSkipReason,
	scenarioRunner,
	scrubTimestampsAndIds,
	sideBySide,
	systemWith,
	usage,
	user,
} from "../../helpers/provider-vs-pi.ts";
import { codexFailedStream, type MockReply, type MockStep } from "../../support/mock-llm/index.ts";
import { codexToken, openaiCodexFormat } from "../../support/mock-llm/openai-codex.ts";
import { RED_PIXEL_PNG } from "../../support/models.ts";

interface Scenario {
	name: string;
	/** Absent when no request is sent. */
	step?: MockStep;
	model?: Record<string, unknown>;
	context?: Record<string, unknown>;
	options?: Record<string, unknown>;
	simple?: boolean;
	/** Abort at the first text delta (a live reply: its random ids are masked when comparing). */
	abortAtDelta?: boolean;
}

/** One reply rendered once, so both sides read identical bytes (the renderer picks random ids). */
function frames(reply: Omit<MockReply, "kind">): string {
	const request = {
		method: "POST",
		path: "/backend-api/codex/responses",
		headers: {},
		body: { model: "gpt-5.5" },
		vendor: "openai-codex" as const,
	};
	return openaiCodexFormat.renderReply({ kind: "reply", ...reply }, request).join("");
}
const raw = (body: string): MockStep => ({ kind: "raw", body });
const bytes = (reply: Omit<MockReply, "kind">): MockStep => raw(frames(reply));

const TOKEN = codexToken("acct-123");
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
			api: "openai-codex-responses",
			provider: "openai-codex",
			model: "gpt-5.5",
			usage,
			stopReason: "toolUse",
			timestamp: 3,
			content: [
				{
					type: "thinking",
					thinking: "look",
					thinkingSignature: JSON.stringify({
						id: "rs_1",
						type: "reasoning",
						summary: [{ type: "summary_text", text: "look" }],
						encrypted_content: "E1",
					}),
				},
				{ type: "text", text: "reading", textSignature: JSON.stringify({ v: 1, id: "msg_1", phase: "commentary" }) },
				{ type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "a.txt" } },
			],
		},
		{
			role: "toolResult",
			toolCallId: "call_1|fc_1",
			toolName: "read",
			content: [{ type: "text", text: "red" }],
			isError: false,
			timestamp: 4,
		},
		{
			role: "assistant",
			api: "anthropic-messages",
			provider: "anthropic",
			model: "claude",
			usage,
			stopReason: "toolUse",
			timestamp: 5,
			content: [
				{ type: "thinking", thinking: "hmm", thinkingSignature: "sig" },
				{ type: "toolCall", id: "toolu_01|weird id", name: "read", arguments: { path: "b" } },
			],
		},
		{
			role: "toolResult",
			toolCallId: "toolu_01|weird id",
			toolName: "read",
			content: [{ type: "text", text: "blue" }],
			isError: true,
			timestamp: 6,
		},
		user("thanks", 7),
	],
};

/** The frames with their last one (the terminal event) edited. */
function editLast(text: string, edit: (frame: string) => string): string {
	const at = text.lastIndexOf("event: ");
	return text.slice(0, at) + edit(text.slice(at));
}
const done = editLast(frames({ text: "all done", usage: { input: 2000, output: 100, cacheRead: 500 } }), (frame) =>
	frame
		.replace(/response\.completed/g, "response.done")
		.replace('"incomplete_details":null', '"incomplete_details":null,"end_turn":true,"service_tier":"default"'),
);
const plain = frames({ text: "cut short" });
const cut = editLast(plain, () => "");
const filtered = frames({ text: "filtered", stopReason: "length" }).replace("max_output_tokens", "content_filter");
const failedStatus = editLast(plain, (frame) => frame.replace('"status":"completed"', '"status":"failed"'));
const oddStatus = editLast(plain, (frame) => frame.replace('"status":"completed"', '"status":"weird"'));
const OVERFLOW = "Your input exceeds the context window of this model. Please adjust your input and try again.";

const SCENARIOS: Scenario[] = [
	{
		name: "thinking, text, usage with cache reads (streamSimple, high reasoning, session id)",
		step: bytes({
			thinking: "let me think about it",
			thinkingSignature: "ENC",
			text: "Hello there, friend!",
			usage: { input: 1000, output: 200, cacheRead: 300 },
		}),
		simple: true,
		options: { reasoning: "high", sessionId: "session-1" },
	},
	{
		name: "two tool calls; verbosity, service tier, effort, long session id, tool choice",
		step: bytes({
			text: "calling",
			toolCalls: [
				{ name: "read", arguments: { path: "a.txt" } },
				{ name: "read", arguments: { path: "b.txt" } },
			],
		}),
		options: {
			sessionId: "s".repeat(80),
			temperature: 0.2,
			toolChoice: "required",
			textVerbosity: "medium",
			serviceTier: "priority",
			reasoningEffort: "minimal",
			reasoningSummary: "detailed",
		},
	},
	{ name: "length stop", step: bytes({ text: "truncated answer", stopReason: "length" }), simple: true },
	{ name: "incomplete for another reason", step: raw(filtered) },
	{ name: "a completed event with a failed status", step: raw(failedStatus) },
	{ name: "an unknown status", step: raw(oddStatus) },
	{
		name: "a message item with a phase",
		step: raw(
			frames({ thinking: "plan", text: "final words" }).replace(
				/"type":"message","role":"assistant"/g,
				'"type":"message","phase":"final_answer","role":"assistant"',
			),
		),
	},
	{ name: "response.done with end_turn, flex tier billed", step: raw(done), options: { serviceTier: "flex" } },
	{ name: "stream error event", step: bytes({ text: "partial", streamError: "server had an error" }) },
	{ name: "stream cut before the terminal event", step: raw(cut) },
	{ name: "in-stream context overflow", step: raw(codexFailedStream("context_length_exceeded", OVERFLOW)) },
	{
		name: "rich context: images, replayed reasoning and phase, foreign tool ids and thinking",
		step: bytes({ text: "ok" }),
		context: richContext,
		simple: true,
		options: { reasoning: "minimal" },
	},
	{
		name: "non-reasoning model, strict off, extra headers, no cache retention, empty system prompt",
		step: bytes({ text: "ok" }),
		model: { id: "gpt-4.1", reasoning: false, thinkingLevelMap: undefined, compat: { supportsStrictMode: false } },
		context: { messages: [{ ...system, content: "" }, user("hi")] },
		options: { headers: { "x-extra": "1", originator: "not-me" }, sessionId: "abc", cacheRetention: "none" },
	},
	{
		name: "reasoning none on a model whose off is null",
		step: bytes({ text: "ok" }),
		model: { thinkingLevelMap: { off: null, high: "high" } },
		options: { reasoningEffort: "none" },
	},
	{
		name: "base URL already ending in /codex",
		step: bytes({ text: "ok" }),
		model: { baseUrl: "{url}/backend-api/codex/" },
	},
	{
		name: "HTTP 429 usage limit",
		step: { kind: "http-error", status: 429, message: "The usage limit has been reached" },
	},
	{
		name: "HTTP 429 without an error object",
		step: { kind: "http-error", status: 429, body: { detail: "Too many requests" } },
	},
	{
		name: "HTTP 400 rate_limit_exceeded code with a message",
		step: { kind: "http-error", status: 400, body: { error: { code: "rate_limit_exceeded", message: "slow down" } } },
	},
	{ name: "HTTP 400 detail", step: { kind: "http-error", status: 400, message: "Unsupported model" } },
	{ name: "HTTP 500 with a text body", step: { kind: "http-error", status: 500, body: "upstream exploded" } },
	{
		name: "abort at the first text delta",
		step: { kind: "reply", text: "a slow answer that will be interrupted", chunkSize: 4, frameDelayMs: 30 },
		abortAtDelta: true,
	},
	{ name: "no API key", options: { apiKey: "" } },
	{ name: "no API key (streamSimple throws)", options: { apiKey: "" }, simple: true },
	{ name: "a token without an account id", options: { apiKey: "not-a-jwt" } },
];

const MODEL = {
	id: "gpt-5.5",
	name: "GPT-5.5",
	api: "openai-codex-responses",
	provider: "openai-codex",
	reasoning: true,
	input: ["text", "image"],
	cost: { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 0 },
	contextWindow: 272000,
	maxTokens: 128000,
	thinkingLevelMap: { xhigh: "xhigh", minimal: "low" },
};
const DEFAULT_CONTEXT = { messages: [system, user("hi")] };

/** Runs every scenario in order against `url`; the same source runs under pi's Node and here. */
const RUN = scenarioRunner(
	`
		const baseUrl = (sc.model && sc.model.baseUrl) ? sc.model.baseUrl.replace("{url}", input.url) : input.url + "/backend-api";
		const model = { ...input.model, ...(sc.model ?? {}), baseUrl };
		const controller = new AbortController();
		const options = { apiKey: input.token, transport: "sse", signal: controller.signal, ...(sc.options ?? {}) };`,
);

const scrub = scrubTimestampsAndIds;

/**
 * The one known difference, in the stream consumer shared with `openai-responses`: pi adds an empty-line thinking
 * delta when a reasoning summary part ends (the final thinking text is the same). Masked here, and only here.
 */
function maskShared(run: any): any {
	const copy = JSON.parse(JSON.stringify(run));
	copy.events = copy.events?.filter((e: any) => !(e.type === "thinking_delta" && e.delta === "\n\n"));
	return copy;
}

const input = (url: string) => ({
	url,
	token: TOKEN,
	model: MODEL,
	context: DEFAULT_CONTEXT,
	scenarios: SCENARIOS.map(({ step: _step, ...sc }) => sc),
});

const runBoth = sideBySide({
	modulePath: "@earendil-works/pi-ai/dist/api/openai-codex-responses.js",
	api: () => ({ stream: streamOpenAICodexResponses, streamSimple: streamSimpleOpenAICodexResponses }),
	run: RUN,
	input,
	load: (server) => {
		for (const sc of SCENARIOS) if (sc.step) server.push(sc.step);
	},
});

const skip = piSkipReason();

const HEADERS = [
	"authorization",
	"chatgpt-account-id",
	"originator",
	"user-agent",
	"openai-beta",
	"accept",
	"content-type",
	"content-encoding",
	"session-id",
	"x-client-request-id",
	"x-extra",
];

describe("openai-codex-responses behaves as pi-ai 0.87.1's", () => {
	if (skip) {
		test.skip(`skipped: ${skip}`, () => {});
		console.warn(`openai-codex-responses vs pi: skipped: ${skip}`);
		return;
	}
	SCENARIOS.forEach((scenario, index) => {
		test(`same events and message: ${scenario.name}`, async () => {
			const { pi, ours } = await runBoth();
			expect(scrub(maskShared(ours[index]))).toEqual(scrub(maskShared(pi[index])));
		}, 60_000);
	});

	test("same requests: path, headers and body", async () => {
		const { piServer, ourServer } = await runBoth();
		expect(ourServer.requests.length).toBe(piServer.requests.length);
		piServer.requests.forEach((theirs, i) => {
			const mine = ourServer.requests[i];
			if (!mine) throw new Error(`request ${i} missing`);
			expect(mine.method).toBe(theirs.method);
			expect(mine.path).toBe(theirs.path);
			for (const header of HEADERS) {
				expect({ i, header, value: mine.headers[header] }).toEqual({ i, header, value: theirs.headers[header] });
			}
			expect(JSON.stringify(mine.body)).toBe(JSON.stringify(theirs.body));
		});
	}, 60_000);

	test("classification: overflow in-stream is an overflow; a usage limit is neither overflow nor retryable", async () => {
		const { ours } = await runBoth();
		const at = (name: string) => ours[SCENARIOS.findIndex((sc) => sc.name === name)].result;
		expect(isContextOverflow(at("in-stream context overflow"), 272000)).toBe(true);
		expect(isContextOverflow(at("HTTP 429 usage limit"), 272000)).toBe(false);
		expect(isRetryableAssistantError(at("HTTP 429 usage limit"))).toBe(false);
		expect(isRetryableAssistantError(at("stream cut before the terminal event"))).toBe(true);
		expect(isRetryableAssistantError(at("HTTP 500 with a text body"))).toBe(false);
	}, 60_000);

	test("the access token appears in no event or message", async () => {
		const { ours } = await runBoth();
		expect(JSON.stringify(ours)).not.toContain(TOKEN);
	}, 60_000);
});
