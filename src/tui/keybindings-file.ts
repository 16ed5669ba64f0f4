/**
 * Reading `<agentDir>/keybindings.json` (pi docs: keybindings.md): an object mapping a keybinding id to one key or
 * a list of keys; a configured value replaces that id's defaults and `[]` unbinds it. Ids of before pi 0.61
 * (`cursorUp`, `selectModel`, …) are read as their namespaced ids (the namespaced one wins when both are there).
 * Nothing here throws or writes: every problem becomes one warning line naming the file and the entry; an unknown
 * key is left out of its list (an entry with no usable key keeps the defaults), and the file stays as it is.
 */
import { existsSync, readFileSync } from "../util/index.ts";
import type { KeybindingDefinitions, KeybindingsConfig } from "./keybindings.ts";
import type { KeyId } from "./keys.ts";

/** Keybinding names of pi before 0.61 and the ids they became. */
export const LEGACY_KEYBINDING_NAMES: Readonly<Record<string, string>> = {
	cursorUp: "tui.editor.cursorUp",
	cursorDown: "tui.editor.cursorDown",
	cursorLeft: "tui.editor.cursorLeft",
	cursorRight: "tui.editor.cursorRight",
	cursorWordLeft: "tui.editor.cursorWordLeft",
	cursorWordRight: "tui.editor.cursorWordRight",
	cursorLineStart: "tui.editor.cursorLineStart",
	cursorLineEnd: "tui.editor.cursorLineEnd",
	jumpForward: "tui.editor.jumpForward",
	jumpBackward: "tui.editor.jumpBackward",
	pageUp: "tui.editor.pageUp",
	pageDown: "tui.editor.pageDown",
	deleteCharBackward: "tui.editor.deleteCharBackward",
	deleteCharForward: "tui.editor.deleteCharForward",
	deleteWordBackward: "tui.editor.deleteWordBackward",
	deleteWordForward: "tui.editor.deleteWordForward",
	deleteToLineStart: "tui.editor.deleteToLineStart",
	deleteToLineEnd: "tui.editor.deleteToLineEnd",
	yank: "tui.editor.yank",
	yankPop: "tui.editor.yankPop",
	undo: "tui.editor.undo",
	newLine: "tui.input.newLine",
	submit: "tui.input.submit",
	tab: "tui.input.tab",
	copy: "tui.input.copy",
	selectUp: "tui.select.up",
	selectDown: "tui.select.down",
	selectPageUp: "tui.select.pageUp",
	selectPageDown: "tui.select.pageDown",
	selectConfirm: "tui.select.confirm",
	selectCancel: "tui.select.cancel",
	interrupt: "app.interrupt",
	clear: "app.clear",
	exit: "app.exit",
	suspend: "app.suspend",
	cycleThinkingLevel: "app.thinking.cycle",
	cycleModelForward: "app.model.cycleForward",
	cycleModelBackward: "app.model.cycleBackward",
	selectModel: "app.model.select",
	expandTools: "app.tools.expand",
	toggleThinking: "app.thinking.toggle",
	toggleSessionNamedFilter: "app.session.toggleNamedFilter",
	externalEditor: "app.editor.external",
	followUp: "app.message.followUp",
	dequeue: "app.message.dequeue",
	pasteImage: "app.clipboard.pasteImage",
	newSession: "app.session.new",
	tree: "app.session.tree",
	fork: "app.session.fork",
	resume: "app.session.resume",
	treeFoldOrUp: "app.tree.foldOrUp",
	treeUnfoldOrDown: "app.tree.unfoldOrDown",
	treeEditLabel: "app.tree.editLabel",
	treeToggleLabelTimestamp: "app.tree.toggleLabelTimestamp",
	toggleSessionPath: "app.session.togglePath",
	toggleSessionSort: "app.session.toggleSort",
	renameSession: "app.session.rename",
	deleteSession: "app.session.delete",
	deleteSessionNoninvasive: "app.session.deleteNoninvasive",
};

const MODIFIERS = ["ctrl", "shift", "alt", "super"] as const;
const NAMED_KEYS = new Set([
	"escape",
	"esc",
	"enter",
	"return",
	"tab",
	"space",
	"backspace",
	"delete",
	"insert",
	"clear",
	"home",
	"end",
	"pageup",
	"pagedown",
	"up",
	"down",
	"left",
	"right",
	...Array.from({ length: 12 }, (_, i) => `f${i + 1}`),
]);
const SINGLE_KEYS = new Set("abcdefghijklmnopqrstuvwxyz0123456789`-=[]\\;',./!@#$%^&*()_+|~{}:<>?");

