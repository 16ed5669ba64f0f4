/**
 * Property test: our width helpers give exactly pi-tui 0.87.1's results on 10,000 seeded random terminal strings
 * (ASCII, CJK, emoji sequences, combining marks, tabs, SGR, OSC 8 links, the cursor marker, other CSI, newlines).
 * pi-tui runs once under Node 22 from the conformance cache for the whole batch; without the cache the test skips.
 */
import { expect, test } from "bun:test";
import {
	getOsc8LinkAtColumn,
	sliceByColumn,
	stripTerminalSequences,
	truncateToWidth,
	visibleWidth,
	wrapTextWithAnsi,
} from "../../src/tui/index.ts";
import { piTuiReference } from "../support/pi-tui-reference.ts";
import { seededRandom, terminalString } from "../support/terminal-strings.ts";

interface Case {
	s: string;
	/** truncateToWidth arguments: [maxWidth, ellipsis, pad]. */
	trunc: [number, string, boolean][];
	/** sliceByColumn arguments: [startCol, length, strict]. */
	slice: [number, number, boolean][];
	wrap: number[];
	link: number[];
}

const ELLIPSES = ["...", "…", "", "→→", "\x1b[2m…\x1b[22m", "中", "\t", "abcdefghijkl"];

function makeCases(count: number): Case[] {
	const random = seededRandom(18_04);
	const int = (n: number) => Math.floor(random() * n);
	const cases: Case[] = [];
	for (let i = 0; i < count; i++) {
		const s = terminalString(random);
		cases.push({
			s,
			trunc: [
				[1 + int(40), "...", false],
				[1 + int(12), ELLIPSES[int(ELLIPSES.length)] as string, random() < 0.5],
				[int(6), "...", true],
			],
			slice: [
				[int(20), int(25), false],
				[int(20), 1 + int(10), true],
			],
			wrap: [1 + int(3), 4 + int(12), 16 + int(40)],
			link: [int(30), int(30)],
		});
	}
	return cases;
}

/** All results for one case, in a fixed order; undefined becomes null, as through JSON. */
function ours(c: Case): unknown[] {
	return [
		visibleWidth(c.s),
		stripTerminalSequences(c.s),
		c.trunc.map(([w, e, p]) => truncateToWidth(c.s, w, e, p)),
		c.slice.map(([start, len, strict]) => sliceByColumn(c.s, start, len, strict)),
		c.wrap.map((w) => wrapTextWithAnsi(c.s, w)),
		c.link.map((col) => getOsc8LinkAtColumn(c.s, col) ?? null),
	];
}

const REFERENCE = `return input.map((c) => [
	tui.visibleWidth(c.s),
	tui.stripTerminalSequences(c.s),
	c.trunc.map(([w, e, p]) => tui.truncateToWidth(c.s, w, e, p)),
	c.slice.map(([start, len, strict]) => tui.sliceByColumn(c.s, start, len, strict)),
	c.wrap.map((w) => tui.wrapTextWithAnsi(c.s, w)),
	c.link.map((col) => tui.getOsc8LinkAtColumn(c.s, col) ?? null),
]);`;

const NAMES = [
	"visibleWidth",
	"stripTerminalSequences",
	"truncateToWidth",
	"sliceByColumn",
	"wrapTextWithAnsi",
	"link",
];

test("width helpers match pi-tui 0.87.1 on 10,000 random terminal strings", async () => {
	const reference = piTuiReference("tui-width-parity");
	if (!reference) return;
	const cases = makeCases(10_000);
	const expected = await reference.run<unknown[][]>(REFERENCE, cases);
	const failures: string[] = [];
	let failed = 0;
	cases.forEach((c, i) => {
		const got = ours(c);
		const want = expected[i] as unknown[];
		for (let k = 0; k < got.length; k++) {
			if (JSON.stringify(got[k]) === JSON.stringify(want[k])) continue;
			failed++;
			if (failures.length < 6) {
				failures.push(
					`#${i} ${NAMES[k]} input=${JSON.stringify(c.s)} args=${JSON.stringify(
						[c.trunc, c.slice, c.wrap, c.link][k - 2] ?? null,
					)}\n  pi:   ${JSON.stringify(want[k])}\n  ours: ${JSON.stringify(got[k])}`,
				);
			}
		}
	});
	if (failed > 0) console.error(`${failed} differing results; first ones:\n${failures.join("\n")}`);
	expect(failed).toBe(0);
}, 120_000);
