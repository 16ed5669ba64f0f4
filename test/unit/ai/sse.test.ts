import { describe, expect, test } from "bun:test";
import { readSse, SseParser } from "../../../src/ai/index.ts";

function bodyOf(...chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	return new ReadableStream({
		start(controller) {
			for (const c of chunks) controller.enqueue(typeof c === "string" ? encoder.encode(c) : c);
			controller.close();
		},
	});
}

async function all(body: ReadableStream<Uint8Array>) {
	const out = [];
	for await (const m of readSse(body)) out.push(m);
	return out;
}

describe("SSE parser", () => {
	test("events, data and ids; comments ignored", async () => {
		const messages = await all(bodyOf(": hello\n", "event: a\ndata: 1\nid: 7\n\n", "data: 2\n\n"));
		expect(messages).toEqual([
			{ event: "a", data: "1", id: "7" },
			{ event: "message", data: "2", id: "7" },
		]);
	});
	test("multi-line data joins with \\n; a space after the colon is optional", async () => {
		expect(await all(bodyOf("data:x\ndata: y\n\n"))).toEqual([{ event: "message", data: "x\ny" }]);
	});
	test("CRLF, CR and LF line endings, including CRLF split across chunks", async () => {
		const messages = await all(bodyOf("data: a\r", "\n\r", "\ndata: b\r\rdata: c\n\n"));
		expect(messages.map((m) => m.data)).toEqual(["a", "b", "c"]);
	});
	test("lines split across chunks, and a UTF-8 character split across chunks", async () => {
		const bytes = new TextEncoder().encode("data: héllo ✓\n\n");
		const messages = await all(bodyOf(bytes.slice(0, 9), bytes.slice(9, 15), bytes.slice(15)));
		expect(messages).toEqual([{ event: "message", data: "héllo ✓" }]);
	});
	test("a long line over many chunks, a CR ending a chunk, and data lines of every shape", async () => {
		const long = "x".repeat(100_000);
		const pieces = [
			`event: big\ndata: ${long}`.slice(0, 7),
			...`event: big\ndata: ${long}`.slice(7).match(/.{1,997}/gs)!,
		];
		const messages = await all(
			bodyOf(...pieces, "\r", "\ndata\ndata:\ndata: \ndat\n\r\n", "dat", "a:tail\r", "data:  two\n", "\n"),
		);
		expect(messages).toEqual([
			{ event: "big", data: `${long}\n\n\n` },
			{ event: "message", data: "tail\n two" },
		]);
		const parser = new SseParser();
		expect([...parser.feed("data: a\r"), ...parser.flush()]).toEqual([{ event: "message", data: "a" }]);
	});
	test("a last event without its blank line is still delivered", async () => {
		expect(await all(bodyOf("data: tail"))).toEqual([{ event: "message", data: "tail" }]);
	});
	test("an event type without data dispatches nothing", () => {
		const parser = new SseParser();
		expect(parser.feed("event: ping\n\n")).toEqual([]);
	});
});
