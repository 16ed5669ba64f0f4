import { afterAll, describe, expect, test } from "bun:test";
import {
	type AssistantMessage,
	type Context,
	classifyError,
	complete,
	invalidToolArguments,
	isContextOverflow,
	type Model,
	stream,
	streamSimple,
} from "../../../src/ai/index.ts";
import { buildRequest, resolveCompat } from "../../../src/ai/providers/openai-completions-request.ts";
import { startMockLlm } from "../../support/mock-llm/index.ts";
import { mockModel, RED_PIXEL_PNG } from "../../support/models.ts";
import { basicContext, collect, testAbortMidStream } from "../../support/provider-tests.ts";

const server = startMockLlm();
afterAll(() => server.stop());
const model = mockModel("openai-completions", server.url);
const withCompat = (compat: Model["compat"], overrides: Partial<Model> = {}) =>
	mockModel("openai-completions", server.url, { compat, ...overrides });
const ctx = basicContext;

const sse = (...chunks: unknown[]) =>
	chunks.map((c) => `data: ${typeof c === "string" ? c : JSON.stringify(c)}\n\n`).join("");
const delta = (d: Record<string, unknown>, finish_reason: string | null = null) => ({
	id: "chatcmpl-raw",
	object: "chat.completion.chunk",
	model: "mock-model",
	choices: [{ index: 0, delta: d, finish_reason }],
});
const callPiece = (index: number, args: string, head?: { id: string; name: string }) => ({
	index,
	...(head ? { id: head.id, type: "function" } : {}),
	function: { ...(head ? { name: head.name } : {}), arguments: args },
});

