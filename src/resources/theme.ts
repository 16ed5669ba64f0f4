/**
 * The runtime `Theme` extensions draw with: `fg(token, text)`, `bg(token, text)`, text attributes, and the raw
 * escape sequences. Colour output follows the terminal: none at all with `NO_COLOR`
 * (or `FORCE_COLOR=0`), 24-bit when `COLORTERM` says `truecolor`/`24bit` (or the `terminal.trueColor` setting
 * forces it), otherwise hex colours are approximated in the 256-colour palette.
 */
import { ATTRIBUTES, sgr } from "./sgr.ts";
import type { ThemeDefinition } from "./theme-json.ts";
import type { ColorValue, ThemeBg, ThemeColor } from "./theme-tokens.ts";
import type { SourceInfo } from "./types.ts";

export type ColorMode = "truecolor" | "256color";

export interface ColorSupport {
	mode: ColorMode;
	/** False with NO_COLOR / FORCE_COLOR=0: every method returns plain text. */
	enabled: boolean;
}

/** Reads colour support from the environment; `trueColor` is the `terminal.trueColor` setting. */
export function detectColorSupport(
	env: NodeJS.ProcessEnv = process.env,
	trueColor: boolean | "auto" = "auto",
): ColorSupport {
	const enabled = !(env.NO_COLOR !== undefined && env.NO_COLOR !== "") && env.FORCE_COLOR !== "0";
	const colorterm = (env.COLORTERM ?? "").toLowerCase();
	const detected = colorterm === "truecolor" || colorterm === "24bit";
	const truecolor = trueColor === "auto" ? detected : trueColor;
	return { mode: truecolor ? "truecolor" : "256color", enabled };
}

const CUBE_STEPS = [0, 95, 135, 175, 215, 255];

function nearestStep(channel: number): number {
	let best = 0;
	for (let i = 1; i < CUBE_STEPS.length; i++) {
		if (Math.abs((CUBE_STEPS[i] as number) - channel) < Math.abs((CUBE_STEPS[best] as number) - channel)) best = i;
	}
	return best;
}

/** Nearest xterm 256-colour index for a "#rrggbb" colour (6×6×6 cube or grey ramp, whichever is closer). */
export function hexToAnsi256(hex: string): number {
	const n = Number.parseInt(hex.slice(1), 16);
	const r = (n >> 16) & 255;
	const g = (n >> 8) & 255;
	const b = n & 255;
	const [ri, gi, bi] = [nearestStep(r), nearestStep(g), nearestStep(b)];
	const cube = 16 + 36 * ri + 6 * gi + bi;
	const cubeRgb = [CUBE_STEPS[ri], CUBE_STEPS[gi], CUBE_STEPS[bi]] as number[];
	const greyIndex = Math.min(23, Math.max(0, Math.round(((r + g + b) / 3 - 8) / 10)));
	const grey = 8 + greyIndex * 10;
	const dist = (c: number[]) => (c[0]! - r) ** 2 + (c[1]! - g) ** 2 + (c[2]! - b) ** 2;
	return dist([grey, grey, grey]) < dist(cubeRgb) ? 232 + greyIndex : cube;
}

function rgb(hex: string): [number, number, number] {
	const n = Number.parseInt(hex.slice(1), 16);
	return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const THINKING_TOKENS: Record<string, ThemeColor> = {
	off: "thinkingOff",
	minimal: "thinkingMinimal",
	low: "thinkingLow",
	medium: "thinkingMedium",
	high: "thinkingHigh",
	xhigh: "thinkingXhigh",
	max: "thinkingMax",
};

export class Theme {
	readonly name?: string;
	readonly sourcePath?: string;
	sourceInfo?: SourceInfo;
	readonly definition: ThemeDefinition;
	private readonly support: ColorSupport;

	constructor(definition: ThemeDefinition, support: ColorSupport) {
		this.definition = definition;
		this.name = definition.name;
		if (definition.sourcePath !== undefined) this.sourcePath = definition.sourcePath;
		if (definition.sourceInfo !== undefined) this.sourceInfo = definition.sourceInfo;
		this.support = support;
	}

	private paint(value: ColorValue, layer: "fg" | "bg"): ((text: string) => string) | undefined {
		if (value === "" || !this.support.enabled) return undefined;
		const open = this.ansi(value, layer);
		const close = layer === "fg" ? "\x1b[39m" : "\x1b[49m";
		return (text) => sgr(open, close, text);
	}

	private attribute(name: keyof typeof ATTRIBUTES, text: string): string {
		if (!this.support.enabled) return text;
		const [open, close] = ATTRIBUTES[name];
		return sgr(open, close, text);
	}

	/** Text in a foreground colour ("" tokens leave the terminal's default colour). */
	fg(token: ThemeColor, text: string): string {
		return this.paint(this.definition.colors[token], "fg")?.(text) ?? text;
	}

	bg(token: ThemeBg, text: string): string {
		return this.paint(this.definition.colors[token], "bg")?.(text) ?? text;
	}

	bold(text: string): string {
		return this.attribute("bold", text);
	}

	italic(text: string): string {
		return this.attribute("italic", text);
	}

	underline(text: string): string {
		return this.attribute("underline", text);
	}

	inverse(text: string): string {
		return this.attribute("inverse", text);
	}

	strikethrough(text: string): string {
		return this.attribute("strikethrough", text);
	}

	private ansi(value: ColorValue, layer: "fg" | "bg"): string {
		if (!this.support.enabled) return "";
		const base = layer === "fg" ? 38 : 48;
		if (value === "") return `\x1b[${base + 1}m`;
		if (typeof value === "number") return `\x1b[${base};5;${value}m`;
		if (this.support.mode === "truecolor") return `\x1b[${base};2;${rgb(value).join(";")}m`;
		return `\x1b[${base};5;${hexToAnsi256(value)}m`;
	}

	/** The escape sequence that switches to a token's foreground colour ("" when colour is off). */
	getFgAnsi(token: ThemeColor): string {
		return this.ansi(this.definition.colors[token], "fg");
	}

	getBgAnsi(token: ThemeBg): string {
		return this.ansi(this.definition.colors[token], "bg");
	}

	getColorMode(): ColorMode {
		return this.support.mode;
	}

	/** Border colour for the editor at a thinking level (unknown levels use `thinkingOff`). */
	getThinkingBorderColor(level: string): (text: string) => string {
		const token = THINKING_TOKENS[level] ?? "thinkingOff";
		return (text) => this.fg(token, text);
	}

	getBashModeBorderColor(): (text: string) => string {
		return (text) => this.fg("bashMode", text);
	}
}
