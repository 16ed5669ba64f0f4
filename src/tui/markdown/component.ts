/**
 * The Markdown component: Markdown text rendered as styled terminal lines, wrapped to the width and padded. The
 * output is cached per width; underneath, each top-level block's lines are cached per (width, next block type), and
 * streamed text (each `setText` extending the last) is lexed and rendered again only from its last block.
 */
import type { Token } from "marked";
import { isImageLine } from "../image-line.ts";
import type { Component } from "../types.ts";
import { spaces, truncateToWidth, visibleWidth } from "../width.ts";
import { wrapTextWithAnsi } from "../wrap.ts";
import { type BlockContext, renderBlock } from "./blocks.ts";
import { IncrementalLexer } from "./parser.ts";
import {
	type DefaultTextStyle,
	type InlineStyle,
	type MarkdownOptions,
	type MarkdownTheme,
	stylePrefixOf,
} from "./theme.ts";

const NOT_BLANK = /\S/;

/** Styled lines wrapped and framed so far (tests check that a streamed block does not wrap its old lines again). */
export const framingStats = { lines: 0 };

interface BlockLines {
	width: number;
	next: string | undefined;
	lines: string[];
}

export class Markdown implements Component {
	private options: MarkdownOptions;
	private lexer = new IncrementalLexer();
	private blocks = new WeakMap<Token, BlockLines>();
	private cache: { text: string; width: number; lines: string[] } | undefined;
	private defaultStyle: InlineStyle | undefined;
	/**
	 * The finished lines of each styled line of the block rendered last (at `width`): a streamed list or code block
	 * renders again with one more character on its last line, and its other lines are not wrapped again.
	 */
	private framed: { width: number; lines: Map<string, string[]> } | undefined;

	constructor(
		private text: string,
		private paddingX: number,
		private paddingY: number,
		private theme: MarkdownTheme,
		private defaultTextStyle?: DefaultTextStyle,
		options?: MarkdownOptions,
	) {
		this.options = options ? { ...options } : {};
	}

	setText(text: string): void {
		this.text = text;
		this.cache = undefined;
	}

	/** Drops every cached rendering (after a theme change). */
	invalidate(): void {
		this.cache = undefined;
		this.blocks = new WeakMap();
		this.defaultStyle = undefined;
		this.framed = undefined;
	}

	render(width: number): string[] {
		if (this.cache && this.cache.text === this.text && this.cache.width === width) return this.cache.lines;
		const contentWidth = Math.max(1, width - this.paddingX * 2);
		const source = this.options.transform?.(this.text, contentWidth) ?? this.text;
		// Blank text has no lines (tested without copying a long streamed text).
		if (!source || !NOT_BLANK.test(source)) {
			this.cache = { text: this.text, width, lines: [] };
			return [];
		}
		const tokens = this.lexer.lex(source.includes("\t") ? source.replace(/\t/g, "   ") : source);
		const lines: string[] = [];
		const bg = this.defaultTextStyle?.bgColor;
		const blank = this.paddingY > 0 ? (bg ? bg(spaces(width)) : spaces(width)) : "";
		for (let i = 0; i < this.paddingY; i++) lines.push(blank);
		for (let n = 0; n < tokens.length; n++) {
			const block = this.blockLines(tokens[n] as Token, width, contentWidth, tokens[n + 1]?.type);
			for (const line of block) lines.push(line);
		}
		for (let i = 0; i < this.paddingY; i++) lines.push(blank);
		this.cache = { text: this.text, width, lines };
		return lines.length > 0 ? lines : [""];
	}

	/** One block's finished lines (wrapped, with margins and background), from the cache when possible. */
	private blockLines(token: Token, width: number, contentWidth: number, next: string | undefined): string[] {
		const cached = this.blocks.get(token);
		if (cached && cached.width === width && cached.next === next) return cached.lines;
		const margin = " ".repeat(this.paddingX);
		const bg = this.defaultTextStyle?.bgColor;
		const lines: string[] = [];
		const before = this.framed?.width === width ? this.framed.lines : undefined;
		const framedNow = new Map<string, string[]>();
		for (const line of renderBlock(this.context(), token, contentWidth, next)) {
			if (isImageLine(line)) {
				lines.push(line);
				continue;
			}
			let rows = framedNow.get(line) ?? before?.get(line);
			if (!rows) {
				framingStats.lines++;
				rows = [];
				for (const part of wrapTextWithAnsi(line, contentWidth)) {
					const framed = margin + part + margin;
					const used = visibleWidth(framed);
					// Only when the width cannot even hold the padding (pi would overflow the terminal there).
					const padded = used > width ? truncateToWidth(framed, width, "") : framed + spaces(width - used);
					rows.push(bg ? bg(padded) : padded);
				}
			}
			framedNow.set(line, rows);
			for (const row of rows) lines.push(row);
		}
		this.framed = { width, lines: framedNow };
		this.blocks.set(token, { width, next, lines });
		return lines;
	}

	private context(): BlockContext {
		return { theme: this.theme, options: this.options, defaultStyle: this.inlineDefault() };
	}

	/** Plain text in the default style: colour, then bold/italic/strikethrough/underline through the theme. */
	private inlineDefault(): InlineStyle {
		if (this.defaultStyle) return this.defaultStyle;
		const style = this.defaultTextStyle;
		const apply = (text: string): string => {
			if (!style) return text;
			let out = style.color ? style.color(text) : text;
			if (style.bold) out = this.theme.bold(out);
			if (style.italic) out = this.theme.italic(out);
			if (style.strikethrough) out = this.theme.strikethrough(out);
			if (style.underline) out = this.theme.underline(out);
			return out;
		};
		this.defaultStyle = { applyText: apply, stylePrefix: style ? stylePrefixOf(apply) : "" };
		return this.defaultStyle;
	}
}
