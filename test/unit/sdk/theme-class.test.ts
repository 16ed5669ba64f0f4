/**
 * pi-coding-agent's `Theme` class as extensions construct it — `new Theme(fgColors, bgColors, mode, options)` —
 * gives the same escapes, stand-ins for optional tokens and errors as pi 0.87.1's (the same cases run
 * against pi's module under Node 22 from the conformance cache). The run's own theme is an instance of it.
 */
import { expect, test } from "bun:test";
import { currentTheme } from "../../../src/resources/index.ts";
import * as ours from "../../../src/sdk/pi-coding-agent.ts";
import { piReference } from "../../support/pi-reference.ts";

/** An async function body over `Theme` (and `args`); returns what both implementations are compared on. */
const CASES = `
const fg = {
	accent: "#8abeb7", border: 39, borderAccent: "#00d7ff", borderMuted: "", success: "#b5bd68", error: "#cc6666",
	warning: "#ffff00", muted: "#808080", dim: 242, text: "", thinkingText: "#808080", userMessageText: "",
	customMessageText: "", customMessageLabel: "#9575cd", toolTitle: "", toolOutput: "#808080", mdHeading: "#f0c674",
	mdLink: "#81a2be", mdLinkUrl: "#666666", mdCode: "#8abeb7", mdCodeBlock: "#b5bd68", mdCodeBlockBorder: "#808080",
	mdQuote: "#808080", mdQuoteBorder: "#808080", mdHr: "#808080", mdListBullet: "#8abeb7", toolDiffAdded: "#b5bd68",
	toolDiffRemoved: "#cc6666", toolDiffContext: "#808080", syntaxComment: "#6A9955", syntaxKeyword: "#569CD6",
	syntaxFunction: "#DCDCAA", syntaxVariable: "#9CDCFE", syntaxString: "#CE9178", syntaxNumber: "#B5CEA8",
	syntaxType: "#4EC9B0", syntaxOperator: "#D4D4D4", syntaxPunctuation: "#D4D4D4", thinkingOff: "#505050",
	thinkingMinimal: "#6e6e6e", thinkingLow: "#5f87af", thinkingMedium: "#81a2be", thinkingHigh: "#b294bb",
	thinkingXhigh: "#d183e8", bashMode: "#b5bd68",
};
const bg = { selectedBg: "#3a3a4a", userMessageBg: "#343541", customMessageBg: "#2d2838", toolPendingBg: "#282832",
	toolSuccessBg: "#283228", toolErrorBg: "#3c2828" };
const out = {};
for (const mode of ["truecolor", "256color"]) {
	const t = new Theme(fg, bg, mode, { name: "probe", sourcePath: "/themes/probe.json" });
	out[mode] = {
		name: t.name, sourcePath: t.sourcePath, mode: t.getColorMode(),
		fg: ["accent", "border", "borderMuted", "dim", "text", "scrollbarTrack", "scrollbarThumb", "thinkingMax", "searchMatchText"].map((c) => t.fg(c, "x")),
		bg: ["selectedBg", "searchMatchBg", "toolErrorBg"].map((c) => t.bg(c, "y")),
		ansi: [t.getFgAnsi("success"), t.getBgAnsi("userMessageBg")],
		thinking: ["off", "minimal", "low", "medium", "high", "xhigh", "max", "weird"].map((l) => t.getThinkingBorderColor(l)("z")),
		bash: t.getBashModeBorderColor()("b"),
	};
}
const error = (f) => { try { f(); return null; } catch (e) { return e.message; } };
const t = new Theme(fg, bg, "256color");
out.unnamed = [t.name ?? null, t.sourcePath ?? null];
out.errors = [
	error(() => t.fg("nope", "x")), error(() => t.bg("nope", "x")), error(() => t.getFgAnsi("nope")),
	error(() => new Theme({ ...fg, accent: "red" }, bg, "truecolor")),
	error(() => new Theme({ ...fg, accent: "#abc" }, bg, "truecolor")),
	error(() => new Theme(fg, { ...bg, selectedBg: "#12345" }, "256color")),
];
return out;`;

test("Theme constructed as pi's does what pi 0.87.1's does", async () => {
	const run = new Function("Theme", "args", `return (async () => { ${CASES} })();`);
	const mine = (await run(ours.Theme, null)) as Record<string, any>;
	expect(mine.truecolor.fg[0]).toBe("\x1b[38;2;138;190;183mx\x1b[39m");
	expect(mine.truecolor.fg[7]).toBe("\x1b[38;2;209;131;232mx\x1b[39m"); // thinkingMax stands in as thinkingXhigh
	expect(mine.errors[0]).toBe("Unknown theme color: nope");
	const pi = piReference("Theme class");
	if (!pi) return;
	expect(mine).toEqual(pi.run(`const Theme = pi.Theme;\n${CASES}`));
}, 30_000);

test("the run's theme is an instance of the exported Theme", () => {
	expect(currentTheme()).toBeInstanceOf(ours.Theme);
});
