import { afterEach, expect, test } from "bun:test";
import { TuiAltScreen } from "../../../../src/tui/alt-screen/tui-alt-screen.ts";
import { Text } from "../../../../src/tui/basic.ts";
import { ScrollView } from "../../../../src/tui/layout/scroll-view.ts";
import { VStack } from "../../../../src/tui/layout/stacks.ts";
import { MouseRegion } from "../../../../src/tui/mouse/mouse-region.ts";
import type { Component, TuiMouseEvent } from "../../../../src/tui/types.ts";
import { VirtualTerminal } from "../../../helpers/screen.ts";

const lines = (list: string[]): Component => ({ render: (w) => list.map((s) => s.slice(0, w)), invalidate() {} });
const numbered = (n: number, prefix = "line") => lines(Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`));

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the OSC 52 sequence on purpose
const OSC52 = /\u001b\]52;c;([A-Za-z0-9+/=]+)\u0007/;

const open: { tui: TuiAltScreen; term: VirtualTerminal }[] = [];
afterEach(() => {
	for (const { tui, term } of open.splice(0)) {
		tui.stop({ preserveScreen: true });
		term.dispose();
	}
});

function start(columns: number, rows: number, options = {}): { tui: TuiAltScreen; term: VirtualTerminal } {
	const term = new VirtualTerminal(columns, rows);
	const tui = new TuiAltScreen(term, false, undefined, options);
	open.push({ tui, term });
	tui.start();
	return { tui, term };
}

test("enters the alternate screen with mouse reporting and shows the transcript's end", async () => {
	const { tui, term } = start(20, 5);
	tui.addChild(numbered(12));
	tui.renderNow();
	expect(term.written).toContain("\x1b[?1049h\x1b[?7l");
	expect(term.written).toContain("\x1b[?1006h");
	const screen = await term.screen();
	expect(screen.lines).toEqual(["line 8", "line 9", "line 10", "line 11", "line 12"]);
	expect(screen.scrollback).toEqual([]);
	expect(tui.isFollowingOutput).toBe(true);
});

test("wheel and paging scroll the transcript; new output is followed only at the end", async () => {
	const { tui, term } = start(20, 5);
	const content = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
	tui.addChild(lines(content));
	tui.renderNow();
	term.send("\x1b[<64;3;3M");
	term.send("\x1b[<64;3;3M");
	tui.renderNow();
	expect((await term.screen()).lines).toEqual(["line 6", "line 7", "line 8", "line 9", "line 10"]);
	expect(tui.isFollowingOutput).toBe(false);
	content.push("line 13");
	tui.renderNow();
	expect((await term.screen()).lines[0]).toBe("line 6");
	term.send("\x1b[<72;3;3M"); // Alt+wheel up: five lines
	tui.renderNow();
	expect((await term.screen()).lines[0]).toBe("line 1");
	term.send("\x1b[F"); // End
	tui.renderNow();
	expect((await term.screen()).lines.at(-1)).toBe("line 13");
	expect(tui.isFollowingOutput).toBe(true);
});

test("only changed rows are rewritten; over-wide lines are cut, not fatal", async () => {
	const { tui, term } = start(10, 3);
	const text = new Text("first", 0, 0);
	tui.setLayoutRoot(new VStack([text, lines(["a very long line that does not fit"]), lines(["third"])]));
	tui.renderNow();
	expect((await term.screen()).lines.map((l) => l.trimEnd())).toEqual(["first", "a very lon", "third"]);
	const before = term.written.length;
	text.setText("changed");
	tui.renderNow();
	const frame = term.written.slice(before);
	expect(frame.startsWith("\x1b[?2026h")).toBe(true);
	expect(frame.endsWith("\x1b[?2026l")).toBe(true);
	expect(frame).toContain("\x1b[1;1H");
	expect(frame).not.toContain("\x1b[2;1H");
	expect((await term.screen()).lines.map((l) => l.trimEnd())).toEqual(["changed", "a very lon", "third"]);
});

test("mouse events reach the component under the pointer, in its own coordinates, with click counts", async () => {
	const { tui, term } = start(30, 6);
	const events: TuiMouseEvent[] = [];
	const button = new MouseRegion(lines(["[ button ]"]), (event) => {
		events.push(event);
		return { handled: true };
	});
	tui.setLayoutRoot(
		new VStack([
			{ component: lines(["header"]), shrink: 0 },
			{ component: new ScrollView(numbered(20), { follow: "end" }), grow: 1 },
			{ component: button, shrink: 0 },
		]),
	);
	tui.renderNow();
	expect((await term.screen()).lines.at(-1)).toBe("[ button ]");
	term.send("\x1b[<0;4;6M");
	term.send("\x1b[<0;4;6m");
	term.send("\x1b[<0;4;6M");
	term.send("\x1b[<0;4;6m");
	expect(events.map((e) => [e.type, e.x, e.y, e.clickCount ?? 0])).toEqual([
		["press", 3, 0, 0],
		["release", 3, 0, 0],
		["click", 3, 0, 1],
		["press", 3, 0, 0],
		["release", 3, 0, 0],
		["click", 3, 0, 2],
	]);
	// An unhandled wheel over the scroll view scrolls it.
	term.send("\x1b[<64;4;3M");
	tui.renderNow();
	expect((await term.screen()).lines.slice(1, 5)).toEqual(["line 16", "line 17", "line 18", "line 19"]);
});

test("drag selection is copied with OSC 52 on release, and double click selects a path", async () => {
	const { tui, term } = start(40, 4);
	tui.addChild(lines(["open /usr/local/bin/pi now", "second \x1b[1mbold\x1b[0m row"]));
	tui.renderNow();
	term.send("\x1b[<0;6;1M");
	term.send("\x1b[<32;5;2M");
	term.send("\x1b[<0;5;2m");
	expect(tui.hasActiveSelection()).toBe(true);
	const copied = OSC52.exec(term.written);
	expect(Buffer.from(copied?.[1] ?? "", "base64").toString()).toBe("/usr/local/bin/pi now\nsecon");
	term.written = "";
	await Bun.sleep(0);
	term.send("\x1b[<0;12;1M");
	term.send("\x1b[<0;12;1m");
	term.send("\x1b[<0;12;1M");
	term.send("\x1b[<0;12;1m");
	const second = OSC52.exec(term.written);
	expect(Buffer.from(second?.[1] ?? "", "base64").toString()).toBe("/usr/local/bin/pi");
});

test("pressing and dragging a scrollbar scrolls its view", async () => {
	const { tui, term } = start(20, 5);
	const view = new ScrollView(numbered(50), { follow: "end", primary: true, scrollbar: "always" });
	tui.setLayoutRoot(view);
	tui.renderNow();
	expect((await term.screen()).lines[0]?.startsWith("line 46")).toBe(true);
	term.send("\x1b[<0;20;1M");
	term.send("\x1b[<0;20;1m");
	tui.renderNow();
	expect(view.scrollTop).toBe(0);
	expect((await term.screen()).lines[0]?.startsWith("line 1 ")).toBe(true);
	term.send("\x1b[<0;20;1M");
	term.send("\x1b[<32;20;5M");
	term.send("\x1b[<0;20;5m");
	expect(view.scrollTop).toBe(45);
	expect(view.isFollowingEnd).toBe(true);
});

test("Ctrl+Shift+F searches the transcript: the panel shows the count, starting from the viewport, Enter moves on with wrap-around", async () => {
	const { tui, term } = start(50, 8);
	tui.addChild(lines(Array.from({ length: 30 }, (_, i) => (i % 10 === 3 ? `needle at ${i}` : `hay ${i}`))));
	tui.renderNow();
	term.send("\x1b[102;6u");
	for (const ch of "needle") term.send(ch);
	tui.renderNow();
	tui.renderNow();
	let screen = (await term.screen()).lines.join("\n");
	expect(screen).toContain("needle at 23");
	expect(screen).toContain("3/3");
	term.send("\r");
	tui.renderNow();
	tui.renderNow();
	screen = (await term.screen()).lines.join("\n");
	expect(screen).toContain("1/3");
	expect(screen).toContain("needle at 3");
	term.send("\x1b");
	tui.renderNow();
	expect((await term.screen()).lines.join("\n")).not.toContain("1/3");
});

test("stop restores the terminal and prints the document on the main screen", async () => {
	const term = new VirtualTerminal(20, 6);
	term.write("$ pi\r\n");
	const tui = new TuiAltScreen(term);
	tui.start();
	tui.addChild(lines(["hello", "world"]));
	tui.renderNow();
	tui.stop();
	const written = term.written;
	expect(written).toContain("\x1b[?1000l");
	expect(written).toContain("\x1b[?7h");
	expect(written).toContain("\x1b[?1049l");
	expect((await term.screen()).lines.slice(0, 3)).toEqual(["$ pi", "hello", "world"]);
	term.dispose();
});

test("tmux gets button-motion mouse tracking only", () => {
	const saved = process.env.TMUX;
	process.env.TMUX = "/tmp/tmux-1/default,1,0";
	try {
		const { term } = start(10, 3);
		expect(term.written).toContain("\x1b[?1002h");
		expect(term.written).not.toContain("\x1b[?1003h");
	} finally {
		if (saved === undefined) delete process.env.TMUX;
		else process.env.TMUX = saved;
	}
});
