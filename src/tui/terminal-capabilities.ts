/**
 * What the terminal can show: an inline image protocol (Kitty or iTerm2), 24-bit colour, OSC 8 hyperlinks. Found
 * from the environment the terminal sets (no round trip to the terminal), then adjusted by `PI_IMAGE_PROTOCOL`,
 * `PI_TRUE_COLOR` and `PI_HYPERLINKS`, then by overrides the app sets from its settings. The answer is computed once
 * and kept until `resetCapabilitiesCache()`. Also holds the size of one terminal cell in pixels, which the TUI
 * learns from the terminal's reply to a size query and image layout uses.
 */
import { childProcess } from "../util/index.ts";

export type ImageProtocol = "kitty" | "iterm2" | null;

export interface TerminalCapabilities {
	images: ImageProtocol;
	trueColor: boolean;
	hyperlinks: boolean;
}

export interface CellDimensions {
	widthPx: number;
	heightPx: number;
}

/** A typical cell (9×18 px) until the terminal tells us its own. */
let cellSize: CellDimensions = { widthPx: 9, heightPx: 18 };
let cached: TerminalCapabilities | null = null;
let overrides: Partial<TerminalCapabilities> = {};

export function getCellDimensions(): CellDimensions {
	return cellSize;
}

export function setCellDimensions(dims: CellDimensions): void {
	cellSize = dims;
}

/**
 * Asks the tmux client whether it passes OSC 8 links on to the outer terminal: tmux forwards them only when the
 * client's terminal features include `hyperlinks` and drops them otherwise. Any failure (no tmux, no server, slow
 * answer) counts as no.
 */
function tmuxForwardsHyperlinks(): boolean {
	try {
		const features = childProcess().execSync("tmux display-message -p '#{client_termfeatures}'", {
			encoding: "utf8",
			timeout: 250,
			stdio: ["ignore", "pipe", "ignore"],
		});
		return features
			.split(",")
			.map((feature) => feature.trim())
			.includes("hyperlinks");
	} catch {
		return false;
	}
}

const KITTY_GRAPHICS: TerminalCapabilities = { images: "kitty", trueColor: true, hyperlinks: true };

function fromEnvironment(env: NodeJS.ProcessEnv, tmuxHyperlinks: () => boolean): TerminalCapabilities {
	const program = env.TERM_PROGRAM?.toLowerCase() || "";
	const emulator = env.TERMINAL_EMULATOR?.toLowerCase() || "";
	const term = env.TERM?.toLowerCase() || "";
	const colorTerm = env.COLORTERM?.toLowerCase() || "";
	const saysTrueColor = colorTerm === "truecolor" || colorTerm === "24bit";

	// Multiplexers sit between us and the real terminal: images do not survive them, 24-bit colour only when
	// COLORTERM says so, links only when tmux confirms it forwards them (screen never does).
	if (env.TMUX || term.startsWith("tmux"))
		return { images: null, trueColor: saysTrueColor, hyperlinks: tmuxHyperlinks() };
	if (term.startsWith("screen")) return { images: null, trueColor: saysTrueColor, hyperlinks: false };

	if (env.KITTY_WINDOW_ID || program === "kitty") return { ...KITTY_GRAPHICS };
	if (program === "ghostty" || term.includes("ghostty") || env.GHOSTTY_RESOURCES_DIR) return { ...KITTY_GRAPHICS };
	if (env.WEZTERM_PANE || program === "wezterm") return { ...KITTY_GRAPHICS };
	if (program === "warpterminal" || env.WARP_SESSION_ID || env.WARP_TERMINAL_SESSION_UUID) return { ...KITTY_GRAPHICS };
	if (env.ITERM_SESSION_ID || program === "iterm.app") return { images: "iterm2", trueColor: true, hyperlinks: true };

	// Terminals with 24-bit colour and links but no image protocol we speak.
	if (env.WT_SESSION) return { images: null, trueColor: true, hyperlinks: true };
	if (program === "alacritty" || program === "vscode" || program === "zed") {
		return { images: null, trueColor: true, hyperlinks: true };
	}
	if (emulator === "jetbrains-jediterm") return { images: null, trueColor: true, hyperlinks: false };
	// A Windows console (Windows Terminal started without WT_SESSION, conhost) has 24-bit colour; links stay off
	// because nothing above confirmed them.
	if (process.platform === "win32") return { images: null, trueColor: true, hyperlinks: false };
	// Unknown terminal: a terminal that swallows OSC 8 would hide the URL, so links stay off.
	return { images: null, trueColor: saysTrueColor, hyperlinks: false };
}

/** "1" → true, "0" → false, anything else → no override. */
function flag(value: string | undefined): boolean | undefined {
	if (value === "1") return true;
	if (value === "0") return false;
	return undefined;
}

function imageProtocolOverride(value: string | undefined): ImageProtocol | undefined {
	const wanted = value?.toLowerCase();
	if (wanted === "kitty" || wanted === "iterm2") return wanted;
	if (wanted === "none" || wanted === "0") return null;
	return undefined;
}

/**
 * The capabilities the environment implies, with `PI_IMAGE_PROTOCOL` (kitty, iterm2, none/0), `PI_TRUE_COLOR` and
 * `PI_HYPERLINKS` (1/0) applied. `tmuxForwardsHyperlink` answers whether tmux passes links on (default: ask tmux);
 * it is not consulted when `PI_HYPERLINKS` decides.
 */
export function detectCapabilities(
	tmuxForwardsHyperlink: () => boolean = tmuxForwardsHyperlinks,
): TerminalCapabilities {
	const env = process.env;
	const hyperlinks = flag(env.PI_HYPERLINKS);
	const detected = fromEnvironment(env, hyperlinks === undefined ? tmuxForwardsHyperlink : () => hyperlinks);
	const images = imageProtocolOverride(env.PI_IMAGE_PROTOCOL);
	const trueColor = flag(env.PI_TRUE_COLOR);
	if (images !== undefined) detected.images = images;
	if (trueColor !== undefined) detected.trueColor = trueColor;
	if (hyperlinks !== undefined) detected.hyperlinks = hyperlinks;
	return detected;
}

/** The capabilities in force: detected once, with the app's overrides on top. */
export function getCapabilities(): TerminalCapabilities {
	if (!cached) {
		const links = overrides.hyperlinks;
		cached = { ...detectCapabilities(links === undefined ? undefined : () => links), ...overrides };
	}
	return cached;
}

export function resetCapabilitiesCache(): void {
	cached = null;
}

/** Replaces the app's overrides of detected capabilities (settings); detection reruns only if they changed. */
export function setCapabilityOverrides(next: Partial<TerminalCapabilities>): void {
	if (
		overrides.images === next.images &&
		overrides.trueColor === next.trueColor &&
		overrides.hyperlinks === next.hyperlinks
	) {
		return;
	}
	overrides = { ...next };
	cached = null;
}

/** Sets the capabilities in force outright (tests use it to try each protocol). */
export function setCapabilities(caps: TerminalCapabilities): void {
	cached = caps;
}
