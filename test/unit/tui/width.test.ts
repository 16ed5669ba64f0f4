import { describe, expect, test } from "bun:test";
import {
	CURSOR_MARKER,
	getOsc8LinkAtColumn,
	sliceByColumn,
	stripTerminalSequences,
	truncateToWidth,
	visibleWidth,
	wrapTextWithAnsi,
} from "../../../src/tui/index.ts";

const RED = "\x1b[31m";
const RESET = "\x1b[0m";
const LINK = "\x1b]8;;https://example.com\x07link\x1b]8;;\x07";

describe("visibleWidth", () => {
	test("plain ASCII counts characters", () => {
		expect(visibleWidth("")).toBe(0);
		expect(visibleWidth("hello world")).toBe(11);
	});
	test("escape sequences are zero width", () => {
		expect(visibleWidth(`${RED}red${RESET}`)).toBe(3);
		expect(visibleWidth("\x1b[38;2;255;0;0mx\x1b[39m")).toBe(1);
		expect(visibleWidth(LINK)).toBe(4);
		expect(visibleWidth(`ab${CURSOR_MARKER}c`)).toBe(3);
		expect(visibleWidth("\x1b]0;title\x1b\\x")).toBe(1);
	});
	test("East Asian wide characters count 2", () => {
		expect(visibleWidth("你好")).toBe(4);
		expect(visibleWidth("テスト")).toBe(6);
		expect(visibleWidth("한글")).toBe(4);
		expect(visibleWidth("ＡＢ")).toBe(4);
		expect(visibleWidth(`${RED}中文${RESET}x`)).toBe(5);
	});
	test("emoji count 2, including ZWJ sequences, flags and VS16", () => {
		expect(visibleWidth("🎉")).toBe(2);
		expect(visibleWidth("👨‍👩‍👧‍👦")).toBe(2);
		expect(visibleWidth("🇯🇵")).toBe(2);
		expect(visibleWidth("❤️")).toBe(2);
		expect(visibleWidth("👍🏽")).toBe(2);
	});
	test("combining marks and zero-width characters count 0", () => {
		expect(visibleWidth("e\u0301")).toBe(1);
		expect(visibleWidth("a\u200bb")).toBe(2);
		expect(visibleWidth("\u0301")).toBe(0);
	});
	test("box drawing and other narrow symbols count 1", () => {
		expect(visibleWidth("─│╭")).toBe(3);
		expect(visibleWidth("→•✓")).toBe(3);
	});
});

describe("stripTerminalSequences", () => {
	test("keeps the visible text only", () => {
		expect(stripTerminalSequences(`${RED}a${RESET}${LINK}${CURSOR_MARKER}`)).toBe("alink");
	});
});

describe("truncateToWidth", () => {
	test("returns text unchanged when it fits, without padding", () => {
		expect(truncateToWidth("short", 10)).toBe("short");
		expect(truncateToWidth("exact", 5)).toBe("exact");
	});
	test("cuts and appends the ellipsis within the width, resetting styling around it", () => {
		expect(truncateToWidth("hello world", 8)).toBe(`hello${RESET}...${RESET}`);
		expect(truncateToWidth("hello world", 8, "…")).toBe(`hello w${RESET}…${RESET}`);
		expect(truncateToWidth("hello world", 5, "")).toBe(`hello${RESET}`);
	});
	test("keeps escape sequences and resets styling before the ellipsis", () => {
		const out = truncateToWidth(`${RED}hello world${RESET}`, 8);
		expect(out).toBe(`${RED}hello${RESET}...${RESET}`);
		expect(visibleWidth(out)).toBe(8);
	});
	test("closes an open hyperlink", () => {
		const out = truncateToWidth("\x1b]8;;http://x\x07a long link text\x1b]8;;\x07", 6, "");
		expect(stripTerminalSequences(out)).toBe("a long");
		expect(out.endsWith(`\x1b]8;;\x07${RESET}`)).toBe(true);
	});
	test("never splits a wide character", () => {
		const out = truncateToWidth("你好世界你好", 7);
		expect(out).toBe(`你好${RESET}...${RESET}`);
		expect(visibleWidth(truncateToWidth("你好世界", 5, ""))).toBe(4);
		expect(visibleWidth(truncateToWidth("🎉🎉🎉", 3, ""))).toBe(2);
	});
	test("pad fills to exactly the width", () => {
		expect(truncateToWidth("ab", 5, "...", true)).toBe("ab   ");
		expect(visibleWidth(truncateToWidth("abcdefgh", 6, "…", true))).toBe(6);
	});
	test("an ellipsis wider than the width is itself cut", () => {
		expect(truncateToWidth("abcdef", 2)).toBe(`${RESET}..${RESET}`);
		expect(truncateToWidth("abcdef", 0)).toBe("");
	});
});

