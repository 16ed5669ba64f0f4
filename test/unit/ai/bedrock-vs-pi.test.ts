/**
 * `bedrock-converse-stream` side by side with pi-ai 0.87.1 (its `api/bedrock-converse-stream` module, which drives
 * the AWS SDK, under Node 22 from the conformance cache): every scenario is answered with the same bytes of AWS's
 * binary event stream by a mock LLM that also checks each request's SigV4 signature (the SDK's and ours), and
 * both sides must give the same events and final message and send the same request path and body bytes. Without
 * the cache the tests skip, saying why.
 */
import { describe, expect, test } from "bun:test";
import { isContextOverflow } from "../../../src/ai/index.ts";
import { streamBedrock, streamSimpleBedrock } from "../../../src/ai/providers/bedrock.ts";
import { piSkipReason, scenarioRunner, sideBySide, systemWith, usage, user } from "../../helpers/provider-vs-pi.ts";
import { bedrockFormat } from "../../support/mock-llm/bedrock.ts";
import {
	encodeEventMessage,
	eventFrame,
	exceptionFrame,
	MOCK_AWS_KEYS,
	type MockReply,
	type MockStep,
} from "../../support/mock-llm/index.ts";
import { RED_PIXEL_PNG } from "../../support/models.ts";

const KEY = "AKIAMOCKTESTKEY00001";
const ENV = {
	AWS_ACCESS_KEY_ID: KEY,
	AWS_SECRET_ACCESS_KEY: MOCK_AWS_KEYS[KEY] as string,
	AWS_REGION: "us-west-2",
	AWS_BEDROCK_FORCE_HTTP1: "1",
};

interface Scenario {
	name: string;
	steps: MockStep[];
	model?: Record<string, unknown>;
	context?: Record<string, unknown>;
	options?: Record<string, unknown>;
	simple?: boolean;
	abortAtDelta?: boolean;
	/** Abort this long after the request starts (before any reply). */
	abortAfterMs?: number;
	/**
	 * A deliberate difference in the error text: for a non-AWS error reply (a gateway's, without an AWS error type)
	 * the SDK pi uses says "Unknown: UnknownError" or quotes V8's JSON parse failure; we say `<status>: <body>`.
	 */
	gatewayError?: RegExp;
}

function raw(frames: Uint8Array[]): MockStep {
	const total = frames.reduce((n, f) => n + f.length, 0);
	const body = new Uint8Array(total);
	let at = 0;
	for (const f of frames) {
		body.set(f, at);
		at += f.length;
	}
	return { kind: "raw", body };
}

/** One reply rendered once, so both sides read identical bytes. */
function bytes(reply: Omit<MockReply, "kind">): MockStep {
	const frames = bedrockFormat.renderReply({ kind: "reply", ...reply }, {} as never) as Uint8Array[];
	return raw(frames);
}

const start = () => eventFrame("messageStart", { role: "assistant" });
const text = (i: number, t: string) => eventFrame("contentBlockDelta", { contentBlockIndex: i, delta: { text: t } });
const stop = (i: number) => eventFrame("contentBlockStop", { contentBlockIndex: i });
const end = (stopReason: string) => eventFrame("messageStop", { stopReason });
const meta = (usage: Record<string, unknown>) => eventFrame("metadata", { usage, metrics: { latencyMs: 5 } });

const tool = {
	name: "read",
	description: "read a file",
	parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};
