/**
 * Whether links are printed as OSC 8 hyperlinks (the terminal shows the text, clickable) or as `text (url)`:
 * the terminal's capabilities decide (`getCapabilities().hyperlinks`, with `PI_HYPERLINKS` and the
 * `terminal.hyperlinks` setting as overrides), as in pi-tui 0.87.1; tests can force it here.
 */
import { getCapabilities } from "../terminal-capabilities.ts";

let override: boolean | undefined;

/** Whether Markdown links become OSC 8 hyperlinks. */
export function markdownHyperlinks(): boolean {
	return override ?? getCapabilities().hyperlinks;
}

/** Forces hyperlinks on or off for Markdown only, or back to the terminal's capabilities with undefined. */
export function setMarkdownHyperlinks(value: boolean | undefined): void {
	override = value;
}
