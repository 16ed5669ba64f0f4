import { describe, expect, test } from "bun:test";
import {
	type AutocompleteProvider,
	BorderedLoader,
	CURSOR_MARKER,
	CustomEditor,
	DynamicBorder,
	Editor,
	getEditorTheme,
	stripTerminalSequences,
	type TUI,
	visibleWidth,
} from "../../../src/tui/index.ts";

const UP = "\x1b[A";
const DOWN = "\x1b[B";
const ENTER = "\r";
const ESC = "\x1b";

function fakeTui(rows = 40): TUI & { renders: number } {
	const tui = { renders: 0, terminal: { rows, columns: 80 }, requestRender: () => tui.renders++ };
	return tui as unknown as TUI & { renders: number };
}

function type(editor: { handleInput(data: string): void }, text: string): void {
	for (const ch of text) editor.handleInput(ch);
}

const plain = (lines: string[]) => lines.map((line) => stripTerminalSequences(line).trimEnd());

describe("Editor", () => {
	test("renders borders around wrapped text, within the width", () => {
		const editor = new Editor(fakeTui(), getEditorTheme());
		type(editor, "The quick brown fox jumps over the lazy dog");
		const lines = editor.render(20);
		// One column stays free for the cursor, so rows wrap at 19 (as pi-tui does).
		expect(plain(lines)).toEqual(["─".repeat(20), "The quick brown", "fox jumps over the", "lazy dog", "─".repeat(20)]);
		for (const width of [1, 4, 10, 33, 80]) {
			for (const line of editor.render(width)) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
		}
	});
	test("emits the cursor marker only when focused", () => {
		const editor = new Editor(fakeTui(), getEditorTheme());
		type(editor, "hi");
		expect(editor.render(10).join("")).not.toContain(CURSOR_MARKER);
		editor.focused = true;
		expect(editor.render(10)[1]).toContain(`hi${CURSOR_MARKER}`);
	});
	test("Enter submits the trimmed text and clears; shift/alt+Enter insert newlines", () => {
		const editor = new Editor(fakeTui(), getEditorTheme());
		const submitted: string[] = [];
		const changes: string[] = [];
		editor.onSubmit = (text) => submitted.push(text);
		editor.onChange = (text) => changes.push(text);
		type(editor, " one");
		editor.handleInput("\x1b\r"); // alt+enter
		editor.handleInput("\x1b[13;2u"); // kitty shift+enter
		type(editor, "two ");
		expect(editor.getLines()).toEqual([" one", "", "two "]);
		editor.handleInput(ENTER);
		expect(submitted).toEqual(["one\n\ntwo"]);
		expect(editor.getText()).toBe("");
		expect(changes.at(-1)).toBe("");
	});
	test("backslash before Enter inserts a newline; disableSubmit blocks submission", () => {
		const editor = new Editor(fakeTui(), getEditorTheme());
		let submitted = false;
		editor.onSubmit = () => {
			submitted = true;
		};
		type(editor, "a\\");
		editor.handleInput(ENTER);
		expect(editor.getLines()).toEqual(["a", ""]);
		editor.disableSubmit = true;
		editor.handleInput(ENTER);
		expect(submitted).toBe(false);
	});
	test("cursor movement, deletion across lines, word and line kills, undo", () => {
		const editor = new Editor(fakeTui(), getEditorTheme());
		editor.setText("first line\nsecond");
		expect(editor.getCursor()).toEqual({ line: 1, col: 6 });
		editor.handleInput(UP);
		expect(editor.getCursor()).toEqual({ line: 0, col: 6 });
		editor.handleInput("\x05"); // ctrl+e
		editor.handleInput("\x1b[3~"); // delete joins the next line
		expect(editor.getLines()).toEqual(["first linesecond"]);
		editor.handleInput("\x17"); // ctrl+w
		expect(editor.getText()).toBe("first second");
		editor.handleInput("\x1f"); // undo
		expect(editor.getText()).toBe("first linesecond");
		editor.handleInput("\x01"); // ctrl+a
		editor.handleInput("\x0b"); // ctrl+k
		expect(editor.getText()).toBe("");
		editor.handleInput("\x19"); // ctrl+y
		expect(editor.getText()).toBe("first linesecond");
	});
	test("Up/Down move between wrapped rows keeping the column", () => {
		const editor = new Editor(fakeTui(), getEditorTheme());
		editor.render(10);
		editor.setText("aaaa bbbb cccc");
		editor.render(10);
		editor.handleInput(UP);
		expect(editor.getCursor().col).toBeLessThan(10);
		editor.handleInput(DOWN);
		expect(editor.getCursor()).toEqual({ line: 0, col: 14 });
	});
	test("history: Up on an empty editor recalls, Down returns to the draft", () => {
		const editor = new Editor(fakeTui(), getEditorTheme());
		editor.addToHistory("older");
		editor.addToHistory("newer");
		editor.handleInput(UP);
		expect(editor.getText()).toBe("newer");
		editor.handleInput(UP);
		expect(editor.getText()).toBe("older");
		editor.handleInput(DOWN);
		editor.handleInput(DOWN);
		expect(editor.getText()).toBe("");
	});
	test("bracketed paste inserts multi-line text; tabs become spaces", () => {
		const editor = new Editor(fakeTui(), getEditorTheme());
		editor.handleInput("\x1b[200~line 1\r\n\tline 2\x1b[201~");
		expect(editor.getLines()).toEqual(["line 1", "    line 2"]);
	});
	test("scrolls long content and shows how much is hidden", () => {
		const editor = new Editor(fakeTui(20), getEditorTheme());
		editor.setText(Array.from({ length: 12 }, (_, i) => `line ${i}`).join("\n"));
		const lines = plain(editor.render(30));
		expect(lines.length).toBe(2 + 6);
		expect(lines[0]).toContain("↑ 6 more");
		expect(lines.at(-2)).toBe("line 11");
	});
	test("Tab asks the autocomplete provider; one suggestion is applied, several are listed", async () => {
		const tui = fakeTui();
		const editor = new Editor(tui, getEditorTheme());
		let items = [{ value: "#12", label: "#12", description: "Fix crash" }];
		const provider: AutocompleteProvider = {
			getSuggestions: async (lines, line, col) => {
				const prefix = (lines[line] ?? "").slice(0, col).match(/#\d*$/)?.[0] ?? "";
				return { items, prefix };
			},
			applyCompletion: (lines, line, col, item, prefix) => {
				const text = lines[line] ?? "";
				const next = [...lines];
				next[line] = text.slice(0, col - prefix.length) + item.value + text.slice(col);
				return { lines: next, cursorLine: line, cursorCol: col - prefix.length + item.value.length };
			},
		};
		editor.setAutocompleteProvider(provider);
		type(editor, "see #1");
		editor.handleInput("\t");
		await Bun.sleep(1);
		expect(editor.getText()).toBe("see #12");
		items = [...items, { value: "#13", label: "#13", description: "Add theme" }];
		type(editor, " #");
		editor.handleInput("\t");
		await Bun.sleep(1);
		expect(editor.isShowingAutocomplete()).toBe(true);
		expect(plain(editor.render(40)).some((line) => line.includes("#13"))).toBe(true);
		editor.handleInput(DOWN);
		editor.handleInput(ENTER);
		expect(editor.getText()).toBe("see #12 #13");
		expect(editor.isShowingAutocomplete()).toBe(false);
	});
});

describe("CustomEditor", () => {
	test("Escape and Ctrl+D (on empty text) go to the app handlers; other keys edit", () => {
		const editor = new CustomEditor(fakeTui(), getEditorTheme(), undefined);
		const calls: string[] = [];
		editor.onEscape = () => calls.push("escape");
		editor.onCtrlD = () => calls.push("ctrl+d");
		editor.handleInput(ESC);
		editor.handleInput("\x04");
		type(editor, "ab");
		editor.handleInput("\x01");
		editor.handleInput("\x04"); // with text: deletes forward
		expect(calls).toEqual(["escape", "ctrl+d"]);
		expect(editor.getText()).toBe("b");
	});
	test("actions use the keybindings manager when given, defaults otherwise", () => {
		const calls: string[] = [];
		const withDefaults = new CustomEditor(fakeTui(), getEditorTheme());
		withDefaults.onAction("app.model.select", () => calls.push("default"));
		withDefaults.handleInput("\x0c"); // ctrl+l
		const custom = new CustomEditor(fakeTui(), getEditorTheme(), {
			matches: (data, action) => action === "app.model.select" && data === "m",
		});
		custom.onAction("app.model.select", () => calls.push("custom"));
		custom.handleInput("m");
		expect(calls).toEqual(["default", "custom"]);
		expect(custom.getText()).toBe("");
	});
	test("extension shortcuts run first and can swallow keys", () => {
		const editor = new CustomEditor(fakeTui(), getEditorTheme(), undefined, { paddingX: 1 });
		editor.onExtensionShortcut = (data) => data === "x";
		type(editor, "xyx");
		expect(editor.getText()).toBe("y");
		expect(editor.getPaddingX()).toBe(1);
	});
	test("subclasses can post-process render()", () => {
		class Shouting extends CustomEditor {
			override render(width: number): string[] {
				return super.render(width).map((line) => line.toUpperCase());
			}
		}
		const editor = new Shouting(fakeTui(), getEditorTheme());
		type(editor, "quiet");
		// Upper-casing also turns the cursor's SGR final "m" into "M", which is no longer a sequence pi-tui strips.
		expect(plain(editor.render(10))[1]?.startsWith("QUIET")).toBe(true);
	});
});

describe("DynamicBorder and BorderedLoader", () => {
	test("DynamicBorder draws a full-width coloured rule", () => {
		expect(new DynamicBorder().render(5)).toEqual(["─────"]);
		expect(new DynamicBorder((s) => `\x1b[36m${s}\x1b[39m`).render(3)).toEqual(["\x1b[36m───\x1b[39m"]);
	});
	test("BorderedLoader shows the message between borders and cancels on Escape", () => {
		const theme = { fg: (_color: string, text: string) => text };
		const loader = new BorderedLoader(fakeTui(), theme, "Summarizing…");
		let aborted = false;
		loader.onAbort = () => {
			aborted = true;
		};
		const lines = plain(loader.render(30));
		expect(lines[0]).toBe("─".repeat(30));
		expect(lines.at(-1)).toBe("─".repeat(30));
		expect(lines.some((line) => line.includes("Summarizing…"))).toBe(true);
		for (const line of loader.render(12)) expect(visibleWidth(line)).toBeLessThanOrEqual(12);
		loader.handleInput(ESC);
		expect(aborted).toBe(true);
		expect(loader.signal.aborted).toBe(true);
		loader.dispose();
	});
	test("a non-cancellable BorderedLoader ignores Escape", () => {
		const loader = new BorderedLoader(fakeTui(), undefined, "Wait", { cancellable: false });
		loader.handleInput(ESC);
		expect(loader.signal.aborted).toBe(false);
		loader.dispose();
	});
});
