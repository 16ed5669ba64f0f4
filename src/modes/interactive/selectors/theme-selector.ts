/**
 * The Theme row of `/settings`: one theme for every terminal, or Automatic (one theme for a light terminal, one
 * for a dark one, saved as "light/dark"). Moving through a list previews the highlighted theme at once; Escape puts
 * the theme that was in force back; Enter (or Apply in the automatic screen) saves.
 */
import { Container, type SelectItem, SettingsList, Spacer, Text } from "../../../tui/index.ts";
import { parseAutomaticTheme, type TerminalTheme } from "../app/theme-control.ts";
import { theme } from "../components/style.ts";
import { SelectSubmenu, settingsListTheme } from "./settings-submenu.ts";

export interface ThemeSelectorCallbacks {
	preview(setting: string): void;
}

const AUTOMATIC = "/";

function themeItems(names: readonly string[], current: string): SelectItem[] {
	return names.map((name) => ({ value: name, label: `${name === current ? "✓ " : "  "}${name}` }));
}

function preferred(names: readonly string[], wanted: string | undefined): string {
	if (wanted && names.includes(wanted)) return wanted;
	return names.includes("dark") ? "dark" : (names[0] ?? "dark");
}

export class ThemeSelector extends Container {
	private input: { handleInput?(data: string): void } | undefined;
	private mode: "single" | "automatic";
	private single: string;
	private light: string;
	private dark: string;

	constructor(
		private readonly original: string,
		private readonly terminalTheme: TerminalTheme,
		private readonly names: readonly string[],
		private readonly callbacks: ThemeSelectorCallbacks,
		/** Closes the submenu: with the setting to save, or nothing (cancelled). */
		private readonly done: (setting?: string) => void,
	) {
		super();
		const automatic = parseAutomaticTheme(original);
		const fixed = automatic || original.includes("/") ? undefined : original;
		const pair = automatic ?? { light: preferred(names, fixed), dark: preferred(names, fixed) };
		this.light = pair.light;
		this.dark = pair.dark;
		this.mode = automatic ? "automatic" : "single";
		this.single = preferred(names, fixed ?? (automatic ? this.activeAutomatic() : undefined));
		if (this.mode === "automatic") this.showAutomatic();
		else this.showSingle();
	}

	handleInput(data: string): void {
		this.input?.handleInput?.(data);
	}

	private setContent(view: Container, input: { handleInput(data: string): void }): void {
		this.clear();
		this.addChild(view);
		this.input = input;
	}

	private activeAutomatic(): string {
		return this.terminalTheme === "light" ? this.light : this.dark;
	}

	private automaticSetting(): string {
		return `${this.light}/${this.dark}`;
	}

	private setting(): string {
		return this.mode === "automatic" ? this.automaticSetting() : this.single;
	}

	private cancel(): void {
		this.callbacks.preview(this.original);
		this.done();
	}

	private showSingle(): void {
		this.mode = "single";
		const items: SelectItem[] = [
			{
				value: AUTOMATIC,
				label: "  Automatic",
				description: "Use separate themes for light and dark terminal appearance",
			},
			...themeItems(this.names, this.single),
		];
		const menu = new SelectSubmenu(
			"Theme",
			"Select a theme, or choose Automatic to follow terminal appearance.",
			items,
			this.single,
			(value) => {
				if (value === AUTOMATIC) {
					this.mode = "automatic";
					this.callbacks.preview(this.setting());
					this.showAutomatic();
					return;
				}
				this.single = value;
				this.done(value);
			},
			() => this.cancel(),
			{ onHighlight: (value) => this.callbacks.preview(value === AUTOMATIC ? this.automaticSetting() : value) },
		);
		this.setContent(menu, menu);
	}

	private pick(title: string, description: string, set: (value: string) => void) {
		return (current: string, close: (value?: string) => void) =>
			new SelectSubmenu(
				title,
				description,
				themeItems(this.names, current),
				current,
				(value) => {
					set(value);
					this.callbacks.preview(this.setting());
					close(value);
				},
				() => {
					this.callbacks.preview(this.setting());
					close();
				},
				{ onHighlight: (value) => this.callbacks.preview(value) },
			);
	}

	private showAutomatic(): void {
		this.mode = "automatic";
		const view = new Container();
		view.addChild(new Text(theme().bold(theme().fg("accent", "Automatic Theme")), 0, 0));
		view.addChild(new Spacer(1));
		view.addChild(new Text(theme().fg("muted", "Choose themes for terminal light and dark appearance."), 0, 0));
		view.addChild(new Text(theme().fg("muted", "Light/dark detection requires terminal support."), 0, 0));
		view.addChild(new Spacer(1));
		const list = new SettingsList(
			[
				{
					id: "light-theme",
					label: "Light theme",
					description: "Theme to use in automatic mode when the terminal is light",
					currentValue: this.light,
					submenu: this.pick("Light Theme", "Select the theme to use for light terminal appearance", (value) => {
						this.light = value;
					}),
				},
				{
					id: "dark-theme",
					label: "Dark theme",
					description: "Theme to use in automatic mode when the terminal is dark",
					currentValue: this.dark,
					submenu: this.pick("Dark Theme", "Select the theme to use for dark terminal appearance", (value) => {
						this.dark = value;
					}),
				},
				{
					id: "apply",
					label: "Apply",
					description: "Save and go back",
					currentValue: "save and go back",
					values: ["save and go back"],
				},
				{
					id: "single-mode",
					label: "Change mode",
					description: "Switch to one theme for light and dark",
					currentValue: "switch to single theme",
					values: ["switch to single theme"],
				},
			],
			4,
			settingsListTheme(),
			(id) => {
				if (id === "apply") this.done(this.automaticSetting());
				else if (id === "single-mode") {
					this.single = this.activeAutomatic();
					this.mode = "single";
					this.callbacks.preview(this.single);
					this.showSingle();
				}
			},
			() => this.cancel(),
		);
		view.addChild(list);
		this.setContent(view, list);
	}
}
