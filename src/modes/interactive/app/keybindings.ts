/**
 * The interactive app's key table: the toolkit's editor/input/select ids plus the app's own actions (`app.*`), with
 * pi 0.87.1's default keys and their platform differences (Windows and WSL terminals do not deliver some
 * modifier combinations). `~/.pi/agent/keybindings.json` overrides them, old flat names migrated; each bad entry
 * is one warning line naming the file.
 */
import {
	type KeybindingDefinitions,
	KeybindingsManager,
	type KeyId,
	LEGACY_KEYBINDING_NAMES,
	readKeybindingsFile,
	setKeybindings,
	TUI_KEYBINDINGS,
} from "../../../tui/index.ts";
import { existsSync, readFileSync, writeFileSync } from "../../../util/index.ts";

/** Whether pi uses its Windows keys: native Windows, and Linux under WSL (both terminals drop some modifiers). */
export function useWindowsKeybindings(
	platform: NodeJS.Platform = process.platform,
	env: NodeJS.ProcessEnv = process.env,
): boolean {
	return platform === "win32" || (platform === "linux" && Boolean(env.WSL_DISTRO_NAME || env.WSL_INTEROP));
}

const def = (defaultKeys: KeyId | KeyId[], description: string) => ({ defaultKeys, description });

/** The app's key table as pi 0.87.1 has it on `platform` (with `env` telling WSL apart from other Linux). */
export function appKeybindingDefinitions(
	platform: NodeJS.Platform = process.platform,
	env: NodeJS.ProcessEnv = process.env,
): KeybindingDefinitions {
	const windows = useWindowsKeybindings(platform, env);
	const mac = platform === "darwin";
	return {
		...TUI_KEYBINDINGS,
		"tui.editor.undo": {
			...TUI_KEYBINDINGS["tui.editor.undo"],
			defaultKeys: platform === "win32" ? "ctrl+z" : windows ? "alt+z" : "ctrl+-",
		},
		"tui.altScreen.previousPrompt": {
			...TUI_KEYBINDINGS["tui.altScreen.previousPrompt"],
			defaultKeys: windows ? "ctrl+up" : ["ctrl+shift+up", "ctrl+up"],
		},
		"tui.altScreen.nextPrompt": {
			...TUI_KEYBINDINGS["tui.altScreen.nextPrompt"],
			defaultKeys: windows ? "ctrl+down" : ["ctrl+shift+down", "ctrl+down"],
		},
		"tui.altScreen.search": {
			...TUI_KEYBINDINGS["tui.altScreen.search"],
			defaultKeys: windows ? "ctrl+f" : "ctrl+shift+f",
		},
		"app.interrupt": def("escape", "Abort the run, or cancel what is open"),
		"app.clear": def("ctrl+c", "Clear the editor (twice: quit)"),
		"app.exit": def("ctrl+d", "Quit when the editor is empty"),
		"app.suspend": def(platform === "win32" ? [] : "ctrl+z", "Suspend pi to the background"),
		"app.thinking.cycle": def("shift+tab", "Next thinking level"),
		"app.thinking.save": def("ctrl+s", "Save the thinking level as default"),
		"app.model.cycleForward": def("ctrl+p", "Next model in scope"),
		"app.model.cycleBackward": def(windows ? "alt+p" : "shift+ctrl+p", "Previous model in scope"),
		"app.model.select": def("ctrl+l", "Choose a model"),
		"app.tools.expand": def("ctrl+o", "Expand or collapse tool output"),
		"app.thinking.toggle": def("ctrl+t", "Show or hide thinking blocks"),
		"app.session.toggleNamedFilter": def("ctrl+n", "Only named sessions"),
		"app.editor.external": def("ctrl+g", "Edit in $VISUAL / $EDITOR"),
		"app.message.copy": def("ctrl+x", "Copy the last reply"),
		"app.message.followUp": def(windows ? "ctrl+q" : "alt+enter", "Queue a follow-up message"),
		"app.message.dequeue": def(windows ? "alt+q" : "alt+up", "Put queued messages back in the editor"),
		"app.clipboard.pasteImage": def(windows ? "alt+v" : "ctrl+v", "Paste an image from the clipboard"),
		"app.session.new": def([], "New session"),
		"app.session.tree": def([], "Session tree"),
		"app.session.fork": def([], "Fork the session"),
		"app.session.resume": def([], "Resume a session"),
		"app.tree.foldOrUp": def(
			mac ? ["alt+left", "ctrl+left"] : ["ctrl+left", "alt+left"],
			"Fold, or go to the branch start",
		),
		"app.tree.unfoldOrDown": def(
			mac ? ["alt+right", "ctrl+right"] : ["ctrl+right", "alt+right"],
			"Unfold, or go to the branch end",
		),
		"app.tree.editLabel": def("shift+l", "Edit the entry's label"),
		"app.tree.toggleLabelTimestamp": def("shift+t", "Show label times"),
		"app.session.togglePath": def("ctrl+p", "Show session paths"),
		"app.session.toggleSort": def("ctrl+s", "Change the sort order"),
		"app.session.rename": def("ctrl+r", "Rename the session"),
		"app.session.delete": def("ctrl+d", "Delete the session"),
		"app.session.deleteNoninvasive": def("ctrl+backspace", "Delete the session (empty search only)"),
		"app.models.save": def("ctrl+s", "Save the model scope"),
		"app.models.enableAll": def("ctrl+a", "Enable every model"),
		"app.models.clearAll": def("ctrl+x", "Disable every model"),
		"app.models.toggleProvider": def("ctrl+p", "Toggle the provider's models"),
		"app.models.reorderUp": def("alt+up", "Move the model up"),
		"app.models.reorderDown": def("alt+down", "Move the model down"),
		"app.tree.filter.default": def("ctrl+d", "Tree filter: default"),
		"app.tree.filter.noTools": def("ctrl+t", "Tree filter: no tools"),
		"app.tree.filter.userOnly": def("ctrl+u", "Tree filter: user messages"),
		"app.tree.filter.labeledOnly": def("ctrl+l", "Tree filter: labelled entries"),
		"app.tree.filter.all": def("ctrl+a", "Tree filter: everything"),
		"app.tree.filter.cycleForward": def("ctrl+o", "Next tree filter"),
		"app.tree.filter.cycleBackward": def("shift+ctrl+o", "Previous tree filter"),
	};
}

