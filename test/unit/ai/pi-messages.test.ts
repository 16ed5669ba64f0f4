/** `pi-messages` beyond what the side-by-side test covers: the context shape sent, malformed streams, aborts. */
import { afterAll, describe, expect, test } from "bun:test";
import { type Model, streamSimple } from "../../../src/ai/index.ts";
import { startMockLlm } from "../../support/mock-llm/index.ts";
import { sseFrame } from "../../support/mock-llm/types.ts";

const server = startMockLlm();
afterAll(() => server.stop());

const model: Model = {
	id: "gateway-model",
	name: "Gateway Model",
	api: "pi-messages",
	provider: "radius",
	baseUrl: `${server.url}/pi`,
	reasoning: true,
	input: ["text", "image"],
	cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 100_000,
	maxTokens: 8000,
};
const tool = { name: "read", description: "read", parameters: { type: "object", properties: {} } } as any;

describe("pi-messages", () => {
	test("a legacy context goes as pi's transcript: prompt and tools as the leading system message", async () => {
		server.push({ kind: "reply", text: "ok", usage: { input: 10, output: 2 } });
		const result = await streamSimple(
			model,
			{ systemPrompt: "be brief", tools: [tool], messages: [{ role: "user", content: "hi", timestamp: 5 }] },
			{ apiKey: "k" },
		).result();
		expect(result.stopReason).toBe("stop");
		expect(result.content).toEqual([{ type: "text", text: "ok" }]);
		// The backend's price is taken as sent (the mock's: $1 / $2 per million).
		expect(result.usage.cost.total).toBeCloseTo(14 / 1e6, 12);
		const body = server.requests.at(-1)?.body;
		expect(body.context).toEqual({
			messages: [
				{ role: "system", content: "be brief", toolsAdded: [tool], timestamp: 0 },
				{ role: "user", content: "hi", timestamp: 5 },
			],
		});
		expect(body.options).toEqual({});
	});

	test("malformed event data and a delta for a block never opened end the message with a clear error", async () => {
		server.push({ kind: "raw", body: `${sseFrame({ type: "start" })}data: {not json\n\n` });
		server.push({ kind: "raw", body: sseFrame({ type: "text_delta", contentIndex: 2, delta: "x" }) });
		const first = await streamSimple(model, { messages: [] }, { apiKey: "k" }).result();
		expect(first.stopReason).toBe("error");
		expect(first.errorMessage).toBe("pi-messages sent malformed event data: {not json");
		const second = await streamSimple(model, { messages: [] }, { apiKey: "k" }).result();
		expect(second.errorMessage).toBe(
			'pi-messages event "text_delta" refers to content 2, which is not an open text block',
		);
	});

	test("an abort while the backend is silent ends the message as aborted", async () => {
		server.push({ kind: "hang" });
		const controller = new AbortController();
		const stream = streamSimple(model, { messages: [] }, { apiKey: "k", signal: controller.signal });
		setTimeout(() => controller.abort(), 50);
		const result = await stream.result();
		expect(result.stopReason).toBe("aborted");
		expect(result.content).toEqual([]);
	});
});
