import { describe, expect, test } from "bun:test";
import {
	CancellableLoader,
	type Component,
	CURSOR_MARKER,
	getSelectListTheme,
	getSettingsListTheme,
	Input,
	type SelectItem,
	SelectList,
	type SettingItem,
	SettingsList,
	stripTerminalSequences,
	Text,
	visibleWidth,
} from "../../../src/tui/index.ts";

const UP = "\x1b[A";
const DOWN = "\x1b[B";
const LEFT = "\x1b[D";
const ENTER = "\r";
const ESC = "\x1b";

function expectFits(component: Component, widths = [1, 5, 12, 40, 80]): void {
	for (const width of widths) {
		for (const line of component.render(width)) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
	}
}

const plain = (lines: string[]) => lines.map((line) => stripTerminalSequences(line).trimEnd());

describe("SelectList", () => {
	const items: SelectItem[] = [
		{ value: "alpha", label: "Alpha", description: "the first letter of the alphabet" },
		{ value: "beta", label: "Beta" },
		{ value: "gamma", label: "Gamma", description: "third" },
		{ value: "delta", label: "Delta" },
	];

	test("moves with arrows (wrapping), selects with Enter, cancels with Escape", () => {
		const list = new SelectList(items, 3, getSelectListTheme());
		const selected: string[] = [];
		const changes: string[] = [];
		let cancelled = false;
		list.onSelect = (item) => selected.push(item.value);
		list.onSelectionChange = (item) => changes.push(item.value);
		list.onCancel = () => {
			cancelled = true;
		};
		list.handleInput(DOWN);
		list.handleInput(DOWN);
		list.handleInput(ENTER);
		list.handleInput(UP);
		list.handleInput(UP);
		list.handleInput(UP);
		expect(list.getSelectedItem()?.value).toBe("delta");
		list.handleInput(ESC);
		expect(selected).toEqual(["gamma"]);
		expect(changes).toEqual(["beta", "gamma", "beta", "alpha", "delta"]);
		expect(cancelled).toBe(true);
	});
	test("renders the selection marker, descriptions and scroll info within the width", () => {
		const list = new SelectList(items, 2, getSelectListTheme());
		const lines = plain(list.render(60));
		expect(lines[0]?.startsWith("→ Alpha")).toBe(true);
		expect(lines[0]).toContain("the first letter");
		expect(lines[1]).toBe("  Beta");
		expect(lines[2]).toBe("  (1/4)");
		expectFits(list);
	});
	test("filters by value prefix and reports no match", () => {
		const list = new SelectList(items, 5, getSelectListTheme());
		list.setFilter("g");
		// As in pi-tui, descriptions need a list wider than 40 columns.
		expect(plain(list.render(40))).toEqual(["→ Gamma"]);
		expect(plain(list.render(60))[0]).toBe(`→ Gamma${" ".repeat(27)}third`);
		list.setFilter("zzz");
		expect(list.getSelectedItem()).toBeNull();
		expect(plain(list.render(40))[0]).toContain("No matching");
	});
});

describe("SettingsList", () => {
	const makeItems = (): SettingItem[] => [
		{ id: "theme", label: "Theme", currentValue: "dark", values: ["dark", "light"], description: "Colour scheme" },
		{ id: "model", label: "Model", currentValue: "a", submenu: (_value, done) => new Picker(done) },
		{ id: "beta", label: "Beta features", currentValue: "off", values: ["off", "on"] },
	];

	class Picker implements Component {
		constructor(private readonly done: (value?: string) => void) {}
		render(): string[] {
			return ["picker"];
		}
		invalidate(): void {}
		handleInput(data: string): void {
			if (data === ENTER) this.done("b");
			if (data === ESC) this.done();
		}
	}

	test("Enter and Space cycle values and report changes", () => {
		const changes: string[] = [];
		const list = new SettingsList(
			makeItems(),
			5,
			getSettingsListTheme(),
			(id, v) => changes.push(`${id}=${v}`),
			() => {},
		);
		list.handleInput(ENTER);
		list.handleInput(" ");
		list.handleInput(DOWN);
		list.handleInput(DOWN);
		list.handleInput(" ");
		expect(changes).toEqual(["theme=light", "theme=dark", "beta=on"]);
		expect(plain(list.render(40)).some((line) => line.includes("Beta features") && line.endsWith("on"))).toBe(true);
	});
	test("a submenu takes over rendering and input until done", () => {
		const changes: string[] = [];
		const list = new SettingsList(
			makeItems(),
			5,
			getSettingsListTheme(),
			(id, v) => changes.push(`${id}=${v}`),
			() => {},
		);
		list.handleInput(DOWN);
		list.handleInput(ENTER);
		expect(list.render(40)).toEqual(["picker"]);
		list.handleInput(ENTER);
		expect(changes).toEqual(["model=b"]);
		expect(plain(list.render(40)).some((line) => line.includes("Model") && line.endsWith("b"))).toBe(true);
	});
	test("Escape cancels; the selected description and hint are shown; fits the width", () => {
		let cancelled = false;
		const list = new SettingsList(
			makeItems(),
			2,
			getSettingsListTheme(),
			() => {},
			() => {
				cancelled = true;
			},
		);
		const text = plain(list.render(50));
		expect(text).toContain("  Colour scheme");
		expect(text.some((line) => line.includes("Esc"))).toBe(true);
		list.handleInput(ESC);
		expect(cancelled).toBe(true);
		expectFits(list);
	});
	test("search filters items when enabled", () => {
		const list = new SettingsList(
			makeItems(),
			5,
			getSettingsListTheme(),
			() => {},
			() => {},
			{ enableSearch: true },
		);
		list.handleInput("b");
		list.handleInput("e");
		const rows = plain(list.render(50)).filter((line) => line.includes("Theme") || line.includes("Beta features"));
		expect(rows.length).toBe(1);
		expect(rows[0]).toContain("Beta features");
	});
});