/** The key table of this machine (platform and terminal as the process sees them). */
export const APP_KEYBINDINGS: KeybindingDefinitions = appKeybindingDefinitions();

/**
 * The app's keybindings with the user's file applied, installed as the process-wide manager (hints and the
 * toolkit's components read it). Warnings are returned for the chat, one line each.
 */
export function loadAppKeybindings(path: string): { keybindings: KeybindingsManager; warnings: string[] } {
	migrateKeybindingsFile(path);
	const { config, warnings } = readKeybindingsFile(path, { definitions: APP_KEYBINDINGS, label: path });
	// The reader reports bad entries and keys bound twice, one line each.
	const keybindings = new KeybindingsManager(APP_KEYBINDINGS, config);
	setKeybindings(keybindings);
	return { keybindings, warnings };
}

/** `/reload`: reads keybindings.json again into the manager in force; returns the file's warnings. */
export function reloadAppKeybindings(keybindings: KeybindingsManager, path: string): string[] {
	const { config, warnings } = readKeybindingsFile(path, { definitions: APP_KEYBINDINGS, label: path });
	keybindings.setUserBindings(config);
	return warnings;
}

/**
 * Rewrites a keybindings.json that still uses pi's old flat names (`cursorUp`, `selectModel`, …) with their ids,
 * as pi 0.87.1 does at start-up: an old name whose id is also there is dropped, the entries are ordered as the
 * key table (unknown ones after, sorted), values are kept as written. A file that is not a JSON object, or has no
 * old name, is left alone; returns whether the file was rewritten.
 */
export function migrateKeybindingsFile(path: string, definitions: KeybindingDefinitions = APP_KEYBINDINGS): boolean {
	try {
		if (!existsSync(path)) return false;
		const raw: unknown = JSON.parse(readFileSync(path, "utf8").replace(/^\uFEFF/, ""));
		if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return false;
		const entries = raw as Record<string, unknown>;
		const renamed: Record<string, unknown> = {};
		let migrated = false;
		for (const [name, value] of Object.entries(entries)) {
			const id = Object.hasOwn(LEGACY_KEYBINDING_NAMES, name) ? (LEGACY_KEYBINDING_NAMES[name] as string) : name;
			if (id === name) {
				renamed[id] = value;
				continue;
			}
			migrated = true;
			if (!Object.hasOwn(entries, id)) renamed[id] = value;
		}
		if (!migrated) return false;
		const known = Object.keys(definitions).filter((id) => Object.hasOwn(renamed, id));
		const rest = Object.keys(renamed)
			.filter((id) => !Object.hasOwn(definitions, id))
			.sort();
		const ordered = Object.fromEntries([...known, ...rest].map((id) => [id, renamed[id]]));
		writeFileSync(path, `${JSON.stringify(ordered, null, 2)}\n`, "utf8");
		return true;
	} catch {
		// An unreadable or malformed file is reported by the reader; it is never rewritten.
		return false;
	}
}
