/**
 * Extension dialogs drawn by both sides of the dialog picture test (pi 0.87.1's ExtensionSelectorComponent,
 * ExtensionInputComponent and ExtensionEditorComponent under Node 22; ours under Bun): the same constructor calls,
 * the same keys, then each picture is the rendered lines at each width plus what the callbacks were told. Imports
 * nothing from either implementation (each side passes its classes in). Node runs this file with type stripping, so
 * only erasable syntax here.
 */

export const WIDTHS = [40, 80, 120] as const;

interface Dialog {
	render(width: number): string[];
	handleInput(data: string): void;
	focused?: boolean;
	dispose?(): void;
}

type Callback = (value?: string) => void;

/** One side's dialog classes. */
export interface DialogLib {
	Selector: new (title: string, options: string[], onSelect: Callback, onCancel: Callback, opts?: unknown) => Dialog;
	Input: new (
		title: string,
		placeholder: string | undefined,
		onSubmit: Callback,
		onCancel: Callback,
		opts?: unknown,
	) => Dialog;
	Editor: new (
		tui: unknown,
		keybindings: unknown,
		title: string,
		prefill: string | undefined,
		onSubmit: Callback,
		onCancel: Callback,
		options?: unknown,
	) => Dialog;
	/** The app keybindings the editor dialog is given. */
	keybindings: unknown;
}

/** A terminal-less TUI stand-in: 24 rows, redraw requests ignored. */
export const FAKE_TUI = {
	requestRender: () => {},
	terminal: { rows: 24, columns: 120 },
	stop: () => {},
	start: () => {},
};

const DOWN = "\x1b[B";
const UP = "\x1b[A";
const ENTER = "\r";
const ESCAPE = "\x1b";
const CTRL_C = "\x03";
const CTRL_O = "\x0f";

interface Case {
	name: string;
	make(lib: DialogLib, log: (event: string) => void): Dialog;
	keys?: string[];
	/** Render before and after each key (default: only at the end). */
	everyStep?: boolean;
	focused?: boolean;
}

const FRUIT = ["apple", "banana", "cherry"];
const LONG = "A rather long option label that needs more than forty columns to be shown in full";

function selector(title: string, options: string[], opts?: Record<string, unknown>) {
	return (lib: DialogLib, log: (event: string) => void) =>
		new lib.Selector(
			title,
			options,
			(value) => log(`select ${JSON.stringify(value)}`),
			() => log("cancel"),
			{ tui: FAKE_TUI, onToggleToolsExpanded: () => log("toggle tools"), ...opts },
		);
}

function input(title: string, opts?: Record<string, unknown>) {
	return (lib: DialogLib, log: (event: string) => void) =>
		new lib.Input(
			title,
			"placeholder that pi does not show",
			(value) => log(`submit ${JSON.stringify(value)}`),
			() => log("cancel"),
			{ tui: FAKE_TUI, ...opts },
		);
}

function editor(title: string, prefill?: string, options?: Record<string, unknown>) {
	return (lib: DialogLib, log: (event: string) => void) =>
		new lib.Editor(
			FAKE_TUI,
			lib.keybindings,
			title,
			prefill,
			(value) => log(`submit ${JSON.stringify(value)}`),
			() => log("cancel"),
			options,
		);
}

