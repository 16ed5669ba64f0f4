/**
 * Key names in hints. Keys come from the process-wide keybindings manager (the user's keybindings.json applied);
 * app actions it does not define show pi's default keys.
 */
import { formatKeyText, type Keybinding, keyText } from "../../../tui/index.ts";
import { type ChromeTheme, themeOf } from "./theme.ts";

const windowsKeys =
	process.platform === "win32" ||
	(process.platform === "linux" && Boolean(process.env.WSL_DISTRO_NAME || process.env.WSL_INTEROP));

const APP_DEFAULT_KEYS: Record<string, string> = {
	"app.interrupt": "escape",
	"app.clear": "ctrl+c",
	"app.exit": "ctrl+d",
	"app.suspend": process.platform === "win32" ? "" : "ctrl+z",
	"app.thinking.cycle": "shift+tab",
	"app.thinking.toggle": "ctrl+t",
	"app.model.cycleForward": "ctrl+p",
	"app.model.cycleBackward": windowsKeys ? "alt+p" : "shift+ctrl+p",
	"app.model.select": "ctrl+l",
	"app.tools.expand": "ctrl+o",
	"app.editor.external": "ctrl+g",
	"app.message.followUp": windowsKeys ? "ctrl+q" : "alt+enter",
	"app.message.dequeue": windowsKeys ? "alt+q" : "alt+up",
	"app.clipboard.pasteImage": windowsKeys ? "alt+v" : "ctrl+v",
};

/** The keys bound to an action, as text (`escape`, `ctrl+c/ctrl+d`). */
export function appKeyText(binding: Keybinding): string {
	const bound = keyText(binding);
	if (bound) return bound;
	const fallback = APP_DEFAULT_KEYS[binding];
	return fallback ? formatKeyText(fallback) : "";
}

/** `<keys> <description>`: keys dim, description muted. */
export function keyHint(binding: Keybinding, description: string, theme?: ChromeTheme): string {
	return rawKeyHint(appKeyText(binding), description, theme);
}

/** Like keyHint for keys written out (`"ctrl+o"`, `"/"`). */
export function rawKeyHint(key: string, description: string, theme?: ChromeTheme): string {
	const t = themeOf(theme);
	return t.fg("dim", formatKeyText(key)) + t.fg("muted", ` ${description}`);
}
