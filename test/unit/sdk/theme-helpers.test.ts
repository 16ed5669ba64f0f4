/**
 * pi-coding-agent's theme helpers (`initTheme`, `get*Theme`, `highlightCode`, `getLanguageFromPath`, `keyHint`,
 * `keyText`, `rawKeyHint`): the same probe runs against pi 0.87.1 itself (Node 22, from the conformance cache) and
 * against our SDK module, and must print the same bytes. Our own code colouring is checked on its own.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ensureRunnablePi } from "../../../scripts/conformance-cache.ts";
import { currentTheme, loadChalk } from "../../../src/resources/index.ts";
import { loadAllHighlightLanguages } from "../../../src/sdk/highlight.ts";
import { highlightCode, initTheme, keyText } from "../../../src/sdk/theme-helpers.ts";
import { KeybindingsManager, setKeybindings, stripTerminalSequences, TUI_KEYBINDINGS } from "../../../src/tui/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const PROBE = `
const pi = await import(process.argv[2]);
pi.initTheme("dark");
const select = pi.getSelectListTheme();
const settings = pi.getSettingsListTheme();
const md = pi.getMarkdownTheme();
console.log(JSON.stringify({
	keyHint: pi.keyHint("tui.select.cancel", "cancel"),
	keyText: pi.keyText("tui.editor.cursorWordLeft"),
	unbound: pi.keyText("app.tools.expand"),
	unboundHint: pi.keyHint("app.tools.expand", "to expand"),
	legacyHint: pi.keyHint("expandTools", "to expand"),
	raw: pi.rawKeyHint("ctrl+o/alt+x", "more"),
	select: [select.selectedPrefix("p"), select.selectedText("x"), select.description("d"), select.scrollInfo("s"), select.noMatch("n")],
	settings: [settings.cursor, settings.value("v", false), settings.value("v", true), settings.label("l", true), settings.label("l", false), settings.description("d"), settings.hint("h")],
	md: [md.heading("h"), md.link("l"), md.linkUrl("u"), md.code("c"), md.codeBlock("b"), md.codeBlockBorder("r"), md.quote("q"), md.quoteBorder("o"), md.hr("-"), md.listBullet("*"), md.bold("b"), md.italic("i")],
	plain: pi.highlightCode("a\\nb"),
	unknown: pi.highlightCode("{}", "json"),
	mdPlain: md.highlightCode("x", "yaml"),
	langs: ["a.ts", "b.PY", "Makefile", "c.unknown", "noext", "x.tf", "y.YML", "z.tsx"].map((p) => pi.getLanguageFromPath(p) ?? null),
}));
`;

const ENV = { PI_TRUE_COLOR: "0", COLORFGBG: "", NO_COLOR: "", FORCE_COLOR: "0" };

describe("theme helpers", () => {
	const pi = ensureRunnablePi();
	if ("error" in pi) console.log(`theme helpers side by side: skipped, pi 0.87.1 unavailable: ${pi.error}`);
	test.skipIf("error" in pi)(
		"print exactly what pi 0.87.1's print",
		() => {
			if ("error" in pi) return;
			const dir = makeTempDir("pi-theme-probe-");
			writeTree(dir, { "probe.mjs": PROBE });
			const env = { ...process.env, ...ENV, HOME: dir };
			const theirs = Bun.spawnSync([pi.node, join(dir, "probe.mjs"), join(pi.cli, "..", "index.js")], { env });
			const ours = Bun.spawnSync(
				[process.execPath, join(dir, "probe.mjs"), join(import.meta.dir, "../../../src/sdk/pi-coding-agent.ts")],
				{ env },
			);
			expect(theirs.stderr.toString()).toBe("");
			expect(ours.stderr.toString()).toBe("");
			expect(JSON.parse(ours.stdout.toString())).toEqual(JSON.parse(theirs.stdout.toString()));
		},
		60_000,
	);
});

describe("code colouring", () => {
	beforeAll(async () => {
		await loadChalk();
		initTheme("dark");
	});

	test("keywords, strings, numbers, comments, calls and types take the syntax colours, line by line", () => {
		const t = currentTheme();
		const lines = highlightCode('const n = 42; // answer\nreturn greet("hi", new Date(), Map);', "ts");
		expect(lines).toEqual([
			`${t.fg("syntaxKeyword", "const")} n = ${t.fg("syntaxNumber", "42")}; ${t.fg("syntaxComment", "// answer")}`,
			`${t.fg("syntaxKeyword", "return")} ${t.fg("syntaxFunction", "greet")}(${t.fg("syntaxString", '"hi"')}, ${t.fg("syntaxKeyword", "new")} ${t.fg("syntaxFunction", "Date")}(), ${t.fg("syntaxType", "Map")});`,
		]);
	});

	test("a block comment over two lines is coloured on each line; unknown languages get the code-block colour", () => {
		const t = currentTheme();
		expect(highlightCode("a /* one\ntwo */ b", "c")).toEqual([
			`a ${t.fg("syntaxComment", "/* one")}`,
			`${t.fg("syntaxComment", "two */")} b`,
		]);
		expect(highlightCode("# x = None", "python")).toEqual([t.fg("syntaxComment", "# x = None")]);
		expect(highlightCode("x = None", "py")).toEqual([`x = ${t.fg("syntaxNumber", "None")}`]);
		expect(highlightCode("x = 1", "brainfuck")).toEqual([t.fg("mdCodeBlock", "x = 1")]);
	});
});

