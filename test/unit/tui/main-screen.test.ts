import { afterEach, expect, test } from "bun:test";
import { type Component, CURSOR_MARKER, Text, TuiMainScreen } from "../../../src/tui/index.ts";
import { VirtualTerminal } from "../../helpers/screen.ts";

/** A component whose lines the test sets directly. */
class Lines implements Component {
	constructor(public lines: string[]) {}
	set(lines: string[]): void {
		this.lines = lines;
	}
	render(): string[] {
		return this.lines;
	}
	invalidate(): void {}
}

const open: { tui: TuiMainScreen; term: VirtualTerminal }[] = [];

function setup(columns = 20, rows = 5, show = false): { tui: TuiMainScreen; term: VirtualTerminal } {
	const term = new VirtualTerminal(columns, rows);
	const tui = new TuiMainScreen(term, show);
	open.push({ tui, term });
	return { tui, term };
}

afterEach(() => {
	for (const { tui, term } of open.splice(0)) {
		tui.stop();
		term.dispose();
	}
});

function numbered(count: number, prefix = "line"): string[] {
	return Array.from({ length: count }, (_, i) => `${prefix} ${i}`);
}

/** Scrollback plus screen, trailing blank rows dropped. */
async function everything(term: VirtualTerminal): Promise<string[]> {
	const screen = await term.screen();
	const all = [...screen.scrollback, ...screen.lines];
	while (all.length > 0 && all[all.length - 1] === "") all.pop();
	return all;
}

test("first frame draws every line from the cursor's line", async () => {
	const { tui, term } = setup();
	tui.addChild(new Lines(["one", "two", "three"]));
	tui.renderNow();
	const screen = await term.screen();
	expect(screen.lines).toEqual(["one", "two", "three", "", ""]);
});

test("appending lines scrolls finished ones into the scrollback once", async () => {
	const { tui, term } = setup(20, 4);
	const body = new Lines(numbered(3));
	tui.addChild(body);
	tui.renderNow();
	for (let n = 4; n <= 12; n++) {
		body.set(numbered(n));
		tui.renderNow();
	}
	expect(await everything(term)).toEqual(numbered(12));
	expect((await term.screen()).lines).toEqual(numbered(12).slice(8));
});

test("editing a middle line rewrites only that line", async () => {
	const { tui, term } = setup(20, 6);
	const body = new Lines(numbered(5));
	tui.addChild(body);
	tui.renderNow();
	const before = term.written.length;
	const lines = numbered(5);
	lines[2] = "changed";
	body.set(lines);
	tui.renderNow();
	const frame = term.written.slice(before);
	expect(frame).toContain("changed");
	expect(frame).not.toContain("line 1");
	expect(frame).not.toContain("line 3");
	expect((await term.screen()).lines.slice(0, 5)).toEqual(["line 0", "line 1", "changed", "line 3", "line 4"]);
});

test("shrinking clears the rows that went away", async () => {
	const { tui, term } = setup(20, 6);
	const body = new Lines(numbered(5));
	tui.addChild(body);
	tui.renderNow();
	body.set(numbered(2));
	tui.renderNow();
	expect((await term.screen()).lines).toEqual(["line 0", "line 1", "", "", "", ""]);
	body.set(numbered(4, "again"));
	tui.renderNow();
	expect((await term.screen()).lines).toEqual(["again 0", "again 1", "again 2", "again 3", "", ""]);
});

test("a one-line change in a long transcript costs a few dozen bytes", async () => {
	const { tui, term } = setup(40, 10);
	const history = new Lines(numbered(1000, "message"));
	const tail = new Lines(["streaming: a"]);
	tui.addChild(history);
	tui.addChild(tail);
	tui.renderNow();
	const writes = term.writes.length;
	tail.set(["streaming: a b"]);
	tui.renderNow();
	const bytes = term.writes.slice(writes).reduce((a, b) => a + b, 0);
	expect(bytes).toBeLessThan(80);
	expect((await term.screen()).lines.at(-1)).toBe("streaming: a b");
	// Nothing changed: nothing is written.
	const idle = term.writes.length;
	tui.renderNow();
	expect(term.writes.length).toBe(idle);
});

test("a change above the screen does not clear the scrollback or redraw history", async () => {
	const { tui, term } = setup(20, 4);
	const body = new Lines(numbered(10));
	tui.addChild(body);
	tui.renderNow();
	const lines = numbered(10);
	lines[1] = "edited far above";
	lines[9] = "line 9!";
	body.set(lines);
	const before = term.written.length;
	tui.renderNow();
	const frame = term.written.slice(before);
	expect(frame).not.toContain("\x1b[3J");
	expect(frame).not.toContain("\x1b[2J");
	expect(frame).not.toContain("edited far above");
	expect((await term.screen()).lines).toEqual(["line 6", "line 7", "line 8", "line 9!"]);
	expect(tui.fullRedraws).toBe(0);
});

