/**
 * The header above the chat: the app's name and version, then key hints — one line of the essentials (collapsed)
 * or every key worth knowing (expanded, with Ctrl+O or --verbose). Quiet start-up leaves it empty. An extension's
 * `setHeader` component takes the built-in header's place until it is removed.
 */
import { type Component, Text } from "../../../tui/index.ts";
import { appKeyText, keyHint, rawKeyHint } from "./keys.ts";
import { type ChromeTheme, themeOf } from "./theme.ts";

export interface HeaderOptions {
	appName?: string;
	version: string;
	theme?: ChromeTheme;
	/** Shows the full list of keys. */
	expanded?: boolean;
	/** quietStartup: nothing is drawn. */
	quiet?: boolean;
}

/** A component that can follow the expand/collapse toggle (Ctrl+O). */
export interface Expandable {
	setExpanded(expanded: boolean): void;
}

export function isExpandable(component: unknown): component is Expandable {
	return typeof (component as Partial<Expandable> | null)?.setExpanded === "function";
}

/** The built-in header's lines (no padding): the logo line, hints, and a line on asking pi about itself. */
export function headerLines(options: HeaderOptions): string[] {
	const theme = themeOf(options.theme);
	const hint = (binding: string, text: string) => keyHint(binding, text, theme);
	const raw = (key: string, text: string) => rawKeyHint(key, text, theme);
	const logo = theme.bold(theme.fg("accent", options.appName ?? "pi")) + theme.fg("dim", ` v${options.version}`);
	const selfHelp = theme.fg("dim", "Ask pi about pi: it knows its features and can read its own docs.");
	if (!options.expanded) {
		const essentials = [
			hint("app.interrupt", "interrupt"),
			raw(`${appKeyText("app.clear")}/${appKeyText("app.exit")}`, "clear/exit"),
			raw("/", "commands"),
			raw("!", "bash"),
			hint("app.tools.expand", "more"),
		].join(theme.fg("muted", " · "));
		const more = theme.fg("dim", `${appKeyText("app.tools.expand")} lists every key and what was loaded.`);
		return [logo, essentials, more, "", selfHelp];
	}
	const keys = [
		hint("app.interrupt", "interrupts"),
		hint("app.clear", "clears the editor"),
		raw(`${appKeyText("app.clear")} twice`, "exits"),
		hint("app.exit", "exits when the editor is empty"),
		hint("app.suspend", "suspends"),
		hint("tui.editor.deleteToLineEnd", "deletes to the end of the line"),
		hint("app.thinking.cycle", "cycles the thinking level"),
		raw(`${appKeyText("app.model.cycleForward")}/${appKeyText("app.model.cycleBackward")}`, "cycles models"),
		hint("app.model.select", "selects a model"),
		hint("app.tools.expand", "expands tool output"),
		hint("app.thinking.toggle", "shows or hides thinking"),
		hint("app.editor.external", "opens an external editor"),
		raw("/", "runs a command"),
		raw("!", "runs bash"),
		raw("!!", "runs bash, output kept out of the context"),
		hint("app.message.followUp", "queues a follow-up"),
		hint("app.message.dequeue", "edits the queued messages"),
		hint("app.clipboard.pasteImage", "pastes an image (or text)"),
		raw("drop files", "attaches them"),
	];
	return [logo, ...keys, "", selfHelp];
}

/**
 * The header region: a blank row, the built-in header (indented one column) or the extension's, and a blank row.
 * Quiet start-up draws nothing (an extension header still shows).
 */
export class HeaderComponent implements Component, Expandable {
	private custom: Component | undefined;
	private cache: { width: number; lines: string[] } | undefined;

	constructor(private readonly options: HeaderOptions) {}

	setExpanded(expanded: boolean): void {
		if (this.options.expanded === expanded) return;
		this.options.expanded = expanded;
		if (isExpandable(this.custom)) this.custom.setExpanded(expanded);
		this.invalidate();
	}

	/** Puts an extension's header in the built-in one's place; undefined restores the built-in header. */
	setCustomHeader(component: Component | undefined): void {
		(this.custom as { dispose?: () => void } | undefined)?.dispose?.();
		this.custom = component;
		if (isExpandable(component)) component.setExpanded(this.options.expanded ?? false);
		this.invalidate();
	}

	getCustomHeader(): Component | undefined {
		return this.custom;
	}

	invalidate(): void {
		this.cache = undefined;
		this.custom?.invalidate();
	}

	render(width: number): string[] {
		if (this.custom) {
			const lines = this.custom.render(width);
			return this.options.quiet ? lines : ["", ...lines, ""];
		}
		if (this.options.quiet) return [];
		if (this.cache?.width === width) return this.cache.lines;
		// Indented one column and wrapped as a Text draws it.
		const lines = ["", ...new Text(headerLines(this.options).join("\n"), 1, 0).render(width), ""];
		this.cache = { width, lines };
		return lines;
	}
}
