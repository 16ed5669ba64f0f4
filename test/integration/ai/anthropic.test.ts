import { afterAll, describe, expect, test } from "bun:test";
import {
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
const model = mockModel("anthropic-messages", server.url);
const ctx = basicContext;

describe("anthropic-messages against the mock server", () => {
	test("text, thinking with signature, usage and cost; request shape", async () => {
		server.push({
			kind: "reply",
			thinking: "let me think",
			thinkingSignature: "SIG",
			text: "Hello there!",
			usage: { input: 1000, output: 200, cacheRead: 50, cacheWrite: 10 },
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
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "let me think", thinkingSignature: "SIG" },
			{ type: "text", text: "Hello there!" },
		]);
		expect(message.stopReason).toBe("stop");
		// As pi-ai records it: the raw stop_reason, the 1 h cache-write share (0 here), no responseModel when the
		// server answered with the model asked for.
		expect(message.rawStopReason).toBe("end_turn");
		expect(message.responseModel).toBeUndefined();
		expect(message.usage.cacheWrite1h).toBe(0);
		expect(message.usage).toMatchObject({ input: 1000, output: 200, cacheRead: 50, cacheWrite: 10, totalTokens: 1260 });
		expect(message.usage.cost.total).toBeCloseTo((1000 * 3 + 200 * 15 + 50 * 0.3 + 10 * 3.75) / 1e6, 10);
		const req = server.requests.at(-1)!;
		expect(req.path).toBe("/v1/messages");
		expect(req.headers["x-api-key"]).toBe("sk-test");
		expect(req.headers["anthropic-version"]).toBe("2023-06-01");
		expect(req.body.stream).toBe(true);
		expect(req.body.system[0]).toEqual({ type: "text", text: "be brief", cache_control: { type: "ephemeral" } });
		expect(req.body.tools[0].name).toBe("read");
		expect(req.body.messages).toEqual([
			{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] },
		]);
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
				{ id: "toolu_1", name: "read", arguments: { path: "a.txt" } },
				{ id: "toolu_2", name: "read", arguments: { path: "b/c.txt", offset: 10 } },
			],
			chunkSize: 4,
		});
		const s = stream(model, ctx(), { apiKey: "k" });
		const events = await collect(s);
		const message = await s.result();
		expect(message.stopReason).toBe("toolUse");
		expect(message.rawStopReason).toBe("tool_use");
		expect(message.content.filter((b) => b.type === "toolCall")).toEqual([
			{ type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a.txt" } },
			{ type: "toolCall", id: "toolu_2", name: "read", arguments: { path: "b/c.txt", offset: 10 } },
		]);
		const partials = events.filter((e) => e.type === "toolcall_delta");
		expect(partials.length).toBeGreaterThan(3);
		expect(events.filter((e) => e.type === "toolcall_end")).toHaveLength(2);
	});

	test("history with tool results, images and redacted thinking is sent in Anthropic's shape", async () => {
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
				{
					role: "assistant",
					content: [
						{ type: "thinking", thinking: "", thinkingSignature: "ENC", redacted: true },
						{ type: "toolCall", id: "call|1", name: "read", arguments: { path: "x" } },
					],
					api: "anthropic-messages",
					provider: "anthropic",
					model: "m",
					usage: {
						input: 0,
						output: 0,
						cacheRead: 0,
						cacheWrite: 0,
						totalTokens: 0,
						cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
					},
					stopReason: "toolUse",
					timestamp: 2,
				},
				{
					role: "toolResult",
					toolCallId: "call|1",
					toolName: "read",
					content: [{ type: "text", text: "file body" }],
					isError: false,
					timestamp: 3,
				},
			],
		};
		await complete(model, context, { apiKey: "k", cacheRetention: "none" });
		const body = server.requests.at(-1)!.body;
		expect(body.messages).toEqual([
			{
				role: "user",
				content: [
					{ type: "text", text: "look" },
					{ type: "image", source: { type: "base64", media_type: "image/png", data: RED_PIXEL_PNG } },
				],
			},
			{
				role: "assistant",
				// Another model's redacted thinking cannot be replayed (as pi-ai: dropped); its call id is made safe.
				content: [{ type: "tool_use", id: "call_1", name: "read", input: { path: "x" } }],
			},
			{
				role: "user",
				// Text-only results are one string; is_error is always there (as pi-ai sends them).
				content: [{ type: "tool_result", tool_use_id: "call_1", content: "file body", is_error: false }],
			},
		]);
	});

	test("redacted thinking in a reply is kept with its data, and goes back to the same model", async () => {
		server.push({ kind: "reply", redactedThinking: "SECRET", text: "done" }, { kind: "reply", text: "ok" });
		const message = await complete(model, ctx(), { apiKey: "k" });
		expect(message.content[0]).toEqual({ type: "thinking", thinking: "", thinkingSignature: "SECRET", redacted: true });
		const context = ctx();
		context.messages.push(message, { role: "user", content: "again", timestamp: 9 });
		await complete(model, context, { apiKey: "k" });
		const sent = server.requests.at(-1)!.body.messages.find((m: { role: string }) => m.role === "assistant");
		expect(sent.content[0]).toEqual({ type: "redacted_thinking", data: "SECRET" });
	});

	test("streamSimple maps the reasoning level to a thinking budget", async () => {
		server.push({ kind: "reply", text: "x" });
		await streamSimple({ ...model, maxTokens: 64000 }, ctx(), { apiKey: "k", reasoning: "high" }).result();
		const body = server.requests.at(-1)!.body;
		expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 16384, display: "summarized" });
		expect(body.max_tokens).toBeGreaterThan(16384);
	});

	test("streamSimple without a level turns thinking off; adaptive models get an effort", async () => {
		server.push({ kind: "reply", text: "x" }, { kind: "reply", text: "y" });
		await streamSimple(model, ctx(), { apiKey: "k" }).result();
		expect(server.requests.at(-1)!.body.thinking).toEqual({ type: "disabled" });
		const adaptive = { ...model, compat: { forceAdaptiveThinking: true } };
		await streamSimple(adaptive, ctx(), { apiKey: "k", reasoning: "minimal" }).result();
		const body = server.requests.at(-1)!.body;
		expect(body.thinking).toEqual({ type: "adaptive", display: "summarized" });
		expect(body.output_config).toEqual({ effort: "low" });
	});

	test("a subscription (OAuth) token: Claude Code identity, its tool names, and the names mapped back", async () => {
		server.push({ kind: "reply", text: "", toolCalls: [{ id: "toolu_1", name: "Read", arguments: { path: "a" } }] });
		const message = await complete(model, ctx(), { apiKey: "sk-ant-oat01-token" });
		const request = server.requests.at(-1)!;
		expect(request.headers.authorization).toBe("Bearer sk-ant-oat01-token");
		expect(request.headers["x-api-key"]).toBeUndefined();
		expect(request.headers["anthropic-beta"]).toStartWith("claude-code-20250219,oauth-2025-04-20");
		expect(request.headers["x-app"]).toBe("cli");
		expect(request.body.system).toEqual([
			{
				type: "text",
				text: "You are Claude Code, Anthropic's official CLI for Claude.",
				cache_control: { type: "ephemeral" },
			},
			{ type: "text", text: "be brief", cache_control: { type: "ephemeral" } },
		]);
		expect(request.body.tools.map((t: { name: string }) => t.name)).toEqual(["Read"]);
		expect(message.content.find((b) => b.type === "toolCall")).toMatchObject({ name: "read" });
	});

	test("an anthropic-beta header on the request replaces the beta list", async () => {
		server.push({ kind: "reply", text: "x" });
		await complete(model, ctx(), { apiKey: "k", headers: { "anthropic-beta": "a-1, b-2,a-1" } });
		expect(server.requests.at(-1)!.headers["anthropic-beta"]).toBe("a-1,b-2");
	});

	test("PI_CACHE_RETENTION=long asks for the one-hour cache when no retention is given (as pi-ai)", async () => {
		server.push({ kind: "reply", text: "x" });
		await complete(model, ctx(), { apiKey: "k", env: { PI_CACHE_RETENTION: "long" } });
		const body = server.requests.at(-1)!.body;
		expect(body.system[0].cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
		expect(body.tools.at(-1).cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
	});

	test("cache_control on the last tool and the last user block; image-only results get a text first", async () => {
		server.push({ kind: "reply", text: "x" });
		await complete(
			model,
			{
				...ctx(),
				messages: [
					{ role: "user", content: "look", timestamp: 1 },
					{
						role: "assistant",
						content: [{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "p.png" } }],
						api: "anthropic-messages",
						provider: model.provider,
						model: model.id,
						usage: {
							input: 0,
							output: 0,
							cacheRead: 0,
							cacheWrite: 0,
							totalTokens: 0,
							cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
						},
						stopReason: "toolUse",
						timestamp: 2,
					},
					{
						role: "toolResult",
						toolCallId: "call_1",
						toolName: "read",
						content: [{ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }],
						isError: false,
						timestamp: 3,
					},
				],
			},
			{ apiKey: "k" },
		);
		const body = server.requests.at(-1)!.body;
		expect(body.tools.at(-1).cache_control).toEqual({ type: "ephemeral" });
		expect(body.messages.at(-1).content).toEqual([
			{
				type: "tool_result",
				tool_use_id: "call_1",
				content: [
					{ type: "text", text: "(see attached image)" },
					{ type: "image", source: { type: "base64", media_type: "image/png", data: RED_PIXEL_PNG } },
				],
				is_error: false,
				cache_control: { type: "ephemeral" },
			},
		]);
	});

	test.each([
		[400, "messages: bad request", false],
		[401, "invalid x-api-key", false],
		[429, "rate limited", true],
		[500, "internal", true],
		[529, "Overloaded", true],
	])("HTTP %i becomes an error message naming provider and status", async (status, message, retryable) => {
		server.push({ kind: "http-error", status, message, headers: status === 429 ? { "retry-after": "7" } : {} });
		const result = await complete(model, ctx(), { apiKey: "k" });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toStartWith(`Anthropic API error ${status}: ${message}`);
		expect(classifyError(result).retryable).toBe(retryable);
		if (status === 429) expect(classifyError(result).retryAfterMs).toBe(7000);
	});

	test("a context overflow error is recognised", async () => {
		server.push({ kind: "http-error", status: 400, message: "prompt is too long: 210000 tokens > 200000 maximum" });
		const result = await complete(model, ctx(), { apiKey: "k" });
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
		expect(result.errorMessage).toMatch(/^Anthropic stream ended before the response was complete/);
		expect((result.content[0] as any).text.length).toBeGreaterThan(0);
	});

	testAbortMidStream(server, model);

	test("malformed SSE data and invalid tool JSON are errors, never tool runs", async () => {
		server.push({ kind: "raw", body: "event: message_start\ndata: {not json\n\n" });
		const bad = await complete(model, ctx(), { apiKey: "k" });
		expect(bad.stopReason).toBe("error");
		expect(bad.errorMessage).toContain("malformed");
		server.push({ kind: "reply", toolCalls: [{ id: "t1", name: "read", arguments: '{"path": "a' }] });
		const badTool = await complete(model, ctx(), { apiKey: "k" });
		// As in pi the reply stands; the call is marked so the agent refuses to run it and tells the model why.
		const unreadable = badTool.content.find((b) => b.type === "toolCall");
		expect(badTool.stopReason).toBe("toolUse");
		expect(unreadable && invalidToolArguments(unreadable)).toContain("the arguments were:");
	});

	test("a stream error event ends the message with that error", async () => {
		server.push({ kind: "reply", text: "some", streamError: "Overloaded" });
		const result = await complete(model, ctx(), { apiKey: "k" });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("Anthropic API error: Overloaded [overloaded_error]");
		expect(classifyError(result).retryable).toBe(true);
	});
});
