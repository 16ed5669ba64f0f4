/** The key scripts of tui-editor-parity.test.ts, and the temp tree its CombinedAutocompleteProvider script reads. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const K = {
	up: "\x1b[A",
	down: "\x1b[B",
	right: "\x1b[C",
	left: "\x1b[D",
	home: "\x1b[H",
	end: "\x1b[F",
	enter: "\r",
	shiftEnter: "\x1b[13;2u",
	ctrlJ: "\n",
	tab: "\t",
	esc: "\x1b",
	backspace: "\x7f",
	del: "\x1b[3~",
	ctrlA: "\x01",
	ctrlE: "\x05",
	ctrlK: "\x0b",
	ctrlU: "\x15",
	ctrlW: "\x17",
	ctrlY: "\x19",
	altY: "\x1by",
	altB: "\x1bb",
	altF: "\x1bf",
	altD: "\x1bd",
	ctrlLeft: "\x1b[1;5D",
	ctrlRight: "\x1b[1;5C",
	undo: "\x1f",
	pageUp: "\x1b[5~",
	pageDown: "\x1b[6~",
	jump: "\x1d",
	space: " ",
};
const rep = (key: string, n: number) => Array.from({ length: n }, () => key);
const paste = (text: string) => `\x1b[200~${text}\x1b[201~`;
const WIDTHS = [40, 80, 120];
const LONG =
	"The quick brown fox jumps over the lazy dog while a supercalifragilisticexpialidocious word refuses to fit " +
	"anywhere sensible, and then more ordinary words follow it until the line has wrapped several times over.";
const CJK = "日本語のテキストを編集します。中文文本编辑测试，한국어 텍스트도 있습니다 mixed with English words";
const THIRTY = Array.from({ length: 30 }, (_, i) => `line ${i + 1} of the pasted block`).join("\n");

type Step =
	| string
	| { wait: number }
	| { setText: string }
	| { insert: string }
	| { type: string }
	| { message: string }
	| { indicator: { frames?: string[]; intervalMs?: number } };
export interface Script {
	name: string;
	kind: "editor" | "input" | "select" | "settings" | "loader";
	widths: number[];
	steps: Step[];
	rows?: number;
	options?: Record<string, unknown>;
	[key: string]: unknown;
}

const editor = (name: string, steps: Step[], extra: Partial<Script> = {}): Script => ({
	name: `editor: ${name}`,
	kind: "editor",
	widths: WIDTHS,
	steps,
	...extra,
});

export const SCRIPTS: Script[] = [
	editor("typing and submit", [{ type: "hello world" }, K.left, K.left, { type: "XY" }, K.enter]),
	editor("wrapping a long line", [
		{ type: LONG },
		...rep(K.left, 7),
		K.up,
		K.up,
		K.down,
		K.ctrlA,
		K.ctrlE,
		K.home,
		K.end,
	]),
	editor("wrapping with padding", [{ type: LONG }, K.up, K.up, K.right], { options: { paddingX: 2 } }),
	editor("CJK text", [{ type: CJK }, ...rep(K.left, 5), K.backspace, K.up, K.del, K.altB, K.altB, K.altF, K.down]),
	editor("word motions", [
		{ type: "foo bar.baz qux-quux  (paren) end" },
		...rep(K.altB, 4),
		K.altF,
		K.ctrlLeft,
		K.ctrlRight,
		K.ctrlW,
		K.altD,
	]),
	editor("kill and yank", [
		{ type: "one two three four" },
		K.ctrlW,
		K.ctrlW,
		K.ctrlA,
		K.altD,
		K.ctrlE,
		K.ctrlY,
		K.altY,
		K.altY,
		K.ctrlA,
		K.ctrlK,
		K.ctrlY,
		K.ctrlU,
		K.ctrlY,
	]),
	editor("undo groups", [
		{ type: "alpha beta gamma" },
		K.backspace,
		K.backspace,
		K.undo,
		K.undo,
		K.undo,
		{ type: " delta" },
		K.ctrlW,
		K.undo,
		K.undo,
		K.undo,
	]),
	editor("history", [K.up, K.up, K.up, K.down, K.down, K.down, { type: "draft" }, K.up, K.down, K.enter], {
		history: ["first prompt", "second prompt\nwith two lines", "third"],
	}),
	editor("multi-line and scrolling", [
		...Array.from({ length: 14 }, (_, i) => [{ type: `row ${i + 1}` } as Step, K.shiftEnter]).flat(),
		{ type: "last" },
		K.pageUp,
		K.pageUp,
		K.up,
		K.pageDown,
		K.ctrlJ,
		K.backspace,
		K.up,
		K.end,
		K.down,
	]),
	editor("backslash enter and ctrl+j", [
		{ type: "first\\" },
		K.enter,
		{ type: "second" },
		K.ctrlJ,
		{ type: "x" },
		K.enter,
	]),
	editor("paste of 30 lines", [
		{ type: "before " },
		paste(THIRTY),
		{ type: " after" },
		paste("short paste"),
		paste("x".repeat(1200)),
		K.altB,
		K.altB,
		K.backspace,
		K.undo,
		K.enter,
	]),
	editor("multi-line small paste", [paste("a\nb\tc\r\nd"), K.up, K.ctrlK, K.ctrlK, K.ctrlY]),
	editor("set and insert text", [{ setText: "preset\ttext" }, { insert: "[img]" }, K.home, { insert: "A\nB" }, K.undo]),
	editor("jump to character", [
		{ type: "find the letter x here, x again" },
		K.home,
		K.jump,
		"x",
		K.jump,
		"x",
		K.jump,
		K.jump,
	]),
	editor(
		"slash autocomplete",
		[
			{ type: "/he" },
			{ wait: 30 },
			K.down,
			K.down,
			K.up,
			K.tab,
			{ wait: 30 },
			K.undo,
			K.esc,
			{ type: "/mo" },
			{ wait: 30 },
			K.enter,
		],
		{ provider: true },
	),
	editor(
		"at autocomplete",
		[
			{ type: "look at @sr" },
			{ wait: 60 },
			K.down,
			K.enter,
			{ wait: 30 },
			{ type: " and @" },
			{ wait: 60 },
			K.esc,
			{ type: "REA" },
			{ wait: 60 },
			K.backspace,
			{ wait: 60 },
			{ type: " pack" },
			K.tab,
			{ wait: 30 },
		],
		{ provider: true },
	),
	editor("disabled submit", [{ type: "stay" }, K.enter, K.shiftEnter, { type: "x" }], { disableSubmit: true }),
	{
		name: "input: editing and scrolling",
		kind: "input",
		widths: WIDTHS,
		steps: [
			{ type: LONG },
			...rep(K.altB, 3),
			K.ctrlW,
			K.ctrlY,
			K.home,
			K.altD,
			K.ctrlK,
			K.ctrlY,
			K.altY,
			K.end,
			K.undo,
			K.undo,
			paste("pasted\nline"),
			K.enter,
			K.esc,
		],
	},
	{
		name: "input: placeholder and CJK",
		kind: "input",
		widths: WIDTHS,
		options: { prompt: "Search: ", placeholder: "type something" },
		steps: [{ type: CJK }, ...rep(K.left, 4), K.backspace, K.del, K.ctrlU],
	},
	{
		name: "select: wrap-around and descriptions",
		kind: "select",
		widths: WIDTHS,
		items: Array.from({ length: 9 }, (_, i) => ({
			value: `item-${i}`,
			label: i === 3 ? "a rather long label that needs truncation in narrow lists" : `Item ${i}`,
			description: i % 2 ? `Description of item ${i}\nsecond line` : undefined,
		})),
		steps: [K.up, K.down, K.down, ...rep(K.down, 6), K.enter, K.esc],
	},
	{
		name: "select: layout and filter",
		kind: "select",
		widths: WIDTHS,
		maxVisible: 3,
		filter: "b",
		options: { minPrimaryColumnWidth: 10, maxPrimaryColumnWidth: 16 },
		items: ["apple", "banana", "blueberry", "blackcurrant-jam-extra", "cherry"].map((v) => ({
			value: v,
			label: v,
			description: `All about ${v}`,
		})),
		steps: [K.down, K.down, K.down, K.enter],
	},
	{
		name: "select: empty",
		kind: "select",
		widths: WIDTHS,
		filter: "zzz",
		items: [{ value: "a", label: "A" }],
		steps: [K.down, K.enter],
	},
	{
		name: "settings: cycling and submenu",
		kind: "settings",
		widths: WIDTHS,
		maxVisible: 3,
		items: [
			{ id: "theme", label: "Theme", currentValue: "dark", values: ["dark", "light"], description: "Colour theme" },
			{ id: "model", label: "Default model", currentValue: "a", submenu: ["a", "b", "c"] },
			{ id: "auto", label: "Auto compaction", currentValue: "on", values: ["on", "off"] },
			{
				id: "long",
				label: "A very long setting label that is cut",
				currentValue: "value",
				description: "A description long enough to wrap at the narrow width of forty columns, twice over.",
			},
		],
		steps: [K.enter, " ", K.down, K.enter, K.down, K.enter, K.down, K.down, K.down, K.up, K.esc],
	},
	{
		name: "settings: search",
		kind: "settings",
		widths: WIDTHS,
		options: { enableSearch: true },
		items: [
			{ id: "a", label: "Alpha setting", currentValue: "1", values: ["1", "2"] },
			{ id: "b", label: "Beta setting", currentValue: "x", values: ["x", "y"] },
			{ id: "g", label: "Gamma", currentValue: "on", values: ["on", "off"] },
		],
		steps: [{ type: "bet" }, K.enter, " ", K.backspace, K.backspace, K.backspace, { type: "zz" }, K.esc],
	},
	{
		name: "loader: default spinner, message, custom and hidden indicators",
		kind: "loader",
		widths: WIDTHS,
		options: { message: "Working on it" },
		steps: [{ message: "Still working" }, { indicator: { frames: ["*", "+"] } }, { indicator: { frames: [] } }],
	},
	{
		name: "loader: cancellable",
		kind: "loader",
		cancellable: true,
		widths: [40],
		steps: ["x", K.esc],
	},
];

/** A small tree for the CombinedAutocompleteProvider scripts (same path in both runs). */
export const TREE = mkdtempSync(join(tmpdir(), "tui-parity-tree-"));
for (const file of [
	"README.md",
	"package.json",
	"src/main.ts",
	"src/editor/editor.ts",
	"docs/guide.md",
	"my notes/a.txt",
]) {
	mkdirSync(dirname(join(TREE, file)), { recursive: true });
	writeFileSync(join(TREE, file), "");
}
const COMMANDS = [
	{ name: "help", description: "Show help" },
	{ name: "model", description: "Pick a model", argumentHint: "<id>" },
	{ name: "skill:review", description: "Review the code" },
	{ name: "settings", description: "Open settings" },
];
SCRIPTS.push(
	editor(
		"CombinedAutocompleteProvider: commands and Tab paths",
		[
			{ type: "/s" },
			{ wait: 30 },
			K.down,
			{ type: "e" },
			{ wait: 30 },
			K.tab,
			{ wait: 30 },
			K.ctrlU,
			{ type: "/rev" },
			{ wait: 30 },
			K.esc,
			K.ctrlU,
			{ type: "open src/" },
			{ wait: 30 },
			K.tab,
			{ wait: 30 },
			K.down,
			K.tab,
			{ wait: 30 },
			{ type: " ./" },
			{ wait: 30 },
			K.tab,
			{ wait: 30 },
			{ type: "R" },
			{ wait: 30 },
			K.tab,
			{ wait: 30 },
			{ type: ' "my' },
			K.tab,
			{ wait: 30 },
		],
		{ combined: { commands: COMMANDS, basePath: TREE } },
	),
);
