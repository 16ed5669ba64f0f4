/**
 * What the extension dialogs share: the run's theme, the rule above and below them (the theme's `border` colour),
 * and key matching that knows pi's default keys for app actions the keybindings manager given does not define.
 */
import { DynamicBorder, getKeybindings, type KeybindingsManager, type KeyId, matchesKey } from "../../../tui/index.ts";
import { theme } from "../components/style.ts";

export { theme };

/** Anything that can be asked to redraw, as the countdown needs it. */
export interface Redrawable {
	requestRender(): void;
}

/** A full-width rule in the theme's `border` colour (read at each draw). */
export function dialogBorder(): DynamicBorder {
	return new DynamicBorder((text) => theme().fg("border", text));
}

const APP_DEFAULTS: Record<string, KeyId[]> = {
	"app.tools.expand": ["ctrl+o"],
	"app.editor.external": ["ctrl+g"],
};

/** Whether `data` is bound to `action`; app actions unknown to `keybindings` use pi's default keys. */
export function keyMatches(data: string, action: string, keybindings: KeybindingsManager = getKeybindings()): boolean {
	if (keybindings.getDefinition(action) === undefined && action in APP_DEFAULTS)
		return (APP_DEFAULTS[action] ?? []).some((key) => matchesKey(data, key));
	return keybindings.matches(data, action);
}
