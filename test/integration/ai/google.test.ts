import { afterAll, describe, expect, test } from "bun:test";
import {
	type AssistantMessage,
	type Context,
	classifyError,
	complete,
	invalidToolArguments,
	isContextOverflow,
	stream,
	streamSimple,
} from "../../../src/ai/index.ts";
import { startMockLlm } from "../../support/mock-llm/index.ts";
import { mockModel, RED_PIXEL_PNG } from "../../support/models.ts";
import { collect, testAbortMidStream } from "../../support/provider-tests.ts";

const server = startMockLlm();
afterAll(() => server.stop());
const model = mockModel("google-generative-ai", server.url);
const ctx = (text = "hi"): Context => ({
	systemPrompt: "be brief",
	messages: [{ role: "user", content: text, timestamp: 1 }],
	tools: [
		{
			name: "read",
			description: "read a file",
			parameters: {
				$schema: "http://json-schema.org/draft-07/schema#",
				type: "object",
				properties: { path: { type: "string", description: "file path" } },
				required: ["path"],
				additionalProperties: false,
			} as any,
		},
	],
});

const zeroUsage = {
	input: 0,
	output: 0,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 0,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

function assistant(content: AssistantMessage["content"], from: Partial<AssistantMessage> = {}): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: "google-generative-ai",
		provider: "google",
		model: "mock-model",
		usage: zeroUsage,
		stopReason: "toolUse",
		timestamp: 2,
		...from,
	};
}

/** A raw Gemini SSE body from response chunks. */
const sse = (...chunks: unknown[]) => chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join("");
const candidate = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
	candidates: [{ content: { role: "model", parts }, index: 0, ...extra }],
});

