import { afterAll, describe, expect, test } from "bun:test";
import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { forEachLine, parseJsonLine } from "../../../src/session/scan.ts";
import { cleanupTempDirs, tempDir } from "./helpers.ts";

afterAll(cleanupTempDirs);

/** parseJsonLine over `text` placed between other bytes, so the window matters. */
function parseWindow(text: string): unknown {
	const buf = Buffer.from(`{"x":0}\n${text}\n{"y":1}`);
	const start = 8;
	return parseJsonLine(buf, start, start + Buffer.byteLength(text));
}

describe("parseJsonLine", () => {
	test("one JSON value per window, as JSON.parse reads it (ASCII and UTF-8, surrounding spaces)", () => {
		expect(parseWindow('{"a":1}')).toEqual({ a: 1 });
		expect(parseWindow(' {"a":[1,2]} ')).toEqual({ a: [1, 2] });
		expect(parseWindow('{"t":"é — 😀"}')).toEqual({ t: "é — 😀" });
		expect(parseWindow('{"s":"\\ud800"}')).toEqual({ s: "\ud800" });
		expect(parseWindow("null")).toBeNull();
	});

	test("anything but exactly one value throws JSON.parse's own error", () => {
		for (const bad of ['{"a":1}garbage', '{"a":1} {"b":2}', "", "   ", '{"a":1', '{"a":"x\ty"}', "\ufeff{}"]) {
			let expected = "";
			try {
				JSON.parse(bad);
			} catch (error) {
				expected = (error as Error).message;
			}
			expect(() => parseWindow(bad)).toThrow(expected);
		}
	});
});

describe("forEachLine", () => {
	function walk(content: string) {
		const file = join(tempDir(), "s.jsonl");
		writeFileSync(file, content);
		const fd = openSync(file, "r");
		try {
			const lines: string[] = [];
			const result = forEachLine(fd, (buf, start, end) => lines.push(buf.toString("utf8", start, end)));
			return { lines, result };
		} finally {
			closeSync(fd);
		}
	}

	test("a small file read at once keeps its bytes up to the last newline", () => {
		const { lines, result } = walk('{"a":1}\n\n{"b":2}\r\n');
		expect(lines).toEqual(['{"a":1}', '{"b":2}']);
		expect(result.validEnd).toBe(result.size);
		expect(result.bytes?.toString()).toBe('{"a":1}\n\n{"b":2}\r\n');
	});

	test("no bytes are kept when the last line has no newline (the buffer was reused for it)", () => {
		const { lines, result } = walk('{"a":1}\n{"b":');
		expect(lines).toEqual(['{"a":1}', '{"b":']);
		expect(result.validEnd).toBe(8);
		expect(result.bytes).toBeUndefined();
	});
	test("lines longer than the walk buffer (several sizes, the last without a newline) come out whole", () => {
		const long = (n: number, c: string) => c.repeat(n);
		const parts = [long(10, "a"), long(300_000, "b"), long(5, "c"), long(1_100_000, "d"), long(256 * 1024, "e")];
		const text = `${parts.join("\n")}\n${long(700_000, "f")}`;
		const { lines, result } = walk(text);
		expect(lines.map((l) => l.length)).toEqual([10, 300_000, 5, 1_100_000, 256 * 1024, 700_000]);
		expect(lines.map((l) => l[0])).toEqual(["a", "b", "c", "d", "e", "f"]);
		expect(result.size).toBe(text.length);
		expect(result.validEnd).toBe(text.length - 700_000);
	});
});