describe("Input", () => {
	test("edits text with printable keys, arrows, backspace and readline keys", () => {
		const input = new Input();
		for (const ch of "hello world") input.handleInput(ch);
		input.handleInput("\x17"); // ctrl+w
		expect(input.getValue()).toBe("hello ");
		input.handleInput("\x19"); // ctrl+y
		expect(input.getValue()).toBe("hello world");
		input.handleInput(LEFT);
		input.handleInput("\x7f");
		expect(input.getValue()).toBe("hello word");
		input.handleInput("\x01"); // ctrl+a
		input.handleInput("\x1b[97:65;2u"); // kitty shift+a, with the shifted key reported
		expect(input.getValue()).toBe("Ahello word");
		input.handleInput("\x0b"); // ctrl+k
		expect(input.getValue()).toBe("A");
		input.handleInput("\x1f"); // ctrl+- undo
		expect(input.getValue()).toBe("Ahello word");
	});
	test("Enter submits, Escape escapes, paste is inserted on one line", () => {
		const input = new Input();
		let submitted = "";
		let escaped = false;
		input.onSubmit = (value) => {
			submitted = value;
		};
		input.onEscape = () => {
			escaped = true;
		};
		input.handleInput("\x1b[200~two\nlines");
		input.handleInput(" pasted\x1b[201~");
		input.handleInput(ENTER);
		input.handleInput(ESC);
		// Line breaks in a paste are dropped (pi-tui joins the lines without a space).
		expect(submitted).toBe("twolines pasted");
		expect(escaped).toBe(true);
	});
	test("renders the prompt, scrolls to keep the cursor visible, and marks it when focused", () => {
		const input = new Input();
		input.setValue("a fairly long value that will not fit");
		input.handleInput("\x05");
		input.focused = true;
		const [line = ""] = input.render(12);
		expect(visibleWidth(line)).toBeLessThanOrEqual(12);
		expect(line.startsWith("> ")).toBe(true);
		expect(line).toContain(CURSOR_MARKER);
		expect(stripTerminalSequences(line).trimEnd()).toBe("> l not fit");
		input.focused = false;
		expect(input.render(12)[0]).not.toContain(CURSOR_MARKER);
		input.setValue("中文输入法测试文字");
		expectFits(input, [3, 5, 8, 12, 40]);
	});
	test("placeholder shows while empty", () => {
		const input = new Input({ prompt: "? ", placeholder: "type here" });
		expect(stripTerminalSequences(input.render(20)[0] ?? "")).toBe("? type here         ");
	});
});

describe("CancellableLoader", () => {
	test("Escape aborts the signal once and calls onAbort", () => {
		const renders: number[] = [];
		const loader = new CancellableLoader(
			{ requestRender: () => renders.push(1) },
			(s) => s,
			(s) => s,
			"Working",
		);
		let aborted = 0;
		loader.onAbort = () => aborted++;
		const [blank, line] = loader.render(30);
		expect(blank).toBe("");
		expect(stripTerminalSequences(line ?? "")).toContain("Working");
		loader.handleInput("x");
		expect(loader.aborted).toBe(false);
		loader.handleInput(ESC);
		loader.handleInput(ESC);
		expect(loader.signal.aborted).toBe(true);
		expect(aborted).toBe(1);
		expect(loader.isRunning()).toBe(false);
		loader.dispose();
	});
	test("is a Text", () => {
		const loader = new CancellableLoader(
			undefined,
			(s) => s,
			(s) => s,
		);
		expect(loader).toBeInstanceOf(Text);
		loader.dispose();
	});
});
