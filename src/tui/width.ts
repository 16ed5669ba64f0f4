/**
 * Terminal cell arithmetic, as pi-tui 0.87.1 computes it: how many columns a string occupies once control sequences
 * are ignored, cutting a string to a column budget, and taking a column range out of a line. Control sequences are
 * those of `ansi.ts`; grapheme widths come from `grapheme.ts`. Printable-ASCII text takes fast paths throughout:
 * these run for every line of every frame.
 */
import {
	findSequence,
	isPrintableAscii,
	openLinkCloser,
	osc8LinkUrl,
	osc8Uri,
	type SequenceSpan,
	sequenceEnd,
	stripTerminalSequences,
} from "./ansi.ts";
import { forEachGrapheme, graphemeWidth, runWidth, TAB_WIDTH } from "./grapheme.ts";

export { graphemeWidth, osc8Uri, stripTerminalSequences, TAB_WIDTH };

/** One piece of a terminal string: a control sequence (zero width) or one grapheme. */
export interface TerminalToken {
	text: string;
	/** True for a control sequence. */
	escape: boolean;
	/** Columns the token occupies; 0 for control sequences. */
	width: number;
}

/** Split a terminal string into control sequences and graphemes (graphemes segmented between sequences). */
export function tokenize(str: string): TerminalToken[] {
	const tokens: TerminalToken[] = [];
	const span: SequenceSpan = { start: 0, end: 0 };
	let pos = 0;
	const push = (text: string, width: number) => {
		tokens.push({ text, escape: false, width });
		return false;
	};
	while (pos < str.length) {
		const found = findSequence(str, pos, span);
		const runEnd = found ? span.start : str.length;
		if (runEnd > pos) forEachGrapheme(str.slice(pos, runEnd), push);
		if (!found) break;
		tokens.push({ text: str.slice(span.start, span.end), escape: true, width: 0 });
		pos = span.end;
	}
	return tokens;
}

const WIDTH_CACHE_SIZE = 512;
const widthCache = new Map<string, number>();

/** Columns `str` occupies in a terminal: control sequences 0, tabs 3, wide CJK and emoji 2, combining marks 0. */
export function visibleWidth(str: string): number {
	if (str.length === 0) return 0;
	if (isPrintableAscii(str)) return str.length;
	const cached = widthCache.get(str);
	if (cached !== undefined) return cached;
	// Tabs become spaces before anything else, and graphemes are segmented across removed sequences.
	let clean = str.includes("\t") ? str.replaceAll("\t", "   ") : str;
	clean = stripTerminalSequences(clean);
	const width = isPrintableAscii(clean) ? clean.length : runWidth(clean);
	if (widthCache.size >= WIDTH_CACHE_SIZE) {
		const oldest = widthCache.keys().next().value;
		if (oldest !== undefined) widthCache.delete(oldest);
	}
	widthCache.set(str, width);
	return width;
}

/** Pad `text` with spaces on the right to `width` columns (never truncates). */
export function padToWidth(text: string, width: number): string {
	const missing = width - visibleWidth(text);
	return missing > 0 ? text + " ".repeat(missing) : text;
}

/**
 * The longest start of `text` that fits `maxWidth` columns. Text runs are split at tabs and control sequences;
 * sequences are kept only when a grapheme after them is.
 */
function clipFragment(text: string, maxWidth: number): { text: string; width: number } {
	if (maxWidth <= 0 || text.length === 0) return { text: "", width: 0 };
	if (isPrintableAscii(text)) {
		const clipped = text.slice(0, maxWidth);
		return { text: clipped, width: clipped.length };
	}
	let out = "";
	let width = 0;
	let pending = "";
	const take = (grapheme: string, w: number) => {
		if (width + w > maxWidth) return true;
		out += pending + grapheme;
		pending = "";
		width += w;
		return false;
	};
	for (const piece of pieces(text)) {
		if (piece.code) pending += piece.text;
		else if (forEachGrapheme(piece.text, take)) break;
	}
	return { text: out, width };
}

/** Control sequences and text runs of `text`; a run never contains a tab except as the whole run "\t". */
function* pieces(text: string): Generator<{ code: boolean; text: string }> {
	let pos = 0;
	while (pos < text.length) {
		if (text.charCodeAt(pos) === 0x1b) {
			const end = sequenceEnd(text, pos);
			if (end !== -1) {
				yield { code: true, text: text.slice(pos, end) };
				pos = end;
				continue;
			}
		}
		if (text.charCodeAt(pos) === 0x09) {
			yield { code: false, text: "\t" };
			pos++;
			continue;
		}
		let end = pos + 1;
		while (end < text.length) {
			const c = text.charCodeAt(end);
			if (c === 0x09 || (c === 0x1b && sequenceEnd(text, end) !== -1)) break;
			end++;
		}
		yield { code: false, text: text.slice(pos, end) };
		pos = end;
	}
}

const RESET = "\x1b[0m";

/** `prefix`, then what closes its open hyperlink and styling, then the ellipsis, padded on request. */
function finishCut(
	prefix: string,
	prefixWidth: number,
	ellipsis: string,
	ellipsisWidth: number,
	maxWidth: number,
	pad: boolean,
) {
	let out = prefix + openLinkCloser(prefix) + RESET;
	if (ellipsis.length > 0) out += ellipsis + RESET;
	return pad ? out + " ".repeat(Math.max(0, maxWidth - prefixWidth - ellipsisWidth)) : out;
}

