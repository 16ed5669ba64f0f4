import { describe, expect, test } from "bun:test";
import { IdIndex } from "../../../src/session/id-index.ts";

describe("IdIndex", () => {
	test("agrees with a Map over 100k hex ids and a few others, through every growth", () => {
		const index = new IdIndex<number>();
		const reference = new Map<string, number>();
		const ids: string[] = [];
		for (let i = 0; i < 100_000; i++) ids.push(((i * 2654435761) >>> 0).toString(16).padStart(8, "0"));
		ids.push("not-hex!", "ABCDEF01", "abc", "0123456789");
		ids.forEach((id, i) => {
			expect(index.add(id, i)).toBe(i);
			reference.set(id, i);
		});
		expect(index.size).toBe(reference.size);
		for (const [id, value] of reference) expect(index.get(id)).toBe(value);
		expect(index.get("ffffffff")).toBeUndefined();
		expect(index.has("not-hex?")).toBe(false);
	});

	test("add keeps the first value of an id; set replaces it", () => {
		const index = new IdIndex<string>();
		expect(index.add("0000abcd", "first")).toBe("first");
		expect(index.add("0000abcd", "second")).toBe("first");
		index.set("0000abcd", "third");
		expect(index.get("0000abcd")).toBe("third");
		expect(index.add("x-1", "a")).toBe("a");
		expect(index.add("x-1", "b")).toBe("a");
		index.set("x-1", "c");
		expect(index.get("x-1")).toBe("c");
		expect(index.size).toBe(2);
	});
});
