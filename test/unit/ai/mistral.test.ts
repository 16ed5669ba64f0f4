/**
 * The `mistral-conversations` API against the mock LLM (text, thinking, tool calls, usage/cost, errors, abort) and
 * side by side with pi-ai 0.87.1: the same response bytes replayed through pi-ai's Mistral stream (under Node 22 from
 * the conformance cache, its `fetch` option answering with the bytes) and through ours (the mock serving them raw)
 * must give the same events and final message; the same context must give the same request body. Without the cache
 * the side-by-side tests skip, saying why.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ensureRunnablePi } from "../../../scripts/conformance-cache.ts";
import {
	getModel,
	isContextOverflow,
	isRetryableAssistantError,
	normalizeContext,
	streamMistral,
	streamSimpleMistral,
} from "../../../src/ai/index.ts";
import type { AssistantMessageEvent, Context, Model } from "../../../src/ai/types.ts";
import { startMockLlm } from "../../support/mock-llm/index.ts";

const mock = startMockLlm();
afterAll(() => mock.stop());

const MODEL: Model = {
	id: "mistral-medium-latest",
	name: "Mistral Medium",
	api: "mistral-conversations",
	provider: "mistral",
	baseUrl: `${mock.url}/mistral`,
	reasoning: true,
	input: ["text", "image"],
	cost: { input: 0.4, output: 2, cacheRead: 0.04, cacheWrite: 0 },
	contextWindow: 128000,
	maxTokens: 16000,
};
const HELLO: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };

/** Events without the live partial (the final message is compared on its own). */
function summarise(events: AssistantMessageEvent[]): unknown[] {
	return events.map((event) => {
		const { partial: _p, ...rest } = event as any;
		if (rest.type === "done") return { type: "done", reason: rest.reason };
		if (rest.type === "error") return { type: "error", reason: rest.reason };
		return JSON.parse(JSON.stringify(rest));
	});
}

async function runOurs(model: Model, context: Context, options: Record<string, unknown> = {}) {
	const events: AssistantMessageEvent[] = [];
	const stream = streamMistral(model, context, { apiKey: "k", ...options });
	for await (const event of stream) events.push(event);
	const { timestamp: _t, ...message } = await stream.result();
	return { events: summarise(events), message: JSON.parse(JSON.stringify(message)) };
}

const sse = (...chunks: unknown[]) =>
	chunks.map((c) => `data: ${typeof c === "string" ? c : JSON.stringify(c)}\n\n`).join("");
const chunk = (delta: unknown, finish: string | null = null, extra = {}) => ({
	id: "cmpl1",
	object: "chat.completion.chunk",
	model: "mistral-medium-latest",
	choices: [{ index: 0, delta, finish_reason: finish }],
	...extra,
});
const usage = {
	usage: {
		prompt_tokens: 120,
		completion_tokens: 30,
		total_tokens: 150,
		prompt_tokens_details: { cached_tokens: 100 },
	},
};

const BODIES: Record<string, string> = {
	thinkingText: sse(
		chunk({ role: "assistant", content: "" }),
		chunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: "Let me " }] }] }),
		chunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: "think." }] }] }),
		chunk({ content: "Hello" }),
		chunk({ content: [{ type: "text", text: " there" }] }),
		chunk({ content: "" }, "stop", usage),
		"[DONE]",
	),
	toolCalls: sse(
		chunk({ role: "assistant", content: "Reading." }),
		chunk({ tool_calls: [{ id: "abcDEF123", function: { name: "read", arguments: '{"path":' }, index: 0 }] }),
		chunk({ tool_calls: [{ id: "abcDEF123", function: { name: "read", arguments: '"a.txt"}' }, index: 0 }] }),
		chunk({ tool_calls: [{ id: "xyz987QWE", function: { name: "ls", arguments: { dir: "src" } }, index: 1 }] }),
		chunk({ content: "" }, "tool_calls", usage),
		"[DONE]",
	),
	length: sse(chunk({ content: "cut" }), chunk({ content: "" }, "model_length", usage), "[DONE]"),
	noFinish: sse(chunk({ content: "partial" }), "[DONE]"),
	nullIds: sse(
		chunk({ tool_calls: [{ id: "null", function: { name: "a", arguments: "{}" }, index: 0 }] }),
		chunk({ tool_calls: [{ id: "null", function: { name: "b", arguments: '{"x":1}' }, index: 1 }] }),
		chunk({}, "tool_calls"),
		"[DONE]",
	),
	finishError: sse(chunk({ content: "x" }), chunk({ content: "" }, "error"), "[DONE]"),
	noDone: sse(chunk({ content: "ok" }), chunk({ content: "" }, "stop")),
};

