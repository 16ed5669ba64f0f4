import { expect, test } from "bun:test";
import { compositeTuiLine, isViewportTUI, TuiMainScreen, VIEWPORT_TUI, visibleWidth } from "../../../src/tui/index.ts";
import { linesOnScreen, VirtualTerminal } from "../../helpers/screen.ts";

test("compositeTuiLine puts the overlay at its column and keeps the base around it", async () => {
	const line = compositeTuiLine("0123456789", "ab", 3, 4, 10);
	expect(visibleWidth(line)).toBe(10);
	expect(await linesOnScreen([line], 10)).toEqual(["012ab  789"]);
});

test("compositeTuiLine pads a short base, cuts a long overlay and never exceeds the width", async () => {
	const short = compositeTuiLine("ab", "XYZ", 5, 2, 10);
	expect(visibleWidth(short)).toBe(10);
	expect((await linesOnScreen([short], 10))[0]?.trimEnd()).toBe("ab   XY");
	const wide = compositeTuiLine("你好你好你好", "x", 3, 1, 12);
	expect(visibleWidth(wide)).toBeLessThanOrEqual(12);
	expect((await linesOnScreen([wide], 12))[0]?.trimEnd()).toBe("你 x你好你好");
});

test("text after the overlay keeps the base line's style", async () => {
	const line = compositeTuiLine("\x1b[31mredredredred\x1b[0m", "ov", 2, 2, 12);
	const term = new VirtualTerminal(12, 1);
	term.write(line);
	await term.screen();
	const cell = term.xterm.buffer.active.getLine(0)?.getCell(6);
	expect(cell?.getChars()).toBe("r");
	expect(cell?.getFgColor()).toBe(1);
	const overlayCell = term.xterm.buffer.active.getLine(0)?.getCell(2);
	expect(overlayCell?.isFgDefault()).toBe(true);
	term.dispose();
});

test("isViewportTUI is false for the regular screen and true for a TUI carrying the viewport symbol", () => {
	const term = new VirtualTerminal(10, 2);
	const tui = new TuiMainScreen(term);
	expect(isViewportTUI(tui)).toBe(false);
	expect(isViewportTUI(Object.assign(Object.create(tui), { [VIEWPORT_TUI]: true }))).toBe(true);
	term.dispose();
});
