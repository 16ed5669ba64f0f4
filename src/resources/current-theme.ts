/**
 * The run's theme, what extensions see as `ctx.ui.theme` in every mode (pi's global theme). `initTheme(name)`
 * names it: the `theme` setting, which may also be "light/dark" (the first for a light terminal background, the
 * second for a dark one), or nothing for the terminal's default. The Theme itself is built on first use, so a run
 * whose extensions never draw anything pays nothing for it. A name that is not found falls back to `dark`, as in pi.
 *
 * Names are looked up in the run's resource loader (built-in, agent-dir, project, settings and `--theme` themes)
 * when one was given, else among the built-in themes and `<agentDir>/themes/<name>.json`.
 */
import { join } from "node:path";
import { getAgentDir } from "../config/index.ts";
import { type ColorSupport, detectColorSupport } from "./color-mode.ts";
import { Theme } from "./theme.ts";
import { builtinThemes, loadThemeFile } from "./theme-json.ts";

export interface ThemeSource {
	getTheme(name: string): Theme | undefined;
}

export interface InitThemeOptions {
	/** Where names are looked up (the run's resource loader). */
	source?: ThemeSource;
	/** Colour mode of themes built here; default: detected from the environment. */
	support?: ColorSupport;
	env?: NodeJS.ProcessEnv;
}

let requested: string | undefined;
let options: InitThemeOptions = {};
let current: Theme | undefined;

/** Names the run's theme (resolved on first use of `currentTheme()`). */
export function initTheme(themeName?: string, init: InitThemeOptions = {}): void {
	requested = themeName;
	options = init;
	current = undefined;
}

/** The run's theme; the terminal's default (`dark` or `light`) when `initTheme` was never called. */
export function currentTheme(): Theme {
	current ??= resolveTheme();
	return current;
}

/** Makes `theme` the run's theme. */
export function setCurrentTheme(theme: Theme): void {
	current = theme;
}

function resolveTheme(): Theme {
	const env = options.env ?? process.env;
	const support = options.support ?? detectColorSupport(env);
	const name = chooseThemeName(requested, terminalBackground(env));
	const fromSource = name ? options.source?.getTheme(name) : undefined;
	if (fromSource) return fromSource;
	const builtins = builtinThemes();
	if (name === "dark" || name === "light") return new Theme(builtins[name], support);
	if (name) {
		const path = join(getAgentDir(), "themes", `${name}.json`);
		const loaded = loadThemeFile({ path, sourceInfo: { path, source: "auto", scope: "user", origin: "top-level" } });
		if (loaded.definition && loaded.diagnostics.every((d) => d.type !== "error"))
			return new Theme(loaded.definition, support);
	}
	return new Theme(builtins.dark, support);
}

/** The theme name a setting asks for on a terminal with a `background` ("light/dark" picks by background). */
export function chooseThemeName(setting: string | undefined, background: "dark" | "light"): string | undefined {
	const name = setting ?? background;
	const slash = name.indexOf("/");
	if (slash === -1) return name;
	if (name.indexOf("/", slash + 1) !== -1) return undefined;
	const [light, dark] = [name.slice(0, slash).trim(), name.slice(slash + 1).trim()];
	if (!light || !dark) return undefined;
	return background === "light" ? light : dark;
}

const BASIC_COLORS = [
	"000000",
	"800000",
	"008000",
	"808000",
	"000080",
	"800080",
	"008080",
	"c0c0c0",
	"808080",
	"ff0000",
	"00ff00",
	"ffff00",
	"0000ff",
	"ff00ff",
	"00ffff",
	"ffffff",
];

/** The RGB of a 256-colour palette entry. */
function paletteRgb(index: number): [number, number, number] {
	if (index < 16) {
		const n = Number.parseInt(BASIC_COLORS[index] as string, 16);
		return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
	}
	if (index < 232) {
		const i = index - 16;
		const level = (step: number) => (step === 0 ? 0 : 55 + step * 40);
		return [level(Math.floor(i / 36)), level(Math.floor((i % 36) / 6)), level(i % 6)];
	}
	const grey = 8 + (index - 232) * 10;
	return [grey, grey, grey];
}

function luminance([r, g, b]: [number, number, number]): number {
	const linear = (channel: number) => {
		const v = channel / 255;
		return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
	};
	return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** Light or dark terminal background, from COLORFGBG's last number ("15;0": dark); dark when unknown. */
export function terminalBackground(env: NodeJS.ProcessEnv = process.env): "dark" | "light" {
	const parts = (env.COLORFGBG ?? "").split(";");
	for (let i = parts.length - 1; i >= 0; i--) {
		const text = (parts[i] as string).trim();
		if (!/^\d+$/.test(text)) continue;
		const index = Number(text);
		if (index <= 255) return luminance(paletteRgb(index)) >= 0.5 ? "light" : "dark";
	}
	return "dark";
}