describe("mistral-conversations against the mock", () => {
	test("text, thinking and usage with cache reads and cost", async () => {
		mock.push({
			kind: "reply",
			thinking: "Thinking hard.",
			text: "Hello world",
			usage: { input: 10, output: 5, cacheRead: 90 },
		});
		const { events, message } = await runOurs(MODEL, HELLO);
		expect(events.map((e: any) => e.type)).toEqual([
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
			{ type: "thinking", thinking: "Thinking hard." },
			{ type: "text", text: "Hello world" },
		]);
		expect(message.usage).toMatchObject({ input: 10, output: 5, cacheRead: 90, cacheWrite: 0, totalTokens: 105 });
		expect(message.usage.cost.total).toBeCloseTo((10 * 0.4 + 5 * 2 + 90 * 0.04) / 1e6, 12);
		const request = mock.requests.at(-1);
		expect(request?.vendor).toBe("mistral");
		expect(request?.headers.authorization).toBe("Bearer k");
		expect(request?.body).toMatchObject({ model: "mistral-medium-latest", stream: true });
	});

	test("tool calls end together after the stream, stop reason toolUse", async () => {
		mock.push({ kind: "reply", text: "ok", toolCalls: [{ id: "call00001", name: "read", arguments: { path: "a" } }] });
		const { message } = await runOurs(MODEL, HELLO);
		expect(message.stopReason).toBe("toolUse");
		expect(message.content[1]).toEqual({ type: "toolCall", id: "call00001", name: "read", arguments: { path: "a" } });
	});

	test("an HTTP 429 is a retryable error naming Mistral; an overflow is recognised", async () => {
		mock.push({ kind: "http-error", status: 429, message: "Requests rate limit exceeded" });
		const { message } = await runOurs(MODEL, HELLO);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toStartWith("Mistral API error (429): ");
		expect(isRetryableAssistantError(message)).toBe(true);
		mock.push({
			kind: "http-error",
			status: 400,
			message: "Prompt contains 300000 tokens, too large for model with 128000 maximum context length",
		});
		const overflow = await runOurs(MODEL, HELLO);
		expect(isContextOverflow(overflow.message)).toBe(true);
	});

	test("an abort mid-stream ends with stopReason aborted", async () => {
		mock.push({ kind: "hang" });
		const controller = new AbortController();
		const stream = streamMistral(MODEL, HELLO, { apiKey: "k", signal: controller.signal });
		setTimeout(() => controller.abort(), 50);
		const result = await stream.result();
		expect(result.stopReason).toBe("aborted");
	});

	test("no API key fails with pi's message", async () => {
		const { message } = await runOurs(MODEL, HELLO, { apiKey: undefined });
		expect(message.errorMessage).toBe("No API key for provider: mistral");
	});

	test("the simple options pick prompt_mode or reasoning_effort by model", async () => {
		mock.push({ kind: "reply", text: "a" }, { kind: "reply", text: "b" });
		await streamSimpleMistral(MODEL, HELLO, { apiKey: "k", reasoning: "high" }).result();
		expect(mock.requests.at(-1)?.body.reasoning_effort).toBe("high");
		await streamSimpleMistral({ ...MODEL, id: "magistral-medium-latest" }, HELLO, {
			apiKey: "k",
			reasoning: "low",
		}).result();
		expect(mock.requests.at(-1)?.body.prompt_mode).toBe("reasoning");
	});

	test("the catalogue's Mistral models use this API", () => {
		expect(getModel("mistral", "devstral-latest")?.api).toBe("mistral-conversations");
	});
});

const pi = ensureRunnablePi();
const skip = "error" in pi;
if (skip) console.warn(`mistral vs pi-ai: skipped, pi 0.87.1 unavailable: ${pi.error}`);

