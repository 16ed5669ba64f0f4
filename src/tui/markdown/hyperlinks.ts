/**
 * Whether links are printed as OSC 8 hyperlinks (the terminal shows the text, clickable) or as `text (url)`.
 * Follows pi-tui 0.87.1's detection: `PI_HYPERLINKS=1|0` forces it; otherwise terminals known to support OSC 8
 * (kitty, Ghostty, WezTerm, Warp, iTerm2, Windows Terminal, Alacritty, VS Code, Zed) get hyperlinks, and tmux,
 * screen, JetBrains and unknown terminals do not (under tmux pi asks tmux; we only honour `PI_HYPERLINKS`).
 */

let override: boolean | undefined;
let detected: boolean | undefined;

function detect(env: NodeJS.ProcessEnv): boolean {
	const forced = env.PI_HYPERLINKS === "1" ? true : env.PI_HYPERLINKS === "0" ? false : undefined;
	const program = env.TERM_PROGRAM?.toLowerCase() ?? "";
	const term = env.TERM?.toLowerCase() ?? "";
	if (forced !== undefined) return forced;
	if (env.TMUX || term.startsWith("tmux") || term.startsWith("screen")) return false;
	if (env.KITTY_WINDOW_ID || program === "kitty") return true;
	if (program === "ghostty" || term.includes("ghostty") || env.GHOSTTY_RESOURCES_DIR) return true;
	if (env.WEZTERM_PANE || program === "wezterm") return true;
	if (program === "warpterminal" || env.WARP_SESSION_ID || env.WARP_TERMINAL_SESSION_UUID) return true;
	if (env.ITERM_SESSION_ID || program === "iterm.app") return true;
	if (env.WT_SESSION) return true;
	return program === "alacritty" || program === "vscode" || program === "zed";
}

/** Whether Markdown links become OSC 8 hyperlinks (detected once, unless overridden). */
export function markdownHyperlinks(): boolean {
	if (override !== undefined) return override;
	detected ??= detect(process.env);
	return detected;
}

/** Forces hyperlinks on or off (settings `terminal.hyperlinks`), or back to detection with undefined. */
export function setMarkdownHyperlinks(value: boolean | undefined): void {
	override = value;
	detected = undefined;
}

/** `text` as an OSC 8 hyperlink to `url`. */
export function osc8(text: string, url: string): string {
	return `\x1b]8;;${url}\x1b\\${text}\x1b]8;;\x1b\\`;
}
