/**
 * `google-vertex` side by side with pi-ai 0.87.1 (its `api/google-vertex` module, Google's SDK inside, under Node 22
 * from the conformance cache): the same scenarios, each answered with the same bytes by a mock LLM, must give the
 * same events and final message, and both must send the same URL, key header and body. pi's Application Default
 * Credentials go through google-auth-library, which always asks Google's own token endpoint, so the side-by-side
 * runs use an API key (express mode) and the checks before any request; the bearer-token mode is covered against
 * a loopback token endpoint in google-vertex.test.ts. Without the cache the tests skip, saying why.
 */
import { describe, expect, test } from "bun:test";
import {
	isContextOverflow,
	isRetryableAssistantError,
	streamGoogleVertex,
	streamSimpleGoogleVertex,
} from "../../../src/ai/index.ts";
import {
	expectSameRequests,
	piSkipReason,
	scenarioRunner,
	sideBySide,
	systemWith,
	usage,
	user,
} from "../../helpers/provider-vs-pi.ts";
import { googleFormat } from "../../support/mock-llm/google.ts";
import type { MockReply, MockStep } from "../../support/mock-llm/index.ts";
import { RED_PIXEL_PNG } from "../../support/models.ts";

interface Scenario {
	name: string;
	step?: MockStep;
	model?: Record<string, unknown>;
	context?: Record<string, unknown>;
	options?: Record<string, unknown>;
	simple?: boolean;
	abortAtDelta?: boolean;
}

/** One reply rendered once, so both sides read identical bytes (the renderer picks a random response id). */
function bytes(reply: Omit<MockReply, "kind">, model = "gemini-2.5-flash"): MockStep {
	const path = `/v1/publishers/google/models/${model}:streamGenerateContent?alt=sse`;
	const frames = googleFormat.renderReply(
		{ kind: "reply", ...reply },
		{ method: "POST", path, headers: {}, body: {}, vendor: "google" },
	);
	return { kind: "raw", body: frames.join(""), contentType: "text/event-stream" };
}

const tool = {
	name: "read",
	description: "read a file",
	parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};
