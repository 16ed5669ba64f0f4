/** `streamProxy` against a loopback proxy server, and the default stream function the loop falls back to. */
import { afterAll, describe, expect, test } from "bun:test";
import { type Model, streamSimple } from "../../../src/ai/index.ts";
import {
	type AgentEvent,
	runAgentLoopContinue,
	setDefaultStreamFn,
	streamProxy,
} from "../../../src/sdk/pi-agent-core.ts";

const model = { id: "m", name: "m", api: "openai-completions", provider: "p" } as unknown as Model;
const usage = {
	input: 1,
	output: 2,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 3,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
let lastBody: { options?: Record<string, unknown> } | undefined;
let lastAuth: string | null = null;

const server = Bun.serve({
	port: 0,
	hostname: "127.0.0.1",
	async fetch(request) {
		lastBody = (await request.json()) as typeof lastBody;
		lastAuth = request.headers.get("authorization");
		const path = new URL(request.url).pathname;
		if (path !== "/api/stream") return new Response("no", { status: 404 });
		if (lastBody?.options?.sessionId === "deny") return Response.json({ error: "denied" }, { status: 403 });
		const events = [
			{ type: "start" },
			{ type: "text_start", contentIndex: 0 },
			{ type: "text_delta", contentIndex: 0, delta: "Hel" },
			{ type: "text_delta", contentIndex: 0, delta: "lo" },
			{ type: "text_end", contentIndex: 0, contentSignature: "sig" },
			{ type: "toolcall_start", contentIndex: 1, id: "c1", toolName: "read" },
			{ type: "toolcall_delta", contentIndex: 1, delta: '{"path":"a' },
			{
				type: "toolcall_end",
				contentIndex: 1,
				toolCall: { type: "toolCall", id: "c1", name: "read", arguments: { path: "a.txt" } },
			},
		];
		if (lastBody?.options?.sessionId === "s2") events.splice(5, 3, { type: "done", reason: "stop", usage } as never);
		else if (lastBody?.options?.sessionId !== "cut") events.push({ type: "done", reason: "toolUse", usage } as never);
		return new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""));
	},
});
afterAll(() => {
	setDefaultStreamFn(streamSimple);
	server.stop(true);
});
const proxyUrl = `http://127.0.0.1:${server.port}`;

describe("streamProxy", () => {
	test("rebuilds the partial message from slim events and forwards only the serialisable options", async () => {
		const stream = streamProxy(model, { messages: [] }, {
			authToken: "tok",
			proxyUrl,
			sessionId: "s1",
			temperature: 0.5,
			apiKey: "secret",
		} as never);
		const types: string[] = [];
		for await (const event of stream) types.push(event.type);
		const message = await stream.result();
		expect(types).toEqual([
			"start",
			"text_start",
			"text_delta",
			"text_delta",
			"text_end",
			"toolcall_start",
			"toolcall_delta",
			"toolcall_end",
			"done",
		]);
		expect(message.content).toEqual([
			{ type: "text", text: "Hello", textSignature: "sig" } as never,
			{ type: "toolCall", id: "c1", name: "read", arguments: { path: "a.txt" } },
		]);
		expect(message.stopReason).toBe("toolUse");
		expect(message.usage).toEqual(usage);
		expect(lastAuth).toBe("Bearer tok");
		expect(lastBody?.options?.sessionId).toBe("s1");
		expect(lastBody?.options?.temperature).toBe(0.5);
		expect(lastBody?.options && "apiKey" in lastBody.options).toBe(false);
	});

	test("a refused request and a stream cut short end in one error event", async () => {
		const denied = await streamProxy(model, { messages: [] }, { authToken: "t", proxyUrl, sessionId: "deny" }).result();
		expect(denied.stopReason).toBe("error");
		expect(denied.errorMessage).toBe("Proxy error: denied");
		const cut = await streamProxy(model, { messages: [] }, { authToken: "t", proxyUrl, sessionId: "cut" }).result();
		expect(cut.errorMessage).toBe("Connection closed by proxy server before the response completed");
	});
});

describe("default stream function", () => {
	test("runAgentLoopContinue uses the installed default and refuses an assistant tail", async () => {
		setDefaultStreamFn((m) => streamProxy(m, { messages: [] }, { authToken: "t", proxyUrl, sessionId: "s2" }));
		const events: AgentEvent[] = [];
		const context = { systemPrompt: "", messages: [{ role: "user" as const, content: "hi", timestamp: 1 }], tools: [] };
		const config = { model, convertToLlm: (m: never[]) => m } as never;
		const produced = await runAgentLoopContinue(context, config, (e) => void events.push(e));
		expect(lastBody?.options?.sessionId).toBe("s2");
		expect(produced[0]).toMatchObject({ role: "assistant", stopReason: "stop" });
		expect(events[0]?.type).toBe("agent_start");
		expect(() => runAgentLoopContinue({ ...context, messages: [] }, config, () => {})).toThrow(
			"Cannot continue: no messages in context",
		);
	});
});