/**
 * The canonical form of a key id ("Shift+Ctrl+P" → "ctrl+shift+p"), or undefined when it is not a key the
 * syntax of keybindings.md allows (unknown modifier or key, nothing after the last `+`).
 */
export function canonicalKeyId(keyId: string): string | undefined {
	const parts = keyId.trim().toLowerCase().split("+");
	const key = parts.pop() as string;
	if (!NAMED_KEYS.has(key) && !(key.length === 1 && SINGLE_KEYS.has(key))) return undefined;
	const mods = new Set<string>();
	for (const part of parts) {
		if (!(MODIFIERS as readonly string[]).includes(part)) return undefined;
		mods.add(part);
	}
	return [...MODIFIERS.filter((m) => mods.has(m)), key].join("+");
}

export interface KeybindingsFileResult {
	/** The valid entries, ready for `KeybindingsManager.setUserBindings`. */
	config: KeybindingsConfig;
	/** One line per problem: `<file>: "<id>": <reason>`. */
	warnings: string[];
}

/**
 * Read a keybindings.json. A missing file is no bindings. `definitions` (all ids the application knows) makes
 * unknown ids a warning; `label` is how messages name the file (default: `path`).
 */
export function readKeybindingsFile(
	path: string,
	options: { definitions?: KeybindingDefinitions; label?: string } = {},
): KeybindingsFileResult {
	const label = options.label ?? path;
	const config: KeybindingsConfig = {};
	const warnings: string[] = [];
	if (!existsSync(path)) return { config, warnings };
	let raw: unknown;
	try {
		raw = JSON.parse(readFileSync(path, "utf8").replace(/^\uFEFF/, ""));
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		warnings.push(`${label}: not valid JSON (${reason}); keybindings from it are ignored`);
		return { config, warnings };
	}
	if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
		warnings.push(`${label}: expected an object mapping keybinding ids to keys; keybindings from it are ignored`);
		return { config, warnings };
	}
	const entries = raw as Record<string, unknown>;
	for (const [name, value] of Object.entries(entries)) {
		const id = LEGACY_KEYBINDING_NAMES[name] ?? name;
		// A renamed entry gives way to the same binding under its new id.
		if (id !== name && Object.hasOwn(entries, id)) continue;
		if (options.definitions && !Object.hasOwn(options.definitions, id)) {
			warnings.push(`${label}: "${name}": unknown keybinding id`);
			continue;
		}
		const keys = typeof value === "string" ? [value] : Array.isArray(value) ? value : undefined;
		if (!keys || keys.some((key) => typeof key !== "string")) {
			warnings.push(`${label}: "${name}": expected a key or a list of keys, got ${JSON.stringify(value)}`);
			continue;
		}
		const valid: KeyId[] = [];
		for (const key of keys as string[]) {
			if (canonicalKeyId(key) === undefined) warnings.push(`${label}: "${name}": unknown key "${key}"`);
			else valid.push(key as KeyId);
		}
		// Nothing usable left: the entry is ignored and the defaults stay, rather than unbinding the action.
		if (valid.length === 0 && keys.length > 0) continue;
		config[id] = typeof value === "string" ? valid[0] : valid;
	}
	warnings.push(...conflictWarnings(config, label));
	return { config, warnings };
}

/** A key the file binds to more than one id (compared in canonical form, so "shift+ctrl+p" is "ctrl+shift+p"). */
function conflictWarnings(config: KeybindingsConfig, label: string): string[] {
	const claims = new Map<string, { key: string; ids: string[] }>();
	for (const [id, keys] of Object.entries(config)) {
		for (const key of Array.isArray(keys) ? keys : keys === undefined ? [] : [keys]) {
			const canonical = canonicalKeyId(key) as string;
			const claim = claims.get(canonical) ?? { key, ids: [] };
			if (!claim.ids.includes(id)) claim.ids.push(id);
			claims.set(canonical, claim);
		}
	}
	return [...claims.values()]
		.filter((claim) => claim.ids.length > 1)
		.map((claim) => `${label}: "${claim.key}" is bound to ${claim.ids.map((id) => `"${id}"`).join(" and ")}`);
}
