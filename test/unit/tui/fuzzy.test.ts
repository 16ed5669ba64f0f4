import { describe, expect, test } from "bun:test";
import { fuzzyFilter, fuzzyMatch } from "../../../src/tui/index.ts";

describe("fuzzyMatch", () => {
	test("characters must appear in order, case-insensitively", () => {
		expect(fuzzyMatch("abc", "a-b-c").matches).toBe(true);
		expect(fuzzyMatch("ABC", "xaxbxc").matches).toBe(true);
		expect(fuzzyMatch("acb", "abc").matches).toBe(false);
		expect(fuzzyMatch("", "anything").matches).toBe(true);
	});
	test("scores are pi-tui's (values extensions may compare)", () => {
		expect(fuzzyMatch("dark", "Add dark theme").score).toBeCloseTo(-7.1);
		expect(fuzzyMatch("abc", "abc").score).toBeCloseTo(-139.7);
		expect(fuzzyMatch("x", "abc")).toEqual({ matches: false, score: 0 });
	});
	test("letters+digits queries also match the other way round, at a cost", () => {
		expect(fuzzyMatch("gpt5", "gpt-5").score).toBeCloseTo(-47.3);
		expect(fuzzyMatch("5gpt", "gpt-5").score).toBeCloseTo(-42.3);
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
		// pi-tui's scores: "theme" at the start of #3 outweighs "dark theme" appearing in order in #2.
		const out = fuzzyFilter(issues, "dark theme", (i) => i.title);
		expect(out.map((i) => i.n)).toEqual([3, 2]);
	});
	test("every whitespace- or slash-separated token must match", () => {
		expect(fuzzyFilter(issues, "crash zzz", (i) => i.title)).toEqual([]);
		expect(fuzzyFilter(["src/tui/keys.ts", "src/ai/index.ts"], "tui/keys", (s) => s)).toEqual(["src/tui/keys.ts"]);
	});
	test("an empty query returns the items unchanged", () => {
		expect(fuzzyFilter(issues, "  ", (i) => i.title)).toBe(issues);
	});
});
