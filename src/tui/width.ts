/**
 * Terminal cell arithmetic: how many columns a string occupies once escape sequences are ignored, and cutting
 * strings to a column budget without breaking escape sequences or graphemes.
 */

/** One piece of a terminal string: an escape sequence (zero width) or one grapheme (0–2 columns). */
export interface TerminalToken {
	text: string;
	/** True for an escape sequence (CSI, OSC, APC, DCS, …). */
	escape: boolean;
	/** Columns the token occupies; 0 for escapes. */
	width: number;
}

/** A tab counts as this many columns, matching how the components expand tabs. */
export const TAB_WIDTH = 3;

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Length of the escape sequence starting at `pos` (which holds ESC), or 0 if the ESC is a bare key press. */
function escapeLength(str: string, pos: number): number {
	const next = str[pos + 1];
	if (next === undefined) return 1;
	if (next === "[") {
		// CSI: parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, final byte 0x40–0x7E.
		let i = pos + 2;
		while (i < str.length) {
			const code = str.charCodeAt(i);
			if (code >= 0x40 && code <= 0x7e) return i - pos + 1;
			if (code < 0x20 || code > 0x3f) return i - pos; // malformed: end the sequence before the stray byte
			i++;
		}
		return str.length - pos;
	}
	if (next === "]" || next === "_" || next === "P" || next === "^" || next === "X") {
		// String sequences end with BEL or ST (ESC \).
		for (let i = pos + 2; i < str.length; i++) {
			const ch = str[i];
			if (ch === "\x07") return i - pos + 1;
			if (ch === "\x1b" && str[i + 1] === "\\") return i - pos + 2;
		}
		return str.length - pos;
	}
	// Two-character escapes (ESC 7, ESC =, ESC ( B …) are zero width too.
	if (next === "(" || next === ")") return Math.min(3, str.length - pos);
	return 2;
}

const ASCII_PRINTABLE = /^[\x20-\x7e]*$/;
const EMOJI_PRESENTATION = /\p{Emoji_Presentation}/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
/** Combining marks, variation selectors, zero-width joiners/spaces and other format characters. */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]$/u;

/** East Asian Wide / Fullwidth ranges (inclusive), sorted. Emoji are handled separately. */
const WIDE_RANGES: readonly (readonly [number, number])[] = [
	[0x1100, 0x115f],
	[0x2329, 0x232a],
	[0x2e80, 0x303e],
	[0x3041, 0x33ff],
	[0x3400, 0x4dbf],
	[0x4e00, 0x9fff],
	[0xa000, 0xa4cf],
	[0xa960, 0xa97f],
	[0xac00, 0xd7a3],
	[0xf900, 0xfaff],
	[0xfe10, 0xfe19],
	[0xfe30, 0xfe6f],
	[0xff00, 0xff60],
	[0xffe0, 0xffe6],
	[0x16fe0, 0x16fe4],
	[0x17000, 0x18aff],
	[0x1b000, 0x1b2ff],
	[0x1f200, 0x1f2ff],
	[0x20000, 0x2fffd],
	[0x30000, 0x3fffd],
];

function isWideCodePoint(cp: number): boolean {
	let lo = 0;
	let hi = WIDE_RANGES.length - 1;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		const range = WIDE_RANGES[mid] as readonly [number, number];
		if (cp < range[0]) hi = mid - 1;
		else if (cp > range[1]) lo = mid + 1;
		else return true;
	}
	return false;
}

/** Columns one grapheme cluster occupies. */
export function graphemeWidth(grapheme: string): number {
	const cp = grapheme.codePointAt(0);
	if (cp === undefined) return 0;
	if (cp === 0x09) return TAB_WIDTH;
	if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
	if (cp < 0x7f) return 1;
	const first = String.fromCodePoint(cp);
	if (ZERO_WIDTH.test(first)) return grapheme.length > first.length ? graphemeWidth(grapheme.slice(first.length)) : 0;
	if (EMOJI_PRESENTATION.test(first)) return 2;
	// A text-presentation pictograph made emoji by VS16, or a ZWJ sequence.
	if (PICTOGRAPHIC.test(first) && (grapheme.includes("\ufe0f") || grapheme.includes("\u200d"))) return 2;
	return isWideCodePoint(cp) ? 2 : 1;
}