describe("keybindings", () => {
	test("user keys replace the defaults; a key claimed twice is a conflict; resolved bindings", () => {
		const manager = new KeybindingsManager(TUI_KEYBINDINGS, {
			"tui.select.up": ["k", "up"],
			"tui.select.down": "k",
			"not.a.binding": "x",
		} as never);
		expect(manager.getKeys("tui.select.up")).toEqual(["k", "up"]);
		expect(manager.getKeys("tui.select.cancel")).toEqual(["escape", "ctrl+c"]);
		expect(manager.getKeys("app.unknown")).toEqual([]);
		expect(manager.getConflicts()).toEqual([{ key: "k", keybindings: ["tui.select.up", "tui.select.down"] }]);
		expect(manager.getResolvedBindings()["tui.select.down"]).toBe("k");
		expect(manager.matches("k", "tui.select.down")).toBe(true);
		setKeybindings(manager);
		try {
			expect(keyText("tui.select.up")).toBe("k/up");
		} finally {
			setKeybindings(new KeybindingsManager(TUI_KEYBINDINGS));
		}
		expect(keyText("tui.select.up")).toBe("up");
	});
});

describe("data and text formats after loadAllHighlightLanguages", () => {
	beforeAll(async () => {
		await loadChalk();
		initTheme("dark");
	});

	test("JSON, YAML, diff and Markdown are coloured only once every language is loaded, with the text unchanged", async () => {
		const samples: [string, string][] = [
			['{"name": "pi", "n": 1.5, "ok": true, "none": null}', "json"],
			["# comment\nkey: value\nlist:\n  - 1\n  - 'two' # trailing\nflag: yes\n---", "yaml"],
			["diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same", "diff"],
			["# Title\n- item with `code`\n> quote\n```\nplain", "markdown"],
		];
		const t = currentTheme();
		for (const [code, lang] of samples) {
			expect(highlightCode(code, lang)).toEqual(code.split("\n").map((line) => t.fg("mdCodeBlock", line)));
		}
		await loadAllHighlightLanguages();
		for (const [code, lang] of samples) {
			const lines = highlightCode(code, lang);
			expect(lines.map((line) => stripTerminalSequences(line))).toEqual(code.split("\n"));
			expect(lines.join("\n")).not.toBe(
				code
					.split("\n")
					.map((line) => t.fg("mdCodeBlock", line))
					.join("\n"),
			);
		}
		expect(highlightCode('{"k": 2}', "json")[0]).toBe(
			`{${t.fg("syntaxVariable", '"k"')}: ${t.fg("syntaxNumber", "2")}}`,
		);
		expect(highlightCode("+new", "diff")[0]).toBe(t.fg("toolDiffAdded", "+new"));
	});
});
