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
import { basicContext, collect, testAbortMidStream } from "../../support/provider-tests.ts";

const server = startMockLlm();
afterAll(() => server.stop());
const model = mockModel("openai-responses", server.url);
const ctx = basicContext;

const zeroUsage = () => ({
	input: 0,
	output: 0,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 0,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});

function assistant(content: AssistantMessage["content"], from: Partial<AssistantMessage> = {}): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: "openai-responses",
		provider: "openai",
		model: "mock-model",
		usage: zeroUsage(),
		stopReason: "toolUse",
		timestamp: 2,
		...from,
	};
}

/** A raw SSE body of Responses API events (for events the renderer does not produce). */
function rawEvents(...events: Record<string, unknown>[]): string {
	return events.map((e, i) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`).join("");
}

describe("openai-responses against the mock server", () => {
	test("text, reasoning summary with encrypted content, usage and cost; request shape", async () => {
		server.push({
			kind: "reply",
			thinking: "let me think",
			thinkingSignature: "ENC-1",
			text: "Hello there!",
			usage: { input: 1000, output: 200, cacheRead: 50 },
		});
		const s = stream(model, ctx(), { apiKey: "sk-test", sessionId: "sess-1" });
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
		expect(message.content).toHaveLength(2);
		const thinking = message.content[0] as any;
		expect(thinking.type).toBe("thinking");
		expect(thinking.thinking).toBe("let me think");
		expect(JSON.parse(thinking.thinkingSignature)).toEqual({
			id: expect.stringMatching(/^rs_/),
			type: "reasoning",
			summary: [{ type: "summary_text", text: "let me think" }],
			encrypted_content: "ENC-1",
		});
		expect(message.content[1]).toEqual({
			type: "text",
			text: "Hello there!",
			textSignature: expect.stringMatching(/^\{"v":1,"id":"msg_/),
		});
		expect(message.stopReason).toBe("stop");
		expect(message.rawStopReason).toBe("completed");
		expect(message.responseId).toMatch(/^resp_mock_/);
		expect(message.responseModel).toBeUndefined();
		expect(message.usage).toMatchObject({ input: 1000, output: 200, cacheRead: 50, cacheWrite: 0, totalTokens: 1250 });
		expect(message.usage.cost.total).toBeCloseTo((1000 * 3 + 200 * 15 + 50 * 0.3) / 1e6, 10);
		const req = server.requests.at(-1)!;
		expect(req.path).toBe("/v1/responses");
		expect(req.headers.authorization).toBe("Bearer sk-test");
		expect(req.headers.session_id).toBeUndefined();
		// As pi-ai: no output cap unless asked, and a reasoning model asked for no level is told effort "none".
		expect(req.body).toMatchObject({
			model: "mock-model",
			stream: true,
			store: false,
			prompt_cache_key: "sess-1",
			reasoning: { effort: "none" },
		});
		expect(req.body.max_output_tokens).toBeUndefined();
		expect(req.body.include).toBeUndefined();
		expect(req.body.temperature).toBeUndefined();
		expect(req.body.input).toEqual([
			{ role: "developer", content: "be brief" },
			{ role: "user", content: [{ type: "input_text", text: "hi" }] },
		]);
		expect(req.body.tools).toEqual([
			{
				type: "function",
				name: "read",
				description: "read a file",
				parameters: { type: "object", properties: { path: { type: "string" } } },
			},
		]);
	});

	test("a non-reasoning model gets a system message and no include; options pass through", async () => {
		server.push({ kind: "reply", text: "ok" });
		const plain = { ...model, reasoning: false, compat: { sendSessionIdHeader: true } };
		await complete(plain, ctx(), {
			apiKey: "k",
			temperature: 0.2,
			maxTokens: 100,
			sessionId: "sess-2",
			toolChoice: "required",
			headers: { "x-extra": "1" },
		});
		const req = server.requests.at(-1)!;
		expect(req.body.input[0]).toEqual({ role: "system", content: "be brief" });
		expect(req.body.include).toBeUndefined();
		expect(req.body).toMatchObject({ temperature: 0.2, max_output_tokens: 100, tool_choice: "required" });
		expect(req.headers.session_id).toBe("sess-2");
		expect(req.headers["x-extra"]).toBe("1");
	});

	test("several tool calls in one message; ids combine call_id and item id", async () => {
		server.push({
			kind: "reply",
			text: "Reading both.",
			toolCalls: [
				{ id: "call_1", name: "read", arguments: { path: "a.txt" } },
				{ id: "call_2", name: "read", arguments: { path: "b/c.txt", offset: 10 } },
			],
			chunkSize: 4,
		});
		const s = stream(model, ctx(), { apiKey: "k" });
		const events = await collect(s);
		const message = await s.result();
		expect(message.stopReason).toBe("toolUse");
		expect(message.content.filter((b) => b.type === "toolCall")).toEqual([
			{ type: "toolCall", id: "call_1|fc_mock_0", name: "read", arguments: { path: "a.txt" } },
			{ type: "toolCall", id: "call_2|fc_mock_1", name: "read", arguments: { path: "b/c.txt", offset: 10 } },
		]);
		expect(events.filter((e) => e.type === "toolcall_delta").length).toBeGreaterThan(3);
		expect(events.filter((e) => e.type === "toolcall_end")).toHaveLength(2);
	});

	test("images in user messages and tool results are sent as input_image", async () => {
		server.push({ kind: "reply", text: "ok" });
		const context: Context = {
			messages: [
				{
					role: "user",
					content: [
						{ type: "text", text: "look" },
						{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
					],
					timestamp: 1,
				},
				assistant([{ type: "toolCall", id: "call_s|fc_s", name: "screenshot", arguments: {} }]),
				{
					role: "toolResult",
					toolCallId: "call_s|fc_s",
					toolName: "screenshot",
					content: [{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }],
					isError: false,
					timestamp: 3,
				},
			],
		};
		await complete(model, context, { apiKey: "k" });
		const image = { type: "input_image", detail: "auto", image_url: `data:image/png;base64,${RED_PIXEL_PNG}` };
		expect(server.requests.at(-1)!.body.input).toEqual([
			{ role: "user", content: [{ type: "input_text", text: "look" }, image] },
			{ type: "function_call", id: "fc_s", call_id: "call_s", name: "screenshot", arguments: "{}" },
			// As pi-ai: a result's images go inside its output, for models that take images.
			{ type: "function_call_output", call_id: "call_s", output: [image] },
		]);
	});

	test("a replayed conversation sends reasoning, message and function_call items back with their ids", async () => {
		server.push({ kind: "reply", text: "x" });
		const reasoningItem = {
			id: "rs_1",
			type: "reasoning",
			summary: [{ type: "summary_text", text: "plan" }],
			encrypted_content: "ENC",
		};
		const context: Context = {
			messages: [
				{ role: "user", content: "read x", timestamp: 1 },
				assistant([
					{ type: "thinking", thinking: "plan", thinkingSignature: JSON.stringify(reasoningItem) },
					{ type: "text", text: "Reading.", textSignature: "msg_1" },
					{ type: "toolCall", id: "call_a|fc_a", name: "read", arguments: { path: "x" } },
					{ type: "toolCall", id: "call_b|fc_b", name: "read", arguments: { path: "y" } },
				]),
				{
					role: "toolResult",
					toolCallId: "call_a|fc_a",
					toolName: "read",
					content: [
						{ type: "text", text: "line 1" },
						{ type: "text", text: "line 2" },
					],
					isError: false,
					timestamp: 3,
				},
				{ role: "user", content: "thanks", timestamp: 4 },
			],
		};
		await complete(model, context, { apiKey: "k" });
		expect(server.requests.at(-1)!.body.input).toEqual([
			{ role: "user", content: [{ type: "input_text", text: "read x" }] },
			reasoningItem,
			{
				type: "message",
				role: "assistant",
				id: "msg_1",
				status: "completed",
				content: [{ type: "output_text", text: "Reading.", annotations: [] }],
			},
			{ type: "function_call", id: "fc_a", call_id: "call_a", name: "read", arguments: '{"path":"x"}' },
			{ type: "function_call", id: "fc_b", call_id: "call_b", name: "read", arguments: '{"path":"y"}' },
			{ type: "function_call_output", call_id: "call_a", output: "line 1\nline 2" },
			// transformMessages fills the missing result of call_b
			{ type: "function_call_output", call_id: "call_b", output: "No result provided" },
			{ role: "user", content: [{ type: "input_text", text: "thanks" }] },
		]);
	});

	test("history from another model goes without ids and reasoning items; thinking becomes text", async () => {
		server.push({ kind: "reply", text: "x" });
		const context: Context = {
			messages: [
				{ role: "user", content: "go", timestamp: 1 },
				assistant(
					[
						{ type: "thinking", thinking: "hmm", thinkingSignature: "anthropic-sig" },
						{ type: "text", text: "Sure." },
						{ type: "toolCall", id: "toolu_01:x", name: "read", arguments: { path: "x" } },
					],
					{ api: "anthropic-messages", provider: "anthropic", model: "claude" },
				),
				{
					role: "toolResult",
					toolCallId: "toolu_01:x",
					toolName: "read",
					content: [],
					isError: true,
					timestamp: 3,
				},
			],
		};
		await complete(model, context, { apiKey: "k" });
		// Every assistant text is a message item with an id (pi-ai's msg_pi_<message>[_<text>] when it has none).
		const output = (text: string, id: string) => ({
			type: "message",
			role: "assistant",
			status: "completed",
			id,
			content: [{ type: "output_text", text, annotations: [] }],
		});
		expect(server.requests.at(-1)!.body.input).toEqual([
			{ role: "user", content: [{ type: "input_text", text: "go" }] },
			output("hmm", "msg_pi_1"),
			output("Sure.", "msg_pi_1_1"),
			{ type: "function_call", call_id: "toolu_01_x", name: "read", arguments: '{"path":"x"}' },
			{ type: "function_call_output", call_id: "toolu_01_x", output: "(no tool output)" },
		]);
	});

	test("streamSimple maps the reasoning level to reasoning.effort with summaries", async () => {
		server.push({ kind: "reply", text: "x" }, { kind: "reply", text: "y" }, { kind: "reply", text: "z" });
		await streamSimple(model, ctx(), { apiKey: "k", reasoning: "medium" }).result();
		expect(server.requests.at(-1)!.body.reasoning).toEqual({ effort: "medium", summary: "auto" });
		expect(server.requests.at(-1)!.body.include).toEqual(["reasoning.encrypted_content"]);
		await streamSimple(model, ctx(), { apiKey: "k", reasoning: "xhigh" }).result();
		expect(server.requests.at(-1)!.body.reasoning).toEqual({ effort: "high", summary: "auto" });
		await streamSimple({ ...model, thinkingLevelMap: { off: "none" } }, ctx(), { apiKey: "k" }).result();
		expect(server.requests.at(-1)!.body.reasoning).toEqual({ effort: "none" });
		expect(server.requests.at(-1)!.body.include).toBeUndefined();
	});

	test("max_output_tokens ends as length", async () => {
		server.push({ kind: "reply", text: "cut sho", stopReason: "length" });
		const result = await complete(model, ctx(), { apiKey: "k" });
		expect(result.stopReason).toBe("length");
		expect(result.content).toEqual([{ type: "text", text: "cut sho", textSignature: expect.any(String) }]);
		expect(result.usage.output).toBe(5);
	});

	test.each([
		[400, "Invalid 'input[0]': bad", false],
		[401, "Incorrect API key provided", false],
		[429, "Rate limit reached", true],
		[500, "The server had an error", true],
		[529, "Overloaded", true],
	])("HTTP %i becomes an error message naming provider and status", async (status, message, retryable) => {
		server.push({ kind: "http-error", status, message, headers: status === 429 ? { "retry-after": "7" } : {} });
		const result = await complete(model, ctx(), { apiKey: "k" });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toStartWith(`OpenAI API error ${status}: ${message}`);
		expect(classifyError(result).retryable).toBe(retryable);
		if (status === 429) expect(classifyError(result).retryAfterMs).toBe(7000);
	});

	test("a context overflow is recognised, as an HTTP error and as a failed response", async () => {
		const overflow = "Your input exceeds the context window of this model. Please adjust your input and try again.";
		server.push({ kind: "http-error", status: 400, message: overflow });
		const http = await complete(model, ctx(), { apiKey: "k" });
		expect(isContextOverflow(http)).toBe(true);
		expect(classifyError(http).retryable).toBe(false);
		server.push({
			kind: "raw",
			body: rawEvents(
				{ type: "response.created", response: { id: "resp_1", status: "in_progress" } },
				{
					type: "response.failed",
					response: { id: "resp_1", status: "failed", error: { code: "context_length_exceeded", message: overflow } },
				},
			),
		});
		const failed = await complete(model, ctx(), { apiKey: "k" });
		expect(failed.stopReason).toBe("error");
		expect(failed.errorMessage).toBe(`OpenAI API error: ${overflow} [context_length_exceeded]`);
		expect(isContextOverflow(failed)).toBe(true);
	});

	test("a mid-stream disconnect keeps what arrived and ends with an error", async () => {
		server.push({ kind: "reply", text: "partial answer that gets cut", chunkSize: 4, disconnectAfterFrames: 7 });
		const s = stream(model, ctx(), { apiKey: "k" });
		const events = await collect(s);
		const result = await s.result();
		expect(events.at(-1)?.type).toBe("error");
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/^OpenAI stream ended before the response was complete/);
		expect(classifyError(result).retryable).toBe(true);
		expect((result.content[0] as any).text.length).toBeGreaterThan(0);
	});

	testAbortMidStream(server, model);

	test("malformed SSE data and invalid tool JSON are errors, never tool runs", async () => {
		server.push({ kind: "raw", body: "event: response.created\ndata: {not json\n\n" });
		const bad = await complete(model, ctx(), { apiKey: "k" });
		expect(bad.stopReason).toBe("error");
		expect(bad.errorMessage).toContain("OpenAI sent malformed stream data");
		server.push({ kind: "reply", toolCalls: [{ id: "call_1", name: "read", arguments: '{"path": "a' }] });
		const badTool = await complete(model, ctx(), { apiKey: "k" });
		// As in pi the reply stands; the call is marked so the agent refuses to run it and tells the model why.
		const unreadable = badTool.content.find((b) => b.type === "toolCall");
		expect(badTool.stopReason).toBe("toolUse");
		expect(unreadable && invalidToolArguments(unreadable)).toContain("the arguments were:");
	});

	test("a stream error event ends the message with that error", async () => {
		server.push({ kind: "reply", text: "some", streamError: "The server is overloaded" });
		const result = await complete(model, ctx(), { apiKey: "k" });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("OpenAI API error: The server is overloaded [server_error]");
		expect(result.content).toEqual([{ type: "text", text: "some", textSignature: expect.any(String) }]);
		expect(classifyError(result).retryable).toBe(true);
	});

	test("content only in the finished items, refusals and an incomplete response for another reason", async () => {
		server.push({
			kind: "raw",
			body: rawEvents(
				{ type: "response.created", response: { id: "resp_2", status: "in_progress", model: "gpt-x" } },
				{ type: "response.output_item.added", output_index: 0, item: { id: "rs_2", type: "reasoning", summary: [] } },
				{
					type: "response.output_item.done",
					output_index: 0,
					item: {
						id: "rs_2",
						type: "reasoning",
						summary: [{ type: "summary_text", text: "a" }],
						encrypted_content: "E",
					},
				},
				{ type: "response.output_item.added", output_index: 1, item: { id: "msg_2", type: "message", content: [] } },
				{ type: "response.refusal.delta", item_id: "msg_2", output_index: 1, content_index: 0, delta: "I can't." },
				{ type: "response.output_item.done", output_index: 1, item: { id: "msg_2", type: "message", content: [] } },
				{
					type: "response.output_item.added",
					output_index: 2,
					item: { id: "fc_2", type: "function_call", call_id: "call_2", name: "read", arguments: "" },
				},
				{
					type: "response.function_call_arguments.done",
					item_id: "fc_2",
					output_index: 2,
					arguments: '{"path":"z"}',
				},
				{
					type: "response.output_item.done",
					output_index: 2,
					item: { id: "fc_2", type: "function_call", call_id: "call_2", name: "read", arguments: '{"path":"z"}' },
				},
				{
					type: "response.incomplete",
					response: { status: "incomplete", incomplete_details: { reason: "content_filter" } },
				},
			),
		});
		const result = await complete(model, ctx(), { apiKey: "k" });
		expect(result.responseId).toBe("resp_2");
		expect(result.responseModel).toBeUndefined();
		expect(result.rawStopReason).toBe("incomplete.content_filter");
		expect(result.content).toEqual([
			{ type: "thinking", thinking: "a", thinkingSignature: expect.stringContaining('"encrypted_content":"E"') },
			{ type: "text", text: "I can't.", textSignature: '{"v":1,"id":"msg_2"}' },
			{ type: "toolCall", id: "call_2|fc_2", name: "read", arguments: { path: "z" } },
		]);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("OpenAI response incomplete: content_filter");
	});

	test("a Responses-style call id from another provider gets a hashed fc_ item id (as pi-ai)", async () => {
		server.push({ kind: "reply", text: "ok" });
		await complete(
			model,
			{
				messages: [
					{ role: "user", content: "go", timestamp: 1 },
					assistant([{ type: "toolCall", id: "call_a|item+/=", name: "read", arguments: { path: "x" } }], {
						api: "openai-completions",
						provider: "elsewhere",
						model: "other",
					}),
					{
						role: "toolResult",
						toolCallId: "call_a|item+/=",
						toolName: "read",
						content: [{ type: "text", text: "body" }],
						isError: false,
						timestamp: 3,
					},
				],
			},
			{ apiKey: "k" },
		);
		expect(server.requests.at(-1)!.body.input.slice(1)).toEqual([
			{ type: "function_call", id: "fc_xfoazco3biir", call_id: "call_a", name: "read", arguments: '{"path":"x"}' },
			{ type: "function_call_output", call_id: "call_a", output: "body" },
		]);
	});
});