/** Replays each body (or HTTP error) through pi-ai's Mistral stream under Node; returns its summaries. */
function runPi(cases: unknown, context: unknown): any {
	if ("error" in pi) throw new Error(pi.error);
	const url = pathToFileURL(join(pi.modules, "@earendil-works/pi-ai/dist/api/mistral-conversations.js")).href;
	const script = `const { stream } = await import(${JSON.stringify(url)});
const { cases, model, context } = JSON.parse(process.env.CASES);
const out = {};
for (const [name, c] of Object.entries(cases)) {
	let sent;
	const fetch = async (u, init) => { sent = JSON.parse(init.body); return new Response(c.body, { status: c.status ?? 200, headers: { "content-type": "text/event-stream" } }); };
	const s = stream(model, context, { apiKey: "k", fetch });
	const events = [];
	for await (const e of s) { const { partial, ...rest } = e; events.push(rest.type === "done" || rest.type === "error" ? { type: rest.type, reason: rest.reason } : JSON.parse(JSON.stringify(rest))); }
	const { timestamp, ...message } = await s.result();
	out[name] = { events, message: JSON.parse(JSON.stringify(message)), sent };
}
process.stdout.write(JSON.stringify(out));`;
	const run = Bun.spawnSync([pi.node, "--input-type=module", "-e", script], {
		env: { ...process.env, CASES: JSON.stringify({ cases, model: MODEL, context }) },
		stdout: "pipe",
		stderr: "pipe",
	});
	if (run.exitCode !== 0) throw new Error(run.stderr.toString());
	return JSON.parse(run.stdout.toString());
}

describe.skipIf(skip)("mistral-conversations vs pi-ai 0.87.1", () => {
	test("the same bytes give the same events and final message", async () => {
		const cases = {
			...Object.fromEntries(Object.entries(BODIES).map(([name, body]) => [name, { body }])),
			http429: { status: 429, body: '{"object":"error","message":"Requests rate limit exceeded","code":"1300"}' },
		};
		const theirs = runPi(cases, HELLO);
		for (const [name, c] of Object.entries(cases) as [string, { body: string; status?: number }][]) {
			mock.push(c.status ? { kind: "http-error", status: c.status, body: c.body } : { kind: "raw", body: c.body });
			const ours = await runOurs(MODEL, HELLO);
			expect({ name, ...ours }).toEqual({ name, events: theirs[name].events, message: theirs[name].message });
		}
	});

	test("the same context gives the same request body", async () => {
		const context: Context = {
			systemPrompt: "Be brief.",
			tools: [
				{
					name: "read",
					description: "Read a file",
					parameters: { type: "object", properties: { path: { type: "string" } } } as any,
				},
			],
			messages: [
				{
					role: "user",
					content: [
						{ type: "text", text: "look" },
						{ type: "image", mimeType: "image/png", data: "AAAA" },
					],
					timestamp: 1,
				},
				{
					role: "assistant",
					content: [
						{ type: "thinking", thinking: "hmm" },
						{ type: "text", text: "Reading." },
						{ type: "toolCall", id: "abcDEF123", name: "read", arguments: { path: "a" } },
						{ type: "toolCall", id: "call_abc|fc_0123456789abcdef", name: "read", arguments: { path: "b" } },
					],
					api: "mistral-conversations",
					provider: "mistral",
					model: MODEL.id,
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
					toolCallId: "abcDEF123",
					toolName: "read",
					content: [{ type: "text", text: "data" }],
					isError: false,
					timestamp: 3,
				},
				{
					role: "toolResult",
					toolCallId: "call_abc|fc_0123456789abcdef",
					toolName: "read",
					content: [{ type: "image", mimeType: "image/png", data: "BBBB" }],
					isError: true,
					timestamp: 3,
				},
				{ role: "user", content: "thanks", timestamp: 4 },
			],
		};
		// pi-ai's API streams get the transcript form (a system message first), as a model collection hands them.
		const transcript = normalizeContext(context) as unknown as Context;
		const theirs = runPi({ body: { body: BODIES.noDone } }, transcript);
		mock.push({ kind: "raw", body: BODIES.noDone as string }, { kind: "raw", body: BODIES.noDone as string });
		await runOurs(MODEL, transcript);
		expect(mock.requests.at(-1)?.body).toEqual(theirs.body.sent);
		await runOurs(MODEL, context);
		expect(mock.requests.at(-1)?.body).toEqual(theirs.body.sent);
	});
});
