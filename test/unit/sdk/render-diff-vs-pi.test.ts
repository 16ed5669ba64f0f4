/**
 * `renderDiff` (and the word diff under it) against pi 0.87.1's: the same diff texts, rendered by pi under Node 22
 * and by our SDK module under Bun with the same theme and colour level, must give the same bytes. The word diff
 * is also compared with the `diff` package's `diffWords` that pi uses, on lines chosen to exercise whitespace.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ensureRunnablePi } from "../../../scripts/conformance-cache.ts";
import { diffWords } from "../../../src/modes/interactive/components/word-diff.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const LINE_PAIRS: [string, string][] = [
	["const x = 1;", "const x = 2;"],
	["  return foo(bar, baz);", "  return foo(bar,  qux);"],
	["hello world", "hello  brave new world"],
	["a b c d e", "a c e f"],
	["", "something"],
	["something", ""],
	["  indented", "\tindented more"],
	["x", "x "],
	["foo.bar(baz)", "foo.qux(baz, 1)"],
	["if (a && b) { return; }", "if (a || !b) {\treturn  ; }"],
	["naïve café", "naive cafe"],
	["    ", "  "],
	["one two three", "three two one"],
	["a  b", "a b"],
	["a b ", " a b"],
	["let value = compute(1, 2, 3) + other;", "let result = compute(1, 3) - other + 4;"],
];

/** Seeded random edits of random lines (words, punctuation, runs of spaces and tabs), for the word diff. */
function randomPairs(count: number): [string, string][] {
	let seed = 42;
	const next = () => {
		seed = (seed * 1103515245 + 12345) % 2147483648;
		return seed / 2147483648;
	};
	const pieces = ["foo", "bar", "x", "42", "é", "(", ")", ".", ",", " ", "  ", "\t", "=", "baz_qux", "+"];
	const pick = () => pieces[Math.floor(next() * pieces.length)] as string;
	const line = () => Array.from({ length: 1 + Math.floor(next() * 10) }, pick).join("");
	const edit = (text: string) => {
		const parts = [...text];
		for (let n = Math.floor(next() * 4); n >= 0; n--) {
			const at = Math.floor(next() * (parts.length + 1));
			if (next() < 0.5 && parts.length > 0) parts.splice(at, 1 + Math.floor(next() * 3));
			else parts.splice(at, 0, pick());
		}
		return parts.join("");
	};
	return Array.from({ length: count }, () => {
		const before = line();
		return [before, edit(before)];
	});
}
LINE_PAIRS.push(...randomPairs(300));

const DIFFS: string[] = [
	" 1 line one\n-2 old line\n+2 new line\n 3 line three",
	"-10 \tconst a = 1;\n+10 \tconst a = 2;",
	"-3 one\n-4 two\n+3 three",
	"+1 added only\n+2 another",
	"-1 removed only",
	"     ...\n 5 ctx\n-6 x = foo(a, b)\n+6 x = foo(a, c)\n 7 ctx\n     ...",
	"not a diff line\n\n-1 a\n+1 b\n+2 c",
	"-12 \t\treturn value;\n+12 \t\treturn value ?? fallback;\n 13 }",
	"-1 trailing   \n+1 trailing",
	"-100 hello world\n+100 hello there world\n-101 x\n 102 y",
];

// One-line replacements of the random pairs, so the inverse highlighting is compared on them too.
DIFFS.push(...LINE_PAIRS.slice(-60).map(([a, b], i) => `-${i + 1} ${a}\n+${i + 1} ${b}`));

const PROBE = `
const [mod, diffMod] = [await import(process.argv[2]), process.argv[3] ? await import(process.argv[3]) : undefined];
const input = JSON.parse(process.env.PROBE_INPUT);
mod.initTheme(process.env.PROBE_THEME);
const rendered = input.diffs.map((d) => mod.renderDiff(d));
const words = diffMod ? input.pairs.map(([a, b]) => diffMod.diffWords(a, b).map((c) => [c.value, !!c.added, !!c.removed, c.count])) : null;
console.log(JSON.stringify({ rendered, words }));
`;

describe("renderDiff", () => {
	const pi = ensureRunnablePi();
	if ("error" in pi) console.log(`renderDiff side by side: skipped, pi 0.87.1 unavailable: ${pi.error}`);
	const run = (theme: string, level: string) => {
		if ("error" in pi) return;
		const dir = makeTempDir("pi-diff-probe-");
		writeTree(dir, { "probe.mjs": PROBE });
		const { NO_COLOR: _ignored, ...inherited } = process.env;
		const env = {
			...inherited,
			HOME: dir,
			FORCE_COLOR: level,
			PI_TRUE_COLOR: level === "3" ? "1" : "0",
			COLORFGBG: "",
			PROBE_THEME: theme,
			PROBE_INPUT: JSON.stringify({ diffs: DIFFS, pairs: LINE_PAIRS }),
		};
		const diffPackage = join(pi.modules, "diff", "libesm", "index.js");
		const theirs = Bun.spawnSync([pi.node, join(dir, "probe.mjs"), join(pi.cli, "..", "index.js"), diffPackage], {
			env,
		});
		const ours = Bun.spawnSync(
			[process.execPath, join(dir, "probe.mjs"), join(import.meta.dir, "../../../src/sdk/pi-coding-agent.ts")],
			{ env },
		);
		expect(theirs.stderr.toString()).toBe("");
		expect(ours.stderr.toString()).toBe("");
		const expected = JSON.parse(theirs.stdout.toString());
		const actual = JSON.parse(ours.stdout.toString());
		expect(actual.rendered).toEqual(expected.rendered);
		// The word diff itself, against the package pi uses.
		const mine = LINE_PAIRS.map(([a, b]) => diffWords(a, b).map((c) => [c.value, c.added, c.removed, c.count]));
		expect(mine).toEqual(expected.words);
		// Coloured output really is coloured (the comparison is not vacuous).
		if (level !== "0") expect(actual.rendered[0]).toContain("\u001b[");
	};
	for (const [theme, level] of [
		["dark", "2"],
		["light", "3"],
		["dark", "0"],
	] as const) {
		test.skipIf("error" in pi)(
			`renders like pi 0.87.1 (${theme} theme, colour level ${level})`,
			() => run(theme, level),
			60_000,
		);
	}
});
