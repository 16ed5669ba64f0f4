/**
 * `azure-openai-responses` side by side with pi-ai 0.87.1 (its `api/azure-openai-responses` module under Node 22
 * from the conformance cache): the same scenarios, each answered with the same bytes by a mock LLM, must give the
 * same events and final message, and the requests both send must have the same URL, auth header and body (bytes).
 * Without the cache the tests skip, saying why.
 */
import { describe, expect, test } from "bun:test";
import {
	isContextOverflow,
	streamAzureOpenAIResponses,
	streamSimpleAzureOpenAIResponses,
} from "../../../src/ai/index.ts";
import {
	expectSameRequests,
	piSkipReason,
	scenarioRunner,
	scrubTimestampsAndIds,
	sideBySide,
	systemWith,
	usage,
	user,
} from "../../helpers/provider-vs-pi.ts";
import type { MockReply, MockStep } from "../../support/mock-llm/index.ts";
import { openaiResponsesFormat } from "../../support/mock-llm/openai-responses.ts";
import { RED_PIXEL_PNG } from "../../support/models.ts";

interface Scenario {
	name: string;
	step: MockStep;
	model?: Record<string, unknown>;
	context?: Record<string, unknown>;
	options?: Record<string, unknown>;
	simple?: boolean;
	/** Abort at the first text delta (a live reply: its random ids are masked when comparing). */
	abortAtDelta?: boolean;
}

/** One reply rendered once, so both sides read identical bytes (the renderer picks random ids). */
function bytes(reply: Omit<MockReply, "kind">): MockStep {
	const frames = openaiResponsesFormat.renderReply(
		{ kind: "reply", ...reply },
		{
			method: "POST",
			path: "/openai/v1/responses",
			headers: {},
			body: { model: "gpt-5" },
			vendor: "openai-responses",
		},
	);
	return { kind: "raw", body: frames.join("") };
}

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
			api: "azure-openai-responses",
			provider: "azure-openai-responses",
			model: "gpt-5",
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
				{ type: "text", text: "reading", textSignature: "msg_1" },
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
			content: [{ type: "toolCall", id: "toolu_01|weird id", name: "read", arguments: { path: "b" } }],
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

const SCENARIOS: Scenario[] = [
	{
		name: "thinking, text, usage with cache reads (streamSimple, high reasoning)",
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
		name: "two tool calls",
		step: bytes({
			text: "calling",
			toolCalls: [
				{ name: "read", arguments: { path: "a.txt" } },
				{ name: "read", arguments: { path: "b.txt" } },
			],
		}),
		options: { sessionId: "s".repeat(80), maxTokens: 5, temperature: 0.2, toolChoice: "auto" },
	},
	{ name: "length stop", step: bytes({ text: "truncated answer", stopReason: "length" }), simple: true },
	{ name: "stream error event", step: bytes({ text: "partial", streamError: "server had an error" }) },
	{
		name: "rich context: images, replayed reasoning, foreign tool ids",
		step: bytes({ text: "ok" }),
		context: richContext,
		simple: true,
		options: { reasoning: "minimal" },
	},
	{
		name: "deployment and api version options; non-reasoning model",
		step: bytes({ text: "ok" }),
		model: { id: "gpt-4.1", reasoning: false, thinkingLevelMap: undefined },
		options: { azureDeploymentName: "my-deploy", azureApiVersion: "2025-04-01-preview", headers: { "x-extra": "1" } },
	},
	{
		name: "HTTP 429 rate limit",
		step: { kind: "http-error", status: 429, message: "Rate limit reached for requests" },
	},
	{
		name: "HTTP 400 context overflow",
		step: {
			kind: "http-error",
			status: 400,
			message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
		},
	},
	{ name: "HTTP 500 with a text body", step: { kind: "http-error", status: 500, body: "upstream exploded" } },
	{
		name: "abort at the first text delta",
		step: { kind: "reply", text: "a slow answer that will be interrupted", chunkSize: 4, frameDelayMs: 30 },
		abortAtDelta: true,
	},
	{ name: "no API key", step: bytes({ text: "never sent" }), options: { apiKey: "" } },
];