/** Split a terminal string into escape sequences and graphemes. */
export function tokenize(str: string): TerminalToken[] {
	const tokens: TerminalToken[] = [];
	let pos = 0;
	while (pos < str.length) {
		const esc = str.indexOf("\x1b", pos);
		const end = esc === -1 ? str.length : esc;
		if (end > pos) {
			for (const { segment } of segmenter.segment(str.slice(pos, end))) {
				tokens.push({ text: segment, escape: false, width: graphemeWidth(segment) });
			}
		}
		if (esc === -1) break;
		const len = escapeLength(str, esc);
		tokens.push({ text: str.slice(esc, esc + len), escape: true, width: 0 });
		pos = esc + len;
	}
	return tokens;
}

/** Remove CSI, OSC, APC, DCS and other escape sequences, keeping the visible text. */
export function stripTerminalSequences(str: string): string {
	if (!str.includes("\x1b")) return str;
	let out = "";
	for (const token of tokenize(str)) if (!token.escape) out += token.text;
	return out;
}

/** Columns `str` occupies in a terminal: escapes count 0, wide CJK and emoji 2, combining marks 0. */
export function visibleWidth(str: string): number {
	if (ASCII_PRINTABLE.test(str)) return str.length;
	let width = 0;
	for (const token of tokenize(str)) width += token.width;
	return width;
}

const RESET = "\x1b[0m";
const OSC8_CLOSE = "\x1b]8;;\x07";

/** The URI of an OSC 8 hyperlink sequence ("" for the closing one), or undefined if `token` is not OSC 8. */
export function osc8Uri(token: string): string | undefined {
	if (!token.startsWith("\x1b]8;")) return undefined;
	const end = token.endsWith("\x07") ? -1 : token.endsWith("\x1b\\") ? -2 : token.length;
	const body = token.slice(0, end);
	return body.slice(body.indexOf(";", 4) + 1);
}

/** Sequences that close what `text` left open (SGR styling, hyperlinks), to append after cutting it. */
function closers(usedSgr: boolean, linkOpen: boolean): string {
	return (usedSgr ? RESET : "") + (linkOpen ? OSC8_CLOSE : "");
}

/**
 * Cut `text` to at most `maxWidth` columns, appending `ellipsis` when something was removed. Escape sequences are
 * kept intact and styling is reset before the ellipsis. With `pad`, spaces fill the result to exactly `maxWidth`.
 */
export function truncateToWidth(text: string, maxWidth: number, ellipsis = "...", pad = false): string {
	const limit = Math.max(0, Math.floor(maxWidth));
	const width = visibleWidth(text);
	if (width <= limit) return pad ? text + " ".repeat(limit - width) : text;
	const ellipsisWidth = visibleWidth(ellipsis);
	if (ellipsisWidth > limit) return truncateToWidth(ellipsis, limit, "", pad);
	const budget = limit - ellipsisWidth;
	let out = "";
	let used = 0;
	let usedSgr = false;
	let linkOpen = false;
	for (const token of tokenize(text)) {
		if (token.escape) {
			const uri = osc8Uri(token.text);
			if (uri !== undefined) linkOpen = uri !== "";
			else usedSgr = true;
			out += token.text;
			continue;
		}
		if (used + token.width > budget) break;
		out += token.text;
		used += token.width;
	}
	const result = out + closers(usedSgr, linkOpen) + ellipsis;
	return pad ? result + " ".repeat(Math.max(0, limit - used - ellipsisWidth)) : result;
}

/**
 * The visible columns [startCol, startCol + length) of `line`, with the escape sequences that precede them kept so
 * styling carries over. With `strict`, a wide grapheme straddling the end is dropped rather than included.
 */
export function sliceByColumn(line: string, startCol: number, length: number, strict = false): string {
	const end = startCol + length;
	let col = 0;
	let out = "";
	for (const token of tokenize(line)) {
		if (token.escape) {
			if (col <= end) out += token.text;
			continue;
		}
		if (col >= end) break;
		if (col >= startCol && (!strict || col + token.width <= end)) out += token.text;
		col += token.width;
	}
	return out;
}

/** Pad `text` with spaces on the right to `width` columns (never truncates). */
export function padToWidth(text: string, width: number): string {
	const missing = width - visibleWidth(text);
	return missing > 0 ? text + " ".repeat(missing) : text;
}
