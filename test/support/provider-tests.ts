/** What the provider integration tests share: the request context, event collection, and the cases every
 * provider must pass the same way (abort mid-stream). */
import { expect, test } from "bun:test";
import { type AssistantMessageEvent, type Context, type Model, stream } from "../../src/ai/index.ts";
import type { MockLlmServer } from "./mock-llm/index.ts";

/** One user message, a short system prompt and one tool. */
export function basicContext(text = "hi"): Context {
	return {
		systemPrompt: "be brief",
		messages: [{ role: "user", content: text, timestamp: 1 }],
		tools: [
			{
				name: "read",
				description: "read a file",
				parameters: { type: "object", properties: { path: { type: "string" } } } as never,
			},
		],
	};
}

export async function collect(s: AsyncIterable<AssistantMessageEvent>): Promise<AssistantMessageEvent[]> {
	const events: AssistantMessageEvent[] = [];
	for await (const e of s) events.push(e);
	return events;
}

/** Aborting after the first text delta ends the message as "aborted" with the text that arrived. */
export function testAbortMidStream(server: MockLlmServer, model: Model): void {
	test("abort mid-stream ends with aborted and the partial content", async () => {
		server.push({ kind: "reply", text: "a slow answer that will be interrupted", chunkSize: 3, frameDelayMs: 20 });
		const controller = new AbortController();
		const s = stream(model, basicContext(), { apiKey: "k", signal: controller.signal });
		for await (const e of s) if (e.type === "text_delta") controller.abort();
		const result = await s.result();
		expect(result.stopReason).toBe("aborted");
		expect((result.content[0] as { text: string }).text.length).toBeGreaterThan(0);
	});
}