describe("sliceByColumn", () => {
	test("extracts visible columns and keeps styling", () => {
		expect(sliceByColumn("hello world", 6, 5)).toBe("world");
		expect(stripTerminalSequences(sliceByColumn(`${RED}abcdef${RESET}`, 2, 2))).toBe("cd");
		expect(sliceByColumn(`${RED}abcdef`, 2, 2).startsWith(RED)).toBe(true);
	});
	test("strict drops a wide character crossing the end", () => {
		expect(sliceByColumn("a你b", 0, 2, true)).toBe("a");
	});
});

describe("getOsc8LinkAtColumn", () => {
	test("gives the URL of the link covering a column", () => {
		const line = `ab${LINK} 中`;
		expect(getOsc8LinkAtColumn(line, 1)).toBeUndefined();
		expect(getOsc8LinkAtColumn(line, 2)).toBe("https://example.com");
		expect(getOsc8LinkAtColumn(line, 5)).toBe("https://example.com");
		expect(getOsc8LinkAtColumn(line, 6)).toBeUndefined();
		expect(getOsc8LinkAtColumn(line, 99)).toBeUndefined();
	});
});

describe("control sequences pi-tui does not recognise are text", () => {
	test("a CSI not ending in m, G, K, H or J is kept, its ESC zero-width", () => {
		expect(stripTerminalSequences("\x1b[2Ax")).toBe("\x1b[2Ax");
		expect(visibleWidth("\x1b[2Ax")).toBe(4);
		expect(visibleWidth("\x1b[2K\x1b[1Gx")).toBe(1);
	});
});

describe("wrapTextWithAnsi", () => {
	test("wraps at spaces within the width, without padding", () => {
		expect(wrapTextWithAnsi("the quick brown fox jumps", 10)).toEqual(["the quick", "brown fox", "jumps"]);
	});
	test("hard newlines always break and empty lines survive", () => {
		expect(wrapTextWithAnsi("a\n\nb", 10)).toEqual(["a", "", "b"]);
	});
	test("long words are broken", () => {
		const lines = wrapTextWithAnsi("abcdefghijklmnop", 5);
		expect(lines).toEqual(["abcde", "fghij", "klmno", "p"]);
	});
	test("styling is reopened on the next line; underline and links are closed at each break", () => {
		const lines = wrapTextWithAnsi(`${RED}red text that wraps${RESET}`, 9);
		expect(lines).toEqual([`${RED}red text`, `${RED}that`, `${RED}wraps${RESET}`]);
		const underlined = wrapTextWithAnsi("\x1b[4munder lined\x1b[24m", 6);
		expect(underlined).toEqual(["\x1b[4munder\x1b[24m", "\x1b[4mlined\x1b[24m"]);
		const linked = wrapTextWithAnsi("\x1b]8;;https://x\x07two words\x1b]8;;\x07", 5);
		expect(linked).toEqual(["\x1b]8;;https://x\x07two\x1b]8;;\x07", "\x1b]8;;https://x\x07words\x1b]8;;\x07"]);
	});
	test("styling open at a newline continues on the next line", () => {
		expect(wrapTextWithAnsi(`${RED}a\nb`, 10)).toEqual([`${RED}a`, `${RED}b`]);
	});
	test("CJK text breaks between characters", () => {
		expect(wrapTextWithAnsi("ab 中文字", 4)).toEqual(["ab", "中文", "字"]);
	});
	test("wide characters wrap by columns", () => {
		const lines = wrapTextWithAnsi("你好世界你好世界", 5);
		for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(5);
		expect(lines.join("")).toBe("你好世界你好世界");
	});
	test("no line exceeds the width for mixed content", () => {
		const text = `Some ${RED}styled${RESET} words, 中文 mixed with emoji 🎉🎉 and a verylongwordthatneedsbreaking`;
		for (const width of [1, 3, 7, 12, 40]) {
			for (const line of wrapTextWithAnsi(text, width))
				expect(visibleWidth(line)).toBeLessThanOrEqual(Math.max(2, width));
		}
	});
});
