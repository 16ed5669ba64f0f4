/**
 * Finding text in the rendered transcript. Lines are flattened into one searchable text (styles stripped, every run
 * of blanks and every line break becoming one space, so a phrase wrapped across lines is still found) with a map
 * back to screen cells; matching is case-insensitive and literal.
 */
import { stripTerminalSequences, visibleWidth } from "../width.ts";

export interface AltScreenSearchSegment {
	row: number;
	startCol: number;
	endCol: number;
}

/** One match: a segment per rendered row it covers. */
export interface AltScreenSearchMatch {
	segments: AltScreenSearchSegment[];
}

export interface AltScreenSearchResult {
	matches: AltScreenSearchMatch[];
	/** The lines or the query differ from the previous search. */
	changed: boolean;
}

/** A run of searchable text and where it sits on screen. */
interface Span {
	from: number;
	to: number;
	row: number;
	startCol: number;
	endCol: number;
	/** One column per UTF-16 unit (plain ASCII), so a match may start or end inside the span. */
	linear: boolean;
}

interface Corpus {
	text: string;
	spans: Span[];
}

const ASCII = /^[\x20-\x7e]*$/;
const BLANK = /^\s+$/u;
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function buildCorpus(lines: readonly string[]): Corpus {
	const parts: string[] = [];
	const spans: Span[] = [];
	let length = 0;
	let gap = false;
	const push = (text: string, row: number, startCol: number, endCol: number, linear: boolean): void => {
		if (gap) {
			parts.push(" ");
			length += 1;
			gap = false;
		}
		parts.push(text);
		spans.push({ from: length, to: length + text.length, row, startCol, endCol, linear });
		length += text.length;
	};
	lines.forEach((raw, row) => {
		const line = stripTerminalSequences(raw ?? "");
		let col = 0;
		if (ASCII.test(line)) {
			// Whole words at once: transcripts are mostly ASCII.
			for (const m of line.matchAll(/ +|[^ ]+/g)) {
				const text = m[0];
				if (text.charCodeAt(0) === 0x20) {
					if (length > 0) gap = true;
				} else push(text, row, col, col + text.length, true);
				col += text.length;
			}
		} else {
			for (const { segment } of graphemes.segment(line)) {
				const width = visibleWidth(segment);
				if (BLANK.test(segment)) {
					if (length > 0) gap = true;
				} else push(segment, row, col, col + width, false);
				col += width;
			}
		}
		if (length > 0) gap = true;
	});
	return { text: parts.join(""), spans };
}

function normalize(query: string): string {
	return query.replace(/\s+/gu, " ").trim();
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function matchCorpus(corpus: Corpus, query: string): AltScreenSearchMatch[] {
	if (!query) return [];
	const matches: AltScreenSearchMatch[] = [];
	let first = 0;
	for (const m of corpus.text.matchAll(new RegExp(escapeRegExp(query), "giu"))) {
		const start = m.index ?? 0;
		const end = start + m[0].length;
		while (first < corpus.spans.length && (corpus.spans[first] as Span).to <= start) first++;
		const segments: AltScreenSearchSegment[] = [];
		for (let i = first; i < corpus.spans.length; i++) {
			const span = corpus.spans[i] as Span;
			if (span.from >= end) break;
			if (span.to <= start) continue;
			const startCol = span.linear ? span.startCol + Math.max(start, span.from) - span.from : span.startCol;
			const endCol = span.linear ? span.startCol + Math.min(end, span.to) - span.from : span.endCol;
			const previous = segments[segments.length - 1];
			if (previous && previous.row === span.row && startCol <= previous.endCol) {
				previous.endCol = Math.max(previous.endCol, endCol);
			} else segments.push({ row: span.row, startCol, endCol });
		}
		while (first < corpus.spans.length && (corpus.spans[first] as Span).to <= end) first++;
		if (segments.length > 0) matches.push({ segments });
	}
	return matches;
}

/** Every match of `query` in `lines`, in reading order. */
export function findAltScreenSearchMatches(lines: readonly string[], query: string): AltScreenSearchMatch[] {
	const q = normalize(query);
	return q ? matchCorpus(buildCorpus(lines), q) : [];
}

/** A stable identity for a match (first and last cell), to keep the selection across re-searches. */
export function getAltScreenSearchMatchKey(match: AltScreenSearchMatch): string {
	const first = match.segments[0];
	const last = match.segments[match.segments.length - 1];
	return first && last ? `${first.row}:${first.startCol}:${last.row}:${last.endCol}` : "";
}

/** Keeps the flattened text and the matches while the lines and the query stay the same. */
export class AltScreenSearchIndex {
	private lines: readonly string[] | undefined;
	private corpus: Corpus | undefined;
	private query: string | undefined;
	private matches: AltScreenSearchMatch[] = [];

	search(lines: readonly string[], query: string): AltScreenSearchResult {
		const previous = this.lines;
		let linesChanged = previous?.length !== lines.length;
		if (!linesChanged && previous) {
			for (let i = 0; i < lines.length; i++) {
				if (previous[i] !== lines[i]) {
					linesChanged = true;
					break;
				}
			}
		}
		if (linesChanged || !this.corpus) {
			this.lines = Array.from(lines);
			this.corpus = buildCorpus(lines);
		}
		const q = normalize(query);
		const changed = linesChanged || q !== this.query;
		if (changed) {
			this.query = q;
			this.matches = matchCorpus(this.corpus, q);
		}
		return { matches: this.matches, changed };
	}
}

/** Index of the first match starting at or below `row` (wrapping to 0), as a new query selects. */
export function firstMatchFrom(matches: readonly AltScreenSearchMatch[], row: number): number {
	if (matches.length === 0) return -1;
	let lo = 0;
	let hi = matches.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if ((matches[mid]?.segments[0]?.row ?? 0) < row) lo = mid + 1;
		else hi = mid;
	}
	return lo < matches.length ? lo : 0;
}

/** The next (1) or previous (-1) match index from `current`, wrapping around; -1 when there are none. */
export function stepMatch(count: number, current: number, direction: 1 | -1): number {
	if (count === 0) return -1;
	const base = Math.min(current, count - 1);
	if (base < 0) return direction > 0 ? 0 : count - 1;
	return (base + direction + count) % count;
}
