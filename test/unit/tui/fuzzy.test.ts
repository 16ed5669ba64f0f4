import { describe, expect, test } from "bun:test";
import { fuzzyFilter, fuzzyMatch } from "../../../src/tui/index.ts";

describe("fuzzyMatch", () => {
	test("characters must appear in order, case-insensitively", () => {
		expect(fuzzyMatch("abc", "a-b-c").matches).toBe(true);
		expect(fuzzyMatch("ABC", "xaxbxc").matches).toBe(true);
		expect(fuzzyMatch("acb", "abc").matches).toBe(false);
		expect(fuzzyMatch("", "anything").matches).toBe(true);
	});
	test("contiguous and early matches score better (lower)", () => {
		expect(fuzzyMatch("read", "read").score).toBeLessThan(fuzzyMatch("read", "readme").score);
		expect(fuzzyMatch("read", "readme").score).toBeLessThan(fuzzyMatch("read", "r-e-a-d").score);
		expect(fuzzyMatch("fix", "fix bug").score).toBeLessThan(fuzzyMatch("fix", "prefix").score);
	});
});

describe("fuzzyFilter", () => {
	const issues = [
		{ n: 1, title: "Crash on startup" },
		{ n: 2, title: "Add dark theme" },
		{ n: 3, title: "Theme colours wrong in dark mode" },
	];
	test("keeps matching items, best first", () => {
		const out = fuzzyFilter(issues, "dark theme", (i) => i.title);
		expect(out.map((i) => i.n)).toEqual([2, 3]);
	});
	test("every whitespace- or slash-separated token must match", () => {
		expect(fuzzyFilter(issues, "crash zzz", (i) => i.title)).toEqual([]);
		expect(fuzzyFilter(["src/tui/keys.ts", "src/ai/index.ts"], "tui/keys", (s) => s)).toEqual(["src/tui/keys.ts"]);
	});
	test("an empty query returns the items unchanged", () => {
		expect(fuzzyFilter(issues, "  ", (i) => i.title)).toBe(issues);
	});
});
