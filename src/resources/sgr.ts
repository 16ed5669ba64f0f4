/**
 * Wrapping text in SGR escape sequences (bold, colours, …) the way terminal styling libraries do, so nested and
 * multi-line styled text keeps its style: wherever the text already contains this style's closing sequence (an
 * inner span ended), the style is opened again right after it; and the style is closed before each line break and
 * reopened after it, so a line can be printed on its own. Empty text stays empty.
 */
export function sgr(open: string, close: string, text: string): string {
	if (text === "") return text;
	let body = text.includes("\x1b") ? text.split(close).join(close + open) : text;
	if (body.includes("\n")) body = body.replace(/\r?\n/g, (lineBreak) => `${close}${lineBreak}${open}`);
	return open + body + close;
}

/** Opening sequences of the text attributes, with the sequence that ends each. */
export const ATTRIBUTES = {
	bold: ["\x1b[1m", "\x1b[22m"],
	italic: ["\x1b[3m", "\x1b[23m"],
	underline: ["\x1b[4m", "\x1b[24m"],
	inverse: ["\x1b[7m", "\x1b[27m"],
	strikethrough: ["\x1b[9m", "\x1b[29m"],
} as const;