const zeroUsage = {
	input: 0,
	output: 0,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 0,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const assistant = (content: AssistantMessage["content"], from: Partial<AssistantMessage> = {}): AssistantMessage => ({
	role: "assistant",
	content,
	api: "openai-completions",
	provider: "mock-openai",
	model: "mock-model",
	usage: zeroUsage,
	stopReason: content.some((b) => b.type === "toolCall") ? "toolUse" : "stop",
	timestamp: 2,
	...from,
});

/** A conversation with a tool call whose result carries an image, then a new user turn. */
const toolHistory = (): Context => ({
	systemPrompt: "sys",
	messages: [
		{ role: "user", content: "look", timestamp: 1 },
		assistant([
			{ type: "thinking", thinking: "I should read it" },
			{ type: "text", text: "Reading." },
			{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "x.png" } },
		]),
		{
			role: "toolResult",
			toolCallId: "call_1",
			toolName: "read",
			content: [
				{ type: "text", text: "an image" },
				{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
			],
			isError: false,
			timestamp: 3,
		},
		{ role: "user", content: "and now?", timestamp: 4 },
	],
});

describe("openai-completions against the mock server", () => {
	test("text, thinking from reasoning_content, usage and cost; request shape", async () => {
		server.push({
			kind: "reply",
			thinking: "let me think",
			text: "Hello there!",
			usage: { input: 1000, output: 200, cacheRead: 50 },
		});
		const s = stream(model, ctx(), { apiKey: "sk-test" });
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
		// The thinking block remembers the field it came in (pi-ai's signature), to go back in the same one.
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "let me think", thinkingSignature: "reasoning_content" },
			{ type: "text", text: "Hello there!" },
		]);
		expect(message.stopReason).toBe("stop");
		expect(message.responseId).toStartWith("chatcmpl-");
		// The server answered with the model asked for: pi-ai records no responseModel then.
		expect(message.responseModel).toBeUndefined();
		expect(message.rawStopReason).toBe("stop");
		expect(message.usage).toMatchObject({ input: 1000, output: 200, cacheRead: 50, cacheWrite: 0, totalTokens: 1250 });
		expect(message.usage.cost.total).toBeCloseTo((1000 * 3 + 200 * 15 + 50 * 0.3) / 1e6, 10);
		const req = server.requests.at(-1)!;
		expect(req.path).toBe("/v1/chat/completions");
		expect(req.headers.authorization).toBe("Bearer sk-test");
		expect(req.body).toEqual({
			model: "mock-model",
			stream: true,
			stream_options: { include_usage: true },
			// A standard OpenAI-style server (pi-ai's defaults): store false, developer role for reasoning models.
			store: false,
			messages: [
				{ role: "developer", content: "be brief" },
				{ role: "user", content: "hi" },
			],
			tools: [
				{
					type: "function",
					function: {
						name: "read",
						description: "read a file",
						parameters: { type: "object", properties: { path: { type: "string" } } },
					},
				},
			],
		});
	});

	test("options: max tokens, temperature, tool choice; no key means no Authorization header", async () => {
		server.push({ kind: "reply", text: "ok" });
		await complete(model, ctx(), { maxTokens: 123, temperature: 0.2, toolChoice: "required" });
		const req = server.requests.at(-1)!;
		expect(req.headers.authorization).toBeUndefined();
		expect(req.body.max_completion_tokens).toBe(123);
		expect(req.body.max_tokens).toBeUndefined();
		expect(req.body.temperature).toBe(0.2);
		expect(req.body.tool_choice).toBe("required");
	});

	test("responseModel is recorded only when the server answered with another model (as pi-ai)", async () => {
		server.push({ kind: "reply", text: "ok", servedModel: "mock-model-2025-01-01" });
		const served = await complete(model, ctx(), { apiKey: "k" });
		expect(served.responseModel).toBe("mock-model-2025-01-01");
		server.push({ kind: "reply", text: "ok" });
		const same = await complete(model, ctx(), { apiKey: "k" });
		expect(same.responseModel).toBeUndefined();
		expect("responseModel" in same).toBe(false);
	});

	test("several tool calls in one message, arguments streamed as partial JSON", async () => {
		server.push({
			kind: "reply",
			text: "Reading both.",
			toolCalls: [
				{ id: "call_a", name: "read", arguments: { path: "a.txt" } },
				{ id: "call_b", name: "read", arguments: { path: "b/c.txt", offset: 10 } },
			],
			chunkSize: 4,
		});
		const s = stream(model, ctx(), { apiKey: "k" });
		const events = await collect(s);
		const message = await s.result();
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([
			{ type: "text", text: "Reading both." },
			{ type: "toolCall", id: "call_a", name: "read", arguments: { path: "a.txt" } },
			{ type: "toolCall", id: "call_b", name: "read", arguments: { path: "b/c.txt", offset: 10 } },
		]);
		expect(events.filter((e) => e.type === "toolcall_delta").length).toBeGreaterThan(6);
		expect(events.filter((e) => e.type === "toolcall_end")).toHaveLength(2);
		// The first call ends before the second starts: both were streamed live.
		const types = events.map((e) => e.type);
		expect(types.indexOf("toolcall_end")).toBeLessThan(types.lastIndexOf("toolcall_start"));
	});

	test("tool calls interleaved by index each become their own block, in order", async () => {
		server.push({
			kind: "raw",
			body: sse(
				delta({ role: "assistant", content: null }),
				delta({ tool_calls: [callPiece(0, "", { id: "call_0", name: "read" })] }),
				delta({ tool_calls: [callPiece(1, "", { id: "call_1", name: "write" })] }),
				delta({ tool_calls: [callPiece(0, '{"path":')] }),
				delta({ tool_calls: [callPiece(1, '{"path": "o')] }),
				delta({ tool_calls: [callPiece(0, ' "in"}')] }),
				delta({ tool_calls: [callPiece(1, 'ut", "n": 2}')] }),
				delta({}, "tool_calls"),
				"[DONE]",
			),
		});
		const s = stream(model, ctx(), { apiKey: "k" });
		const events = await collect(s);
		const message = await s.result();
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([
			{ type: "toolCall", id: "call_0", name: "read", arguments: { path: "in" } },
			{ type: "toolCall", id: "call_1", name: "write", arguments: { path: "out", n: 2 } },
		]);
		expect(events.filter((e) => e.type === "toolcall_end").map((e) => (e as any).contentIndex)).toEqual([0, 1]);
	});

	test("whole tool calls in one delta, and a server reusing index 0 with new ids", async () => {
		server.push({
			kind: "raw",
			body: sse(
				delta({
					tool_calls: [
						callPiece(0, '{"path":"a"}', { id: "A", name: "read" }),
						callPiece(1, '{"path":"b"}', { id: "B", name: "read" }),
					],
				}),
				delta({ tool_calls: [callPiece(0, '{"path":"c"}', { id: "C", name: "read" })] }),
				delta({}, "tool_calls"),
				"[DONE]",
			),
		});
		const message = await complete(model, ctx(), { apiKey: "k" });
		expect(message.content.map((b) => (b.type === "toolCall" ? [b.id, b.arguments.path] : b.type))).toEqual([
			["A", "a"],
			["B", "b"],
			["C", "c"],
		]);
	});

	test("a server that closes after finish_reason without [DONE] still finishes cleanly", async () => {
		server.push({
			kind: "raw",
			body: sse(delta({ content: "Hi" }), delta({}, "length"), {
				id: "chatcmpl-raw",
				choices: [],
				usage: { prompt_tokens: 7, completion_tokens: 3 },
			}),
		});
		const message = await complete(model, ctx(), { apiKey: "k" });
		expect(message.stopReason).toBe("length");
		expect(message.content).toEqual([{ type: "text", text: "Hi" }]);
		expect(message.usage).toMatchObject({ input: 7, output: 3, totalTokens: 10 });
	});

	test("history: images as data URLs, tool calls as JSON strings, tool-result images in a following user message", async () => {
		server.push({ kind: "reply", text: "ok" });
		const context = toolHistory();
		context.messages[0] = {
			role: "user",
			content: [
				{ type: "text", text: "look" },
				{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" },
			],
			timestamp: 1,
		};
		await complete(model, context, { apiKey: "k" });
		expect(server.requests.at(-1)!.body.messages).toEqual([
			{ role: "developer", content: "sys" },
			{
				role: "user",
				content: [
					{ type: "text", text: "look" },
					{ type: "image_url", image_url: { url: `data:image/png;base64,${RED_PIXEL_PNG}` } },
				],
			},
			{
				role: "assistant",
				content: "Reading.",
				tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"x.png"}' } }],
			},
			{ role: "tool", tool_call_id: "call_1", content: "an image" },
			{
				role: "user",
				content: [
					{ type: "text", text: "Attached image(s) from tool result:" },
					{ type: "image_url", image_url: { url: `data:image/png;base64,${RED_PIXEL_PNG}` } },
				],
			},
			{ role: "user", content: "and now?" },
		]);
	});

	test("a model without image input gets a note instead of the image", async () => {
		server.push({ kind: "reply", text: "ok" });
		await complete(mockModel("openai-completions", server.url, { input: ["text"] }), toolHistory(), { apiKey: "k" });
		const messages = server.requests.at(-1)!.body.messages;
		expect(messages[3]).toEqual({
			role: "tool",
			tool_call_id: "call_1",
			content: "an image\n(tool image omitted: model does not support images)",
		});
		expect(messages[4]).toEqual({ role: "user", content: "and now?" });
	});

	test("compat: maxTokensField, requiresToolResultName, requiresAssistantAfterToolResult", async () => {
		server.push({ kind: "reply", text: "ok" });
		const m = withCompat({
			maxTokensField: "max_completion_tokens",
			requiresToolResultName: true,
			requiresAssistantAfterToolResult: true,
		});
		await complete(m, toolHistory(), { apiKey: "k", maxTokens: 500 });
		const body = server.requests.at(-1)!.body;
		expect(body.max_completion_tokens).toBe(500);
		expect(body.max_tokens).toBeUndefined();
		expect(body.messages.slice(3).map((x: any) => [x.role, x.name ?? null])).toEqual([
			["tool", "read"],
			["assistant", null],
			["user", null],
			["user", null],
		]);
		expect(body.messages[4]).toEqual({ role: "assistant", content: "I have processed the tool results." });
	});

	test("compat: supportsDeveloperRole puts the system prompt in a developer message for reasoning models", async () => {
		server.push({ kind: "reply", text: "ok" }, { kind: "reply", text: "ok" });
		await complete(withCompat({ supportsDeveloperRole: true }), ctx(), { apiKey: "k" });
		expect(server.requests.at(-1)!.body.messages[0]).toEqual({ role: "developer", content: "be brief" });
		await complete(withCompat({ supportsDeveloperRole: true }, { reasoning: false }), ctx(), { apiKey: "k" });
		expect(server.requests.at(-1)!.body.messages[0]).toEqual({ role: "system", content: "be brief" });
	});

	test("compat: supportsUsageInStreaming false sends no stream_options", async () => {
		server.push({ kind: "reply", text: "ok", usage: { input: 5, output: 5 } });
		const message = await complete(withCompat({ supportsUsageInStreaming: false }), ctx(), { apiKey: "k" });
		expect(server.requests.at(-1)!.body.stream_options).toBeUndefined();
		expect(message.stopReason).toBe("stop");
		expect(message.usage.totalTokens).toBe(0);
	});

	test("compat: thinking goes back in the field it came in, as text, or not at all (as pi-ai)", async () => {
		const sent = async (compat: Model["compat"], from?: Partial<AssistantMessage>, signature?: string) => {
			server.push({ kind: "reply", text: "ok" });
			const context = toolHistory();
			const original = context.messages[1] as AssistantMessage;
			const content = original.content.map((block) =>
				block.type === "thinking" && signature ? { ...block, thinkingSignature: signature } : block,
			);
			context.messages[1] = { ...original, content, ...from };
			await complete(withCompat(compat), context, { apiKey: "k" });
			const { reasoning_content, reasoning, content: sentContent } = server.requests.at(-1)!.body.messages[2];
			return { reasoning_content, reasoning, content: sentContent };
		};
		// Thinking without a field name is not sent back.
		expect(await sent(undefined)).toEqual({ reasoning_content: undefined, reasoning: undefined, content: "Reading." });
		expect(await sent(undefined, {}, "reasoning_content")).toEqual({
			reasoning_content: "I should read it",
			reasoning: undefined,
			content: "Reading.",
		});
		expect(await sent(undefined, {}, "reasoning")).toEqual({
			reasoning_content: undefined,
			reasoning: "I should read it",
			content: "Reading.",
		});
		// Another model's thinking becomes text where it stood.
		expect(await sent({ thinkingFormat: "deepseek" }, { model: "other-model" }, "reasoning_content")).toEqual({
			reasoning_content: undefined,
			reasoning: undefined,
			content: "I should read itReading.",
		});
		expect(await sent({ requiresReasoningContentOnAssistantMessages: true }, { provider: "elsewhere" })).toEqual({
			reasoning_content: "",
			reasoning: undefined,
			content: "I should read itReading.",
		});
		expect(await sent({ requiresThinkingAsText: true })).toEqual({
			reasoning_content: undefined,
			reasoning: undefined,
			content: [
				{ type: "text", text: "I should read it" },
				{ type: "text", text: "Reading." },
			],
		});
	});

	test("streamSimple maps the reasoning level per thinking format", async () => {
		const body = async (m: Model, reasoning?: "low" | "high" | "xhigh") => {
			server.push({ kind: "reply", text: "x" });
			await streamSimple(m, ctx(), { apiKey: "k", ...(reasoning ? { reasoning } : {}) }).result();
			const {
				reasoning_effort,
				reasoning: r,
				thinking,
				enable_thinking,
				chat_template_kwargs,
			} = server.requests.at(-1)!.body;
			return { reasoning_effort, reasoning: r, thinking, enable_thinking, chat_template_kwargs };
		};
		expect(await body(model, "high")).toMatchObject({ reasoning_effort: "high" });
		// xhigh is clamped to the nearest level the model supports.
		expect(await body(model, "xhigh")).toMatchObject({ reasoning_effort: "high" });
		expect(await body(model)).toEqual({} as any);
		expect(await body({ ...model, reasoning: false }, "high")).toEqual({} as any);
		expect(await body(withCompat({ supportsReasoningEffort: false }), "high")).toEqual({} as any);
		expect(await body(withCompat({ reasoningEffortMap: { low: "minimal" } }), "low")).toMatchObject({
			reasoning_effort: "minimal",
		});
		expect(await body(withCompat({ thinkingFormat: "openrouter" }), "low")).toMatchObject({
			reasoning: { effort: "low" },
			reasoning_effort: undefined,
		});
		expect(await body(withCompat({ thinkingFormat: "zai" }), "low")).toMatchObject({ thinking: { type: "enabled" } });
		expect(await body(withCompat({ thinkingFormat: "zai" }))).toMatchObject({ thinking: { type: "disabled" } });
		expect(await body(withCompat({ thinkingFormat: "deepseek" }), "high")).toMatchObject({
			thinking: { type: "enabled" },
		});
		expect(await body(withCompat({ thinkingFormat: "qwen" }), "high")).toMatchObject({ enable_thinking: true });
		expect(await body(withCompat({ thinkingFormat: "qwen" }))).toMatchObject({ enable_thinking: false });
		expect(await body(withCompat({ thinkingFormat: "qwen-chat-template" }), "low")).toMatchObject({
			chat_template_kwargs: { enable_thinking: true },
		});
	});

	test("defaults for api.openai.com: max_completion_tokens, developer role, store false, prompt cache key", () => {
		const openai = mockModel("openai-completions", server.url, {
			baseUrl: "https://api.openai.com/v1",
			provider: "openai",
		});
		const compat = resolveCompat(openai);
		expect(compat.isOpenAI).toBe(true);
		const body = buildRequest(openai, ctx(), { maxTokens: 100, sessionId: "s1" }, compat);
		expect(body).toMatchObject({
			max_completion_tokens: 100,
			store: false,
			prompt_cache_key: "s1",
			messages: [{ role: "developer", content: "be brief" }, { role: "user" }],
		});
		expect(body.max_tokens).toBeUndefined();
		// Any server pi-ai does not recognise is treated as standard.
		expect(resolveCompat(model)).toMatchObject({
			isOpenAI: false,
			maxTokensField: "max_completion_tokens",
			supportsStore: true,
		});
		// pi-ai's server table: DeepSeek wants max_tokens, no store, no developer role, reasoning_content back.
		const deepseek = mockModel("openai-completions", server.url, { provider: "deepseek" });
		expect(resolveCompat(deepseek)).toMatchObject({
			maxTokensField: "max_tokens",
			supportsStore: false,
			supportsDeveloperRole: false,
			thinkingFormat: "deepseek",
			requiresReasoningContentOnAssistantMessages: true,
		});
		// models.json compat wins over the table.
		expect(resolveCompat({ ...deepseek, compat: { maxTokensField: "max_completion_tokens" } }).maxTokensField).toBe(
			"max_completion_tokens",
		);
	});

	test("compat cacheControlFormat anthropic marks the system prompt and the last user message", async () => {
		server.push({ kind: "reply", text: "ok" });
		await complete(withCompat({ cacheControlFormat: "anthropic" }), ctx(), { apiKey: "k" });
		expect(server.requests.at(-1)!.body.messages).toEqual([
			{ role: "developer", content: [{ type: "text", text: "be brief", cache_control: { type: "ephemeral" } }] },
			{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] },
		]);
		expect(server.requests.at(-1)!.body.tools.at(-1).cache_control).toEqual({ type: "ephemeral" });
	});

	test.each([
		[400, "Invalid 'messages': bad request", false],
		[401, "Incorrect API key provided", false],
		[429, "Rate limit reached", true],
		[500, "internal", true],
		[529, "Overloaded", true],
	])("HTTP %i becomes an error message naming provider and status", async (status, message, retryable) => {
		server.push({ kind: "http-error", status, message, headers: status === 429 ? { "retry-after": "7" } : {} });
		const result = await complete(model, ctx(), { apiKey: "k" });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toStartWith(`mock-openai API error ${status}: ${message}`);
		expect(classifyError(result).retryable).toBe(retryable);
		if (status === 429) expect(classifyError(result).retryAfterMs).toBe(7000);
	});

	test("a context overflow error is recognised", async () => {
		server.push({
			kind: "http-error",
			status: 400,
			message:
				"This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
		});
		const result = await complete(model, ctx(), { apiKey: "k" });
		expect(result.errorMessage).toStartWith("mock-openai API error 400: This model's maximum context length");
		expect(isContextOverflow(result)).toBe(true);
		expect(classifyError(result).retryable).toBe(false);
	});

	test("a mid-stream disconnect keeps what arrived and ends with an error", async () => {
		server.push({ kind: "reply", text: "partial answer that gets cut", chunkSize: 4, disconnectAfterFrames: 5 });
		const s = stream(model, ctx(), { apiKey: "k" });
		const events = await collect(s);
		const result = await s.result();
		expect(events.at(-1)?.type).toBe("error");
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/^mock-openai stream ended before the response was complete/);
		expect((result.content[0] as any).text.length).toBeGreaterThan(0);
		expect(classifyError(result).retryable).toBe(true);
	});

	testAbortMidStream(server, model);

	test("malformed SSE data and invalid tool JSON are errors, never tool runs", async () => {
		server.push({ kind: "raw", body: "data: {not json\n\n" });
		const bad = await complete(model, ctx(), { apiKey: "k" });
		expect(bad.stopReason).toBe("error");
		expect(bad.errorMessage).toContain("mock-openai sent malformed stream data");
		server.push({ kind: "reply", toolCalls: [{ id: "t1", name: "read", arguments: '{"path": "a' }] });
		const badTool = await complete(model, ctx(), { apiKey: "k" });
		// As in pi the reply stands; the call is marked so the agent refuses to run it and tells the model why.
		const unreadable = badTool.content.find((b) => b.type === "toolCall");
		expect(badTool.stopReason).toBe("toolUse");
		expect(unreadable && invalidToolArguments(unreadable)).toContain("the arguments were:");
	});

	test("a stream error chunk ends the message with that error", async () => {
		server.push({ kind: "reply", text: "some", streamError: "Overloaded" });
		const result = await complete(model, ctx(), { apiKey: "k" });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("mock-openai API error: Overloaded [server_error]");
		expect(result.content).toEqual([{ type: "text", text: "some" }]);
		expect(classifyError(result).retryable).toBe(true);
	});

	test("finish_reason content_filter is an error", async () => {
		server.push({ kind: "raw", body: sse(delta({ content: "Sure" }), delta({}, "content_filter"), "[DONE]") });
		const result = await complete(model, ctx(), { apiKey: "k" });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("mock-openai stopped the response (finish_reason: content_filter)");
	});
});
