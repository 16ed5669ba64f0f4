/**
 * Named keybindings of the terminal UI (pi-tui's `TUI_KEYBINDINGS` ids and default keys) and the manager that
 * resolves them with a user's overrides. `getKeybindings()` is the process-wide manager (the TUI defaults until an
 * application installs its own with `setKeybindings`); `keyText`/`keyHint` of pi-coding-agent read it.
 */
import type { KeyId } from "./keys.ts";
import { matchesKey } from "./keys.ts";

export interface KeybindingDefinition {
	defaultKeys: KeyId | KeyId[];
	description?: string;
}

export type KeybindingDefinitions = Record<string, KeybindingDefinition>;
export type KeybindingsConfig = Record<string, KeyId | KeyId[] | undefined>;

export interface KeybindingConflict {
	key: KeyId;
	keybindings: string[];
}

const def = (defaultKeys: string | string[], description: string): KeybindingDefinition => ({
	defaultKeys: defaultKeys as KeyId | KeyId[],
	description,
});

export const TUI_KEYBINDINGS = {
	"tui.editor.cursorUp": def("up", "Move cursor up"),
	"tui.editor.cursorDown": def("down", "Move cursor down"),
	"tui.editor.historyPrevious": def([], "Previous prompt from history"),
	"tui.editor.historyNext": def([], "Next prompt from history"),
	"tui.editor.cursorLeft": def(["left", "ctrl+b"], "Move cursor left"),
	"tui.editor.cursorRight": def(["right", "ctrl+f"], "Move cursor right"),
	"tui.editor.cursorWordLeft": def(["alt+left", "ctrl+left", "alt+b"], "Move cursor one word left"),
	"tui.editor.cursorWordRight": def(["alt+right", "ctrl+right", "alt+f"], "Move cursor one word right"),
	"tui.editor.cursorLineStart": def(["home", "ctrl+home", "ctrl+a"], "Move to start of line"),
	"tui.editor.cursorLineEnd": def(["end", "ctrl+end", "ctrl+e"], "Move to end of line"),
	"tui.editor.jumpForward": def("ctrl+]", "Jump forward to a character"),
	"tui.editor.jumpBackward": def("ctrl+alt+]", "Jump backward to a character"),
	"tui.editor.pageUp": def(["pageUp", "ctrl+pageUp"], "Page up"),
	"tui.editor.pageDown": def(["pageDown", "ctrl+pageDown"], "Page down"),
	"tui.editor.deleteCharBackward": def("backspace", "Delete the character before the cursor"),
	"tui.editor.deleteCharForward": def(["delete", "ctrl+d"], "Delete the character under the cursor"),
	"tui.editor.deleteWordBackward": def(["ctrl+w", "alt+backspace"], "Delete the word before the cursor"),
	"tui.editor.deleteWordForward": def(["alt+d", "alt+delete"], "Delete the word after the cursor"),
	"tui.editor.deleteToLineStart": def("ctrl+u", "Delete to start of line"),
	"tui.editor.deleteToLineEnd": def("ctrl+k", "Delete to end of line"),
	"tui.editor.yank": def("ctrl+y", "Paste the last deleted text"),
	"tui.editor.yankPop": def("alt+y", "Cycle through deleted text"),
	"tui.editor.undo": def("ctrl+-", "Undo"),
	"tui.input.newLine": def(["shift+enter", "ctrl+j"], "New line"),
	"tui.input.submit": def("enter", "Submit"),
	"tui.input.tab": def("tab", "Tab / complete"),
	"tui.input.copy": def("ctrl+c", "Copy the selection"),
	"tui.select.up": def("up", "Selection up"),
	"tui.select.down": def("down", "Selection down"),
	"tui.select.pageUp": def("pageUp", "Selection one page up"),
	"tui.select.pageDown": def("pageDown", "Selection one page down"),
	"tui.select.confirm": def("enter", "Confirm the selection"),
	"tui.select.cancel": def(["escape", "ctrl+c"], "Cancel the selection"),
	"tui.altScreen.pageUp": def("pageUp", "Scroll up one page"),
	"tui.altScreen.pageDown": def("pageDown", "Scroll down one page"),
	"tui.altScreen.halfPageUp": def([], "Scroll up half a page"),
	"tui.altScreen.halfPageDown": def([], "Scroll down half a page"),
	"tui.altScreen.lineUp": def([], "Scroll up one line"),
	"tui.altScreen.lineDown": def([], "Scroll down one line"),
	"tui.altScreen.previousPrompt": def(["ctrl+shift+up", "ctrl+up"], "Previous prompt in the transcript"),
	"tui.altScreen.nextPrompt": def(["ctrl+shift+down", "ctrl+down"], "Next prompt in the transcript"),
	"tui.altScreen.search": def("ctrl+shift+f", "Search the transcript"),
	"tui.altScreen.searchNext": def(["enter", "ctrl+g"], "Next search match"),
	"tui.altScreen.searchPrevious": def(["shift+enter", "ctrl+shift+g"], "Previous search match"),
	"tui.altScreen.searchClose": def("escape", "Close the search"),
	"tui.altScreen.top": def("home", "Scroll to the top"),
	"tui.altScreen.bottom": def("end", "Scroll to the bottom"),
} satisfies KeybindingDefinitions;

