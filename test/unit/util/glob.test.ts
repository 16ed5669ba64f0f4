import { describe, expect, test } from "bun:test";
import { isGlob, matchGlob } from "../../../src/util/index.ts";

describe("matchGlob", () => {
	test("* stays inside one path segment", () => {
		expect(matchGlob("src/*.ts", "src/a.ts")).toBe(true);
		expect(matchGlob("src/*.ts", "src/deep/a.ts")).toBe(false);
	});
	test("** crosses segments, including none", () => {
		expect(matchGlob("src/**/*.ts", "src/a.ts")).toBe(true);
		expect(matchGlob("src/**/*.ts", "src/x/y/a.ts")).toBe(true);
		expect(matchGlob("src/**/*.ts", "lib/a.ts")).toBe(false);
	});
	test("? and {a,b}", () => {
		expect(matchGlob("a?.js", "ab.js")).toBe(true);
		expect(matchGlob("a?.js", "abc.js")).toBe(false);
		expect(matchGlob("*.{ts,js}", "x.js")).toBe(true);
		expect(matchGlob("*.{ts,js}", "x.md")).toBe(false);
	});
	test("regex characters are literal", () => {
		expect(matchGlob("a.b+c.ts", "a.b+c.ts")).toBe(true);
		expect(matchGlob("a.b+c.ts", "axb+c.ts")).toBe(false);
	});
	test("isGlob", () => {
		expect(isGlob("./index.ts")).toBe(false);
		expect(isGlob("src/*.ts")).toBe(true);
	});
});
