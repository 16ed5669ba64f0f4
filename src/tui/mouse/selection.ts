/**
 * Text selection over rendered lines, as the fullscreen renderer owns it: points are (row, column) cells, words keep
 * paths and kebab-case tokens together (`/` and `-` join word pieces), a triple click takes the whole rendered line,
 * and copied text is the lines' visible characters without styles, each right-trimmed.
 */
import { graphemeWidth, sliceByColumn, stripTerminalSequences, tokenize, visibleWidth } from "../width.ts";

export interface SelectionPoint {
	row: number;
	col: number;
	/** The column is an exclusive end (word/line selections) rather than a selected cell. */
	boundary?: boolean;
}

export interface SelectionRange<P extends SelectionPoint = SelectionPoint> {
	start: P;
	end: P;
}

const JOINERS = new Set(["/", "-"]);
const words = new Intl.Segmenter(undefined, { granularity: "word" });

/** Columns [start, end) of the word under `col` in `line` (styles ignored), or undefined past the line's end. */
export function wordRangeAt(line: string, col: number): { start: number; end: number } | undefined {
	const text = stripTerminalSequences(line);
	const pieces: { start: number; end: number; word: boolean; joiner: boolean }[] = [];
	let at = 0;
	for (const piece of words.segment(text)) {
		const end = at + visibleWidth(piece.segment);
		const joiner = JOINERS.has(piece.segment);
		pieces.push({ start: at, end, word: piece.isWordLike === true || joiner, joiner });
		at = end;
	}
	const hit = pieces.findIndex((piece) => col >= piece.start && col < piece.end);
	if (hit < 0) return undefined;
	const joins = (a: (typeof pieces)[number], b: (typeof pieces)[number]): boolean =>
		a.word && b.word && (a.joiner || b.joiner);
	let first = hit;
	while (first > 0 && joins(pieces[first - 1] as (typeof pieces)[number], pieces[first] as (typeof pieces)[number]))
		first--;
	let last = hit;
	while (
		last < pieces.length - 1 &&
		joins(pieces[last] as (typeof pieces)[number], pieces[last + 1] as (typeof pieces)[number])
	)
		last++;
	return {
		start: (pieces[first] as (typeof pieces)[number]).start,
		end: (pieces[last] as (typeof pieces)[number]).end,
	};
}

/** The selection a double click at `point` makes, or undefined when there is no text there. */
export function wordSelection<P extends SelectionPoint>(line: string, point: P): SelectionRange<P> | undefined {
	const range = wordRangeAt(line, point.col);
	if (!range) return undefined;
	return { start: { ...point, col: range.start }, end: { ...point, col: range.end, boundary: true } };
}

/** The selection a triple click makes: the whole rendered line. */
export function lineSelection<P extends SelectionPoint>(line: string, point: P): SelectionRange<P> {
	return { start: { ...point, col: 0 }, end: { ...point, col: visibleWidth(line), boundary: true } };
}

/** Anchor and focus in reading order, or undefined for an empty selection. */
export function orderSelection<P extends SelectionPoint>(anchor: P, focus: P): SelectionRange<P> | undefined {
	if (anchor.row === focus.row && anchor.col === focus.col) return undefined;
	const anchorFirst = anchor.row < focus.row || (anchor.row === focus.row && anchor.col < focus.col);
	return anchorFirst ? { start: anchor, end: focus } : { start: focus, end: anchor };
}

/** The cells [start, end) a cell column belongs to (a wide character covers two). */
export function graphemeCellRange(line: string, col: number): { start: number; end: number } | undefined {
	let at = 0;
	for (const token of tokenize(line)) {
		if (token.escape) continue;
		const width = token.width || graphemeWidth(token.text);
		if (col >= at && col < at + Math.max(1, width)) return { start: at, end: at + Math.max(1, width) };
		at += width;
	}
	return undefined;
}

/** Columns of `line` (row `row`) covered by `selection`, limited to [minCol, maxCol). */
export function selectionColumns(
	line: string,
	row: number,
	selection: SelectionRange,
	minCol = 0,
	maxCol = visibleWidth(line),
): { start: number; end: number } {
	const width = visibleWidth(line);
	let start = Math.max(0, minCol);
	let end = Math.min(width, maxCol);
	if (row === selection.start.row) {
		start = graphemeCellRange(line, selection.start.col)?.start ?? Math.min(selection.start.col, width);
	}
	if (row === selection.end.row) {
		end = selection.end.boundary
			? Math.min(selection.end.col, width)
			: (graphemeCellRange(line, selection.end.col)?.end ?? Math.min(selection.end.col + 1, width));
	}
	return { start: Math.max(minCol, start), end: Math.min(maxCol, end) };
}

/** The selected text: visible characters only, each line right-trimmed, lines joined with "\n". */
export function selectedText(lines: readonly string[], selection: SelectionRange): string {
	const out: string[] = [];
	for (let row = selection.start.row; row <= selection.end.row; row++) {
		const line = lines[row] ?? "";
		const { start, end } = selectionColumns(line, row, selection);
		out.push(stripTerminalSequences(sliceByColumn(line, start, Math.max(0, end - start), true)).trimEnd());
	}
	return out.join("\n");
}

/** Reverse video over `text`, re-applied after every SGR inside it so embedded resets do not end it. */
export function highlightSelected(text: string): string {
	let out = "\x1b[7m";
	for (const token of tokenize(text)) {
		out += token.text;
		if (token.escape && token.text.endsWith("m") && token.text.startsWith("\x1b[")) out += "\x1b[7m";
	}
	return `${out}\x1b[27m`;
}

/** Lines with the selection drawn in reverse video (rows/columns outside the bounds left alone). */
export function paintSelection(
	lines: readonly string[],
	selection: SelectionRange,
	bounds: { minRow: number; maxRow: number; minCol: number; maxCol: number },
	skip: (line: string) => boolean = () => false,
): string[] {
	return lines.map((line, row) => {
		if (
			row < bounds.minRow ||
			row > bounds.maxRow ||
			row < selection.start.row ||
			row > selection.end.row ||
			skip(line)
		) {
			return line;
		}
		const width = visibleWidth(line);
		const { start, end } = selectionColumns(line, row, selection, bounds.minCol, bounds.maxCol);
		if (end <= start) return line;
		const before = sliceByColumn(line, 0, start, true);
		const middle = sliceByColumn(line, start, end - start, true);
		const after = sliceByColumn(line, end, Math.max(0, width - end), true);
		return `${before}${highlightSelected(middle)}${after}`;
	});
}
