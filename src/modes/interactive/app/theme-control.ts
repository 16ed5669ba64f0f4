/**
 * Which theme the interactive app shows, decided as pi 0.87.1 decides it:
 * - `theme` set to one name: that theme (an unknown name falls back to `dark` with one error line).
 * - `theme` set to "light/dark" (automatic): the terminal is asked for its colour scheme (`CSI ? 996 n`) and, at the
 *   same time, its background colour (OSC 11), 100 ms each; without answers COLORFGBG decides, else dark. While
 *   automatic, the app subscribes to colour-scheme change reports (mode 2031) and switches theme when they come.
 * - no `theme` setting: the background colour (OSC 11, 100 ms), else COLORFGBG, else dark; when the terminal or
 *   COLORFGBG answered (a sure detection) the result is saved as the `theme` setting, as pi does.
 * `preview` shows a setting without saving it (the theme selector while moving); `apply` shows and saves it.
 */
import {
	chooseThemeName,
	currentTheme,
	setCurrentTheme,
	type Theme,
	terminalBackground,
} from "../../../resources/index.ts";
import type { RgbColor, TerminalColorScheme } from "../../../tui/index.ts";

export type TerminalTheme = "dark" | "light";

/** The part of the TUI the control uses. */
export interface ThemeTerminal {
	queryTerminalBackgroundColor(options: { timeoutMs: number }): Promise<RgbColor | undefined>;
	queryTerminalColorScheme(options: { timeoutMs: number }): Promise<TerminalColorScheme | undefined>;
	onTerminalColorSchemeChange(listener: (scheme: TerminalColorScheme) => void): () => void;
	setTerminalColorSchemeNotifications(enabled: boolean): void;
}

export interface ThemeControlDeps {
	terminal: ThemeTerminal;
	/** A theme by name among the run's themes (built-in, user, project, packages). */
	lookup(name: string): Theme | undefined;
	/** Redraws everything in the theme now current. */
	redraw(): void;
	/** Saves the `theme` setting (global). */
	save(setting: string): Promise<void>;
	showError(line: string): void;
	/** Watches the file of the theme now current (a user theme is redrawn when saved); returns the unwatch. */
	watch?(): () => void;
	env?: NodeJS.ProcessEnv;
}

const QUERY_TIMEOUT_MS = 100;

/** "light/dark" → both names; undefined for anything else. */
export function parseAutomaticTheme(setting: string | undefined): { light: string; dark: string } | undefined {
	if (!setting) return undefined;
	const parts = setting.split("/");
	if (parts.length !== 2) return undefined;
	const [light, dark] = parts.map((p) => p.trim()) as [string, string];
	return light && dark ? { light, dark } : undefined;
}

/** Light when the colour's relative luminance is at least one half (pi's threshold). */
export function themeForBackground({ r, g, b }: RgbColor): TerminalTheme {
	const linear = (channel: number) => {
		const v = channel / 255;
		return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
	};
	return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b) >= 0.5 ? "light" : "dark";
}

function hasColorFgBg(env: NodeJS.ProcessEnv): boolean {
	return (env.COLORFGBG ?? "").split(";").some((part) => /^\d+$/.test(part.trim()) && Number(part) <= 255);
}

export class ThemeControl {
	private terminalThemeValue: TerminalTheme;
	private autoSync = false;
	private unwatch: () => void = () => {};
	private readonly unsubscribe: () => void;
	private readonly env: NodeJS.ProcessEnv;

	constructor(
		private readonly deps: ThemeControlDeps,
		private setting: string | undefined,
	) {
		this.env = deps.env ?? process.env;
		this.terminalThemeValue = terminalBackground(this.env);
		this.unsubscribe = deps.terminal.onTerminalColorSchemeChange((scheme) => this.onSchemeReport(scheme));
	}

	/** The terminal's appearance as last detected. */
	get terminalTheme(): TerminalTheme {
		return this.terminalThemeValue;
	}

	/** The `theme` setting in force ("light/dark" when automatic), else the name of the theme shown. */
	selection(): string {
		return this.setting ?? currentTheme().name ?? "dark";
	}