export const CASES: Case[] = [
	{ name: "select", make: selector("Pick a fruit", FRUIT) },
	{ name: "select-move", make: selector("Pick a fruit", FRUIT), keys: [DOWN, "j", "j", "j", UP], everyStep: true },
	{ name: "select-k-at-top", make: selector("Pick a fruit", FRUIT), keys: ["k", UP, ENTER] },
	{ name: "select-enter", make: selector("Pick a fruit", FRUIT), keys: [DOWN, ENTER] },
	{ name: "select-linefeed", make: selector("Pick a fruit", FRUIT), keys: ["j", "j", "\n"] },
	{ name: "select-escape", make: selector("Pick a fruit", FRUIT), keys: [ESCAPE] },
	{ name: "select-ctrl-c", make: selector("Pick a fruit", FRUIT), keys: [CTRL_C] },
	{ name: "select-ctrl-o", make: selector("Pick a fruit", FRUIT), keys: [CTRL_O, "x", CTRL_O] },
	{ name: "select-timeout", make: selector("Pick a fruit", FRUIT, { timeout: 5_000 }) },
	{ name: "select-timeout-rounds-up", make: selector("Hurry", ["a"], { timeout: 1_500 }) },
	{ name: "select-timeout-without-tui", make: selector("No clock", ["a"], { timeout: 5_000, tui: undefined }) },
	{ name: "select-description", make: selector("Pick", FRUIT, { description: "Fruit keeps the doctor away." }) },
	{ name: "select-long", make: selector(`${LONG} as a title`, [LONG, "short"]), keys: [DOWN], everyStep: true },
	{ name: "select-empty", make: selector("Nothing to pick", []), keys: [DOWN, ENTER] },
	{ name: "confirm", make: selector("Delete file?\nThis cannot be undone.", ["Yes", "No"]), keys: [DOWN, ENTER] },
	{ name: "input", make: input("Your name"), focused: true },
	{ name: "input-typed", make: input("Your name"), keys: ["A", "d", "a", ENTER], everyStep: true, focused: true },
	{ name: "input-empty-submit", make: input("Your name"), keys: [ENTER], focused: true },
	{ name: "input-linefeed", make: input("Your name"), keys: ["x", "\n"], focused: true },
	{ name: "input-escape", make: input("Your name"), keys: ["x", ESCAPE], focused: true },
	{ name: "input-unfocused", make: input("Your name"), keys: ["h", "i"] },
	{ name: "input-timeout", make: input("Quick!", { timeout: 30_000 }), focused: true },
	{ name: "input-description", make: input("Title", { description: "A short description." }), focused: true },
	{ name: "input-initial", make: input("Rename", { initialValue: "old name" }), focused: true },
	{ name: "input-long", make: input(LONG), keys: [..."a long value typed in".split("")], focused: true },
	{ name: "editor", make: editor("Write a note"), focused: true },
	{ name: "editor-prefill", make: editor("Edit", "line one\nline two\n\nline four"), focused: true },
	{ name: "editor-typed", make: editor("Edit"), keys: ["h", "i", "\x1b[13;2u", "y", "o", ENTER], focused: true },
	{ name: "editor-escape", make: editor("Edit", "keep"), keys: [ESCAPE], focused: true },
	{ name: "editor-description", make: editor("Edit", "x", { description: "What to write." }), focused: true },
	{ name: "editor-unfocused", make: editor(LONG, "some text") },
];

/** Picture name → width → rendered lines (the callbacks' log last, after a `--` line). */
export type DialogPictures = Record<string, Record<number, string[]>>;

export function drawDialogs(lib: DialogLib, widths: readonly number[] = WIDTHS): DialogPictures {
	const out: DialogPictures = {};
	for (const c of CASES) {
		const byWidth: Record<number, string[]> = {};
		out[c.name] = byWidth;
		for (const width of widths) {
			const events: string[] = [];
			const lines: string[] = [];
			let dialog: Dialog | undefined;
			try {
				dialog = c.make(lib, (event) => events.push(event));
				if (c.focused) dialog.focused = true;
				if (c.everyStep) lines.push(...dialog.render(width), "==");
				for (const key of c.keys ?? []) {
					dialog.handleInput(key);
					if (c.everyStep) lines.push(...dialog.render(width), "==");
				}
				if (!c.everyStep) lines.push(...dialog.render(width));
			} catch (error) {
				lines.push(`threw: ${(error as Error).message}`);
			} finally {
				dialog?.dispose?.();
			}
			byWidth[width] = [...lines, "--", ...events];
		}
	}
	return out;
}