const system = systemWith(tool);
const SIG = "c2lnbmF0dXJl";
const richContext = {
	messages: [
		system,
		user([
			{ type: "text", text: "what is in this picture?" },
			{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
		]),
		{
			role: "assistant",
			api: "google-vertex",
			provider: "google-vertex",
			model: "gemini-2.5-flash",
			usage,
			stopReason: "toolUse",
			timestamp: 3,
			content: [
				{ type: "thinking", thinking: "look", thinkingSignature: SIG },
				{ type: "text", text: "reading" },
				{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.txt" }, thoughtSignature: SIG },
			],
		},
		{
			role: "toolResult",
			toolCallId: "call_1",
			toolName: "read",
			content: [
				{ type: "text", text: "red" },
				{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
			],
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
				{ type: "thinking", thinking: "other model thoughts", thinkingSignature: "sig" },
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

const SCENARIOS: Scenario[] = [
	{
		name: "thinking, text, usage with cache reads (streamSimple, high reasoning)",
		step: bytes({
			thinking: "let me think about it",
			thinkingSignature: SIG,
			text: "Hello there, friend!",
			usage: { input: 1000, output: 200, cacheRead: 300 },
		}),
		simple: true,
		options: { reasoning: "high" },
	},
	{
		name: "Vertex budget table: Flash-Lite at minimal gets Flash's budget",
		step: bytes({ text: "ok" }, "gemini-2.5-flash-lite"),
		model: { id: "gemini-2.5-flash-lite" },
		simple: true,
		options: { reasoning: "minimal" },
	},
	{
		name: "Gemini 3: thinking level; reasoning off",
		step: bytes({ text: "ok" }, "gemini-3-pro-preview"),
		model: {
			id: "gemini-3-pro-preview",
			thinkingLevelMap: { off: null, minimal: null, low: "low", medium: null, high: "high", xhigh: null },
		},
		simple: true,
	},
	{
		name: "two tool calls without ids",
		step: bytes({
			text: "calling",
			toolCalls: [
				{ name: "read", arguments: { path: "a.txt" } },
				{ name: "read", arguments: { path: "b.txt" } },
			],
		}),
		options: { maxTokens: 5, temperature: 0.2, toolChoice: "any" },
	},
	{
		name: "tool call with an id, named tool choice",
		step: bytes({ toolCalls: [{ id: "fc_7", name: "read", arguments: { path: "c" } }] }),
		options: { toolChoice: "auto", headers: { "x-extra": "1" } },
	},
	{ name: "length stop", step: bytes({ text: "truncated answer", stopReason: "length" }), simple: true },
	{ name: "stream error chunk", step: bytes({ text: "partial", streamError: "backend had an error" }) },
	{
		name: "finish reason SAFETY",
		step: {
			kind: "raw",
			contentType: "text/event-stream",
			body:
				'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"I can"}]},"index":0}],"responseId":"r1"}\n\n' +
				'data: {"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"SAFETY","index":0}],' +
				'"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":2,"totalTokenCount":7},"responseId":"r1"}\n\n',
		},
	},
	{
		name: "rich context: images, replayed signatures, foreign thinking and tool ids",
		step: bytes({ text: "ok" }),
		context: richContext,
		simple: true,
		options: { reasoning: "low" },
	},
	{
		name: "base URL with its own version",
		step: bytes({ text: "ok" }),
		model: { baseUrlSuffix: "/v1beta1" },
	},
	{
		name: "HTTP 429 rate limit",
		step: { kind: "http-error", status: 429, message: "Resource exhausted. Please try again later." },
	},
	{
		name: "HTTP 400 context overflow",
		step: {
			kind: "http-error",
			status: 400,
			message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
		},
	},
	{ name: "HTTP 503 with a text body", step: { kind: "http-error", status: 503, body: "upstream exploded" } },
	{
		name: "abort at the first text delta",
		step: { kind: "reply", text: "a slow answer that will be interrupted", chunkSize: 4, frameDelayMs: 30 },
		abortAtDelta: true,
	},
	{ name: "ambient marker without a project", options: { apiKey: "<authenticated>", location: "us-central1" } },
	{ name: "ADC marker with a project, no location", options: { apiKey: "gcp-vertex-credentials", project: "p-1" } },
];

const MODEL = {
	id: "gemini-2.5-flash",
	name: "Gemini 2.5 Flash",
	api: "google-vertex",
	provider: "google-vertex",
	reasoning: true,
	input: ["text", "image"],
	cost: { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0 },
	contextWindow: 1048576,
	maxTokens: 65536,
};
const DEFAULT_CONTEXT = { messages: [system, user("hi")] };
const CLEARED_ENV = ["GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION", "GOOGLE_CLOUD_API_KEY"];

/** Runs every scenario in order against `url`; the same source runs under pi's Node and here. */
const RUN = scenarioRunner(
	`
		const { baseUrlSuffix, ...overrides } = sc.model ?? {};
		const model = { ...input.model, baseUrl: input.url + (baseUrlSuffix ?? ""), ...overrides };
		const controller = new AbortController();
		const options = { apiKey: "vertex-key", signal: controller.signal, ...(sc.options ?? {}) };`,
	{
		before: `	const saved = {};
	for (const name of input.clearedEnv) { saved[name] = process.env[name]; delete process.env[name]; }
`,
		after: `	for (const name of input.clearedEnv) if (saved[name] !== undefined) process.env[name] = saved[name];
`,
	},
);

/** Generated tool-call ids differ by design (pi: `<name>_<time>_<n>`, ours: `<name>_<n>_<random>`). */
function scrub(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(scrub);
	if (value && typeof value === "object") {
		const out: Record<string, unknown> = {};
		for (const [key, v] of Object.entries(value)) if (key !== "timestamp") out[key] = scrub(v);
		return out;
	}
	if (typeof value !== "string") return value;
	return /^read_\d+_[a-z0-9]+$/.test(value) ? "read_GENERATED" : value.replace(/^mock_[a-z0-9]+$/, "mock_ID");
}

/**
 * Error wording differs (pi's comes from Google's SDK and its error formatter; ours names the provider and keeps
 * the server's status): messages of failed requests are masked here, and only here, so everything else must match
 * exactly. Their classification is compared in a test of its own.
 */
function maskErrors(run: any): any {
	const copy = JSON.parse(JSON.stringify(run));
	const mask = (message: any) => {
		if (message?.stopReason === "error" || message?.stopReason === "aborted") message.errorMessage = "<masked>";
	};
	mask(copy.result);
	for (const e of copy.events ?? []) mask(e.error);
	return copy;
}

const input = (url: string) => ({
	url,
	model: MODEL,
	context: DEFAULT_CONTEXT,
	clearedEnv: CLEARED_ENV,
	scenarios: SCENARIOS.map(({ step: _step, ...sc }) => sc),
});

const runBoth = sideBySide({
	modulePath: "@earendil-works/pi-ai/dist/api/google-vertex.js",
	api: () => ({ stream: streamGoogleVertex, streamSimple: streamSimpleGoogleVertex }),
	run: RUN,
	input,
	load: (server) => {
		server.push(...SCENARIOS.flatMap((sc) => (sc.step ? [sc.step] : [])));
	},
});

const skip = piSkipReason();

describe("google-vertex behaves as pi-ai 0.87.1's", () => {
	if (skip) {
		test.skip(`skipped: ${skip}`, () => {});
		console.warn(`google-vertex vs pi: skipped: ${skip}`);
		return;
	}
	SCENARIOS.forEach((scenario, index) => {
		test(`same events and message: ${scenario.name}`, async () => {
			const { pi, ours } = await runBoth();
			expect(scrub(maskErrors(ours[index]))).toEqual(scrub(maskErrors(pi[index])));
		}, 60_000);
	});

	test("same requests: URL, key header and body bytes", async () => {
		const { piServer, ourServer } = await runBoth();
		expectSameRequests(piServer, ourServer, ["x-goog-api-key", "authorization", "content-type", "x-extra"]);
	}, 60_000);

	test("failures are classified alike: retryable, context overflow", async () => {
		const { pi, ours } = await runBoth();
		SCENARIOS.forEach((scenario, index) => {
			const theirs = pi[index].result;
			const mine = ours[index].result;
			if (theirs?.stopReason !== "error") return;
			const classify = (m: any) => ({
				scenario: scenario.name,
				retryable: isRetryableAssistantError(m),
				overflow: isContextOverflow(m, MODEL.contextWindow),
			});
			expect(classify(mine)).toEqual(classify(theirs));
		});
	}, 60_000);

	test("the missing project and location are named as pi names them", async () => {
		const { pi, ours } = await runBoth();
		for (const name of ["ambient marker without a project", "ADC marker with a project, no location"]) {
			const index = SCENARIOS.findIndex((sc) => sc.name === name);
			expect(ours[index].result.errorMessage).toBe(pi[index].result.errorMessage);
		}
	}, 60_000);
});