describe("google-generative-ai against the mock server", () => {
	test("thinking with signature, text, usage and cost; request shape", async () => {
		server.push({
			kind: "reply",
			thinking: "let me think",
			thinkingSignature: "SIG",
			text: "Hello there!",
			usage: { input: 1000, output: 200, cacheRead: 50 },
		});
		const s = stream(model, ctx(), { apiKey: "g-key", temperature: 0.2, maxTokens: 1000 });
		const events = await collect(s);
		const message = await s.result();
		expect(events.map((e) => e.type)).toEqual([
			"start",
			"thinking_start",
			"thinking_delta",
			"thinking_delta",
			"thinking_end",
			"text_start",
			"text_delta",
			"text_delta",
			"text_end",
			"done",
		]);
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "let me think", thinkingSignature: "SIG" },
			{ type: "text", text: "Hello there!" },
		]);
		expect(message.stopReason).toBe("stop");
		// pi-ai records Gemini's finishReason as is and no responseModel (modelVersion is not kept).
		expect(message.responseModel).toBeUndefined();
		expect(message.rawStopReason).toBe("STOP");
		expect(message.responseId).toStartWith("mock_");
		// input = prompt − cached; output = candidates + thoughts
		expect(message.usage).toMatchObject({ input: 1000, output: 200, cacheRead: 50, cacheWrite: 0, totalTokens: 1250 });
		expect(message.usage.cost.total).toBeCloseTo((1000 * 3 + 200 * 15 + 50 * 0.3) / 1e6, 10);

		const req = server.requests.at(-1)!;
		expect(req.vendor).toBe("google");
		expect(req.path).toBe("/v1beta/models/mock-model:streamGenerateContent?alt=sse");
		expect(req.headers["x-goog-api-key"]).toBe("g-key");
		expect(req.headers.authorization).toBeUndefined();
		expect(req.body).toEqual({
			systemInstruction: { parts: [{ text: "be brief" }], role: "user" },
			contents: [{ role: "user", parts: [{ text: "hi" }] }],
			// The JSON schema as the tool declares it, as pi-ai sends it.
			tools: [
				{
					functionDeclarations: [
						{ name: "read", description: "read a file", parametersJsonSchema: ctx().tools![0]!.parameters },
					],
				},
			],
			generationConfig: { maxOutputTokens: 1000, temperature: 0.2 },
		});
	});

	test("several tool calls in one message: whole args, ids kept or generated, signature on the call", async () => {
		server.push({
			kind: "reply",
			text: "Reading both.",
			thinkingSignature: "CALLSIG",
			toolCalls: [
				{ name: "read", arguments: { path: "a.txt" } },
				{ id: "given-id", name: "read", arguments: { path: "b/c.txt", offset: 10 } },
				{ name: "read", arguments: { path: "d.txt" } },
			],
		});
		const s = stream(model, ctx(), { apiKey: "k" });
		const events = await collect(s);
		const message = await s.result();
		expect(message.stopReason).toBe("toolUse");
		const calls = message.content.filter((b) => b.type === "toolCall");
		expect(calls).toHaveLength(3);
		expect(calls[0]).toMatchObject({ name: "read", arguments: { path: "a.txt" }, thoughtSignature: "CALLSIG" });
		expect(calls[0]!.id).toMatch(/^read_\d+_[a-z0-9]+$/);
		expect(calls[1]).toEqual({
			type: "toolCall",
			id: "given-id",
			name: "read",
			arguments: { path: "b/c.txt", offset: 10 },
		});
		expect(calls[2]!.id).toMatch(/^read_\d+_[a-z0-9]+$/);
		expect(calls[2]!.id).not.toBe(calls[0]!.id);
		// each call: start, one delta with the whole JSON, end
		const deltas = events.filter((e) => e.type === "toolcall_delta");
		expect(deltas.map((e) => (e as { delta: string }).delta)).toEqual([
			'{"path":"a.txt"}',
			'{"path":"b/c.txt","offset":10}',
			'{"path":"d.txt"}',
		]);
		expect(events.filter((e) => e.type === "toolcall_end")).toHaveLength(3);
	});

	test("a duplicate id from the server is replaced by a generated one", async () => {
		server.push({
			kind: "reply",
			toolCalls: [
				{ id: "same", name: "read", arguments: { path: "a" } },
				{ id: "same", name: "read", arguments: { path: "b" } },
			],
		});
		const message = await complete(model, ctx(), { apiKey: "k" });
		const ids = message.content.flatMap((b) => (b.type === "toolCall" ? [b.id] : []));
		expect(ids[0]).toBe("same");
		expect(ids[1]).toMatch(/^read_\d+_/);
	});

	test("images in a user message and in tool results; a replayed conversation with calls and responses", async () => {
		server.push({ kind: "reply", text: "ok" });
		const context: Context = {
			systemPrompt: "sys",
			messages: [
				{
					role: "user",
					content: [
						{ type: "text", text: "look" },
						{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
						{ type: "text", text: "" },
					],
					timestamp: 1,
				},
				assistant([
					{ type: "thinking", thinking: "plan", thinkingSignature: "TSIG" },
					{ type: "text", text: "Let me look." },
					{ type: "toolCall", id: "c1", name: "read", arguments: { path: "x" }, thoughtSignature: "FSIG" },
					{ type: "toolCall", id: "c2", name: "screenshot", arguments: {} },
					{ type: "toolCall", id: "c3", name: "read", arguments: { path: "missing" } },
				]),
				{
					role: "toolResult",
					toolCallId: "c1",
					toolName: "read",
					content: [{ type: "text", text: "file body" }],
					isError: false,
					timestamp: 3,
				},
				{
					role: "toolResult",
					toolCallId: "c2",
					toolName: "screenshot",
					content: [{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }],
					isError: false,
					timestamp: 4,
				},
				// c3 has no result: transformMessages fills in an error result
				{ role: "user", content: "thanks", timestamp: 5 },
			],
		};
		const result = await complete(model, context, { apiKey: "k" });
		expect(result.stopReason).toBe("stop");
		const body = server.requests.at(-1)!.body;
		expect(body.systemInstruction).toEqual({ parts: [{ text: "sys" }], role: "user" });
		expect(body.tools).toBeUndefined();
		expect(body.contents).toEqual([
			// As pi-ai: user parts go as they are (an empty text included).
			{
				role: "user",
				parts: [{ text: "look" }, { inlineData: { mimeType: "image/png", data: RED_PIXEL_PNG } }, { text: "" }],
			},
			{
				role: "model",
				parts: [
					{ text: "plan", thought: true, thoughtSignature: "TSIG" },
					{ text: "Let me look." },
					{ functionCall: { name: "read", args: { path: "x" } }, thoughtSignature: "FSIG" },
					{ functionCall: { name: "screenshot", args: {} } },
					{ functionCall: { name: "read", args: { path: "missing" } } },
				],
			},
			{
				role: "user",
				parts: [
					{ functionResponse: { name: "read", response: { output: "file body" } } },
					// A model that is not Gemini < 3 takes a result's images inside the function response.
					{
						functionResponse: {
							name: "screenshot",
							response: { output: "(see attached image)" },
							parts: [{ inlineData: { mimeType: "image/png", data: RED_PIXEL_PNG } }],
						},
					},
					{ functionResponse: { name: "read", response: { error: "No result provided" } } },
				],
			},
			{ role: "user", parts: [{ text: "thanks" }] },
		]);
	});

	test("Gemini 2.5 gets tool-result images in a turn of their own; Gemini 3 gets call ids", async () => {
		const history = (id: string): Context => ({
			messages: [
				{ role: "user", content: "shot", timestamp: 1 },
				assistant([{ type: "toolCall", id: "c1", name: "screenshot", arguments: {} }], { model: id }),
				{
					role: "toolResult",
					toolCallId: "c1",
					toolName: "screenshot",
					content: [{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }],
					isError: false,
					timestamp: 2,
				},
			],
		});
		const image = { inlineData: { mimeType: "image/png", data: RED_PIXEL_PNG } };
		server.push({ kind: "reply", text: "ok" }, { kind: "reply", text: "ok" });
		await complete({ ...model, id: "gemini-2.5-flash" }, history("gemini-2.5-flash"), { apiKey: "k" });
		expect(server.requests.at(-1)!.body.contents.slice(2)).toEqual([
			{
				role: "user",
				parts: [{ functionResponse: { name: "screenshot", response: { output: "(see attached image)" } } }],
			},
			{ role: "user", parts: [{ text: "Tool result image:" }, image] },
		]);
		await complete({ ...model, id: "gemini-3-pro-preview" }, history("gemini-3-pro-preview"), { apiKey: "k" });
		const contents = server.requests.at(-1)!.body.contents;
		expect(contents[1].parts[0].functionCall).toEqual({ name: "screenshot", args: {}, id: "c1" });
		expect(contents[2].parts[0].functionResponse).toEqual({
			name: "screenshot",
			response: { output: "(see attached image)" },
			parts: [image],
			id: "c1",
		});
	});

	test("history from another model: thinking becomes text, signatures are dropped, failed turns skipped", async () => {
		server.push({ kind: "reply", text: "ok" });
		const context: Context = {
			messages: [
				{ role: "user", content: "q", timestamp: 1 },
				assistant([{ type: "text", text: "partial" }], { stopReason: "error", errorMessage: "boom" }),
				assistant(
					[
						{ type: "thinking", thinking: "other thoughts", thinkingSignature: "X" },
						{ type: "text", text: "answer", textSignature: "Y" },
						{ type: "toolCall", id: "t|1", name: "read", arguments: { path: "p" }, thoughtSignature: "Z" },
					],
					{ api: "anthropic-messages", provider: "anthropic", model: "claude" },
				),
				{
					role: "toolResult",
					toolCallId: "t|1",
					toolName: "read",
					content: [{ type: "text", text: "denied" }],
					isError: true,
					timestamp: 3,
				},
			],
		};
		await complete(model, context, { apiKey: "k" });
		expect(server.requests.at(-1)!.body.contents).toEqual([
			{ role: "user", parts: [{ text: "q" }] },
			{
				role: "model",
				parts: [
					{ text: "other thoughts" },
					{ text: "answer" },
					{ functionCall: { name: "read", args: { path: "p" } } },
				],
			},
			{ role: "user", parts: [{ functionResponse: { name: "read", response: { error: "denied" } } }] },
		]);
	});

	test("thinking options, toolChoice and a full model path", async () => {
		server.push({ kind: "reply", text: "x" });
		await stream({ ...model, id: "models/gemini-x" }, ctx(), {
			apiKey: "k",
			thinking: { enabled: true, budgetTokens: 2048 },
			toolChoice: { name: "read" },
		}).result();
		const req = server.requests.at(-1)!;
		expect(req.path).toBe("/v1beta/models/gemini-x:streamGenerateContent?alt=sse");
		expect(req.body.generationConfig.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 2048 });
		expect(req.body.toolConfig).toEqual({ functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["read"] } });
	});

	test("streamSimple maps the reasoning level as pi-ai does: Gemini 2.5 budgets, -1 elsewhere, thinkingLevel for Gemini 3", async () => {
		for (let i = 0; i < 5; i++) server.push({ kind: "reply", text: "x" });
		await streamSimple({ ...model, maxTokens: 65536 }, ctx(), { apiKey: "k", reasoning: "high" }).result();
		let config = server.requests.at(-1)!.body.generationConfig;
		// Not a Gemini 2.5 id: the model decides how much to think; the output limit is the model's.
		expect(config).toEqual({ maxOutputTokens: 65536, thinkingConfig: { includeThoughts: true, thinkingBudget: -1 } });

		await streamSimple({ ...model, id: "gemini-2.5-flash" }, ctx(), { apiKey: "k", reasoning: "medium" }).result();
		config = server.requests.at(-1)!.body.generationConfig;
		expect(config).toEqual({ maxOutputTokens: 8192, thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 } });

		// xhigh is clamped to the nearest supported level (high), which the map names.
		const gemini3 = {
			...model,
			id: "gemini-3-pro-preview",
			thinkingLevelMap: { low: "LOW", high: "HIGH", minimal: null },
		};
		await streamSimple(gemini3, ctx(), { apiKey: "k", reasoning: "xhigh" }).result();
		config = server.requests.at(-1)!.body.generationConfig;
		expect(config.thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: "HIGH" });

		// No level: a reasoning model is told to think with budget 0.
		await streamSimple(model, ctx(), { apiKey: "k" }).result();
		config = server.requests.at(-1)!.body.generationConfig;
		expect(config).toEqual({ maxOutputTokens: 8192, thinkingConfig: { thinkingBudget: 0 } });

		// A Gemini 3 model that cannot turn thinking off gets its lowest level instead.
		await streamSimple(
			{ ...gemini3, thinkingLevelMap: { off: null, minimal: null, low: "LOW", high: "HIGH" } },
			ctx(),
			{
				apiKey: "k",
			},
		).result();
		config = server.requests.at(-1)!.body.generationConfig;
		expect(config.thinkingConfig).toEqual({ thinkingLevel: "LOW" });
	});

	test("MAX_TOKENS ends with length", async () => {
		server.push({ kind: "reply", text: "cut short", stopReason: "length" });
		const message = await complete(model, ctx(), { apiKey: "k" });
		expect(message.stopReason).toBe("length");
		expect(message.content).toEqual([{ type: "text", text: "cut short" }]);
	});

	test.each([
		[400, "Request contains an invalid argument.", "INVALID_ARGUMENT", false],
		[401, "API key not valid.", "UNAUTHENTICATED", false],
		[429, "Resource has been exhausted (e.g. check quota).", "RESOURCE_EXHAUSTED", true],
		[500, "An internal error has occurred.", "INTERNAL", true],
		[529, "The model is overloaded.", "UNAVAILABLE", true],
	])("HTTP %i becomes an error message naming provider and status", async (status, message, kind, retryable) => {
		server.push({ kind: "http-error", status, message, headers: status === 429 ? { "retry-after": "7" } : {} });
		const result = await complete(model, ctx(), { apiKey: "k" });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toStartWith(`Google API error ${status}: ${message} [${kind}]`);
		expect(classifyError(result).retryable).toBe(retryable);
		if (status === 429) expect(classifyError(result).retryAfterMs).toBe(7000);
	});

	test("the array-wrapped error body is understood", async () => {
		server.push({
			kind: "http-error",
			status: 503,
			body: [
				{ error: { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" } },
			],
		});
		const result = await complete(model, ctx(), { apiKey: "k" });
		expect(result.errorMessage).toBe(
			"Google API error 503: The model is overloaded. Please try again later. [UNAVAILABLE]",
		);
		expect(classifyError(result).retryable).toBe(true);
	});

	test("a context overflow error is recognised", async () => {
		server.push({
			kind: "http-error",
			status: 400,
			message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
		});
		const result = await complete(model, ctx(), { apiKey: "k" });
		expect(result.errorMessage).toContain("Google API error 400");
		expect(isContextOverflow(result)).toBe(true);
		expect(classifyError(result).retryable).toBe(false);
	});

	test("a mid-stream disconnect keeps what arrived and ends with an error", async () => {
		server.push({ kind: "reply", text: "partial answer that gets cut", chunkSize: 4, disconnectAfterFrames: 3 });
		const s = stream(model, ctx(), { apiKey: "k" });
		const events = await collect(s);
		const result = await s.result();
		expect(events.at(-1)?.type).toBe("error");
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/^Google stream ended before the response was complete/);
		expect(result.content).toEqual([{ type: "text", text: "partial answ" }]); // 3 frames of 4 characters
		expect(classifyError(result).retryable).toBe(true);
	});

	testAbortMidStream(server, model);

	test("malformed SSE data and invalid tool arguments are errors, never tool runs", async () => {
		server.push({ kind: "raw", body: "data: {not json\n\n" });
		const bad = await complete(model, ctx(), { apiKey: "k" });
		expect(bad.stopReason).toBe("error");
		expect(bad.errorMessage).toStartWith("Google sent malformed stream data");

		// Not valid JSON: the mock splices it into the frame, so the whole chunk is malformed.
		server.push({ kind: "reply", text: "calling", toolCalls: [{ name: "read", arguments: '{"path": "a' }] });
		const badTool = await complete(model, ctx(), { apiKey: "k" });
		expect(badTool.stopReason).toBe("error");
		expect(badTool.errorMessage).toStartWith("Google sent malformed stream data");
		expect(badTool.content).toEqual([{ type: "text", text: "calling" }]);

		// Valid JSON that is not an object.
		server.push({ kind: "reply", toolCalls: [{ name: "read", arguments: '["a"]' }] });
		const notObject = await complete(model, ctx(), { apiKey: "k" });
		// As in pi the reply stands; the call is marked so the agent refuses to run it and tells the model why.
		const unreadable = notObject.content.find((b) => b.type === "toolCall");
		expect(notObject.stopReason).toBe("toolUse");
		expect(unreadable && invalidToolArguments(unreadable)).toContain("the arguments were:");
	});

	test("an error object in the stream ends the message with that error", async () => {
		server.push({ kind: "reply", text: "some", streamError: "The model is overloaded." });
		const result = await complete(model, ctx(), { apiKey: "k" });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("Google API error 503: The model is overloaded. [UNAVAILABLE]");
		expect(result.content).toEqual([{ type: "text", text: "some" }]);
		expect(classifyError(result).retryable).toBe(true);
	});

	test("a SAFETY finish reason is an error that keeps the content; a blocked prompt too", async () => {
		server.push({
			kind: "raw",
			body: sse(candidate([{ text: "Here is" }]), {
				...candidate([{ text: " some" }], { finishReason: "SAFETY" }),
				usageMetadata: { promptTokenCount: 5 },
			}),
		});
		const result = await complete(model, ctx(), { apiKey: "k" });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe(
			"Google ended the response with finishReason SAFETY (blocked by the safety filters)",
		);
		expect(result.content).toEqual([{ type: "text", text: "Here is some" }]);
		expect(result.usage.input).toBe(5);
		expect(classifyError(result).retryable).toBe(false);

		server.push({ kind: "raw", body: sse({ promptFeedback: { blockReason: "PROHIBITED_CONTENT" } }) });
		const blocked = await complete(model, ctx(), { apiKey: "k" });
		expect(blocked.stopReason).toBe("error");
		expect(blocked.errorMessage).toBe("Google blocked the prompt (blockReason PROHIBITED_CONTENT)");
	});

	test("raw Gemini chunks: text signature, interleaved thoughts, usage updates, trailing frame without blank line", async () => {
		const body =
			sse(
				{ ...candidate([{ text: "a", thought: true }]), usageMetadata: { promptTokenCount: 20 } },
				candidate([{ text: "b", thought: true, thoughtSignature: "S1" }, { text: "answer" }]),
				candidate([{ text: "", thoughtSignature: "TEXTSIG" }]),
			) +
			`data: ${JSON.stringify({
				...candidate([], { finishReason: "STOP" }),
				usageMetadata: {
					promptTokenCount: 20,
					cachedContentTokenCount: 8,
					candidatesTokenCount: 3,
					thoughtsTokenCount: 4,
				},
			})}`;
		server.push({ kind: "raw", body });
		const message = await complete(model, ctx(), { apiKey: "k" });
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "ab", thinkingSignature: "S1" },
			{ type: "text", text: "answer", textSignature: "TEXTSIG" },
		]);
		expect(message.usage).toMatchObject({ input: 12, cacheRead: 8, output: 7, totalTokens: 27 });
	});

	test("a stream that ends without a finishReason is a cut connection", async () => {
		server.push({ kind: "raw", body: sse(candidate([{ text: "half" }])) });
		const result = await complete(model, ctx(), { apiKey: "k" });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/^Google stream ended before the response was complete/);
		expect(result.content).toEqual([{ type: "text", text: "half" }]);
	});

	test("a tool schema goes out untouched as parametersJsonSchema, even an empty one", async () => {
		server.push({ kind: "reply", text: "x" });
		const parameters = { type: "object", properties: {} } as any;
		await complete(
			model,
			{
				messages: [{ role: "user", content: "hi", timestamp: 1 }],
				tools: [{ name: "now", description: "current time", parameters }],
			},
			{ apiKey: "k" },
		);
		expect(server.requests.at(-1)!.body.tools).toEqual([
			{ functionDeclarations: [{ name: "now", description: "current time", parametersJsonSchema: parameters }] },
		]);
	});
});
