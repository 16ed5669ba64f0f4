/** Markdown: paragraphs, headings, lists, quotes, code blocks, rules and tables rendered as wrapped terminal lines. */
import { expandTabs, fitLine } from "./basic.ts";
import { renderInline } from "./markdown-inline.ts";
import type { Component } from "./types.ts";
import { padToWidth, truncateToWidth, visibleWidth } from "./width.ts";
import { wrapTextWithAnsi } from "./wrap.ts";

/** Styling applied to all text that Markdown formatting does not override. */
export interface DefaultTextStyle {
	color?: (text: string) => string;
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
	highlightCode?: (code: string, lang?: string) => string[];
	/** Prefix of every code block line (default: two spaces). */
	codeBlockIndent?: string;
}

export interface MarkdownOptions {
	preserveOrderedListMarkers?: boolean;
	preserveBackslashEscapes?: boolean;
	transform?: (markdown: string, availableWidth: number) => string;
	renderLatex?: boolean;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

/** Join paragraph lines: soft breaks become spaces, a trailing double space or backslash is a hard break. */
function joinParagraph(lines: string[]): string {
	let text = "";
	lines.forEach((line, n) => {
		if (n === lines.length - 1) text += line.trim();
		else if (/( {2,}|\\)$/.test(line)) text += `${line.replace(/( {2,}|\\)$/, "").trim()}\n`;
		else text += `${line.trim()} `;
	});
	return text;
}

export class Markdown implements Component {
	private cache: { text: string; width: number; lines: string[] } | undefined;

	constructor(
		private text: string,
		private paddingX: number,
		private paddingY: number,
		private theme: MarkdownTheme,
		private defaultTextStyle?: DefaultTextStyle,
		private options: MarkdownOptions = {},
	) {}

	setText(text: string): void {
		this.text = text;
		this.cache = undefined;
	}

	invalidate(): void {
		this.cache = undefined;
	}

	render(width: number): string[] {
		if (this.cache && this.cache.text === this.text && this.cache.width === width) return this.cache.lines;
		const contentWidth = Math.max(1, width - this.paddingX * 2);
		const source = this.options.transform ? this.options.transform(this.text, contentWidth) : this.text;
		let lines: string[] = [];
		if (source.trim() !== "") {
			const margin = " ".repeat(this.paddingX);
			const bg = this.defaultTextStyle?.bgColor;
			const finish = (line: string) => (bg ? bg(fitLine(line, width)) : fitLine(line, width));
			const blank = Array.from({ length: this.paddingY }, () => finish(""));
			const body = this.renderBlocks(expandTabs(source), contentWidth).map((line) => finish(margin + line));
			lines = [...blank, ...body, ...blank];
		}
		this.cache = { text: this.text, width, lines };
		return lines;
	}

	/** Text outside any Markdown construct, in the default style. */
	private plain = (text: string): string => {
		const style = this.defaultTextStyle;
		if (!style) return text;
		let out = style.color ? style.color(text) : text;
		if (style.bold) out = this.theme.bold(out);
		if (style.italic) out = this.theme.italic(out);
		if (style.strikethrough) out = this.theme.strikethrough(out);
		if (style.underline) out = this.theme.underline(out);
		return out;
	};

	private inline(text: string): string {
		return renderInline(text, this.theme, this.plain);
	}

	private renderBlocks(source: string, width: number): string[] {
		const lines = source.replace(/\r\n?/g, "\n").split("\n");
		const out: string[] = [];
		const separate = () => {
			if (out.length > 0 && out[out.length - 1] !== "") out.push("");
		};
		let i = 0;
		while (i < lines.length) {
			const line = lines[i] as string;
			if (line.trim() === "") {
				i++;
				continue;
			}
			separate();
			const fence = FENCE.exec(line);
			if (fence) {
				const marker = fence[1] as string;
				const code: string[] = [];
				i++;
				while (i < lines.length && !(lines[i] as string).trim().startsWith(marker)) code.push(lines[i++] as string);
				i++;
				out.push(...this.renderCode(code, fence[2] || undefined, width));
				continue;
			}
			const heading = HEADING.exec(line);
			if (heading) {
				const text = this.theme.heading(this.inline(heading[2] ?? ""));
				out.push(...wrapTextWithAnsi(heading[1] === "#" ? this.theme.bold(text) : text, width));
				i++;
				continue;
			}
			if (RULE.test(line)) {
				out.push(this.theme.hr("─".repeat(Math.min(width, 80))));
				i++;
				continue;
			}
			if (QUOTE.test(line)) {
				const quoted: string[] = [];
				while (i < lines.length && QUOTE.test(lines[i] as string))
					quoted.push(QUOTE.exec(lines[i++] as string)?.[1] ?? "");
				const border = this.theme.quoteBorder("│ ");
				for (const inner of this.renderBlocks(quoted.join("\n"), Math.max(1, width - 2))) {
					out.push(border + (inner ? this.theme.quote(inner) : ""));
				}
				continue;
			}
			if (LIST_ITEM.test(line)) {
				i = this.renderList(lines, i, width, out);
				continue;
			}
			if (TABLE_ROW.test(line) && TABLE_SEPARATOR.test(lines[i + 1] ?? "")) {
				const rows: string[] = [];
				while (i < lines.length && TABLE_ROW.test(lines[i] as string)) rows.push(lines[i++] as string);
				out.push(...this.renderTable(rows, width));
				continue;
			}
			const paragraph: string[] = [];
			while (i < lines.length && (lines[i] as string).trim() !== "" && !this.startsBlock(lines, i)) {
				paragraph.push(lines[i++] as string);
			}
			out.push(...wrapTextWithAnsi(this.inline(joinParagraph(paragraph)), width));
		}
		return out;
	}