/**
 * The keybinding ids the toolkit knows. Applications add theirs by declaration merging
 * (`declare module "@earendil-works/pi-tui" { interface Keybindings { "app.x": true } }`).
 */
type TuiKeybindingIds = { [K in keyof typeof TUI_KEYBINDINGS]: true };
export interface Keybindings extends TuiKeybindingIds {}

export type Keybinding = keyof Keybindings | (string & {});

/** Keys as a list without repeats (a single key or none becomes a list). */
function keyList(keys: KeyId | KeyId[] | undefined): KeyId[] {
	if (keys === undefined) return [];
	return [...new Set(Array.isArray(keys) ? keys : [keys])];
}

export class KeybindingsManager {
	private readonly keysById = new Map<string, KeyId[]>();
	private conflicts: KeybindingConflict[] = [];

	constructor(
		private readonly definitions: KeybindingDefinitions,
		private userBindings: KeybindingsConfig = {},
	) {
		this.rebuild();
	}

	private rebuild(): void {
		this.keysById.clear();
		const claims = new Map<KeyId, string[]>();
		for (const [id, keys] of Object.entries(this.userBindings)) {
			if (!Object.hasOwn(this.definitions, id)) continue;
			for (const key of keyList(keys)) claims.set(key, [...(claims.get(key) ?? []), id]);
		}
		this.conflicts = [...claims].filter(([, ids]) => ids.length > 1).map(([key, ids]) => ({ key, keybindings: ids }));
		for (const [id, definition] of Object.entries(this.definitions)) {
			const user = this.userBindings[id];
			this.keysById.set(id, keyList(user === undefined ? definition.defaultKeys : user));
		}
	}

	/** Whether terminal input `data` is one of the keys bound to `keybinding`. */
	matches(data: string, keybinding: Keybinding): boolean {
		return (this.keysById.get(keybinding) ?? []).some((key) => matchesKey(data, key));
	}

	getKeys(keybinding: Keybinding): KeyId[] {
		return [...(this.keysById.get(keybinding) ?? [])];
	}

	getDefinition(keybinding: Keybinding): KeybindingDefinition | undefined {
		return this.definitions[keybinding];
	}

	/** Keys the user bound to more than one keybinding. */
	getConflicts(): KeybindingConflict[] {
		return this.conflicts.map((c) => ({ key: c.key, keybindings: [...c.keybindings] }));
	}

	setUserBindings(userBindings: KeybindingsConfig): void {
		this.userBindings = userBindings;
		this.rebuild();
	}

	getUserBindings(): KeybindingsConfig {
		return { ...this.userBindings };
	}

	/** Every keybinding with its keys: one key as itself, none or several as a list. */
	getResolvedBindings(): KeybindingsConfig {
		const resolved: KeybindingsConfig = {};
		for (const id of Object.keys(this.definitions)) {
			const keys = this.keysById.get(id) ?? [];
			resolved[id] = keys.length === 1 ? keys[0] : [...keys];
		}
		return resolved;
	}
}

let current: KeybindingsManager | undefined;

export function setKeybindings(keybindings: KeybindingsManager): void {
	current = keybindings;
}

/** The process-wide keybindings (the TUI defaults until an application sets its own). */
export function getKeybindings(): KeybindingsManager {
	current ??= new KeybindingsManager(TUI_KEYBINDINGS);
	return current;
}
