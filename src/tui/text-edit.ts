/** Grapheme- and word-aware cursor arithmetic and line layout shared by Input and Editor, plus bracketed paste. */
import { graphemeWidth } from "./width.ts";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** String offsets where graphemes start, plus the string length. */
function boundaries(text: string): number[] {
	const out: number[] = [];
	for (const { index } of segmenter.segment(text)) out.push(index);
	out.push(text.length);
	return out;
}

/** Offset of the grapheme boundary before `index` (0 at the start). */
export function previousBoundary(text: string, index: number): number {
	let result = 0;
	for (const b of boundaries(text)) {
		if (b >= index) break;
		result = b;
	}
	return result;
}

/** Offset of the grapheme boundary after `index` (the length at the end). */
export function nextBoundary(text: string, index: number): number {
	for (const b of boundaries(text)) if (b > index) return b;
	return text.length;
}

/** The grapheme starting at `index`, or "" at the end. */
export function graphemeAt(text: string, index: number): string {
	return text.slice(index, nextBoundary(text, index));
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** Start of the word before `index` (skipping spaces/punctuation first), like readline's backward-word. */
export function wordStartBefore(text: string, index: number): number {
	let i = index;
	while (i > 0 && !WORD_CHAR.test(text[i - 1] ?? "")) i--;
	while (i > 0 && WORD_CHAR.test(text[i - 1] ?? "")) i--;
	return i;
}

/** End of the word after `index`, like readline's forward-word. */
export function wordEndAfter(text: string, index: number): number {
	let i = index;
	while (i < text.length && !WORD_CHAR.test(text[i] ?? "")) i++;
	while (i < text.length && WORD_CHAR.test(text[i] ?? "")) i++;
	return i;
}

/** Break one logical line into rows of at most `width` columns, preferring to break after a space. */
export function layoutLine(text: string, width: number): { start: number; end: number }[] {
	const graphemes = [...segmenter.segment(text)].map((s) => ({
		index: s.index,
		width: graphemeWidth(s.segment),
		text: s.segment,
	}));
	const rows: { start: number; end: number }[] = [];
	let i = 0;
	while (i < graphemes.length) {
		const start = graphemes[i]?.index ?? text.length;
		let used = 0;
		let j = i;
		let breakAfterSpace = -1;
		while (j < graphemes.length) {
			const g = graphemes[j] as { width: number; text: string };
			if (used + g.width > width && j > i) break;
			used += g.width;
			j++;
			if (g.text === " ") breakAfterSpace = j;
		}
		if (j < graphemes.length && breakAfterSpace > i) j = breakAfterSpace;
		rows.push({ start, end: graphemes[j]?.index ?? text.length });
		i = j;
	}
	if (rows.length === 0) rows.push({ start: 0, end: 0 });
	return rows;
}

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/**
 * Collects bracketed paste (`ESC[200~ … ESC[201~`), which may arrive split over several input chunks.
 * `feed` returns the pasted text once complete, the input untouched when it is not a paste, or null while a paste
 * is still incomplete.
 */
export class PasteCollector {
	private buffer: string | undefined;

	feed(data: string): { paste: string; rest: string } | { input: string } | null {
		let chunk = data;
		if (this.buffer === undefined) {
			const start = chunk.indexOf(PASTE_START);
			if (start === -1) return { input: chunk };
			this.buffer = "";
			chunk = chunk.slice(start + PASTE_START.length);
		}
		const end = chunk.indexOf(PASTE_END);
		if (end === -1) {
			this.buffer += chunk;
			return null;
		}
		const paste = this.buffer + chunk.slice(0, end);
		this.buffer = undefined;
		return { paste: paste.replace(/\r\n?/g, "\n"), rest: chunk.slice(end + PASTE_END.length) };
	}
}

/** Inverse-video cell drawn where the cursor is (a space at the end of the text). */
export function cursorCell(grapheme: string): string {
	return `\x1b[7m${grapheme || " "}\x1b[27m`;
}
