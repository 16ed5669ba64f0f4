/**
 * pi's rules for what extensions register, checked once the extensions are loaded:
 * - a command named like a built-in command of the running mode (`/new`, `/reload`, …) is skipped with a
 *   diagnostic (print and JSON modes have only `/compact` and `/reload`; RPC has none);
 * - a command name registered by several extensions stays reachable: the first keeps the plain name and every
 *   registration also answers to `name:N` (N = its 1-based position among them);
 * - a shortcut on a key reserved by pi (interrupt, clear, exit, submit, …) is skipped with a diagnostic; one on a
 *   key another built-in action uses overrides it with a warning; the same key from two extensions: the first
 *   wins, with a warning.
 */
import type { CommandDefinition } from "./types.ts";

/** Built-in slash commands of pi 0.87.1 (interactive mode), which extension commands may not take over. */
export const BUILTIN_COMMANDS: ReadonlySet<string> = new Set([
	"settings",
	"model",
	"thinking",
	"scoped-models",
	"login",
	"logout",
	"llama",
	"new",
	"resume",
	"name",
	"session",
	"tree",
	"fork",
	"clone",
	"compact",
	"import",
	"copy",
	"export",
	"share",
	"bug",
	"trust",
	"reload",
	"hotkeys",
	"changelog",
	"quit",
]);

/** Default keys of the 17 actions pi reserves (they cannot be rebound by extensions). */
const RESERVED_KEYS: ReadonlySet<string> = new Set([
	"escape",
	"ctrl+c",
	"ctrl+d",
	"ctrl+z",
	"shift+tab",
	"ctrl+p",
	"shift+ctrl+p",
	"ctrl+l",
	"ctrl+o",
	"ctrl+t",
	"ctrl+g",
	"alt+enter",
	"enter",
	"ctrl+k",
]);

/** Keys of other built-in actions: an extension may take them over, with a warning. */
const BUILTIN_KEYS: ReadonlyMap<string, string> = new Map([
	["ctrl+v", "paste image"],
	["alt+v", "paste image"],
	["alt+up", "restore queued messages"],
	["ctrl+left", "tree fold"],
	["ctrl+right", "tree unfold"],
	["alt+left", "tree fold"],
	["alt+right", "tree unfold"],
	["shift+l", "tree label"],
	["shift+t", "tree timestamps"],
]);

/** Normalises a key id for comparison: lower case, modifiers in a fixed order. */
export function normalizeKey(key: string): string {
	const parts = key
		.toLowerCase()
		.split("+")
		.map((p) => p.trim());
	const base = parts.pop() ?? "";
	const order = ["shift", "ctrl", "alt", "meta"];
	const modifiers = parts.filter((p) => order.includes(p)).sort((a, b) => order.indexOf(a) - order.indexOf(b));
	return [...modifiers, base].join("+");
}

export interface RegistrationOwner {
	path: string;
	commands: Map<string, CommandDefinition>;
	shortcuts: Map<string, unknown>;
}

export interface RegistrationCheck {
	/** Invocation name → command (built-in clashes removed; `name:N` aliases for duplicates). */
	commands: Map<string, { extensionPath: string; command: CommandDefinition }>;
	/** Normalised key → the extension shortcut that owns it. */
	shortcuts: Map<string, { extensionPath: string; shortcut: unknown }>;
	diagnostics: string[];
}

/** `builtins`: the built-in commands of the running mode (all of pi's in the terminal UI; fewer elsewhere). */
export function checkRegistrations(
	owners: readonly RegistrationOwner[],
	builtins: ReadonlySet<string> = BUILTIN_COMMANDS,
): RegistrationCheck {
	const result: RegistrationCheck = { commands: new Map(), shortcuts: new Map(), diagnostics: [] };
	const byName = new Map<string, { extensionPath: string; command: CommandDefinition }[]>();
	for (const owner of owners) {
		for (const [name, command] of owner.commands) {
			if (builtins.has(name)) {
				result.diagnostics.push(`extension ${owner.path}: command /${name} clashes with a built-in command; skipped`);
				continue;
			}
			const list = byName.get(name) ?? [];
			list.push({ extensionPath: owner.path, command });
			byName.set(name, list);
		}
		for (const [key, shortcut] of owner.shortcuts) {
			const id = normalizeKey(key);
			if (RESERVED_KEYS.has(id)) {
				result.diagnostics.push(`extension ${owner.path}: shortcut ${key} is reserved by pi; skipped`);
				continue;
			}
			const taken = result.shortcuts.get(id);
			if (taken) {
				result.diagnostics.push(
					`extension ${owner.path}: shortcut ${key} is already registered by ${taken.extensionPath}; ignored`,
				);
				continue;
			}
			const builtin = BUILTIN_KEYS.get(id);
			if (builtin) {
				result.diagnostics.push(`extension ${owner.path}: shortcut ${key} replaces the built-in "${builtin}"`);
			}
			result.shortcuts.set(id, { extensionPath: owner.path, shortcut });
		}
	}
	for (const [name, list] of byName) {
		result.commands.set(name, list[0] as { extensionPath: string; command: CommandDefinition });
		if (list.length < 2) continue;
		list.forEach((entry, index) => {
			result.commands.set(`${name}:${index + 1}`, entry);
		});
		result.diagnostics.push(
			`command /${name} is registered by ${list.length} extensions; use /${name}:1 … /${name}:${list.length}`,
		);
	}
	return result;
}
