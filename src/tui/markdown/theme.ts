/** The styling surface of the Markdown component (pi-tui 0.87.1's `MarkdownTheme`, `DefaultTextStyle`, options). */

/** Styling applied to all text that Markdown formatting does not override. */
export interface DefaultTextStyle {
	color?: (text: string) => string;
	/** Background of whole lines, padding included. */
	bgColor?: (text: string) => string;
	bold?: boolean;
	italic?: boolean;
	strikethrough?: boolean;
	underline?: boolean;
}

export interface MarkdownTheme {
	heading: (text: string) => string;
	link: (text: string) => string;
	linkUrl: (text: string) => string;
	code: (text: string) => string;
	codeBlock: (text: string) => string;
	codeBlockBorder: (text: string) => string;
	quote: (text: string) => string;
	quoteBorder: (text: string) => string;
	hr: (text: string) => string;
	listBullet: (text: string) => string;
	bold: (text: string) => string;
	italic: (text: string) => string;
	strikethrough: (text: string) => string;
	underline: (text: string) => string;
	/** Coloured code, one string per line; without it code blocks use `codeBlock`. */
	highlightCode?: (code: string, lang?: string) => string[];
	/** Prefix of every code block line (default: two spaces). */
	codeBlockIndent?: string;
}

export interface MarkdownOptions {
	/** Ordered items keep their source numbers and `.`/`)`, bullets keep `-`/`*`/`+` (default: renumber, `-`). */
	preserveOrderedListMarkers?: boolean;
	/** Backslash escapes print with their backslash (`\*`), as typed. */
	preserveBackslashEscapes?: boolean;
	/** Rewrites the source before parsing, given the width available to the text. */
	transform?: (markdown: string, availableWidth: number) => string;
	/** Math (`$…$`, `$$…$$`, `\(…\)`, `\[…\]`) drawn as Unicode text; false shows the source (default: true). */
	renderLatex?: boolean;
}

/** How inline text is styled where no Markdown construct applies, and the SGR prefix that restores that style. */
export interface InlineStyle {
	applyText: (text: string) => string;
	stylePrefix: string;
}

/** The opening escape sequences a style function puts before its text ("" when it adds none). */
export function stylePrefixOf(style: (text: string) => string): string {
	const styled = style("\u0000");
	const at = styled.indexOf("\u0000");
	return at >= 0 ? styled.slice(0, at) : "";
}