const MODEL = {
	id: "gpt-5",
	name: "GPT-5",
	api: "azure-openai-responses",
	provider: "azure-openai-responses",
	reasoning: true,
	input: ["text", "image"],
	cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
	contextWindow: 400000,
	maxTokens: 128000,
	thinkingLevelMap: { off: null },
	compat: { supportsOpenAIGrammarTools: true },
};
const DEFAULT_CONTEXT = { messages: [system, user("hi")] };

/** Runs every scenario in order against `url`; the same source runs under pi's Node and here. */
const RUN = scenarioRunner(
	`
		const model = { ...input.model, baseUrl: input.url + "/openai/v1", ...(sc.model ?? {}) };
		const controller = new AbortController();
		const options = { apiKey: "azure-key", signal: controller.signal, ...(sc.options ?? {}) };`,
);

const scrub = scrubTimestampsAndIds;

/**
 * Known differences, all in the stream consumer shared with `openai-responses` (not Azure's own): pi adds an
 * empty-line thinking delta when a reasoning summary part ends (the final thinking text is the same), words an
 * in-stream `error` event differently, and reports an abort as its stream ending early. They are masked here,
 * and only here, so everything else must match exactly.
 */
function maskShared(run: any): any {
	const copy = JSON.parse(JSON.stringify(run));
	copy.events = copy.events?.filter((e: any) => !(e.type === "thinking_delta" && e.delta === "\n\n"));
	const mask = (message: any) => {
		if (
			message?.stopReason === "aborted" ||
			/^(Error Code |Azure OpenAI API error: )/.test(message?.errorMessage ?? "")
		)
			message.errorMessage = "<masked>";
	};
	mask(copy.result);
	for (const e of copy.events ?? []) mask(e.error);
	return copy;
}

const input = (url: string) => ({
	url,
	model: MODEL,
	context: DEFAULT_CONTEXT,
	scenarios: SCENARIOS.map(({ step: _step, ...sc }) => sc),
});

const runBoth = sideBySide({
	modulePath: "@earendil-works/pi-ai/dist/api/azure-openai-responses.js",
	api: () => ({ stream: streamAzureOpenAIResponses, streamSimple: streamSimpleAzureOpenAIResponses }),
	run: RUN,
	input,
	load: (server) => {
		server.push(...SCENARIOS.filter((sc) => !(sc.options?.apiKey === "")).map((sc) => sc.step));
	},
});

const skip = piSkipReason();

describe("azure-openai-responses behaves as pi-ai 0.87.1's", () => {
	if (skip) {
		test.skip(`skipped: ${skip}`, () => {});
		console.warn(`azure-openai-responses vs pi: skipped: ${skip}`);
		return;
	}
	SCENARIOS.forEach((scenario, index) => {
		test(`same events and message: ${scenario.name}`, async () => {
			const { pi, ours } = await runBoth();
			expect(scrub(maskShared(ours[index]))).toEqual(scrub(maskShared(pi[index])));
		}, 60_000);
	});

	test("same requests: URL, auth and body bytes", async () => {
		const { piServer, ourServer } = await runBoth();
		expectSameRequests(piServer, ourServer, ["api-key", "authorization", "content-type", "x-extra"]);
	}, 60_000);

	test("a context overflow is classified as one; a rate limit is not", async () => {
		const { ours } = await runBoth();
		const at = (name: string) => ours[SCENARIOS.findIndex((sc) => sc.name === name)].result;
		expect(isContextOverflow(at("HTTP 400 context overflow"), 400000)).toBe(true);
		expect(isContextOverflow(at("HTTP 429 rate limit"), 400000)).toBe(false);
	}, 60_000);
});