	private startsBlock(lines: string[], i: number): boolean {
		const line = lines[i] as string;
		return (
			FENCE.test(line) ||
			HEADING.test(line) ||
			RULE.test(line) ||
			QUOTE.test(line) ||
			LIST_ITEM.test(line) ||
			(TABLE_ROW.test(line) && TABLE_SEPARATOR.test(lines[i + 1] ?? ""))
		);
	}

	private renderCode(code: string[], lang: string | undefined, width: number): string[] {
		const indent = this.theme.codeBlockIndent ?? "  ";
		const inner = Math.max(1, width - visibleWidth(indent));
		const highlighted = this.theme.highlightCode?.(code.join("\n"), lang) ?? code.map((l) => this.theme.codeBlock(l));
		const out = [this.theme.codeBlockBorder(truncateToWidth(`\`\`\`${lang ?? ""}`, width))];
		for (const line of highlighted) {
			for (const part of wrapTextWithAnsi(line, inner)) out.push(indent + part);
		}
		out.push(this.theme.codeBlockBorder("```"));
		return out;
	}

	/** Render consecutive list items starting at `start`; returns the index after the list. */
	private renderList(lines: string[], start: number, width: number, out: string[]): number {
		let i = start;
		const counters = new Map<number, number>();
		while (i < lines.length) {
			const m = LIST_ITEM.exec(lines[i] as string);
			if (!m) break;
			const depth = Math.floor((m[1] as string).length / 2);
			const raw = m[2] as string;
			let marker = "• ";
			if (/\d/.test(raw)) {
				const n = this.options.preserveOrderedListMarkers ? Number.parseInt(raw, 10) : (counters.get(depth) ?? 0) + 1;
				if (!this.options.preserveOrderedListMarkers) counters.set(depth, n);
				marker = `${n}${raw.slice(-1)} `;
			}
			for (const key of [...counters.keys()]) if (key > depth) counters.delete(key);
			let text = m[3] as string;
			i++;
			// Lazy continuation lines belong to the item.
			while (i < lines.length && (lines[i] as string).trim() !== "" && !this.startsBlock(lines, i)) {
				text += ` ${(lines[i++] as string).trim()}`;
			}
			const indent = "  ".repeat(depth);
			const hang = " ".repeat(visibleWidth(marker));
			const body = wrapTextWithAnsi(this.inline(text), Math.max(1, width - indent.length - hang.length));
			body.forEach((part, n) => {
				out.push(indent + (n === 0 ? this.theme.listBullet(marker) : hang) + part);
			});
			if (i < lines.length && (lines[i] as string).trim() === "" && LIST_ITEM.test(lines[i + 1] ?? "")) i++;
		}
		return i;
	}

	private renderTable(rows: string[], width: number): string[] {
		const cells = rows
			.filter((_, n) => n !== 1)
			.map((row) =>
				row
					.trim()
					.replace(/^\||\|$/g, "")
					.split(/(?<!\\)\|/)
					.map((cell) => this.inline(cell.trim())),
			);
		const columns = Math.max(...cells.map((row) => row.length));
		const widths = Array.from({ length: columns }, (_, c) =>
			Math.max(1, ...cells.map((row) => visibleWidth(row[c] ?? ""))),
		);
		const separatorWidth = 3 * (columns - 1);
		const total = widths.reduce((a, b) => a + b, 0) + separatorWidth;
		if (total > width) {
			// Shrink the widest columns until the table fits; cells are then truncated.
			const budget = Math.max(columns, width - separatorWidth);
			while (widths.reduce((a, b) => a + b, 0) > budget) {
				const widest = widths.indexOf(Math.max(...widths));
				if ((widths[widest] ?? 1) <= 1) break;
				widths[widest] = (widths[widest] ?? 1) - 1;
			}
		}
		const format = (row: string[]) => widths.map((w, c) => padToWidth(truncateToWidth(row[c] ?? "", w), w)).join(" │ ");
		const out = cells.map(format);
		const rule = widths.map((w) => "─".repeat(w)).join("─┼─");
		out.splice(1, 0, rule);
		if (cells[0]) out[0] = this.theme.bold(out[0] as string);
		return out.map((line) => truncateToWidth(line, width, ""));
	}
}
