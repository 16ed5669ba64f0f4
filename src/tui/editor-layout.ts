/**
 * Editor layout: paste-marker-aware segmentation, word-aware soft wrapping of a logical line, and the map from
 * rendered rows back to positions in the text.
 */
import { cjkBreakRegex, graphemeSegmenter, isWhitespaceChar } from "./text-edit.ts";
import { sliceByColumn, visibleWidth } from "./width.ts";

/** `[paste #N +M lines]` or `[paste #N M chars]` (the suffix optional). */
export const PASTE_MARKER_PATTERN = /\[paste #(\d+)( (\+\d+ lines|\d+ chars))?\]/g;
const WHOLE_PASTE_MARKER = /^\[paste #(\d+)( (\+\d+ lines|\d+ chars))?\]$/;

export function isPasteMarker(segment: string): boolean {
	return segment.length >= 10 && WHOLE_PASTE_MARKER.test(segment);
}

export function pasteMarkerId(segment: string): number | undefined {
	const match = WHOLE_PASTE_MARKER.exec(segment);
	return match ? Number(match[1]) : undefined;
}

/** Segments of `text`, with each paste marker whose id is in `ids` merged into one atomic segment. */
export function segmentWithMarkers(
	text: string,
	segmenter: Intl.Segmenter,
	ids: ReadonlySet<number>,
): Iterable<Intl.SegmentData> {
	if (ids.size === 0 || !text.includes("[paste #")) return segmenter.segment(text);
	const spans: { start: number; end: number }[] = [];
	for (const m of text.matchAll(PASTE_MARKER_PATTERN)) {
		if (ids.has(Number(m[1]))) spans.push({ start: m.index, end: m.index + m[0].length });
	}
	if (spans.length === 0) return segmenter.segment(text);
	const out: Intl.SegmentData[] = [];
	let k = 0;
	for (const seg of segmenter.segment(text)) {
		while (k < spans.length && (spans[k] as { end: number }).end <= seg.index) k++;
		const span = spans[k];
		if (span && seg.index >= span.start && seg.index < span.end) {
			if (seg.index === span.start)
				out.push({ segment: text.slice(span.start, span.end), index: span.start, input: text });
			continue;
		}
		out.push(seg);
	}
	return out;
}

export interface TextChunk {
	text: string;
	startIndex: number;
	endIndex: number;
}

/**
 * Split one line into rows of at most `maxWidth` columns. Breaks go after whitespace that precedes a non-space
 * (or beside CJK characters); a word longer than the row is cut at grapheme boundaries.
 */
export function wordWrapLine(line: string, maxWidth: number, preSegmented?: Intl.SegmentData[]): TextChunk[] {
	if (!line || maxWidth <= 0) return [{ text: "", startIndex: 0, endIndex: 0 }];
	if (visibleWidth(line) <= maxWidth) return [{ text: line, startIndex: 0, endIndex: line.length }];
	const chunks: TextChunk[] = [];
	const segments = preSegmented ?? [...graphemeSegmenter.segment(line)];
	const push = (start: number, end: number) =>
		chunks.push({ text: line.slice(start, end), startIndex: start, endIndex: end });
	let used = 0;
	let chunkStart = 0;
	let breakAt = -1;
	let widthAtBreak = 0;
	for (let i = 0; i < segments.length; i++) {
		const seg = segments[i] as Intl.SegmentData;
		const g = seg.segment;
		const w = visibleWidth(g);
		const marker = isPasteMarker(g);
		const space = !marker && isWhitespaceChar(g);
		if (used + w > maxWidth) {
			if (breakAt >= 0 && used - widthAtBreak + w <= maxWidth) {
				push(chunkStart, breakAt);
				chunkStart = breakAt;
				used -= widthAtBreak;
			} else if (chunkStart < seg.index) {
				push(chunkStart, seg.index);
				chunkStart = seg.index;
				used = 0;
			}
			breakAt = -1;
		}
		if (w > maxWidth) {
			// An atomic segment wider than a row (a paste marker in a narrow editor) is split for display only.
			const parts = wordWrapLine(g, maxWidth);
			for (const part of parts.slice(0, -1)) push(seg.index + part.startIndex, seg.index + part.endIndex);
			const tail = parts[parts.length - 1] as TextChunk;
			chunkStart = seg.index + tail.startIndex;
			used = visibleWidth(tail.text);
			breakAt = -1;
			continue;
		}
		used += w;
		const next = segments[i + 1];
		if (!next) continue;
		const nextMarker = isPasteMarker(next.segment);
		if (space && (nextMarker || !isWhitespaceChar(next.segment))) {
			breakAt = next.index;
			widthAtBreak = used;
		} else if (!space && !isWhitespaceChar(next.segment)) {
			const cjk = !marker && cjkBreakRegex.test(g);
			const nextCjk = !nextMarker && cjkBreakRegex.test(next.segment);
			if (cjk || nextCjk) {
				breakAt = next.index;
				widthAtBreak = used;
			}
		}
	}
	push(chunkStart, line.length);
	return chunks;
}

/** A rendered row: `length` code units of logical line `logicalLine` from `startCol`. */
export interface VisualLine {
	logicalLine: number;
	startCol: number;
	length: number;
}

export function buildVisualLines(
	lines: string[],
	width: number,
	segment: (text: string) => Iterable<Intl.SegmentData>,
): VisualLine[] {
	const out: VisualLine[] = [];
	lines.forEach((line, i) => {
		if (line.length === 0) out.push({ logicalLine: i, startCol: 0, length: 0 });
		else if (visibleWidth(line) <= width) out.push({ logicalLine: i, startCol: 0, length: line.length });
		else {
			for (const chunk of wordWrapLine(line, width, [...segment(line)])) {
				out.push({ logicalLine: i, startCol: chunk.startIndex, length: chunk.endIndex - chunk.startIndex });
			}
		}
	});
	return out;
}

/** Whether row `i` is the last row of its logical line. */
export function isLastRowOfLine(rows: VisualLine[], i: number): boolean {
	return i === rows.length - 1 || rows[i + 1]?.logicalLine !== rows[i]?.logicalLine;
}

/** Index of the row holding position (line, col); the end of a wrapped row belongs to the next row. */
export function findVisualLine(rows: VisualLine[], line: number, col: number): number {
	for (let i = 0; i < rows.length; i++) {
		const row = rows[i] as VisualLine;
		if (row.logicalLine !== line) continue;
		const offset = col - row.startCol;
		if (offset >= 0 && (offset < row.length || (offset === row.length && isLastRowOfLine(rows, i)))) return i;
	}
	return rows.length - 1;
}

/** A row to draw, with the cursor offset when the cursor is on it. */
export interface LayoutLine {
	text: string;
	hasCursor: boolean;
	cursorPos?: number;
}

/** Rows to draw for the whole text with the cursor at (cursorLine, cursorCol). */
export function layoutText(
	lines: string[],
	cursorLine: number,
	cursorCol: number,
	width: number,
	segment: (text: string) => Iterable<Intl.SegmentData>,
): LayoutLine[] {
	if (lines.length === 0 || (lines.length === 1 && lines[0] === ""))
		return [{ text: "", hasCursor: true, cursorPos: 0 }];
	const out: LayoutLine[] = [];
	lines.forEach((line, i) => {
		const current = i === cursorLine;
		if (visibleWidth(line) <= width) {
			out.push(current ? { text: line, hasCursor: true, cursorPos: cursorCol } : { text: line, hasCursor: false });
			return;
		}
		const chunks = wordWrapLine(line, width, [...segment(line)]);
		chunks.forEach((chunk, k) => {
			const last = k === chunks.length - 1;
			const inside = current && cursorCol >= chunk.startIndex && (last || cursorCol < chunk.endIndex);
			if (!inside) out.push({ text: chunk.text, hasCursor: false });
			else
				out.push({
					text: chunk.text,
					hasCursor: true,
					cursorPos: Math.min(cursorCol - chunk.startIndex, last ? Infinity : chunk.text.length),
				});
		});
	});
	return out;
}

/** A border with `↑ N more` / `↓ N more` centred in it (or left-aligned / cut when narrow). */
export function scrollBorder(arrow: "↑" | "↓", hidden: number, width: number): string {
	const available = Math.max(0, width);
	const label = ` ${arrow} ${hidden} more `;
	const labelWidth = visibleWidth(label);
	if (labelWidth + 2 <= available) {
		const left = Math.floor((available - labelWidth) / 2);
		return "─".repeat(left) + label + "─".repeat(available - left - labelWidth);
	}
	const indicator = `─── ${arrow} ${hidden} more `;
	const rest = available - visibleWidth(indicator);
	if (rest >= 0) return indicator + "─".repeat(rest);
	const dots = "...".slice(0, available);
	return sliceByColumn(indicator, 0, available - visibleWidth(dots), true) + dots;
}
