/**
 * The app's screen in fullscreen mode on a virtual terminal: the transcript scrolls above a docked editor on the
 * alternate screen; switching mode while running keeps the components, the focus and the input listeners behind
 * the one `tui` reference; quitting prints the transcript or, with "resume-hint", nothing.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { AppScreen, stopAppTui } from "../../src/modes/interactive/app/fullscreen.ts";
import { AppLayout } from "../../src/modes/interactive/app/layout.ts";
import type { ChatTranscript } from "../../src/modes/interactive/transcript/index.ts";
import { Container, type EditorComponent, Text, TuiAltScreen, TuiMainScreen } from "../../src/tui/index.ts";
import { VirtualTerminal } from "../helpers/screen.ts";

const terminals: VirtualTerminal[] = [];
afterEach(() => {
	for (const terminal of terminals.splice(0)) terminal.dispose();
});

function setup(settings: ConstructorParameters<typeof AppScreen>[2]) {
	const terminal = new VirtualTerminal(60, 12);
	terminals.push(terminal);
	const screen = new AppScreen(terminal, false, settings);
	const chat = new Container();
	for (let i = 1; i <= 30; i++) chat.addChild(new Text(`line ${i}`, 0, 0));
	const editor = new Text("EDITOR-ROW", 0, 0) as unknown as EditorComponent & Text;
	editor.getText = () => "";
	editor.setText = () => {};
	const layout = new AppLayout(screen.tui, chat as unknown as ChatTranscript, editor);
	layout.mount();
	screen.mount(layout);
	screen.tui.setFocus(editor);
	screen.tui.start();
	screen.tui.renderNow(true);
	return { terminal, screen, layout, editor };
}

const trimmed = (lines: string[]) => lines.map((line) => line.trimEnd());
const bufferType = (terminal: VirtualTerminal) => terminal.xterm.buffer.active.type;

describe("fullscreen mode", () => {
	test("the transcript follows its end above the docked editor on the alternate screen", async () => {
		const { terminal, screen } = setup({ tuiMode: "fullscreen" });
		expect(screen.tui instanceof TuiAltScreen).toBe(true);
		const lines = trimmed((await terminal.screen()).lines);
		expect(bufferType(terminal)).toBe("alternate");
		// The editor slot keeps at least three rows at the bottom; the transcript fills the rest, showing its end.
		expect(lines.slice(-3)).toEqual(["EDITOR-ROW", "", ""]);
		expect(lines.slice(0, -3)).toEqual(Array.from({ length: 9 }, (_, i) => `line ${22 + i}`));
		stopAppTui(screen.tui, { fullscreenExitOutput: "transcript" });
		const after = await terminal.screen();
		expect(bufferType(terminal)).toBe("normal");
		const all = trimmed([...after.scrollback, ...after.lines]);
		expect(all).toContain("line 1");
		expect(all).toContain("line 30");
		expect(all).toContain("EDITOR-ROW");
	});

	test('"resume-hint" leaves nothing of the transcript on the main screen', async () => {
		const { terminal, screen } = setup({ tuiMode: "fullscreen", fullscreenExitOutput: "resume-hint" });
		await terminal.screen();
		stopAppTui(screen.tui, { fullscreenExitOutput: "resume-hint" });
		const after = await terminal.screen();
		expect(bufferType(terminal)).toBe("normal");
		expect([...after.scrollback, ...after.lines].join("\n")).not.toContain("line");
	});

	test("switching mode while running keeps components, focus and input listeners", async () => {
		const { terminal, screen, layout, editor } = setup({ tuiMode: "regular" });
		const tui = screen.tui;
		expect(tui instanceof TuiMainScreen).toBe(true);
		const seen: string[] = [];
		tui.addInputListener((data) => {
			seen.push(data);
			return { consume: true };
		});
		expect(screen.switchMode("fullscreen", layout)).toBe(true);
		expect(tui instanceof TuiAltScreen).toBe(true);
		expect(tui.getFocusedComponent()).toBe(editor);
		tui.renderNow(true);
		expect(trimmed((await terminal.screen()).lines).slice(-3)).toEqual(["EDITOR-ROW", "", ""]);
		expect(bufferType(terminal)).toBe("alternate");
		terminal.send("a");
		expect(screen.switchMode("regular", layout)).toBe(true);
		tui.renderNow(true);
		await terminal.screen();
		expect(bufferType(terminal)).toBe("normal");
		terminal.send("b");
		expect(seen).toEqual(["a", "b"]);
		tui.stop();
	});
});
