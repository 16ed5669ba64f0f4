/** The interactive benchmark's table (scripts/bench/interactive-report.ts): ratios, goal verdicts, missing sides. */
import { expect, test } from "bun:test";
import { type Results, renderTable } from "../../scripts/bench/interactive-report.ts";

const row = (table: string, label: string) => table.split("\n").find((line) => line.startsWith(`| ${label}`)) ?? "";

test("ratios are pi ÷ ours and goals get a verdict once ours has a figure", () => {
	const stream = (bytes: number, cpuMs: number) => ({ cpuMs, wallMs: 20_000, frames: 100, bytes });
	const results: Results = {
		unavailable: {},
		samples: {
			"first-frame/pi": [4000, 5000, 4500],
			"first-frame/ours": [300, 500, 400],
			"keys-empty/pi": [2, 2, 2],
			"keys-empty/ours": [1, 1, 1],
			"keys-10000/pi": [600, 600, 600],
			"keys-10000/ours": [1.1, 1.1, 1.1],
		},
		firsts: {},
		streams: {
			"stream-empty/pi": [stream(400_000, 6000)],
			"stream-empty/ours": [stream(100_000, 1000)],
			"stream-1000/pi": [stream(200_000, 8000)],
			"stream-1000/ours": [stream(150_000, 1000)],
		},
	};
	const table = renderTable(results, {
		cases: ["first-frame", "keys-empty", "keys-10000", "stream-empty", "stream-1000"],
		tokens: 2000,
	});
	expect(row(table, "first frame")).toBe(
		"| first frame: spawn → editor + footer (ms, median) | 4500 | 400 | 11× | ours ≥ 10× faster ✓ |",
	);
	expect(row(table, "keystroke → frame, 10,000-entry session (ms, median)")).toContain(
		"median ≤ 1.2× empty's (pi 300×, ours 1.1×) ✓",
	);
	expect(row(table, "stream 2000 tokens, empty session: CPU")).toBe(
		"| stream 2000 tokens, empty session: CPU (% of a core) | 30.0 | 5.0 | 6.0× | < 10 % ✓ |",
	);
	expect(row(table, "stream, after 1,000 messages: bytes per token")).toBe(
		"| stream, after 1,000 messages: bytes per token | 100.0 | 75.0 | 1.3× | within ±10 % of the empty session's (pi 0.5×, ours 1.5×) ✗ |",
	);
});

test("a side that could not run shows n/a, no ratio or verdict, and a note naming why", () => {
	const results: Results = {
		unavailable: { "resume-100mb/ours": "Error: the interactive terminal UI is not available yet" },
		samples: { "resume-100mb/pi": [11_000] },
		firsts: {},
		streams: {},
	};
	const table = renderTable(results, { cases: ["resume-100mb"], tokens: 2000 });
	expect(row(table, "resume")).toBe(
		"| resume 100 MB session → typed char shows (ms, median) | 11000 | n/a | — | < 1000 ms |",
	);
	expect(table.split("\n").at(-1)).toBe(
		"resume-100mb: ours: not available (Error: the interactive terminal UI is not available yet)",
	);
});
