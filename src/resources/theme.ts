/**
 * The runtime `Theme` extensions draw with: `fg(token, text)`, `bg(token, text)`, text attributes, and the raw
 * escape sequences, with pi 0.87.1's output byte for byte. A colour token always gives its sequence (24-bit or
 * the nearest 256-colour entry, see color-mode.ts) and ends with the default-colour reset (`\x1b[39m` / `\x1b[49m`),
 * whatever the output is, as pi's do: status lines and widgets travel to RPC clients, which draw them in a
 * terminal of their own. Text attributes (bold, italic, …) go through chalk, so they follow chalk's colour level:
 * none when stdout is not a terminal, with FORCE_COLOR=0 or NO_COLOR, and forced on by FORCE_COLOR=1-3.
 */
import { chalk } from "./chalk.ts";
import { type ColorMode, type ColorSupport, hexToAnsi256, hexToRgb } from "./color-mode.ts";
import type { ThemeDefinition } from "./theme-json.ts";
import {
	type ColorValue,
	OPTIONAL_TOKEN_FALLBACK,
	THEME_BG_TOKENS,
	THEME_FG_TOKENS,
	type ThemeBg,
	type ThemeColor,
} from "./theme-tokens.ts";
import type { SourceInfo } from "./types.ts";

export { type ColorMode, type ColorSupport, detectColorSupport, hexToAnsi256 } from "./color-mode.ts";

const THINKING_TOKENS: Record<string, ThemeColor> = {
	off: "thinkingOff",
	minimal: "thinkingMinimal",
	low: "thinkingLow",
	medium: "thinkingMedium",
	high: "thinkingHigh",
	xhigh: "thinkingXhigh",
	max: "thinkingMax",
};

/** The sequence that selects `value` as the foreground (38) or background (48) colour. */
function colorSequence(value: ColorValue, layer: 38 | 48, mode: ColorMode): string {
	if (value === "") return `\x1b[${layer + 1}m`;
	if (typeof value === "number") return `\x1b[${layer};5;${value}m`;
	if (mode === "truecolor") return `\x1b[${layer};2;${hexToRgb(value).join(";")}m`;
	return `\x1b[${layer};5;${hexToAnsi256(value)}m`;
}

/** Where a theme constructed in pi's form came from. */
export interface ThemeOrigin {
	name?: string;
	sourcePath?: string;
	sourceInfo?: SourceInfo;
}

/** `colors` with each optional token it leaves out set to its stand-in's value (when that one is given). */
function withStandIns(colors: Readonly<Record<string, ColorValue>>): Record<string, ColorValue> {
	const filled: Record<string, ColorValue> = { ...colors };
	for (const [token, standIn] of Object.entries(OPTIONAL_TOKEN_FALLBACK)) {
		const value = colors[standIn as string];
		if (filled[token] === undefined && value !== undefined && Object.hasOwn(colors, standIn as string))
			filled[token] = value;
	}
	return filled;
}

