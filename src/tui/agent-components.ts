/**
 * Components and default themes the coding agent offers extensions (re-exported by `pi-coding-agent`):
 * DynamicBorder, BorderedLoader and the get*Theme() helpers. CustomEditor lives in custom-editor.ts.
 */
import { Container, Spacer, Text } from "./basic.ts";
import type { EditorTheme } from "./editor.ts";
import { keyText } from "./key-hints.ts";
import { CancellableLoader, Loader } from "./loader.ts";
import type { MarkdownTheme } from "./markdown.ts";
import type { SelectListTheme } from "./select-list.ts";
import type { SettingsListTheme } from "./settings-list.ts";
import type { Component, RenderRequester } from "./types.ts";

type Style = (text: string) => string;

function sgr(open: number, close: number): Style {
	return (text) => `\x1b[${open}m${text}\x1b[${close}m`;
}

const style = {
	bold: sgr(1, 22),
	dim: sgr(2, 22),
	italic: sgr(3, 23),
	underline: sgr(4, 24),
	strikethrough: sgr(9, 29),
	accent: sgr(36, 39),
	link: sgr(34, 39),
	code: sgr(33, 39),
	codeBlock: sgr(32, 39),
	warning: sgr(33, 39),
	border: sgr(90, 39),
};

/** Default Markdown styling (plain ANSI until the theme system provides themed colours). */
export function getMarkdownTheme(): MarkdownTheme {
	return {
		heading: (text) => style.bold(style.accent(text)),
		link: (text) => style.underline(style.link(text)),
		linkUrl: style.dim,
		code: style.code,
		codeBlock: style.codeBlock,
		codeBlockBorder: style.dim,
		quote: style.italic,
		quoteBorder: style.dim,
		hr: style.dim,
		listBullet: style.accent,
		bold: style.bold,
		italic: style.italic,
		strikethrough: style.strikethrough,
		underline: style.underline,
	};
}

export function getSelectListTheme(): SelectListTheme {
	return {
		selectedPrefix: style.accent,
		selectedText: style.accent,
		description: style.dim,
		scrollInfo: style.dim,
		noMatch: style.warning,
	};
}

export function getSettingsListTheme(): SettingsListTheme {
	return {
		label: (text, selected) => (selected ? style.accent(text) : text),
		value: (text, selected) => (selected ? style.accent(text) : style.dim(text)),
		description: style.dim,
		cursor: style.accent("→ "),
		hint: style.dim,
	};
}

export function getEditorTheme(): EditorTheme {
	return { borderColor: style.border, selectList: getSelectListTheme() };
}

/** A horizontal rule as wide as the space it is given (at least one column), coloured by `color`. */
export class DynamicBorder implements Component {
	constructor(private readonly color: Style = (text) => text) {}

	invalidate(): void {
		// Nothing cached.
	}

	render(width: number): string[] {
		return [this.color("─".repeat(Math.max(1, width)))];
	}
}

/** The part of the agent's Theme that components use: `fg(colorName, text)`. */
export interface ThemeColors {
	fg(color: string, text: string): string;
}

function colorOf(theme: unknown, name: string): Style {
	const fg = (theme as Partial<ThemeColors> | null | undefined)?.fg;
	return typeof fg === "function" ? (text) => fg.call(theme, name, text) : (text) => text;
}

/**
 * A spinner with a message between two borders (the theme's `border` colour), with a blank row above the bottom
 * border. Escape (the `tui.select.cancel` keys) cancels it, and a hint says so, unless `cancellable` is false.
 */
export class BorderedLoader extends Container {
	private readonly loader: Loader;
	private readonly cancellable: boolean;
	private readonly signalController = new AbortController();

	constructor(tui: RenderRequester, theme: unknown, message: string, options: { cancellable?: boolean } = {}) {
		super();
		this.cancellable = options.cancellable ?? true;
		const accent = colorOf(theme, "accent");
		const muted = colorOf(theme, "muted");
		const border = colorOf(theme, "border");
		this.loader = this.cancellable
			? new CancellableLoader(tui, accent, muted, message)
			: new Loader(tui, accent, muted, message);
		this.addChild(new DynamicBorder(border));
		this.addChild(this.loader);
		if (this.cancellable) {
			this.addChild(new Spacer(1));
			const hint = colorOf(theme, "dim")(keyText("tui.select.cancel")) + muted(" cancel");
			this.addChild(new Text(hint, 1, 0));
		}
		this.addChild(new Spacer(1));
		this.addChild(new DynamicBorder(border));
	}

	/** Aborted when the user cancels (never, for a non-cancellable loader). */
	get signal(): AbortSignal {
		return this.loader instanceof CancellableLoader ? this.loader.signal : this.signalController.signal;
	}

	set onAbort(fn: (() => void) | undefined) {
		if (this.loader instanceof CancellableLoader) this.loader.onAbort = fn;
	}

	handleInput(data: string): void {
		if (this.loader instanceof CancellableLoader) this.loader.handleInput(data);
	}

	/** Stop the spinner. */
	dispose(): void {
		const loader = this.loader as Loader & { dispose?: () => void };
		if (typeof loader.dispose === "function") loader.dispose();
		else loader.stop();
	}
}