test("width change redraws without duplicating lines in the scrollback", async () => {
	const { tui, term } = setup(20, 4);
	tui.addChild(new Text(numbered(8, "word").join(" "), 0, 0));
	tui.renderNow();
	term.resize(12, 4);
	tui.renderNow();
	const all = await everything(term);
	expect(all.map((l) => l.trimEnd())).toEqual(
		new Text(numbered(8, "word").join(" "), 0, 0).render(12).map((l) => l.trimEnd()),
	);
});

test("height change redraws the visible part without duplicating lines", async () => {
	for (const rows of [3, 8]) {
		const { tui, term } = setup(20, 5);
		const body = new Lines(numbered(12));
		tui.addChild(body);
		tui.renderNow();
		term.resize(20, rows);
		tui.renderNow();
		body.set(numbered(13));
		tui.renderNow();
		expect(await everything(term)).toEqual(numbered(13));
	}
});

test("cursor marker places the hardware cursor and is stripped", async () => {
	const { tui, term } = setup(20, 5, true);
	tui.addChild(new Lines(["title", `> ab${CURSOR_MARKER}c`, "footer"]));
	tui.renderNow();
	const screen = await term.screen();
	expect(screen.lines.slice(0, 3)).toEqual(["title", "> abc", "footer"]);
	expect(screen.cursor).toEqual({ row: 1, col: 4 });
	expect(term.written).toContain("\x1b[?25h");
});

test("hardware cursor stays hidden unless enabled", async () => {
	const { tui, term } = setup(20, 5, false);
	tui.addChild(new Lines([`x${CURSOR_MARKER}`]));
	tui.renderNow();
	expect(term.written).not.toContain("\x1b[?25h");
});

test("an over-wide line is cut to the width and reported once", async () => {
	const { tui, term } = setup(10, 4);
	const notices: string[] = [];
	tui.onRenderProblem = (notice) => notices.push(notice);
	const wide = new Lines(["0123456789ABCDEF", "ok"]);
	tui.addChild(wide);
	tui.renderNow();
	wide.set(["0123456789XYZ", "ok"]);
	tui.renderNow();
	const screen = await term.screen();
	expect(screen.lines.slice(0, 2)).toEqual(["0123456789", "ok"]);
	expect(tui.overwideLines).toBe(2);
	expect(notices).toHaveLength(1);
	expect(notices[0]).toContain("Lines");
});

test("a throwing component is drawn as one error line and reported once", async () => {
	class Broken implements Component {
		render(): string[] {
			throw new Error("kaboom");
		}
		invalidate(): void {}
	}
	const { tui, term } = setup(60, 4);
	const notices: string[] = [];
	tui.onRenderProblem = (notice) => notices.push(notice);
	const after = new Lines(["after"]);
	tui.addChild(new Lines(["before"]));
	tui.addChild(new Broken());
	tui.addChild(after);
	tui.renderNow();
	after.set(["after 2"]);
	tui.renderNow();
	const lines = (await term.screen()).lines;
	expect(lines[0]).toBe("before");
	expect(lines[1]).toContain("Broken.render failed: kaboom");
	expect(lines[2]).toBe("after 2");
	expect(notices).toHaveLength(1);
});

test("stop leaves the final frame with a blank row and the cursor below it, shown (as pi-tui)", async () => {
	const { tui, term } = setup(20, 6);
	tui.start();
	tui.addChild(new Lines(["a", "b"]));
	tui.renderNow();
	tui.stop();
	const screen = await term.screen();
	expect(screen.lines.slice(0, 2)).toEqual(["a", "b"]);
	expect(screen.cursor).toEqual({ row: 3, col: 0 });
	expect(term.written.endsWith("\x1b[?25h")).toBe(true);
});

test("frames are wrapped in synchronized output", async () => {
	const { tui, term } = setup();
	tui.addChild(new Lines(["x"]));
	tui.renderNow();
	expect(term.written.startsWith("\x1b[?2026h")).toBe(true);
	expect(term.written.endsWith("\x1b[?2026l")).toBe(true);
});