/** A colour value a theme can draw with, or an error naming it. */
function checkedColor(value: ColorValue): ColorValue {
	if (typeof value === "number" || value === "") return value;
	if (typeof value !== "string" || !value.startsWith("#")) throw new Error(`Invalid color value: ${value}`);
	if (!/^#[0-9a-fA-F]{6}$/.test(value)) throw new Error(`Invalid hex color: ${value}`);
	return value;
}

export class Theme {
	readonly name?: string;
	readonly sourcePath?: string;
	sourceInfo?: SourceInfo;
	readonly definition: ThemeDefinition;
	private readonly mode: ColorMode;
	private readonly fgSequences = new Map<string, string>();
	private readonly bgSequences = new Map<string, string>();

	/** A theme from its definition (a theme file or a built-in), in a colour mode. */
	constructor(definition: ThemeDefinition, support: ColorSupport | ColorMode);
	/**
	 * pi's form, as extensions construct one: colour values by foreground and background token ("#rrggbb", a
	 * 256-colour index, or "" for the terminal default), the colour mode, and where the theme came from. Optional
	 * tokens left out take their usual stand-in's value; another colour string is refused.
	 */
	constructor(
		fgColors: Readonly<Record<string, ColorValue>>,
		bgColors: Readonly<Record<string, ColorValue>>,
		mode: ColorMode,
		origin?: ThemeOrigin,
	);
	constructor(
		first: ThemeDefinition | Readonly<Record<string, ColorValue>>,
		second: ColorSupport | ColorMode | Readonly<Record<string, ColorValue>>,
		mode?: ColorMode,
		origin: ThemeOrigin = {},
	) {
		if (mode === undefined) {
			const definition = first as ThemeDefinition;
			const support = second as ColorSupport | ColorMode;
			this.definition = definition;
			this.name = definition.name;
			if (definition.sourcePath !== undefined) this.sourcePath = definition.sourcePath;
			if (definition.sourceInfo !== undefined) this.sourceInfo = definition.sourceInfo;
			this.mode = typeof support === "string" ? support : support.mode;
			for (const token of THEME_FG_TOKENS)
				this.fgSequences.set(token, colorSequence(definition.colors[token], 38, this.mode));
			for (const token of THEME_BG_TOKENS)
				this.bgSequences.set(token, colorSequence(definition.colors[token], 48, this.mode));
			return;
		}
		const fg = first as Readonly<Record<string, ColorValue>>;
		const bg = second as Readonly<Record<string, ColorValue>>;
		const colors = withStandIns({ ...bg, ...fg }) as ThemeDefinition["colors"];
		this.definition = { name: origin.name ?? "", colors, export: {} };
		if (origin.sourcePath !== undefined) this.definition.sourcePath = origin.sourcePath;
		if (origin.sourceInfo !== undefined) this.definition.sourceInfo = origin.sourceInfo;
		this.name = origin.name;
		this.sourcePath = origin.sourcePath;
		this.sourceInfo = origin.sourceInfo;
		this.mode = mode;
		for (const [token, value] of Object.entries(withStandIns(fg)))
			this.fgSequences.set(token, colorSequence(checkedColor(value), 38, mode));
		for (const [token, value] of Object.entries(withStandIns(bg)))
			this.bgSequences.set(token, colorSequence(checkedColor(value), 48, mode));
	}

	/** Text in a token's foreground colour, followed by the default-colour reset. */
	fg(token: ThemeColor, text: string): string {
		return `${this.getFgAnsi(token)}${text}\x1b[39m`;
	}

	/** Text on a token's background colour, followed by the default-background reset. */
	bg(token: ThemeBg, text: string): string {
		return `${this.getBgAnsi(token)}${text}\x1b[49m`;
	}

	bold(text: string): string {
		return chalk().bold(text);
	}

	italic(text: string): string {
		return chalk().italic(text);
	}

	underline(text: string): string {
		return chalk().underline(text);
	}

	inverse(text: string): string {
		return chalk().inverse(text);
	}

	strikethrough(text: string): string {
		return chalk().strikethrough(text);
	}

	/** The escape sequence that switches to a token's foreground colour. Unknown tokens throw. */
	getFgAnsi(token: ThemeColor): string {
		const sequence = this.fgSequences.get(token);
		if (sequence === undefined) throw new Error(`Unknown theme color: ${token}`);
		return sequence;
	}

	getBgAnsi(token: ThemeBg): string {
		const sequence = this.bgSequences.get(token);
		if (sequence === undefined) throw new Error(`Unknown theme background color: ${token}`);
		return sequence;
	}

	getColorMode(): ColorMode {
		return this.mode;
	}

	/** Border colour for the editor at a thinking level (unknown levels use `thinkingOff`). */
	getThinkingBorderColor(level: string): (text: string) => string {
		const token = Object.hasOwn(THINKING_TOKENS, level) ? (THINKING_TOKENS[level] as ThemeColor) : "thinkingOff";
		return (text) => this.fg(token, text);
	}

	getBashModeBorderColor(): (text: string) => string {
		return (text) => this.fg("bashMode", text);
	}
}
