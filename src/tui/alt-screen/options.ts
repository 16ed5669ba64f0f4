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