/**
 * Cut `text` to at most `maxWidth` columns, ending with `ellipsis` when something was removed (the styling and any
 * open hyperlink are closed before it). Text that fits comes back unchanged. With `pad`, spaces fill the result to
 * exactly `maxWidth` columns.
 */
export function truncateToWidth(text: string, maxWidth: number, ellipsis = "...", pad = false): string {
	if (maxWidth <= 0) return "";
	if (text.length === 0) return pad ? " ".repeat(maxWidth) : "";
	const ellipsisWidth = visibleWidth(ellipsis);
	if (ellipsisWidth >= maxWidth) {
		const textWidth = visibleWidth(text);
		if (textWidth <= maxWidth) return pad ? text + " ".repeat(maxWidth - textWidth) : text;
		const clipped = clipFragment(ellipsis, maxWidth);
		if (clipped.width === 0) return pad ? " ".repeat(maxWidth) : "";
		return finishCut("", 0, clipped.text, clipped.width, maxWidth, pad);
	}
	const budget = maxWidth - ellipsisWidth;
	if (isPrintableAscii(text)) {
		if (text.length <= maxWidth) return pad ? text + " ".repeat(maxWidth - text.length) : text;
		return finishCut(text.slice(0, budget), budget, ellipsis, ellipsisWidth, maxWidth, pad);
	}
	// Keep graphemes while they fit the budget; stop reading once the whole text is known to be too wide.
	let kept = "";
	let keptWidth = 0;
	let pending = "";
	let seen = 0;
	let keeping = true;
	const visit = (grapheme: string, w: number) => {
		if (keeping && keptWidth + w <= budget) {
			kept += pending + grapheme;
			pending = "";
			keptWidth += w;
		} else {
			keeping = false;
			pending = "";
		}
		seen += w;
		return seen > maxWidth;
	};
	let overflowed = false;
	if (!text.includes("\x1b") && !text.includes("\t")) overflowed = forEachGrapheme(text, visit);
	else {
		for (const piece of pieces(text)) {
			if (piece.code) pending += piece.text;
			else if (piece.text === "\t") overflowed = visit("\t", TAB_WIDTH);
			else overflowed = forEachGrapheme(piece.text, visit);
			if (overflowed) break;
		}
	}
	if (!overflowed) return pad ? text + " ".repeat(Math.max(0, maxWidth - seen)) : text;
	return finishCut(kept, keptWidth, ellipsis, ellipsisWidth, maxWidth, pad);
}

/**
 * The visible columns [startCol, startCol + length) of `line`. Control sequences inside the range are kept, and
 * those before it are carried to the first kept grapheme so its styling holds. With `strict`, a wide grapheme that
 * would end past the range is left out.
 */
export function sliceByColumn(line: string, startCol: number, length: number, strict = false): string {
	return sliceWithWidth(line, startCol, length, strict).text;
}

/** `sliceByColumn`, also giving the columns the result occupies. */
export function sliceWithWidth(
	line: string,
	startCol: number,
	length: number,
	strict = false,
): { text: string; width: number } {
	if (length <= 0) return { text: "", width: 0 };
	const endCol = startCol + length;
	if (Number.isInteger(startCol) && Number.isInteger(length) && isPrintableAscii(line)) {
		const from = Math.max(0, startCol);
		const text = line.slice(from, Math.max(from, endCol));
		return { text, width: text.length };
	}
	let out = "";
	let width = 0;
	let col = 0;
	let pending = "";
	const visit = (grapheme: string, w: number) => {
		if (col >= startCol && col < endCol && (!strict || col + w <= endCol)) {
			out += pending + grapheme;
			pending = "";
			width += w;
		}
		col += w;
		return col >= endCol;
	};
	const span: SequenceSpan = { start: 0, end: 0 };
	let pos = 0;
	while (pos < line.length) {
		const found = findSequence(line, pos, span);
		const runEnd = found ? span.start : line.length;
		if (runEnd > pos && forEachGrapheme(line.slice(pos, runEnd), visit)) break;
		if (!found) break;
		const code = line.slice(span.start, span.end);
		if (col >= startCol && col < endCol) out += code;
		else if (col < startCol) pending += code;
		pos = span.end;
	}
	return { text: out, width };
}

/** The URL of the OSC 8 hyperlink covering visible column `column` of `line`, or undefined. */
export function getOsc8LinkAtColumn(line: string, column: number): string | undefined {
	let url: string | undefined;
	let col = 0;
	let found: string | undefined;
	const visit = (_grapheme: string, w: number) => {
		if (column >= col && column < col + w) return true;
		col += w;
		return false;
	};
	const span: SequenceSpan = { start: 0, end: 0 };
	let pos = 0;
	while (pos < line.length) {
		const more = findSequence(line, pos, span);
		const runEnd = more ? span.start : line.length;
		if (runEnd > pos && forEachGrapheme(line.slice(pos, runEnd), visit)) {
			found = url;
			break;
		}
		if (!more) break;
		const link = osc8LinkUrl(line.slice(span.start, span.end));
		if (link !== undefined) url = link || undefined;
		pos = span.end;
	}
	return found;
}

const SPACE_RUNS: string[] = [];

/** `n` spaces; runs up to 512 are shared (padding every line of a transcript reuses a handful of strings). */
export function spaces(n: number): string {
	if (n <= 0) return "";
	if (n > 512) return " ".repeat(n);
	let run = SPACE_RUNS[n];
	if (run === undefined) {
		run = " ".repeat(n);
		SPACE_RUNS[n] = run;
	}
	return run;
}
