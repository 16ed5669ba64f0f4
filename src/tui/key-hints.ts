/**
 * Key names as the agent shows them in hints: `ctrl+shift+p`, alternatives joined by `/`, `alt` read as `option`
 * on macOS. `keyText` reads the keys bound to a keybinding from the process-wide keybindings manager.
 */
import { getKeybindings, type Keybinding } from "./keybindings.ts";

/** A key id (or several joined by `/`) as people read it; `capitalize` upper-cases each part's first letter. */
export function formatKeyText(key: string, options: { capitalize?: boolean } = {}): string {
	const part = (name: string) => {
		const shown = process.platform === "darwin" && name.toLowerCase() === "alt" ? "option" : name;
		return options.capitalize ? shown.charAt(0).toUpperCase() + shown.slice(1) : shown;
	};
	return key
		.split("/")
		.map((alternative) => alternative.split("+").map(part).join("+"))
		.join("/");
}

/** The keys bound to a keybinding, as text (`escape/ctrl+c`); "" when none is bound. */
export function keyText(keybinding: Keybinding): string {
	const keys = getKeybindings().getKeys(keybinding);
	return keys.length === 0 ? "" : formatKeyText(keys.join("/"));
}