	/** The theme names the selector offers: the run's themes, each name once. */
	available(names: readonly (string | undefined)[]): string[] {
		return [...new Set(["dark", "light", ...names.filter((n): n is string => Boolean(n))])];
	}

	/** pi's start-up rule (see the file comment). */
	async start(): Promise<void> {
		const automatic = parseAutomaticTheme(this.setting);
		if (automatic) {
			this.terminalThemeValue = await this.detectForAutomatic();
			this.setAutoSync(true);
			this.show(this.terminalThemeValue === "light" ? automatic.light : automatic.dark, true);
			return;
		}
		this.setAutoSync(false);
		if (this.setting !== undefined) {
			this.show(this.setting, true);
			return;
		}
		const rgb = await this.deps.terminal
			.queryTerminalBackgroundColor({ timeoutMs: QUERY_TIMEOUT_MS })
			.catch(() => undefined);
		const sure = rgb !== undefined || hasColorFgBg(this.env);
		this.terminalThemeValue = rgb ? themeForBackground(rgb) : terminalBackground(this.env);
		if (!this.show(this.terminalThemeValue, false)) return;
		if (sure) {
			this.setting = this.terminalThemeValue;
			await this.deps.save(this.terminalThemeValue).catch((error: unknown) => {
				this.deps.showError(`Could not save the detected theme: ${String(error)}`);
			});
		}
	}

	/** Shows a setting (one name or "light/dark") without saving it. */
	preview(setting: string): void {
		const name = chooseThemeName(setting, this.terminalThemeValue);
		const theme = name ? this.deps.lookup(name) : undefined;
		if (!theme) return;
		setCurrentTheme(theme);
		this.deps.redraw();
	}

	/** Shows a setting, then saves it (a failed save leaves it shown for this run and rejects). */
	async apply(setting: string): Promise<void> {
		this.setting = setting;
		await this.start();
		await this.deps.save(setting);
	}

	dispose(): void {
		this.setAutoSync(false);
		this.unsubscribe();
		this.unwatch();
	}

	private async detectForAutomatic(): Promise<TerminalTheme> {
		const { terminal } = this.deps;
		const scheme = terminal.queryTerminalColorScheme({ timeoutMs: QUERY_TIMEOUT_MS }).catch(() => undefined);
		const background = terminal
			.queryTerminalBackgroundColor({ timeoutMs: QUERY_TIMEOUT_MS })
			.catch(() => undefined)
			.then((rgb) => (rgb ? themeForBackground(rgb) : terminalBackground(this.env)));
		return (await scheme) ?? (await background);
	}

	/** Shows a theme by name; an unknown one falls back to dark (with an error line when asked). */
	private show(name: string, reportMissing: boolean): boolean {
		const theme = this.deps.lookup(name);
		if (!theme) {
			const dark = this.deps.lookup("dark");
			if (dark) setCurrentTheme(dark);
			if (reportMissing)
				this.deps.showError(`Failed to load theme "${name}": Theme not found: ${name}\nFell back to dark theme.`);
			this.shown();
			return false;
		}
		if (theme !== currentTheme()) setCurrentTheme(theme);
		this.shown();
		return true;
	}

	/** Redraws in the theme now in force and watches its file instead of the previous one's. */
	private shown(): void {
		this.deps.redraw();
		this.unwatch();
		this.unwatch = this.deps.watch?.() ?? (() => {});
	}

	private setAutoSync(enabled: boolean): void {
		if (this.autoSync === enabled) return;
		this.autoSync = enabled;
		this.deps.terminal.setTerminalColorSchemeNotifications(enabled);
	}

	private onSchemeReport(scheme: TerminalColorScheme): void {
		if (!this.autoSync) return;
		this.terminalThemeValue = scheme;
		const automatic = parseAutomaticTheme(this.setting);
		if (!automatic) {
			this.setAutoSync(false);
			return;
		}
		const name = scheme === "light" ? automatic.light : automatic.dark;
		if (name !== currentTheme().name) this.show(name, false);
	}
}
