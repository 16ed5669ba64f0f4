/** Options of the fullscreen renderer and the mouse modes it asks the terminal for. */

export interface TuiAltScreenOptions {
	/** Lines one wheel notch scrolls (default 1; ×5 with Alt). */
	wheelScrollLines?: number;
	/** Report the mouse (scrolling, selection, clicks). Default true. */
	mouse?: boolean;
	searchMatchStyle?: (text: string) => string;
	searchCurrentMatchStyle?: (text: string) => string;
	searchNavigationButtonStyle?: (text: string, hovered: boolean) => string;
	/** A clickable label centred on the last row of a follow-end primary view while it is scrolled up. */
	scrollToEndIndicator?: () => string;
	/** Open an OSC 8 link clicked with the left button. */
	openUrl?: (url: string) => void;
	/** Right-click paste (Windows only). */
	onRightClickPaste?: () => void;
	/** Copy the selection when the button is released (default true). */
	copyOnSelect?: boolean;
	/** Copy to the system clipboard: true, an error message, or false. Without it the copy is an OSC 52 write. */
	copySelection?: (text: string) => Promise<boolean | string>;
}

export const ENTER = "\x1b[?1049h";
export const LEAVE = "\x1b[?1049l";
export const AUTOWRAP_OFF = "\x1b[?7l";
export const AUTOWRAP_ON = "\x1b[?7h";
export const MOUSE_OFF = "\x1b[?1006l\x1b[?1004l\x1b[?1003l\x1b[?1002l\x1b[?1000l";
export const SYNC_BEGIN = "\x1b[?2026h";
export const SYNC_END = "\x1b[?2026l";
export const MOUSE_BUTTON_MOTION = "\x1b[?1000h\x1b[?1002h\x1b[?1004h\x1b[?1006h";
export const MOUSE_ALL_MOTION = "\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1004h\x1b[?1006h";

/** Multiplexers get button-motion tracking only: all-motion floods them with events. */
export function mouseModesFor(env: NodeJS.ProcessEnv): string {
	const term = env.TERM?.toLowerCase() ?? "";
	const multiplexed =
		env.TMUX !== undefined ||
		env.ZELLIJ !== undefined ||
		env.STY !== undefined ||
		term.startsWith("tmux") ||
		term.startsWith("screen");
	return multiplexed ? MOUSE_BUTTON_MOTION : MOUSE_ALL_MOTION;
}

/** Leave the alternate screen and write `lines` (prepared rows) on the main screen, cursor below them. */
export function leaveWithDocument(lines: readonly string[]): string {
	const rows = lines.map((line, row) => `${row > 0 ? "\r\n" : ""}\r\x1b[2K${line}`).join("");
	return `${SYNC_BEGIN}${LEAVE}${AUTOWRAP_OFF}${rows}\x1b[0m${AUTOWRAP_ON}\r\n\x1b[?25h${SYNC_END}`;
}