const system = systemWith(tool);
const assistant = (content: unknown[], extra: Record<string, unknown> = {}) => ({
	role: "assistant",
	api: "bedrock-converse-stream",
	provider: "amazon-bedrock",
	model: "anthropic.claude-sonnet-4-5-20250929-v1:0",
	usage,
	stopReason: "toolUse",
	timestamp: 3,
	content,
	...extra,
});
const richContext = {
	messages: [
		system,
		user([
			{ type: "text", text: "what is in this picture?" },
			{ type: "text", text: "   " },
			{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
		]),
		assistant([
			{ type: "thinking", thinking: "look closely", thinkingSignature: "SIG1" },
			{ type: "thinking", thinking: "unsigned thought", thinkingSignature: "" },
			{ type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "AQIDBA==", redacted: true },
			{ type: "text", text: "reading" },
			{ type: "toolCall", id: "tooluse_1", name: "read", arguments: { path: "a.txt", "": 1 } },
			{ type: "toolCall", id: "tooluse_2", name: "read", arguments: { path: "b.txt" } },
		]),
		{
			role: "toolResult",
			toolCallId: "tooluse_1",
			toolName: "read",
			content: [
				{ type: "text", text: "red" },
				{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
			],
			isError: false,
			timestamp: 4,
		},
		{ role: "toolResult", toolCallId: "tooluse_2", toolName: "read", content: [], isError: true, timestamp: 5 },
		assistant([{ type: "toolCall", id: "call_1|weird id!", name: "read", arguments: { path: "c" } }], {
			api: "openai-responses",
			provider: "openai",
			model: "gpt-5",
		}),
		{
			role: "toolResult",
			toolCallId: "call_1|weird id!",
			toolName: "read",
			content: [{ type: "text", text: "blue" }],
			isError: false,
			timestamp: 6,
		},
		assistant([], { stopReason: "aborted" }),
		user("thanks", 7),
	],
};

const SCENARIOS: Scenario[] = [
	{
		name: "thinking, text, usage with cache reads (streamSimple, high reasoning, budget model)",
		steps: [
			bytes({
				thinking: "let me think about it",
				thinkingSignature: "EqQBCkYIBxgCKkB",
				text: "Hello there, friend!",
				usage: { input: 1000, output: 200, cacheRead: 300, cacheWrite: 50 },
			}),
		],
		simple: true,
		options: { reasoning: "high" },
	},
	{
		name: "two tool calls (tool choice auto, limits)",
		steps: [
			bytes({
				text: "calling",
				toolCalls: [
					{ name: "read", arguments: { path: "a.txt" } },
					{ name: "read", arguments: { path: "b.txt" } },
				],
			}),
		],
		options: { maxTokens: 50, temperature: 0.2, toolChoice: "auto" },
	},
	{ name: "length stop", steps: [bytes({ text: "truncated answer", stopReason: "length" })], simple: true },
	{ name: "model stream error exception", steps: [bytes({ text: "partial", streamError: "model exploded" })] },
	{
		name: "rich context: images, replayed reasoning, redacted reasoning, foreign tool ids, cache retention long",
		steps: [bytes({ text: "ok" })],
		context: richContext,
		simple: true,
		options: { reasoning: "minimal", cacheRetention: "long" },
	},
	{
		name: "encrypted reasoning arrives as redactedContent",
		steps: [
			raw([
				start(),
				eventFrame("contentBlockDelta", {
					contentBlockIndex: 0,
					delta: { reasoningContent: { redactedContent: "AAEC" } },
				}),
				eventFrame("contentBlockDelta", {
					contentBlockIndex: 0,
					delta: { reasoningContent: { redactedContent: "/w==" } },
				}),
				eventFrame("contentBlockDelta", {
					contentBlockIndex: 0,
					delta: { reasoningContent: { signature: "ignored" } },
				}),
				stop(0),
				text(1, "answer"),
				stop(1),
				end("end_turn"),
				meta({ inputTokens: 5, outputTokens: 6, totalTokens: 11 }),
			]),
		],
		model: { id: "openai.gpt-oss-120b-1:0", name: "gpt-oss-120b" },
	},
	{
		name: "blocks never stopped, 1h cache writes, no total",
		steps: [
			raw([
				start(),
				eventFrame("contentBlockStart", {
					contentBlockIndex: 0,
					start: { toolUse: { toolUseId: "t1", name: "read" } },
				}),
				eventFrame("contentBlockDelta", { contentBlockIndex: 0, delta: { toolUse: { input: '{"path":"x' } } }),
				text(1, "also text"),
				end("tool_use"),
				meta({
					inputTokens: 10,
					outputTokens: 3,
					cacheWriteInputTokens: 40,
					cacheDetails: [
						{ ttl: "1h", inputTokens: 30 },
						{ ttl: "5m", inputTokens: 10 },
					],
				}),
			]),
		],
	},
	{
		name: "throttling exception mid-stream",
		steps: [
			raw([
				start(),
				text(0, "hi"),
				exceptionFrame("throttlingException", { message: "Too many tokens, please wait before trying again." }),
			]),
		],
	},
	{
		name: "validation exception mid-stream (context overflow wording)",
		steps: [
			raw([start(), exceptionFrame("validationException", { message: "Input is too long for requested model." })]),
		],
	},
	{
		name: "internal server and service unavailable exceptions",
		steps: [raw([start(), exceptionFrame("internalServerException", { message: "boom" })])],
	},
	{
		name: "service unavailable exception",
		steps: [raw([start(), exceptionFrame("serviceUnavailableException", { message: "try later" })])],
	},
	{ name: "guardrail stop reason", steps: [raw([start(), text(0, "no"), stop(0), end("guardrail_intervened")])] },
	{ name: "stream ends without a stop reason", steps: [raw([start(), text(0, "cut")])] },
	{
		name: "HTTP 400 validation error (overflow)",
		steps: [{ kind: "http-error", status: 400, message: "Input is too long for requested model." }],
	},
	{
		name: "HTTP 403 access denied",
		steps: [
			{ kind: "http-error", status: 403, message: "You don't have access to the model with the specified model ID." },
		],
	},
	{
		name: "HTTP 429 throttling (retried)",
		steps: [1, 2, 3].map(
			() =>
				({
					kind: "http-error",
					status: 429,
					message: "Too many requests, please wait before trying again.",
				}) as MockStep,
		),
	},
	{
		name: "adaptive thinking model, xhigh, tool choice by name, request metadata, custom header",
		steps: [bytes({ thinking: "deep", text: "done" })],
		model: { id: "us.anthropic.claude-opus-4-7-v1", name: "Claude Opus 4.7", maxTokens: 128000 },
		simple: false,
		options: {
			reasoning: "xhigh",
			toolChoice: { type: "tool", name: "read" },
			requestMetadata: { team: "pi" },
			headers: { "x-extra": "1", "X-Amz-Target": "nope" },
		},
	},
	{
		name: "non-Claude model with reasoning (no thinking fields, no cache points)",
		steps: [bytes({ text: "nova says hi" })],
		model: { id: "amazon.nova-pro-v1:0", name: "Nova Pro" },
		simple: true,
		options: { reasoning: "medium" },
	},
	{
		name: "strict tool schemas, budget thinking without the beta, omitted display, tool choice any",
		steps: [bytes({ text: "ok" })],
		model: { compat: { supportsStrictMode: true } },
		context: {
			messages: [
				{
					role: "system",
					content: "sys",
					timestamp: 1,
					toolsAdded: [
						{
							name: "edit",
							description: "edit",
							parameters: {
								type: "object",
								properties: { path: { type: "string" }, note: { type: "string" }, n: { type: ["integer", "null"] } },
								required: ["path"],
							},
							constrainedSampling: { type: "json_schema" },
						},
						{
							name: "loose",
							description: "cannot be strict",
							parameters: { type: "object", properties: { a: { oneOf: [{ type: "string" }] } } },
							constrainedSampling: { type: "json_schema" },
						},
					],
				},
				user("go"),
			],
		},
		options: {
			reasoning: "low",
			thinkingBudgets: { low: 3000 },
			interleavedThinking: false,
			thinkingDisplay: "omitted",
			toolChoice: "any",
		},
	},
	{
		name: "GovCloud region, tool choice none, no cache retention, forced cache for a non-Claude profile",
		steps: [bytes({ text: "ok" })],
		model: { id: "arn:aws-us-gov:bedrock:us-gov-west-1:1:application-inference-profile/p", name: "custom profile" },
		options: { reasoning: "high", toolChoice: "none", cacheRetention: "none", region: "us-gov-west-1" },
	},
	{
		name: "forced cache points for an application profile whose name says nothing",
		steps: [bytes({ text: "ok" })],
		model: { id: "arn:aws:bedrock:us-east-1:1:application-inference-profile/q", name: "my app profile" },
		options: { env: { ...ENV, AWS_BEDROCK_FORCE_CACHE: "1", PI_CACHE_RETENTION: "long" } },
	},
	{
		name: "bearer token and an inference-profile ARN",
		steps: [bytes({ text: "ok" })],
		model: {
			id: "arn:aws:bedrock:eu-west-1:123456789012:application-inference-profile/abc123",
			name: "Claude Sonnet 4.5 profile",
		},
		options: { bearerToken: "bedrock-api-key-ABSKexample" },
	},
	{
		name: "HTTP 502 from a gateway: text body, no AWS error type (retried)",
		steps: [1, 2, 3].map(() => ({ kind: "http-error", status: 502, body: "Bad Gateway from proxy" }) as MockStep),
		gatewayError: /^502: Bad Gateway from proxy$/,
	},
	{
		name: "HTTP 403 from a gateway with a JSON body but no error type",
		steps: [{ kind: "http-error", status: 403, body: { error: "forbidden by policy" } }],
		gatewayError: /^403: \{"error":"forbidden by policy"\}$/,
	},
	{
		name: "an error message in the stream",
		steps: [
			raw([
				start(),
				encodeEventMessage(
					{ ":message-type": "error", ":error-code": "InternalFailure", ":error-message": "stream broke" },
					"",
				),
			]),
		],
	},
	{ name: "abort before the reply arrives", steps: [{ kind: "hang" }], abortAfterMs: 300 },
	{
		name: "abort at the first text delta",
		steps: [{ kind: "reply", text: "a slow answer that will be interrupted", chunkSize: 4, frameDelayMs: 30 }],
		abortAtDelta: true,
	},
];

const MODEL = {
	id: "anthropic.claude-sonnet-4-5-20250929-v1:0",
	name: "Claude Sonnet 4.5",
	api: "bedrock-converse-stream",
	provider: "amazon-bedrock",
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
		const model = { ...input.model, baseUrl: input.url, ...(sc.model ?? {}) };
		const controller = new AbortController();
		const options = { env: input.env, signal: controller.signal, ...(sc.options ?? {}) };
		if (sc.abortAfterMs) setTimeout(() => controller.abort(), sc.abortAfterMs);`,
);

function scrub(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(scrub);
	if (value && typeof value === "object") {
		const out: Record<string, unknown> = {};
		for (const [key, v] of Object.entries(value)) if (key !== "timestamp") out[key] = scrub(v);
		return out;
	}
	return value;
}

function maskError(run: any): any {
	const copy = JSON.parse(JSON.stringify(run));
	for (const message of [copy.result, ...copy.events.map((e: any) => e.error)]) {
		if (message?.errorMessage) message.errorMessage = "<masked>";
	}
	return copy;
}

const input = (url: string) => ({
	url,
	model: MODEL,
	context: DEFAULT_CONTEXT,
	env: ENV,
	scenarios: SCENARIOS.map(({ steps: _steps, ...sc }) => sc),
});

const runBoth = sideBySide({
	modulePath: "@earendil-works/pi-ai/dist/api/bedrock-converse-stream.js",
	api: () => ({ stream: streamBedrock, streamSimple: streamSimpleBedrock }),
	run: RUN,
	input,
	load: (server) => {
		for (const sc of SCENARIOS) server.push(...sc.steps);
	},
});

const skip = piSkipReason();

describe("bedrock-converse-stream behaves as pi-ai 0.87.1's", () => {
	if (skip) {
		test.skip(`skipped: ${skip}`, () => {});
		console.warn(`bedrock-converse-stream vs pi: skipped: ${skip}`);
		return;
	}
	SCENARIOS.forEach((scenario, index) => {
		test(`same events and message: ${scenario.name}`, async () => {
			const { pi, ours } = await runBoth();
			if (scenario.gatewayError) {
				expect(ours[index].result.errorMessage).toMatch(scenario.gatewayError);
				expect(scrub(maskError(ours[index]))).toEqual(scrub(maskError(pi[index])));
			} else expect(scrub(ours[index])).toEqual(scrub(pi[index]));
		}, 120_000);
	});

	test("same requests: path, bearer header and body bytes; every SigV4 signature checked", async () => {
		const { piServer, ourServer } = await runBoth();
		expect(ourServer.requests.map((r) => r.path)).toEqual(piServer.requests.map((r) => r.path));
		piServer.requests.forEach((theirs, i) => {
			const mine = ourServer.requests[i];
			if (!mine) throw new Error(`request ${i} missing`);
			expect(mine.method).toBe(theirs.method);
			if (theirs.headers.authorization?.startsWith("Bearer "))
				expect(mine.headers.authorization).toBe(theirs.headers.authorization);
			else expect(mine.headers.authorization).toStartWith(`AWS4-HMAC-SHA256 Credential=${KEY}/`);
			for (const header of ["content-type", "x-extra"]) {
				expect({ header, value: mine.headers[header] }).toEqual({ header, value: theirs.headers[header] });
			}
			expect(JSON.stringify(mine.body)).toBe(JSON.stringify(theirs.body));
		});
		expect(piServer.pending()).toBe(0);
		expect(ourServer.pending()).toBe(0);
	}, 120_000);

	test("overflow and retry classification of what both produce", async () => {
		const { ours } = await runBoth();
		const at = (name: string) => ours[SCENARIOS.findIndex((sc) => sc.name === name)].result;
		expect(isContextOverflow(at("HTTP 400 validation error (overflow)"), 200000)).toBe(true);
		expect(isContextOverflow(at("validation exception mid-stream (context overflow wording)"), 200000)).toBe(true);
		expect(isContextOverflow(at("throttling exception mid-stream"), 200000)).toBe(false);
	}, 120_000);
});
