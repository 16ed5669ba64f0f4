import { describe, expect, test } from "bun:test";
import {
	Box,
	type Component,
	Container,
	getMarkdownTheme,
	Markdown,
	Spacer,
	stripTerminalSequences,
	Text,
	TruncatedText,
	visibleWidth,
} from "../../../src/tui/index.ts";

const WIDTHS = [1, 5, 12, 40, 80];

function expectFits(component: Component, widths = WIDTHS): void {
	for (const width of widths) {
		for (const line of component.render(width)) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
	}
}

const plain = (lines: string[]) => lines.map((line) => stripTerminalSequences(line).trimEnd());

describe("Text", () => {
	test("wraps inside the horizontal padding and adds vertical padding", () => {
		const lines = new Text("the quick brown fox", 1, 1).render(12);
		expect(plain(lines)).toEqual(["", " the quick", " brown fox", ""]);
		for (const line of lines) expect(visibleWidth(line)).toBe(12);
	});
	test("renders nothing for empty text, and setText updates", () => {
		const text = new Text("", 0, 0);
		expect(text.render(10)).toEqual([]);
		text.setText("hi");
		expect(plain(text.render(10))).toEqual(["hi"]);
	});
	test("applies the background to whole lines", () => {
		const lines = new Text("x", 0, 0, (s) => `<${s}>`).render(4);
		expect(lines).toEqual(["<x   >"]);
	});
	test("caches by text and width: the same lines come back until either changes", () => {
		const text = new Text("some words to wrap", 1, 0);
		const first = text.render(10);
		expect(text.render(10)).toBe(first);
		expect(text.render(11)).not.toBe(first);
		const again = text.render(10);
		text.setText("some words to wrap");
		expect(text.render(10)).not.toBe(again);
		expect(text.render(10)).toEqual(first);
	});
	test("whitespace-only text renders no lines, whatever the padding", () => {
		expect(new Text("  \n  ", 2, 3).render(20)).toEqual([]);
	});
	test("tabs count three columns", () => {
		expect(new Text("a\tb", 0, 0).render(6)).toEqual(["a   b "]);
	});
	test("margins shrink when the width is too small for them", () => {
		expect(new Text("abc", 3, 0).render(3)).toEqual([" a ", " b ", " c "]);
	});
	test("fits any width, with ANSI, CJK and emoji", () => {
		expectFits(new Text("\x1b[1mbold\x1b[22m 中文字符 🎉🎉 words words words", 2, 1));
	});
});

describe("Container, Box, Spacer, TruncatedText", () => {
	test("Container stacks children", () => {
		const container = new Container();
		container.addChild(new Text("a", 0, 0));
		container.addChild(new Spacer(2));
		container.addChild(new Text("b", 0, 0));
		expect(plain(container.render(5))).toEqual(["a", "", "", "b"]);
		container.clear();
		expect(container.render(5)).toEqual([]);
	});
	test("Box pads children and paints the background", () => {
		const box = new Box(2, 1, (s) => `\x1b[44m${s}\x1b[49m`);
		box.addChild(new Text("hello there", 0, 0));
		const lines = box.render(10);
		expect(lines.map(stripTerminalSequences)).toEqual(["          ", "  hello   ", "  there   ", "          "]);
		for (const line of lines) expect(line.startsWith("\x1b[44m")).toBe(true);
		expectFits(box);
	});
	test("Box reuses its lines while children, width and background are unchanged", () => {
		let colour = 44;
		const box = new Box(1, 0, (s) => `\x1b[${colour}m${s}\x1b[49m`);
		const child = new Text("hi", 0, 0);
		box.addChild(child);
		const first = box.render(8);
		expect(box.render(8)).toBe(first);
		colour = 45; // a background function whose output changed is noticed without invalidate()
		expect(box.render(8)[0]?.startsWith("\x1b[45m")).toBe(true);
		const second = box.render(8);
		child.setText("ho");
		expect(box.render(8)).not.toBe(second);
	});
	test("an empty Box renders nothing", () => {
		expect(new Box().render(10)).toEqual([]);
	});
	test("Spacer renders n empty lines", () => {
		expect(new Spacer(3).render(10)).toEqual(["", "", ""]);
		expect(new Spacer().render(10)).toEqual([""]);
	});
	test("TruncatedText keeps the first line with an ellipsis", () => {
		expect(plain(new TruncatedText("a long first line\nsecond").render(10))).toEqual(["a long ..."]);
	});
});

describe("Markdown", () => {
	const theme = getMarkdownTheme();
	const source = [
		"# Heading",
		"",
		"A paragraph with **bold**, *italic*, `code` and a [link](https://example.com).",
		"",
		"- first item",
		"- second item that is long enough to wrap",
		"  - nested",
		"1. one",
		"2. two",
		"",
		"> a quote",
		"",
		"```ts",
		"const x = 1;",
		"```",
		"",
		"| a | b |",
		"|---|---|",
		"| 1 | 2 |",
		"",
		"---",
	].join("\n");

	test("renders blocks as plain text with markers removed", () => {
		const text = plain(new Markdown(source, 0, 0, theme).render(80));
		expect(text[0]).toBe("Heading");
		expect(text).toContain("A paragraph with bold, italic, code and a link (https://example.com).");
		expect(text).toContain("- first item");
		expect(text).toContain("    - nested");
		expect(text).toContain("1. one");
		expect(text).toContain("│ a quote");
		expect(text).toContain("  const x = 1;");
		expect(text).toContain("│ a │ b │");
		expect(text.some((line) => line.startsWith("───"))).toBe(true);
	});
	test("applies theme functions", () => {
		const marked = {
			...theme,
			bold: (s: string) => `B(${s})`,
			code: (s: string) => `C(${s})`,
			heading: (s: string) => `H(${s})`,
		};
		const lines = plain(new Markdown("## Title\n\n**x** `y`", 0, 0, marked).render(40));
		expect(lines).toEqual(["H(B(Title))", "", "B(x) C(y)"]);
	});
	test("padding, empty text and width limits", () => {
		expect(new Markdown("", 1, 1, theme).render(20)).toEqual([]);
		const lines = new Markdown("hello", 2, 1, theme).render(20);
		expect(plain(lines)).toEqual(["", "  hello", ""]);
		expectFits(new Markdown(source, 1, 1, theme));
	});
	test("default text style colours plain text", () => {
		const lines = new Markdown("plain", 0, 0, theme, { color: (s) => `<${s}>` }).render(20);
		expect(stripTerminalSequences(lines[0] ?? "").trimEnd()).toBe("<plain>");
	});
});
