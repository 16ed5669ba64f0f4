import { expect, test } from "bun:test";
import { findAltScreenSearchMatches, firstMatchFrom, stepMatch } from "../../../../src/tui/alt-screen/search.ts";
import { Text } from "../../../../src/tui/basic.ts";
import { dispatchMouseEvent } from "../../../../src/tui/mouse/dispatch.ts";
import { MouseRegion } from "../../../../src/tui/mouse/mouse-region.ts";
import { lineSelection, selectedText, wordRangeAt, wordSelection } from "../../../../src/tui/mouse/selection.ts";
import { ClickCounter, parseMouseEvent } from "../../../../src/tui/mouse/sgr.ts";
import type { TuiMouseEvent } from "../../../../src/tui/types.ts";

test("SGR reports become press, drag, move, release and wheel events with modifiers", () => {
	const at = (data: string) => parseMouseEvent(data, 80, 24);
	expect(at("\x1b[<0;5;3M")).toMatchObject({ type: "press", button: "left", x: 4, y: 2, shift: false });
	expect(at("\x1b[<0;5;3m")).toMatchObject({ type: "release", button: "left" });
	expect(at("\x1b[<32;6;3M")).toMatchObject({ type: "drag", button: "left", x: 5 });
	expect(at("\x1b[<35;6;3M")).toMatchObject({ type: "move", button: "none" });
	expect(at("\x1b[<2;1;1M")).toMatchObject({ type: "press", button: "right" });
	expect(at("\x1b[<20;1;1M")).toMatchObject({ type: "press", shift: true, ctrl: true, alt: false });
	expect(at("\x1b[<64;10;10M")).toMatchObject({ type: "wheel", button: "none", wheelDelta: -1 });
	expect(at("\x1b[<65;10;10M")).toMatchObject({ type: "wheel", wheelDelta: 1 });
	expect(at("\x1b[<73;10;10M")).toMatchObject({ type: "wheel", wheelDelta: 5, alt: true });
	expect(at("\x1b[M !!")).toMatchObject({ type: "press", x: 0, y: 0 });
	expect(at("x")).toBeUndefined();
});

test("click counting: 1, 2, 3, then 1 again; a pause or another spot starts over", () => {
	let now = 1000;
	const clicks = new ClickCounter(() => now);
	expect([
		clicks.click("a", "1:1"),
		clicks.click("a", "1:1"),
		clicks.click("a", "1:1"),
		clicks.click("a", "1:1"),
	]).toEqual([1, 2, 3, 1]);
	now += 600;
	expect(clicks.click("a", "1:1")).toBe(1);
	expect(clicks.click("a", "2:1")).toBe(1);
});

test("word selection keeps paths and kebab-case together; triple click takes the line", () => {
	const line = "see \x1b[1m/usr/local/bin\x1b[0m and foo-bar-baz, ok";
	expect(wordRangeAt(line, 6)).toEqual({ start: 4, end: 18 });
	expect(wordRangeAt(line, 26)).toEqual({ start: 23, end: 34 });
	expect(wordRangeAt(line, 0)).toEqual({ start: 0, end: 3 });
	expect(wordRangeAt(line, 200)).toBeUndefined();
	const word = wordSelection(line, { row: 0, col: 25 });
	expect(word && selectedText([line], word)).toBe("foo-bar-baz");
	expect(selectedText([line], lineSelection(line, { row: 0, col: 3 }))).toBe("see /usr/local/bin and foo-bar-baz, ok");
});

test("selected text has no styles, right-trimmed lines, wide characters kept whole", () => {
	const lines = ["\x1b[31mred text\x1b[0m   ", "你好 world", "last line"];
	expect(selectedText(lines, { start: { row: 0, col: 4 }, end: { row: 2, col: 3 } })).toBe("text\n你好 world\nlast");
	expect(selectedText(lines, { start: { row: 1, col: 1 }, end: { row: 1, col: 2 } })).toBe("你好");
});

test("search finds matches across styles and line breaks, case-insensitively, and steps with wrap-around", () => {
	const lines = ["one \x1b[1mTwo\x1b[0m", "three two", "  two", "four"];
	const matches = findAltScreenSearchMatches(lines, "two");
	expect(matches.map((m) => m.segments)).toEqual([
		[{ row: 0, startCol: 4, endCol: 7 }],
		[{ row: 1, startCol: 6, endCol: 9 }],
		[{ row: 2, startCol: 2, endCol: 5 }],
	]);
	expect(findAltScreenSearchMatches(lines, "two three")[0]?.segments).toEqual([
		{ row: 0, startCol: 4, endCol: 7 },
		{ row: 1, startCol: 0, endCol: 5 },
	]);
	expect(firstMatchFrom(matches, 1)).toBe(1);
	expect(firstMatchFrom(matches, 3)).toBe(0);
	expect(stepMatch(3, 2, 1)).toBe(0);
	expect(stepMatch(3, 0, -1)).toBe(2);
	expect(stepMatch(3, -1, -1)).toBe(2);
});

test("MouseRegion gets what its child leaves; plain containers route by row", () => {
	const seen: TuiMouseEvent[] = [];
	const region = new MouseRegion(new Text("hello", 0, 0), (event) => {
		seen.push(event);
		return { handled: true };
	});
	expect(region.render(20)).toEqual(new Text("hello", 0, 0).render(20));
	const event: TuiMouseEvent = {
		type: "click",
		button: "left",
		x: 2,
		y: 0,
		screenX: 12,
		screenY: 5,
		width: 20,
		height: 1,
		shift: false,
		alt: false,
		ctrl: false,
		clickCount: 1,
	};
	const result = dispatchMouseEvent(region, event);
	expect(result?.target).toEqual({ component: region, originX: 10, originY: 5, width: 20, height: 1 });
	expect(seen).toHaveLength(1);
	const container = { children: [new Text("a\nb", 0, 0), region], render: () => [], invalidate() {} };
	const routed = dispatchMouseEvent(container, { ...event, y: 2, screenY: 7, height: 3 });
	expect(routed?.target.component).toBe(region);
	expect(seen[1]?.y).toBe(0);
});