test("content that now ends above the screen is redrawn on the screen (scrollback kept)", async () => {
	const { tui, term } = setup(20, 4);
	const body = new Lines(numbered(12));
	tui.addChild(body);
	tui.renderNow();
	body.set(["short", "list"]);
	tui.renderNow();
	let screen = await term.screen();
	expect(screen.lines).toEqual(["short", "list", "", ""]);
	expect(screen.scrollback).toContain("line 0");
	body.set([]);
	tui.renderNow();
	body.set(["back"]);
	tui.renderNow();
	screen = await term.screen();
	expect(screen.lines[0]).toBe("back");
	expect(term.written).not.toContain("\x1b[3J");
});

test("a huge frame is written in chunks of at most 1 MiB", async () => {
	const { tui, term } = setup(100, 10);
	const body = new Lines(Array.from({ length: 30_000 }, (_, i) => `${i} ${"é".repeat(60)}`));
	tui.addChild(body);
	tui.renderNow();
	expect(term.writes.length).toBeGreaterThan(2);
	expect(Math.max(...term.writes)).toBeLessThanOrEqual(1024 * 1024);
	const screen = await term.screen();
	expect(screen.lines.at(-1)).toBe(`29999 ${"é".repeat(60)}`);
	expect(screen.scrollback.length).toBeGreaterThan(9000);
});

test("kitty image rows stay together; a replaced image is deleted, an untouched one is not", async () => {
	const { tui, term } = setup(30, 8);
	const image = "\x1b_Ga=T,f=100,q=2,C=1,i=7,r=3;QUJD\x1b\\";
	const picture = new Lines([image, "", ""]);
	const after = new Lines(["caption"]);
	tui.addChild(new Lines(["above"]));
	tui.addChild(picture);
	tui.addChild(after);
	tui.renderNow();
	expect(term.written).toContain(image);
	expect((await term.screen()).lines.slice(0, 5)).toEqual(["above", "", "", "", "caption"]);
	let before = term.written.length;
	after.set(["caption 2"]);
	tui.renderNow();
	expect(term.written.slice(before)).not.toContain("a=d");
	expect((await term.screen()).lines[4]).toBe("caption 2");
	before = term.written.length;
	picture.set(["no image any more"]);
	tui.renderNow();
	const frame = term.written.slice(before);
	expect(frame).toContain("\x1b_Ga=d,d=I,i=7,q=2\x1b\\");
	expect((await term.screen()).lines.slice(0, 4)).toEqual(["above", "no image any more", "caption 2", ""]);
});

test("a block that grows keeps its unchanged lines and still moves the cursor and cuts wide lines", async () => {
	const { tui, term } = setup(20, 6, true);
	const body = new Lines(["\x1b[1mbold\x1b[0m", "plain"]);
	tui.addChild(body);
	tui.setFocus(null);
	tui.renderNow();
	// The same block position, a new array: old lines equal, new ones styled, too wide, or holding the cursor.
	body.set(["\x1b[1mbold\x1b[0m", "plain", `\x1b[2m${"w".repeat(30)}\x1b[0m`, `ed${CURSOR_MARKER}it`]);
	tui.renderNow();
	expect((await term.screen()).lines.slice(0, 4)).toEqual(["bold", "plain", "w".repeat(20), "edit"]);
	expect(term.xterm.buffer.active.cursorY).toBe(3);
	expect(term.xterm.buffer.active.cursorX).toBe(2);
	// The cursor line changes back to text: the marker is gone, the line is drawn as it is.
	body.set(["\x1b[1mbold\x1b[0m", "plain", "short", "edit"]);
	tui.renderNow();
	expect((await term.screen()).lines.slice(0, 4)).toEqual(["bold", "plain", "short", "edit"]);
});

/** Lines in blocks that keep their identity (as the chat transcript hands them over). */
class Blocks implements Component {
	renders = 0;
	constructor(public blocks: string[][]) {}
	render(): string[] {
		return this.blocks.flat();
	}
	renderBlocks(): string[][] {
		this.renders++;
		return this.blocks;
	}
	invalidate(): void {}
}

test("a component's blocks are drawn in order, and only a changed block is written again", async () => {
	const { tui, term } = setup(20, 8);
	const first = ["a1", "a2"];
	const body = new Blocks([first, ["b1"], ["c1", "c2"]]);
	tui.addChild(body);
	tui.addChild(new Lines(["below"]));
	tui.renderNow();
	expect(await everything(term)).toEqual(["a1", "a2", "b1", "c1", "c2", "below"]);
	const written = term.written.length;
	body.blocks = [first, ["b1"], ["c1", "c2 changed"]];
	tui.renderNow();
	expect(await everything(term)).toEqual(["a1", "a2", "b1", "c1", "c2 changed", "below"]);
	expect(term.written.length - written).toBeLessThan(60);
	expect(body.renders).toBe(2);
});
