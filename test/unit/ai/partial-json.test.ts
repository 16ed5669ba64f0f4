import { describe, expect, test } from "bun:test";
import { parseStreamingJson, parseToolArguments } from "../../../src/ai/index.ts";

describe("streaming JSON", () => {
	test("every prefix of a document parses to an object, and the whole to the real value", () => {
		const full = JSON.stringify({
			path: "src/a b.ts",
			edits: [{ oldText: 'say "hi"\n', newText: "x\\y" }],
			n: 12.5,
			ok: true,
			none: null,
		});
		for (let i = 0; i <= full.length; i++) {
			const value = parseStreamingJson(full.slice(0, i));
			expect(typeof value).toBe("object");
		}
		expect(parseStreamingJson(full)).toEqual(JSON.parse(full));
	});
	test("keeps completed fields and the open string so far", () => {
		expect(parseStreamingJson('{"path": "src/ma')).toEqual({ path: "src/ma" });
		expect(parseStreamingJson('{"a": 1, "b": [1, 2')).toEqual({ a: 1, b: [1, 2] });
		expect(parseStreamingJson('{"a": 1, "b')).toEqual({ a: 1 });
		expect(parseStreamingJson('{"a": tr')).toEqual({});
		expect(parseStreamingJson('{"s": "x\\')).toEqual({ s: "x" });
		expect(parseStreamingJson('{"s": "\\u00')).toEqual({ s: "" });
	});
	test("complete non-object JSON comes back as is (as pi-ai 0.87.1); empty text and garbage give {}", () => {
		expect(parseStreamingJson("")).toEqual({});
		expect(parseStreamingJson("[1,2]")).toEqual([1, 2]);
		expect(parseStreamingJson("nonsense")).toEqual({});
	});
	test("strict parse of complete arguments", () => {
		expect(parseToolArguments('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
		expect(parseToolArguments("")).toEqual({ ok: true, value: {} });
		expect(parseToolArguments("[1]")).toEqual({ ok: false, error: "arguments must be a JSON object" });
		expect(parseToolArguments('{"a":').ok).toBe(false);
	});
});
