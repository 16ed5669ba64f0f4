/**
 * Extension shortcuts (`pi.registerShortcut`), checked before the editor sees a key. A key that one of the
 * reserved app actions uses is refused (one warning); otherwise the last extension to register a key wins. A
 * handler runs asynchronously with the session's context; a throw is shown as an error line.
 */
import type { ExtensionHost, RuntimeHost } from "../../../runtime/index.ts";
import { RESERVED_ACTIONS } from "../../../runtime/index.ts";
import { type KeybindingsManager, type KeyId, matchesKey } from "../../../tui/index.ts";

export interface Shortcut {
	key: string;
	extensionPath: string;
	description?: string;
	handler: (ctx: unknown) => unknown;
}

export function collectShortcuts(
	extensions: ExtensionHost,
	keybindings: KeybindingsManager,
	warn: (line: string) => void,
): Shortcut[] {
	const reservedKeys = new Set<string>();
	for (const action of RESERVED_ACTIONS) for (const key of keybindings.getKeys(action)) reservedKeys.add(key);
	const byKey = new Map<string, Shortcut>();
	for (const extension of extensions.extensions) {
		const path = extension.entry.path;
		for (const [key, definition] of extension.handle.registrations.shortcuts) {
			const id = key.toLowerCase();
			if (reservedKeys.has(id as KeyId)) {
				warn(`Extension shortcut '${key}' from ${path} conflicts with a built-in shortcut. Skipping.`);
				continue;
			}
			const description = definition.description ? { description: definition.description } : {};
			byKey.set(id, { key: id, extensionPath: path, ...description, handler: definition.handler });
		}
	}
	return [...byKey.values()];
}

/** The editor's `onExtensionShortcut`: true when a shortcut took the key. */
export function shortcutDispatcher(
	shortcuts: () => readonly Shortcut[],
	host: RuntimeHost,
	report: (error: unknown) => void,
): (data: string) => boolean {
	return (data) => {
		for (const shortcut of shortcuts()) {
			if (!matchesKey(data, shortcut.key as KeyId)) continue;
			const ctx = host.current.bridge.scope.context();
			Promise.resolve()
				.then(() => shortcut.handler(ctx))
				.catch(report);
			return true;
		}
		return false;
	};
}
