/**
 * Tables drawn with box characters, fitted to the width: columns take their natural width when everything fits;
 * otherwise each column keeps room for its longest word (up to 30 columns) and the remaining space is shared in
 * proportion to how much more each column wants. Cells wrap inside their column. Too narrow for even one column
 * per cell: the table's source text is shown instead.
 */
import type { Token, Tokens } from "marked";
import { visibleWidth } from "../width.ts";
import { wrapTextWithAnsi } from "../wrap.ts";
import type { MarkdownTheme } from "./theme.ts";

const LONGEST_UNBROKEN_WORD = 30;
/** Ends bold/italic/underline/blink/inverse/hidden/strike and the colour at a wrapped cell line's end. */
const STYLE_RESET = "\x1b[22;23;24;25;27;28;29;39m";

function longestWord(text: string): number {
	let longest = 0;
	for (const word of text.split(/\s+/)) if (word) longest = Math.max(longest, visibleWidth(word));
	return Math.min(longest, LONGEST_UNBROKEN_WORD);
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Minimum widths when the longest words do not all fit: one column each, the rest shared by word length. */
function squeezedMinimums(wordWidths: number[], cellsWidth: number): number[] {
	const columns = wordWidths.length;
	const minimums = new Array<number>(columns).fill(1);
	const spare = cellsWidth - columns;
	if (spare <= 0) return minimums;
	const weights = wordWidths.map((width) => Math.max(0, width - 1));
	const totalWeight = sum(weights);
	const growth = weights.map((weight) => (totalWeight > 0 ? Math.floor((weight / totalWeight) * spare) : 0));
	let leftover = spare - sum(growth);
	for (let i = 0; i < columns; i++) {
		minimums[i] = (minimums[i] as number) + (growth[i] as number) + (leftover > 0 ? 1 : 0);
		if (leftover > 0) leftover--;
	}
	return minimums;
}

function columnWidths(natural: number[], wordWidths: number[], cellsWidth: number, width: number): number[] {
	const columns = natural.length;
	let minimums = wordWidths;
	if (sum(minimums) > cellsWidth) minimums = squeezedMinimums(wordWidths, cellsWidth);
	if (sum(natural) + 3 * columns + 1 <= width) return natural.map((w, i) => Math.max(w, minimums[i] as number));
	const wants = natural.map((w, i) => Math.max(0, w - (minimums[i] as number)));
	const totalWants = sum(wants);
	const extra = Math.max(0, cellsWidth - sum(minimums));
	const widths = minimums.map(
		(min, i) => min + (totalWants > 0 ? Math.floor(((wants[i] as number) / totalWants) * extra) : 0),
	);
	let remaining = cellsWidth - sum(widths);
	while (remaining > 0) {
		let grew = false;
		for (let i = 0; i < columns && remaining > 0; i++) {
			if ((widths[i] as number) < (natural[i] as number)) {
				widths[i] = (widths[i] as number) + 1;
				remaining--;
				grew = true;
			}
		}
		if (!grew) break;
	}
	return widths;
}

export function renderTable(
	table: Tokens.Table,
	width: number,
	next: string | undefined,
	stylePrefix: string | undefined,
	theme: MarkdownTheme,
	inline: (tokens: Token[]) => string,
): string[] {
	const columns = table.header.length;
	if (columns === 0) return [];
	const gap = next && next !== "space" ? [""] : [];
	const cellsWidth = width - (3 * columns + 1);
	if (cellsWidth < columns) return [...(table.raw ? wrapTextWithAnsi(table.raw, width) : []), ...gap];
	const header = table.header.map((cell) => inline(cell.tokens ?? []));
	const rows = table.rows.map((row) => row.map((cell) => inline(cell.tokens ?? [])));
	const natural = header.map((text) => visibleWidth(text));
	const words = header.map((text) => Math.max(1, longestWord(text)));
	for (const row of rows) {
		row.forEach((text, i) => {
			natural[i] = Math.max(natural[i] ?? 0, visibleWidth(text));
			words[i] = Math.max(words[i] ?? 1, longestWord(text));
		});
	}
	const widths = columnWidths(natural, words, cellsWidth, width);
	const wrapCell = (text: string, i: number) => {
		const parts = wrapTextWithAnsi(text, Math.max(1, widths[i] as number));
		return parts.map((part, n) => `${part}${n < parts.length - 1 ? STYLE_RESET : ""}${stylePrefix ?? ""}`);
	};
	const rule = (left: string, middle: string, right: string) =>
		`${left}─${widths.map((w) => "─".repeat(w)).join(`─${middle}─`)}─${right}`;
	const rowLines = (cells: string[][], cellStyle: (text: string) => string) => {
		const height = Math.max(...cells.map((lines) => lines.length));
		const out: string[] = [];
		for (let line = 0; line < height; line++) {
			const parts = cells.map((lines, i) => {
				const text = lines[line] ?? "";
				return cellStyle(text + " ".repeat(Math.max(0, (widths[i] as number) - visibleWidth(text))));
			});
			out.push(`│ ${parts.join(" │ ")} │`);
		}
		return out;
	};
	const lines = [rule("┌", "┬", "┐"), ...rowLines(header.map(wrapCell), theme.bold), rule("├", "┼", "┤")];
	rows.forEach((row, n) => {
		lines.push(...rowLines(row.map(wrapCell), (text) => text));
		if (n < rows.length - 1) lines.push(rule("├", "┼", "┤"));
	});
	lines.push(rule("└", "┴", "┘"), ...gap);
	return lines;
}
