/**
 * Stream-parsing throughput: a 10 MB Anthropic SSE replay of text deltas, parsed
 * (1) by the SSE parser alone, fed in 16 KB chunks, and
 * (2) end to end through the anthropic-messages provider (fetch from a loopback server, SSE, JSON, events).
 * Reports events/s, MB/s and ms per 100 KB (target: < 1 ms per 100 KB). Median of N runs (default 10).
 * Usage: bun scripts/bench/sse.ts [runs]
 */
import { type Model, SseParser, stream } from "../../src/ai/index.ts";
import { median } from "./lib.ts";

const runs = Number(process.argv[2] ?? 10);
const TARGET_BYTES = 10 * 1024 * 1024;

function buildReplay(): { text: string; frames: number } {
	const parts: string[] = [];
	const frame = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
	parts.push(frame("message_start", { message: { id: "msg_bench", usage: { input_tokens: 10, output_tokens: 1 } } }));
	parts.push(frame("content_block_start", { index: 0, content_block: { type: "text", text: "" } }));
	let size = parts.join("").length;
	let frames = 2;
	let n = 0;
	while (size < TARGET_BYTES) {
		const f = frame("content_block_delta", {
			index: 0,
			delta: { type: "text_delta", text: `token ${n++} of a long answer ` },
		});
		parts.push(f);
		size += f.length;
		frames++;
	}
	parts.push(frame("content_block_stop", { index: 0 }));
	parts.push(frame("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: n } }));
	parts.push(frame("message_stop", {}));
	return { text: parts.join(""), frames: frames + 3 };
}

const { text, frames } = buildReplay();
const bytes = new TextEncoder().encode(text);
const mb = bytes.length / 1024 / 1024;
const per100KB = (ms: number) => (ms / bytes.length) * 100 * 1024;

// (1) parser alone
const parserTimes: number[] = [];
for (let r = 0; r < runs; r++) {
	const parser = new SseParser();
	const decoder = new TextDecoder();
	let count = 0;
	const started = performance.now();
	for (let i = 0; i < bytes.length; i += 16384) {
		count += parser.feed(decoder.decode(bytes.subarray(i, i + 16384), { stream: true })).length;
	}
	count += parser.flush().length;
	parserTimes.push(performance.now() - started);
	if (count !== frames) throw new Error(`parser produced ${count} events, expected ${frames}`);
}

// (2) end to end through the provider
const server = Bun.serve({
	hostname: "127.0.0.1",
	port: 0,
	fetch: () =>
		new Response(
			new ReadableStream({
				start(controller) {
					for (let i = 0; i < bytes.length; i += 16384) controller.enqueue(bytes.subarray(i, i + 16384));
					controller.close();
				},
			}),
			{ headers: { "content-type": "text/event-stream" } },
		),
});
const model: Model = {
	id: "bench",
	name: "bench",
	api: "anthropic-messages",
	provider: "anthropic",
	baseUrl: `http://127.0.0.1:${server.port}`,
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 200000,
	maxTokens: 8192,
};
const e2eTimes: number[] = [];
let events = 0;
for (let r = 0; r < runs; r++) {
	const started = performance.now();
	const s = stream(model, { messages: [{ role: "user", content: "go", timestamp: 0 }] }, { apiKey: "bench" });
	events = 0;
	for await (const _ of s) events++;
	const result = await s.result();
	e2eTimes.push(performance.now() - started);
	if (result.stopReason !== "stop") throw new Error(`provider run failed: ${result.errorMessage}`);
}
server.stop(true);

const p = median(parserTimes.sort((a, b) => a - b));
const e = median(e2eTimes.sort((a, b) => a - b));
console.log(`replay: ${mb.toFixed(1)} MB, ${frames} SSE events; median of ${runs} runs`);
console.log("| stage | median ms | events/s | MB/s | ms per 100 KB |");
console.log("|---|---:|---:|---:|---:|");
console.log(
	`| SSE parser | ${p.toFixed(1)} | ${Math.round(frames / (p / 1000)).toLocaleString("en")} | ${(mb / (p / 1000)).toFixed(0)} | ${per100KB(p).toFixed(3)} |`,
);
console.log(
	`| provider end to end (${events} agent events) | ${e.toFixed(1)} | ${Math.round(frames / (e / 1000)).toLocaleString("en")} | ${(mb / (e / 1000)).toFixed(0)} | ${per100KB(e).toFixed(3)} |`,
);
console.log(per100KB(e) < 1 ? "bench: target met (< 1 ms per 100 KB)" : "bench: target missed (< 1 ms per 100 KB)");
