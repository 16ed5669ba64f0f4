import { afterEach, expect, test } from "bun:test";
import { TuiMainScreen } from "../../../src/tui/render/main-screen.ts";
import {
	getCellDimensions,
	resetCapabilitiesCache,
	setCapabilities,
	setCellDimensions,
} from "../../../src/tui/terminal-capabilities.ts";
import { VirtualTerminal } from "../../helpers/screen.ts";

afterEach(() => {
	resetCapabilitiesCache();
	setCellDimensions({ widthPx: 9, heightPx: 18 });
});

test("a terminal that shows images is asked for its cell size, and the reply sizes images", async () => {
	setCapabilities({ images: "kitty", trueColor: true, hyperlinks: true });
	const terminal = new VirtualTerminal(40, 10);
	const tui = new TuiMainScreen(terminal);
	tui.start();
	expect(terminal.written).toContain("\x1b[16t");
	terminal.send("\x1b[6;20;11t");
	expect(getCellDimensions()).toEqual({ widthPx: 11, heightPx: 20 });
	tui.stop();
	terminal.dispose();
});

test("a terminal without images is not asked", () => {
	setCapabilities({ images: null, trueColor: true, hyperlinks: false });
	const terminal = new VirtualTerminal(40, 10);
	const tui = new TuiMainScreen(terminal);
	tui.start();
	expect(terminal.written).not.toContain("\x1b[16t");
	tui.stop();
	terminal.dispose();
});
