/** Small pieces the model, thinking, scoped-models and login selectors share: key names in hints, the theme. */
import { currentTheme, type Theme } from "../../../resources/index.ts";
import { formatKeyText, getKeybindings } from "../../../tui/index.ts";

export const theme = (): Theme => currentTheme();

/** The keys bound to an action, capitalised (`Ctrl+S`, `Escape/Ctrl+C`), as pi's selector hints show them. */
export function keyDisplay(action: string): string {
	const keys = getKeybindings().getKeys(action);
	return keys.length === 0 ? "" : formatKeyText(keys.join("/"), { capitalize: true });
}

/** The keys bound to an action as written (`tab`, `ctrl+s`). */
export function keyPlain(action: string): string {
	return formatKeyText(getKeybindings().getKeys(action).join("/"));
}

export const matches = (data: string, action: string): boolean => getKeybindings().matches(data, action);
