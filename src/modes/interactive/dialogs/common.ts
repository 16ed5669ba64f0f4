/**
 * What the extension dialogs share: the run's theme, the rule above and below them (the theme's `border` colour),
 * and key matching that knows pi's default keys for app actions the keybindings manager given does not define.
 */
import {
	type Container,
	DynamicBorder,
	getKeybindings,
	type KeybindingsManager,
	type KeyId,
	matchesKey,
	Spacer,
	Text,
} from "../../../tui/index.ts";
import { CountdownTimer } from "../chrome/index.ts";
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

export interface DialogHeadOptions {
	tui?: Redrawable;
	timeout?: number;
	description?: string;
}

/**
 * The top of a dialog: a rule, the styled title (with ` (Ns)` counting down when there is a timeout and a TUI to
 * redraw), the optional description, a blank row. Returns the countdown (dispose it with the dialog).
 */
export function addDialogHead(
	dialog: Container,
	baseTitle: string,
	style: (text: string) => string,
	opts: DialogHeadOptions,
	onTimeout: () => void,
): CountdownTimer | undefined {
	dialog.addChild(dialogBorder());
	dialog.addChild(new Spacer(1));
	const titleText = new Text(style(baseTitle), 1, 0);
	dialog.addChild(titleText);
	if (opts.description) {
		dialog.addChild(new Spacer(1));
		dialog.addChild(new Text(theme().fg("text", opts.description), 1, 0));
	}
	dialog.addChild(new Spacer(1));
	if (!opts.timeout || opts.timeout <= 0 || !opts.tui) return undefined;
	return new CountdownTimer(
		opts.timeout,
		opts.tui,
		(seconds) => titleText.setText(style(`${baseTitle} (${seconds}s)`)),
		onTimeout,
	);
}
