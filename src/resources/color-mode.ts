/**
 * Which colour sequences themes write: 24-bit (`truecolor`) or the xterm 256-colour palette. The rules are pi
 * 0.87.1's terminal capability rules: the `terminal.trueColor` setting wins, then `PI_TRUE_COLOR=1|0`, then
 * terminals known to render 24-bit colour (kitty, Ghostty, WezTerm, Warp, iTerm2, Windows Terminal, Alacritty,
 * VS Code, Zed, JetBrains), and otherwise `COLORTERM=truecolor|24bit` (also the only hint inside tmux and screen).
 */

export type ColorMode = "truecolor" | "256color";

export interface ColorSupport {
	mode: ColorMode;
}

function knownTrueColorTerminal(env: NodeJS.ProcessEnv, platform: string): boolean | undefined {
	const program = (env.TERM_PROGRAM ?? "").toLowerCase();
	const term = (env.TERM ?? "").toLowerCase();
	if (env.TMUX || term.startsWith("tmux") || term.startsWith("screen")) return undefined;
	if (env.KITTY_WINDOW_ID || program === "kitty") return true;
	if (program === "ghostty" || term.includes("ghostty") || env.GHOSTTY_RESOURCES_DIR) return true;
	if (env.WEZTERM_PANE || program === "wezterm") return true;
	if (program === "warpterminal" || env.WARP_SESSION_ID || env.WARP_TERMINAL_SESSION_UUID) return true;
	if (env.ITERM_SESSION_ID || program === "iterm.app") return true;
	if (env.WT_SESSION) return true;
	if (program === "alacritty" || program === "vscode" || program === "zed") return true;
	if ((env.TERMINAL_EMULATOR ?? "").toLowerCase() === "jetbrains-jediterm") return true;
	if (platform === "win32") return true;
	return undefined;
}

/** Reads the colour mode from the environment; `trueColor` is the `terminal.trueColor` setting. */
export function detectColorSupport(
	env: NodeJS.ProcessEnv = process.env,
	trueColor: boolean | "auto" = "auto",
	platform: string = process.platform,
): ColorSupport {
	if (trueColor !== "auto") return { mode: trueColor ? "truecolor" : "256color" };
	const forced = env.PI_TRUE_COLOR === "1" ? true : env.PI_TRUE_COLOR === "0" ? false : undefined;
	const colorterm = (env.COLORTERM ?? "").toLowerCase();
	const hinted = colorterm === "truecolor" || colorterm === "24bit";
	const truecolor = forced ?? knownTrueColorTerminal(env, platform) ?? hinted;
	return { mode: truecolor ? "truecolor" : "256color" };
}

const CUBE_STEPS = [0, 95, 135, 175, 215, 255];

function nearest(values: readonly number[], target: number): number {
	let best = 0;
	for (let i = 1; i < values.length; i++) {
		if (Math.abs((values[i] as number) - target) < Math.abs((values[best] as number) - target)) best = i;
	}
	return best;
}

/** Squared distance weighted by how sensitive the eye is to each channel. */
function distance(a: readonly number[], b: readonly number[]): number {
	return (a[0]! - b[0]!) ** 2 * 0.299 + (a[1]! - b[1]!) ** 2 * 0.587 + (a[2]! - b[2]!) ** 2 * 0.114;
}

export function hexToRgb(hex: string): [number, number, number] {
	const n = Number.parseInt(hex.slice(1), 16);
	return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const GREYS = Array.from({ length: 24 }, (_, i) => 8 + i * 10);

/**
 * The xterm 256-colour index for a "#rrggbb" colour, as pi picks it: the nearest entry of the 6×6×6 cube, unless
 * the colour is nearly neutral (channels within 10 of each other) and a grey of the ramp is closer.
 */
export function hexToAnsi256(hex: string): number {
	const rgb = hexToRgb(hex);
	const steps = rgb.map((c) => nearest(CUBE_STEPS, c)) as [number, number, number];
	const cube = 16 + 36 * steps[0] + 6 * steps[1] + steps[2];
	const greyIndex = nearest(GREYS, Math.round(0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]));
	const grey = GREYS[greyIndex] as number;
	const neutral = Math.max(...rgb) - Math.min(...rgb) < 10;
	const cubeRgb = steps.map((s) => CUBE_STEPS[s] as number);
	return neutral && distance(rgb, [grey, grey, grey]) < distance(rgb, cubeRgb) ? 232 + greyIndex : cube;
}
