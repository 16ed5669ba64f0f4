/**
 * The basic components (Text, TruncatedText, Box, Spacer, Container) render what pi-tui 0.87.1's render, read
 * through a headless terminal at widths 40, 80 and 120, and no line is wider than the width; fuzzyMatch and
 * fuzzyFilter give pi-tui's scores and orders. pi-tui runs once under Node 22 for the whole batch; without the
 * conformance cache the test skips.
 */
import { expect, test } from "bun:test";
import * as ours from "../../src/tui/index.ts";
import { linesOnScreen } from "../helpers/screen.ts";
import { piTuiReference } from "../support/pi-tui-reference.ts";

type Desc =
	| { type: "text"; text: string; px?: number; py?: number; bg?: boolean }
	| { type: "trunc"; text: string; px?: number; py?: number }
	| { type: "spacer"; n?: number }
	| { type: "box"; px?: number; py?: number; bg?: boolean; children: Desc[] }
	| { type: "container"; children: Desc[] };

/** Builds a component tree from a description with either library; the same source runs under Node and here. */
const BUILD = `(lib, desc) => {
	const bg = (s) => "\\x1b[44m" + s + "\\x1b[49m";
	const build = (d) => {
		if (d.type === "text") return d.px === undefined ? new lib.Text(d.text) : new lib.Text(d.text, d.px, d.py, d.bg ? bg : undefined);
		if (d.type === "trunc") return d.px === undefined ? new lib.TruncatedText(d.text) : new lib.TruncatedText(d.text, d.px, d.py);
		if (d.type === "spacer") return d.n === undefined ? new lib.Spacer() : new lib.Spacer(d.n);
		const parent = d.type === "box" ? (d.px === undefined ? new lib.Box() : new lib.Box(d.px, d.py, d.bg ? bg : undefined)) : new lib.Container();
		for (const child of d.children) parent.addChild(build(child));
		return parent;
	};
	return build(desc);
}`;

const TEXTS = [
	"hello",
	"The quick brown fox jumps over the lazy dog. ".repeat(6),
	"\x1b[1mBold\x1b[22m and \x1b[4munderlined text that goes on and on for a while\x1b[24m, then \x1b[31mred\x1b[39m.",
	"中文字符和日本語のテキストが混ざった長い行です。".repeat(4),
	"emoji 🎉👍🏽👨‍👩‍👧‍👦🇯🇵❤️ mixed with words and e\u0301 accents ".repeat(3),
	"tabs\there\tand\tthere",
	"line one\nline two\n\nline four after a blank",
	"",
	"   ",
	"\x1b]8;;https://example.com/a/very/long/path\x07a link that is long enough to wrap around\x1b]8;;\x07 end",
	"averyveryverylongwordwithoutanyspacesthatmustbebrokenacrossseverallinesbecauseitistoolong",
	"\x1b[44mbackground all along the text that wraps over more than one line of output here\x1b[0m",
];

function cases(): Desc[] {
	const out: Desc[] = [];
	for (const text of TEXTS) {
		out.push({ type: "text", text });
		out.push({ type: "text", text, px: 0, py: 0 });
		out.push({ type: "text", text, px: 3, py: 2, bg: true });
		out.push({ type: "trunc", text });
		out.push({ type: "trunc", text, px: 2, py: 1 });
	}
	out.push({ type: "spacer" }, { type: "spacer", n: 3 }, { type: "spacer", n: 0 });
	out.push({ type: "box", children: [] });
	out.push({ type: "box", children: [{ type: "text", text: "" }] });
	out.push({
		type: "box",
		px: 2,
		py: 1,
		bg: true,
		children: [
			{ type: "text", text: TEXTS[2] as string },
			{ type: "spacer" },
			{ type: "trunc", text: TEXTS[3] as string },
		],
	});
	out.push({
		type: "box",
		children: [{ type: "box", px: 4, py: 0, children: [{ type: "text", text: TEXTS[4] as string }] }],
	});
	out.push({
		type: "container",
		children: [
			{ type: "text", text: TEXTS[1] as string, px: 0, py: 0 },
			{ type: "spacer", n: 2 },
			{ type: "box", px: 1, py: 1, bg: true, children: [{ type: "text", text: TEXTS[6] as string }] },
		],
	});
	return out;
}

const WIDTHS = [40, 80, 120];

const FUZZY_TEXTS = [
	"Add dark theme",
	"gpt-5",
	"claude-sonnet-4-5",
	"src/tui/keys.ts",
	"README.md",
	"anthropic/claude",
];
const FUZZY_QUERIES = ["", "a", "dark", "gpt5", "5gpt", "son 4", "tui/keys", "rdme", "CLAUDE", "zz", "the me"];

test("basic components and fuzzy scores match pi-tui 0.87.1", async () => {
	const reference = piTuiReference("tui-components-parity");
	if (!reference) return;
	const descs = cases();
	const expected = await reference.run<{ renders: string[][][]; fuzzy: unknown }>(
		`const build = ${BUILD};
		const renders = input.descs.map((d) => { const c = build(tui, d); return input.widths.map((w) => c.render(w)); });
		const fuzzy = input.queries.map((q) => [
			input.texts.map((t) => tui.fuzzyMatch(q, t)),
			tui.fuzzyFilter(input.texts, q, (t) => t),
		]);
		return { renders, fuzzy };`,
		{ descs, widths: WIDTHS, queries: FUZZY_QUERIES, texts: FUZZY_TEXTS },
	);
	const build = new Function(`return ${BUILD}`)() as (lib: unknown, d: Desc) => ours.Component;
	const problems: string[] = [];
	for (const [i, desc] of descs.entries()) {
		const component = build(ours, desc);
		for (const [k, width] of WIDTHS.entries()) {
			const got = component.render(width);
			const want = expected.renders[i]?.[k] ?? [];
			const label = `case ${i} (${JSON.stringify(desc).slice(0, 80)}) at ${width}`;
			for (const line of got) {
				if (ours.visibleWidth(line) > width)
					problems.push(`${label}: line wider than ${width}: ${JSON.stringify(line)}`);
			}
			const [screenGot, screenWant] = [await linesOnScreen(got, width), await linesOnScreen(want, width)];
			if (JSON.stringify(screenGot) !== JSON.stringify(screenWant)) {
				problems.push(
					`${label}: screen differs\n  pi:   ${JSON.stringify(screenWant)}\n  ours: ${JSON.stringify(screenGot)}`,
				);
			} else if (JSON.stringify(got) !== JSON.stringify(want)) {
				problems.push(
					`${label}: same screen, different bytes\n  pi:   ${JSON.stringify(want)}\n  ours: ${JSON.stringify(got)}`,
				);
			}
		}
	}
	const fuzzy = FUZZY_QUERIES.map((q) => [
		FUZZY_TEXTS.map((t) => ours.fuzzyMatch(q, t)),
		ours.fuzzyFilter(FUZZY_TEXTS, q, (t) => t),
	]);
	if (JSON.stringify(fuzzy) !== JSON.stringify(expected.fuzzy)) {
		problems.push(`fuzzy differs\n  pi:   ${JSON.stringify(expected.fuzzy)}\n  ours: ${JSON.stringify(fuzzy)}`);
	}
	if (problems.length > 0)
		console.error(`${problems.length} problems; first ones:\n${problems.slice(0, 5).join("\n")}`);
	expect(problems).toEqual([]);
}, 120_000);
