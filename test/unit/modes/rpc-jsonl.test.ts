import { describe, expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import {
	attachJsonlLineReader,
	JsonlLineSplitter,
	serializeJsonLine,
	webStreamLineInput,
} from "../../../src/modes/rpc/index.ts";

/** Feeds `chunks` to a fresh splitter, ends it, and returns the lines it delivered. */
function split(chunks: (string | Uint8Array)[], end = true): string[] {
	const lines: string[] = [];
	const splitter = new JsonlLineSplitter((line) => lines.push(line));
	for (const chunk of chunks) splitter.push(chunk);
	if (end) splitter.end();
	return lines;
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe("JsonlLineSplitter", () => {
	test("splits on LF only, several records per chunk", () => {
		expect(split(['{"a":1}\n{"b":2}\n{"c":3}\n'])).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
	});

	test("strips one CR before LF (CRLF input), keeps other CRs", () => {
		expect(split(["one\r\ntwo\r\n"])).toEqual(["one", "two"]);
		expect(split(["a\rb\n"])).toEqual(["a\rb"]);
		expect(split(["x\r\r\n"])).toEqual(["x\r"]);
	});

	test("CRLF split across chunks", () => {
		expect(split(["one\r", "\ntwo\n"])).toEqual(["one", "two"]);
	});

	test("U+2028 / U+2029 are not separators (inside strings or raw)", () => {
		const record = JSON.stringify({ text: "a\u2028b\u2029c" });
		expect(record).toContain("\u2028");
		expect(split([`${record}\n`, "x\u2028y\n"])).toEqual([record, "x\u2028y"]);
		expect(JSON.parse(split([bytes(`${record}\n`)])[0] as string)).toEqual({ text: "a\u2028b\u2029c" });
	});

	test("multi-byte UTF-8 split across chunks at every byte boundary", () => {
		const text = '{"t":"é€😀\u2028"}\n';
		const encoded = bytes(text);
		for (let cut = 1; cut < encoded.length; cut++) {
			expect(split([encoded.subarray(0, cut), encoded.subarray(cut)])).toEqual([text.slice(0, -1)]);
		}
		// One byte at a time.
		expect(split(Array.from(encoded, (b) => Uint8Array.of(b)))).toEqual([text.slice(0, -1)]);
	});

	test("a record spread over many chunks, and chunk boundaries right at LF", () => {
		expect(split(['{"a"', ":", "1}", "\n", '{"b":2}', "\n"])).toEqual(['{"a":1}', '{"b":2}']);
		expect(split(["a\n", "\nb\n"])).toEqual(["a", "", "b"]);
	});

	test("final line without LF is delivered at end, not before", () => {
		const lines: string[] = [];
		const splitter = new JsonlLineSplitter((line) => lines.push(line));
		splitter.push('{"a":1}\n{"b":');
		splitter.push("2}");
		expect(lines).toEqual(['{"a":1}']);
		splitter.end();
		expect(lines).toEqual(['{"a":1}', '{"b":2}']);
	});

	test("final line keeps its CR stripped; an incomplete UTF-8 tail becomes U+FFFD at end", () => {
		expect(split(["last\r"])).toEqual(["last"]);
		expect(split([Uint8Array.of(0x61, 0xe2, 0x82)])).toEqual(["a\ufffd"]);
	});

	test("empty lines are delivered (the server answers them), trailing LF adds no extra line", () => {
		expect(split(["\n\r\n\n"])).toEqual(["", "", ""]);
		expect(split(["a\n"])).toEqual(["a"]);
		expect(split([""])).toEqual([]);
		expect(split([])).toEqual([]);
	});

	test("Buffer chunks (node streams) decode like Uint8Array", () => {
		expect(split([Buffer.from("h\u00e9llo\nw"), Buffer.from("orld\n")])).toEqual(["h\u00e9llo", "world"]);
	});

	test("a leading BOM is kept (as pi's decoder keeps it)", () => {
		expect(split([Uint8Array.of(0xef, 0xbb, 0xbf, 0x61, 0x0a)])).toEqual(["\ufeffa"]);
	});

	test("many lines in one chunk stay linear", () => {
		const count = 100_000;
		const chunk = '{"type":"get_state"}\n'.repeat(count);
		const started = performance.now();
		let seen = 0;
		const splitter = new JsonlLineSplitter(() => seen++);
		splitter.push(chunk);
		expect(seen).toBe(count);
		expect(performance.now() - started).toBeLessThan(500);
	});
});

describe("attachJsonlLineReader", () => {
	test("reads a stream, delivers the final line at end, and detaches", async () => {
		const stream = new PassThrough();
		const lines: string[] = [];
		const detach = attachJsonlLineReader(stream, (line) => lines.push(line));
		stream.write(Buffer.from('{"a":1}\r\n{"b"'));
		stream.write(Buffer.from(":2}"));
		stream.end();
		await new Promise((resolve) => stream.on("end", resolve));
		expect(lines).toEqual(['{"a":1}', '{"b":2}']);
		detach();
		expect(stream.listenerCount("data")).toBe(0);
	});
});

describe("webStreamLineInput", () => {
	test("lines of a byte stream split anywhere, the final line without LF, then end once", async () => {
		const text = '{"a":1}\r\n{"b":"é"}\n{"c":3}';
		const all = bytes(text);
		const stream = new ReadableStream<Uint8Array>({
			start(controller) {
				// One byte per chunk: every boundary, the middle of "é" included.
				for (const byte of all) controller.enqueue(new Uint8Array([byte]));
				controller.close();
			},
		});
		const lines: string[] = [];
		let ends = 0;
		await new Promise<void>((resolve) => {
			webStreamLineInput(stream).listen(
				(line) => lines.push(line),
				() => {
					ends++;
					resolve();
				},
			);
		});
		expect(lines).toEqual(['{"a":1}', '{"b":"é"}', '{"c":3}']);
		expect(ends).toBe(1);
	});

	test("stopping delivers nothing more and cancels the stream", async () => {
		let cancelled = false;
		let push: ((text: string) => void) | undefined;
		const stream = new ReadableStream<Uint8Array>({
			start(controller) {
				push = (text) => controller.enqueue(bytes(text));
			},
			cancel() {
				cancelled = true;
			},
		});
		const lines: string[] = [];
		let ended = false;
		const stop = webStreamLineInput(stream).listen(
			(line) => lines.push(line),
			() => {
				ended = true;
			},
		);
		push?.("one\n");
		await Bun.sleep(5);
		stop();
		await Bun.sleep(5);
		expect(lines).toEqual(["one"]);
		expect(ended).toBe(false);
		expect(cancelled).toBe(true);
	});
});

describe("serializeJsonLine", () => {
	test("one JSON text plus LF; LF inside strings is escaped, U+2028 is not a problem", () => {
		const line = serializeJsonLine({ text: "a\nb\u2028c" });
		expect(line.endsWith("\n")).toBe(true);
		expect(line.indexOf("\n")).toBe(line.length - 1);
		expect(split([line])).toEqual([line.slice(0, -1)]);
		expect(JSON.parse(line)).toEqual({ text: "a\nb\u2028c" });
	});
});
