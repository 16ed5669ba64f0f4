/**
 * Small pieces the model, thinking, scoped-models and login selectors share: key names in hints, the theme, the
 * visible window of a long list and wrapping moves.
 */
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

/** The rows `[start, end)` shown of `total`, keeping `selected` near the middle. */
export function visibleWindow(selected: number, total: number, max: number): { start: number; end: number } {
	const start = Math.max(0, Math.min(selected - Math.floor(max / 2), total - max));
	return { start, end: Math.min(start + max, total) };
}

/** `selected` moved one row up (-1) or down (+1), wrapping around a list of `count` rows. */
export function wrapMove(selected: number, count: number, delta: -1 | 1): number {
	return (selected + delta + count) % count;
}
