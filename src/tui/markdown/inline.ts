/** Inline Markdown tokens (emphasis, code spans, links, math, escapes) rendered to one styled string. */
import type { Token, Tokens } from "marked";
import { renderLatex } from "../latex/index.ts";
import { hyperlink } from "../terminal-image.ts";
import { markdownHyperlinks } from "./hyperlinks.ts";
import type { LatexToken } from "./parser.ts";
import type { InlineStyle, MarkdownOptions, MarkdownTheme } from "./theme.ts";

/** Math source shown as Unicode text, or as typed while unfinished, when disabled or when it cannot be drawn. */
export function mathText(token: LatexToken, options: MarkdownOptions, display: boolean): string {
	if (token.pending || options.renderLatex === false) return display ? token.raw.trim() : token.raw;
	return renderLatex(token.text, display ? { display: true } : {}) ?? (display ? token.raw.trim() : token.raw);
}

export function renderInline(
	tokens: Token[],
	style: InlineStyle,
	theme: MarkdownTheme,
	options: MarkdownOptions,
): string {
	const { applyText, stylePrefix } = style;
	const plain = (text: string) =>
		text.includes("\n")
			? text
					.split("\n")
					.map((part) => applyText(part))
					.join("\n")
			: applyText(text);
	const nested = (token: Token) => renderInline((token as Tokens.Generic).tokens ?? [], style, theme, options);
	let out = "";
	for (const token of tokens) {
		switch (token.type) {
			case "latex":
				out += plain(mathText(token as unknown as LatexToken, options, false));
				break;
			case "escape":
				out += plain(options.preserveBackslashEscapes ? token.raw : (token as Tokens.Escape).text);
				break;
			case "text": {
				const text = token as Tokens.Text;
				out += text.tokens && text.tokens.length > 0 ? nested(token) : plain(text.text);
				break;
			}
			case "paragraph":
				out += nested(token);
				break;
			case "strong":
				out += theme.bold(nested(token)) + stylePrefix;
				break;
			case "em":
				out += theme.italic(nested(token)) + stylePrefix;
				break;
			case "del":
				out += theme.strikethrough(nested(token)) + stylePrefix;
				break;
			case "codespan":
				out += theme.code((token as Tokens.Codespan).text) + stylePrefix;
				break;
			case "link":
				out += link(token as Tokens.Link, nested(token), theme) + stylePrefix;
				break;
			case "br":
				out += "\n";
				break;
			case "html":
				out += plain(token.raw);
				break;
			default: {
				const text = (token as Tokens.Generic).text;
				if (typeof text === "string") out += plain(text);
			}
		}
	}
	// A style restored at the very end would only open a run with no text.
	while (stylePrefix && out.endsWith(stylePrefix)) out = out.slice(0, -stylePrefix.length);
	return out;
}

/** A link: clickable text when the terminal supports OSC 8, else the text plus ` (url)` unless they are the same. */
function link(token: Tokens.Link, label: string, theme: MarkdownTheme): string {
	const styled = theme.link(theme.underline(label));
	if (markdownHyperlinks()) return hyperlink(styled, token.href);
	const bare = token.href.startsWith("mailto:") ? token.href.slice("mailto:".length) : token.href;
	if (token.text === token.href || token.text === bare) return styled;
	return styled + theme.linkUrl(` (${token.href})`);
}
