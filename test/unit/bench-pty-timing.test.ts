/**
 * The pure parts of the interactive benchmark's terminal timing (scripts/bench/pty-timing.ts): frames found in
 * chunked output, percentiles, CPU ticks from /proc/<pid>/stat, plain text of escape-laden output, and the
 * "editor with a footer" screen test.
 */
import { describe, expect, test } from "bun:test";
import {
	cpuTicksFromStat,
	editorWithFooter,
	FrameScanner,
	firstLine,
	percentile,
	SYNC_BEGIN,
	SYNC_END,
	summarize,
} from "../../scripts/bench/pty-timing.ts";

describe("FrameScanner", () => {
	test("finds frames and times them by the chunks holding their markers", () => {
		const scanner = new FrameScanner();
		expect(scanner.feed(`junk${SYNC_BEGIN}ab`, 1)).toEqual([]);
		expect(scanner.open).toBe(true);
		expect(scanner.feed(`c${SYNC_END}\x1b[2G${SYNC_BEGIN}x${SYNC_END}`, 2)).toEqual([
			{ startedAt: 1, endedAt: 2, content: "abc" },
			{ startedAt: 2, endedAt: 2, content: "x" },
		]);
		expect(scanner.open).toBe(false);
	});

	test("finds markers cut at any point between two chunks", () => {
		const whole = `pre${SYNC_BEGIN}frame one${SYNC_END}mid${SYNC_BEGIN}two${SYNC_END}post`;
		for (let cut = 0; cut <= whole.length; cut++) {
			const scanner = new FrameScanner();
			const frames = [...scanner.feed(whole.slice(0, cut), 1), ...scanner.feed(whole.slice(cut), 2)];
			expect(frames.map((f) => f.content)).toEqual(["frame one", "two"]);
		}
	});

	test("text that only looks like the start of a marker is kept as content", () => {
		const scanner = new FrameScanner();
		scanner.feed(`${SYNC_BEGIN}a\x1b[?20`, 1);
		expect(scanner.feed(`25h${SYNC_END}`, 2)).toEqual([{ startedAt: 1, endedAt: 2, content: "a\x1b[?2025h" }]);
	});
});

describe("statistics", () => {
	test("percentile is nearest-rank", () => {
		const sorted = Array.from({ length: 200 }, (_, i) => i + 1);
		expect(percentile(sorted, 0.99)).toBe(198);
		expect(percentile(sorted, 0.5)).toBe(100);
		expect(percentile([5], 0.99)).toBe(5);
		expect(percentile([], 0.5)).toBeNaN();
	});

	test("summarize sorts and takes the middle two for an even count", () => {
		expect(summarize([4, 1, 3, 2])).toEqual({ n: 4, median: 2.5, p99: 4, min: 1, max: 4 });
		expect(summarize([3, 1, 2]).median).toBe(2);
	});
});

describe("cpuTicksFromStat", () => {
	test("adds utime and stime, counting fields after the command name", () => {
		const stat = "4242 (node) S 1 4242 4242 34816 4242 4194304 1234 0 0 0 150 37 0 0 20 0 11 0 123 456 789";
		expect(cpuTicksFromStat(stat)).toBe(187);
	});

	test("a command name with spaces and parentheses does not shift the fields", () => {
		const stat = "7 (my (odd) app) R 1 7 7 0 -1 4194304 1 0 0 0 5 6 0 0 20 0 1 0 1 2 3";
		expect(cpuTicksFromStat(stat)).toBe(11);
	});

	test("rejects text that is not a stat line", () => {
		expect(() => cpuTicksFromStat("nonsense")).toThrow("no command name");
		expect(() => cpuTicksFromStat("1 (x) S 1")).toThrow("no utime/stime");
	});
});

describe("output text", () => {
	test("firstLine drops escape sequences and blank lines", () => {
		const out = `\x1b[?2004h\x1b]0;title\x07\r\n  \r\n\x1b[31mError: no interactive mode\x1b[39m\r\nmore`;
		expect(firstLine(out)).toBe("Error: no interactive mode");
		expect(firstLine("\x1b[?25l")).toBe("no output");
	});
});

describe("editorWithFooter", () => {
	const border = "─".repeat(40);
	test("two full borders around the editor and a footer below", () => {
		expect(editorWithFooter(["header", "", border, "", border, "~/work", "0.0%/128k"], 40)).toBe(true);
	});
	test("no footer, a short rule, or borders too far apart do not count", () => {
		expect(editorWithFooter([border, "", border, "", ""], 40)).toBe(false);
		expect(editorWithFooter(["─".repeat(10), "", "─".repeat(10), "footer"], 40)).toBe(false);
		expect(editorWithFooter([border, ...Array(13).fill("text"), border, "footer"], 40)).toBe(false);
	});
});
