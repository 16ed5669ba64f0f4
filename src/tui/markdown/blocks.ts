/** Block-level Markdown tokens rendered to unwrapped styled lines (the component wraps and pads them). */
import type { Token, Tokens } from "marked";
import { visibleWidth } from "../width.ts";
import { wrapTextWithAnsi } from "../wrap.ts";
import { mathText, renderInline } from "./inline.ts";
import type { LatexToken } from "./parser.ts";
import { renderTable } from "./table.ts";
import { type InlineStyle, type MarkdownOptions, type MarkdownTheme, stylePrefixOf } from "./theme.ts";

export interface BlockContext {
	theme: MarkdownTheme;
	options: MarkdownOptions;
	/** The default text style (used where no style is passed down). */
	defaultStyle: InlineStyle;
}

/** Counts block renders (tests check that streaming renders only the changed tail). */
export const blockStats = { renders: 0 };

/** Blocks after which a blank line separates them from the next block (unless that is already a blank). */
function gapAfter(next: string | undefined): string[] {
	return next && next !== "space" ? [""] : [];
}

export function renderBlock(
	ctx: BlockContext,
	token: Token,
	width: number,
	next: string | undefined,
	style?: InlineStyle,
): string[] {
	blockStats.renders++;
	const { theme, options } = ctx;
	const inline = (tokens: Token[] | undefined, with_: InlineStyle | undefined = style) =>
		renderInline(tokens ?? [], with_ ?? ctx.defaultStyle, theme, options);
	switch (token.type) {
		case "heading": {
			const heading = token as Tokens.Heading;
			const headingStyle =
				heading.depth === 1
					? (text: string) => theme.heading(theme.bold(theme.underline(text)))
					: (text: string) => theme.heading(theme.bold(text));
			const text = inline(heading.tokens, { applyText: headingStyle, stylePrefix: stylePrefixOf(headingStyle) });
			const marker = heading.depth >= 3 ? headingStyle(`${"#".repeat(heading.depth)} `) : "";
			return [marker + text, ...gapAfter(next)];
		}
		case "paragraph":
			return [inline((token as Tokens.Paragraph).tokens), ...(next && next !== "list" && next !== "space" ? [""] : [])];
		case "text":
			return [inline([token])];
		case "latexBlock": {
			const lines = mathText(token as unknown as LatexToken, options, true).split("\n");
			return [...lines.map((line) => ctx.defaultStyle.applyText(line)), ...gapAfter(next)];
		}
		case "code":
			return [...codeBlock(theme, token as Tokens.Code), ...gapAfter(next)];
		case "list":
			return renderList(ctx, token as Tokens.List, 0, width, style);
		case "table":
			return renderTable(token as Tokens.Table, width, next, style?.stylePrefix, theme, (tokens) => inline(tokens));
		case "blockquote":
			return [...blockquote(ctx, token as Tokens.Blockquote, width), ...gapAfter(next)];
		case "hr":
			return [theme.hr("─".repeat(Math.min(width, 80))), ...gapAfter(next)];
		case "html":
			return [ctx.defaultStyle.applyText(token.raw.trim())];
		case "space":
			return [""];
		default: {
			const text = (token as Tokens.Generic).text;
			return typeof text === "string" ? [text] : [];
		}
	}
}

function codeBlock(theme: MarkdownTheme, code: Tokens.Code): string[] {
	const indent = theme.codeBlockIndent ?? "  ";
	const body = theme.highlightCode
		? theme.highlightCode(code.text, code.lang)
		: code.text.split("\n").map((line) => theme.codeBlock(line));
	return [
		theme.codeBlockBorder(`\`\`\`${code.lang || ""}`),
		...body.map((line) => indent + line),
		theme.codeBlockBorder("```"),
	];
}

/** A quote: its blocks in the quote style (the default message style does not apply), each line behind "│ ". */
function blockquote(ctx: BlockContext, quote: Tokens.Blockquote, width: number): string[] {
	const { theme } = ctx;
	const quoteStyle = (text: string) => theme.quote(theme.italic(text));
	const prefix = stylePrefixOf(quoteStyle);
	const inner = Math.max(1, width - 2);
	const innerStyle: InlineStyle = { applyText: (text) => text, stylePrefix: prefix };
	const children = quote.tokens ?? [];
	const lines = children.flatMap((child, n) => renderBlock(ctx, child, inner, children[n + 1]?.type, innerStyle));
	while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
	const out: string[] = [];
	for (const line of lines) {
		// A full reset inside the line would end the quote style; open it again after each one.
		const styled = quoteStyle(prefix ? line.replaceAll("\x1b[0m", `\x1b[0m${prefix}`) : line);
		for (const part of wrapTextWithAnsi(styled, inner)) out.push(theme.quoteBorder("│ ") + part);
	}
	return out;
}

function listMarker(ctx: BlockContext, list: Tokens.List, item: Tokens.ListItem, index: number): string {
	const preserve = ctx.options.preserveOrderedListMarkers;
	const start = typeof list.start === "number" ? list.start : 1;
	let bullet: string;
	if (list.ordered) {
		const typed = preserve ? /^(?: {0,3})(\d{1,9}[.)])[ \t]+/.exec(item.raw)?.[1] : undefined;
		bullet = typed ? `${typed} ` : `${start + index}. `;
	} else {
		const typed = preserve ? /^(?: {0,3})([-+*])(?:[ \t]+|(?=\r?\n|$))/.exec(item.raw)?.[1] : undefined;
		bullet = typed ? `${typed} ` : "- ";
	}
	return bullet + (item.task ? `[${item.checked ? "x" : " "}] ` : "");
}

/** A list: markers in the bullet style, wrapped text hanging under the text, nested lists four columns deeper. */
function renderList(
	ctx: BlockContext,
	list: Tokens.List,
	depth: number,
	width: number,
	style: InlineStyle | undefined,
): string[] {
	const lines: string[] = [];
	const indent = "    ".repeat(depth);
	list.items.forEach((item, index) => {
		const marker = listMarker(ctx, list, item, index);
		const first = indent + ctx.theme.listBullet(marker);
		const hanging = indent + " ".repeat(visibleWidth(marker));
		const itemWidth = Math.max(1, width - visibleWidth(first));
		let started = false;
		for (const child of item.tokens) {
			if (child.type === "list") {
				lines.push(...renderList(ctx, child as Tokens.List, depth + 1, width, style));
				started = true;
				continue;
			}
			for (const line of renderBlock(ctx, child, itemWidth, undefined, style)) {
				for (const part of wrapTextWithAnsi(line, itemWidth)) {
					lines.push((started ? hanging : first) + part);
					started = true;
				}
			}
		}
		if (!started) lines.push(first);
		if (list.loose && index < list.items.length - 1) lines.push("");
	});
	return lines;
}
