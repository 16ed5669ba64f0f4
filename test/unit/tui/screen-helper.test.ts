import { expect, test } from "bun:test";
import { linesOnScreen, VirtualTerminal } from "../../helpers/screen.ts";

test("linesOnScreen interprets styles and wide characters", async () => {
	expect(await linesOnScreen(["\x1b[1mbold\x1b[0m 你好", "two"], 20)).toEqual(["bold 你好", "two"]);
});

test("VirtualTerminal shows what was written and keeps scrollback", async () => {
	const term = new VirtualTerminal(10, 2);
	term.write("a\r\nb\r\nc");
	const screen = await term.screen();
	expect(screen.lines).toEqual(["b", "c"]);
	expect(screen.scrollback).toEqual(["a"]);
	expect(screen.cursor).toEqual({ row: 1, col: 1 });
	term.dispose();
});
