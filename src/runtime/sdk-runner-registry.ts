/**
 * What pi's `ExtensionRunner` reads out of the loaded extensions besides events: commands with their invocation
 * names, shortcuts checked against the keybindings, and the UI context whose dialogs announce themselves with
 * `ui_prompt_start` / `ui_prompt_end`.
 */
import { createNoopUi } from "../extensions/index.ts";
import { currentTheme } from "../resources/index.ts";
import type { SdkExtension } from "./sdk-extension-view.ts";

type Command = SdkExtension["commands"] extends Map<string, infer C> ? C : never;
type Shortcut = SdkExtension["shortcuts"] extends Map<string, infer S> ? S : never;
export type ResolvedCommand = Command & { invocationName: string };

/**
 * Every command in load order. A name registered more than once is invoked as `name:N` (N its 1-based
 * occurrence, or the next free number when that is taken); a unique name stays plain.
 */
export function resolveCommands(extensions: readonly SdkExtension[]): ResolvedCommand[] {
	const all = extensions.flatMap((ext) => [...ext.commands.values()]);
	const total = new Map<string, number>();
	for (const command of all) total.set(command.name, (total.get(command.name) ?? 0) + 1);
	const seen = new Map<string, number>();
	const taken = new Set<string>();
	return all.map((command) => {
		const occurrence = (seen.get(command.name) ?? 0) + 1;
		seen.set(command.name, occurrence);
		let invocationName = (total.get(command.name) ?? 0) > 1 ? `${command.name}:${occurrence}` : command.name;
		for (let n = occurrence + 1; taken.has(invocationName); n++) invocationName = `${command.name}:${n}`;
		taken.add(invocationName);
		return { ...command, invocationName };
	});
}

/** Keybinding ids whose keys an extension shortcut may not take; other bound keys may be taken, with a warning. */
export const RESERVED_ACTIONS: ReadonlySet<string> = new Set([
	"app.interrupt",
	"app.clear",
	"app.exit",
	"app.suspend",
	"app.thinking.cycle",
	"app.model.cycleForward",
	"app.model.cycleBackward",
	"app.model.select",
	"app.tools.expand",
	"app.thinking.toggle",
	"app.editor.external",
	"app.message.copy",
	"app.message.followUp",
	"tui.input.submit",
	"tui.select.confirm",
	"tui.select.cancel",
	"tui.input.copy",
	"tui.editor.deleteToLineEnd",
]);

export interface ShortcutDiagnostic {
	type: "warning";
	message: string;
	path: string;
}

/**
 * Shortcuts by lower-cased key. Keys of reserved actions are refused; a key bound to another action, or taken by
 * an earlier extension, goes to the later extension, with a warning (printed too when there is no UI).
 */
export function resolveShortcuts(
	extensions: readonly SdkExtension[],
	keybindings: Record<string, string | string[] | undefined>,
	warnToConsole: boolean,
): { shortcuts: Map<string, Shortcut>; diagnostics: ShortcutDiagnostic[] } {
	const bound = new Map<string, { action: string; reserved: boolean }>();
	for (const [action, keys] of Object.entries(keybindings)) {
		if (keys === undefined) continue;
		const reserved = RESERVED_ACTIONS.has(action);
		for (const key of Array.isArray(keys) ? keys : [keys]) {
			const id = key.toLowerCase();
			// When several actions share a key, a reserved one keeps it.
			if (bound.get(id)?.reserved && !reserved) continue;
			bound.set(id, { action, reserved });
		}
	}
	const shortcuts = new Map<string, Shortcut>();
	const diagnostics: ShortcutDiagnostic[] = [];
	const warn = (message: string, path: string) => {
		diagnostics.push({ type: "warning", message, path });
		if (warnToConsole) console.warn(message);
	};
	for (const ext of extensions) {
		for (const [key, shortcut] of ext.shortcuts) {
			const id = key.toLowerCase();
			const builtin = bound.get(id);
			const owner = shortcut.extensionPath;
			if (builtin?.reserved) {
				warn(`Extension shortcut '${key}' from ${owner} conflicts with built-in shortcut. Skipping.`, owner);
				continue;
			}
			if (builtin) {
				warn(
					`Extension shortcut conflict: '${key}' is built-in shortcut for ${builtin.action} and ${owner}. Using ${owner}.`,
					owner,
				);
			}
			const earlier = shortcuts.get(id);
			if (earlier) {
				warn(
					`Extension shortcut conflict: '${key}' registered by both ${earlier.extensionPath} and ${owner}. Using ${owner}.`,
					owner,
				);
			}
			shortcuts.set(id, shortcut);
		}
	}
	return { shortcuts, diagnostics };
}

/** `ctx.ui` when no UI is bound: dialogs answer as dismissed, the rest does nothing; `theme` is the run's. */
export const NO_UI: Record<string, unknown> = Object.defineProperty(createNoopUi(), "theme", {
	enumerable: true,
	get: () => currentTheme(),
});

type PromptKind = "select" | "confirm" | "input" | "editor" | "custom";
export type PromptAnnouncer = (type: "ui_prompt_start" | "ui_prompt_end", kind: PromptKind, title?: string) => void;

/**
 * The UI with its dialogs wrapped: the outermost dialog announces its start and end (nested ones, opened while
 * it is up, do not), and the end names the dialog that started.
 */
export function announcingUi(ui: Record<string, any>, announce: PromptAnnouncer): Record<string, unknown> {
	let depth = 0;
	let active: { kind: PromptKind; title?: string } | undefined;
	const around = (kind: PromptKind, title: string | undefined, open: () => Promise<unknown>) => {
		if (depth++ === 0) {
			active = { kind, ...(title ? { title } : {}) };
			announce("ui_prompt_start", kind, title);
		}
		const finish = () => {
			if (--depth > 0) return;
			depth = 0;
			const started = active ?? { kind, title };
			active = undefined;
			announce("ui_prompt_end", started.kind, started.title);
		};
		try {
			return open().finally(finish);
		} catch (error) {
			finish();
			throw error;
		}
	};
	return {
		...ui,
		select: (title: string, options: string[], opts?: unknown) =>
			around("select", title, () => ui.select(title, options, opts)),
		confirm: (title: string, message: string, opts?: unknown) =>
			around("confirm", title, () => ui.confirm(title, message, opts)),
		input: (title: string, placeholder?: string, opts?: unknown) =>
			around("input", title, () => ui.input(title, placeholder, opts)),
		editor: (title: string, prefill?: string) => around("editor", title, () => ui.editor(title, prefill)),
		custom: (factory: unknown, options?: unknown) => around("custom", undefined, () => ui.custom(factory, options)),
	};
}
