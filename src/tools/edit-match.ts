/**
 * Locating `edit` entries in a file's (LF-normalised) text. Each oldText is searched exactly first; when absent it
 * is searched in a fuzzy space where both sides are normalised — NFKC, trailing whitespace removed from every
 * line, typographic quotes as ASCII quotes, Unicode dashes as "-", unusual spaces as " ". The fuzzy view keeps,
 * for each of its characters, the span of source text it came from, so a fuzzy match maps back to an exact span of
 * the original. Uniqueness is judged in the fuzzy space. All entries are located in the same original text and
 * must not overlap.
 */

export interface EditEntry {
	oldText: string;
	newText: string;
}

/** Where one entry applies, as offsets into the searched text. */
export interface EditSpan {
	index: number;
	start: number;
	end: number;
	newText: string;
}

const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F]/g;
const DASHES = /[\u2010-\u2015\u2212]/g;
const SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;
const COMBINING = /^\p{M}$/u;
const TRAILING_SPACE = /\s/;
const NON_ASCII = /[^\p{ASCII}]/u;

function normalizeUnit(unit: string): string {
	return unit
		.normalize("NFKC")
		.replace(SINGLE_QUOTES, "'")
		.replace(DOUBLE_QUOTES, '"')
		.replace(DASHES, "-")
		.replace(SPACES, " ");
}

/** Fuzzy-normalised text; `from[i]`/`to[i]` give the source span of its character i. */
export interface FuzzyView {
	text: string;
	from: Int32Array;
	to: Int32Array;
}

export function fuzzyView(source: string): FuzzyView {
	const pieces: string[] = [];
	const from: number[] = [];
	const to: number[] = [];
	for (let lineStart = 0; lineStart <= source.length; ) {
		const newline = source.indexOf("\n", lineStart);
		const lineEnd = newline === -1 ? source.length : newline;
		const line = source.slice(lineStart, lineEnd);
		if (!NON_ASCII.test(line) || line.normalize("NFKC") === line) {
			// Common case: every character maps to exactly one character at the same offset.
			const text = !NON_ASCII.test(line) ? line : normalizeUnit(line);
			let keep = text.length;
			while (keep > 0 && TRAILING_SPACE.test(text[keep - 1] as string)) keep--;
			pieces.push(text.slice(0, keep));
			for (let k = 0; k < keep; k++) {
				from.push(lineStart + k);
				to.push(lineStart + k + 1);
			}
		} else {
			mapLineByUnits(line, lineStart, pieces, from, to);
		}
		if (newline !== -1) {
			pieces.push("\n");
			from.push(newline);
			to.push(newline + 1);
		}
		lineStart = lineEnd + 1;
	}
	return { text: pieces.join(""), from: Int32Array.from(from), to: Int32Array.from(to) };
}

/** Slow path for a line NFKC changes: normalises it unit by unit so each output character knows its source. */
function mapLineByUnits(line: string, base: number, pieces: string[], from: number[], to: number[]): void {
	const chars: string[] = [];
	const starts: number[] = [];
	const ends: number[] = [];
	let i = 0;
	while (i < line.length) {
		// A unit is one code point plus any combining marks after it, so NFKC can compose them.
		let end = i + ((line.codePointAt(i) as number) > 0xffff ? 2 : 1);
		while (end < line.length) {
			const next = String.fromCodePoint(line.codePointAt(end) as number);
			if (!COMBINING.test(next)) break;
			end += next.length;
		}
		const unit = line.slice(i, end);
		const normalized = unit.charCodeAt(0) < 0x80 && unit.length === 1 ? unit : normalizeUnit(unit);
		for (let k = 0; k < normalized.length; k++) {
			chars.push(normalized[k] as string);
			starts.push(base + i);
			ends.push(base + end);
		}
		i = end;
	}
	let keep = chars.length;
	while (keep > 0 && TRAILING_SPACE.test(chars[keep - 1] as string)) keep--;
	pieces.push(chars.slice(0, keep).join(""));
	for (let k = 0; k < keep; k++) {
		from.push(starts[k] as number);
		to.push(ends[k] as number);
	}
}

export function fuzzyNormalize(text: string): string {
	return fuzzyView(text).text;
}

/** Non-overlapping occurrences of `needle` in `haystack`. */
function countOccurrences(haystack: string, needle: string): number {
	if (needle === "") return 0;
	let count = 0;
	for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
	return count;
}

/**
 * Locates every entry in `content` (already LF-normalised, as are the entries). Throws pi's messages for empty,
 * missing, ambiguous and overlapping entries. Returns spans sorted by position.
 */
export function locateEdits(content: string, edits: EditEntry[], path: string): EditSpan[] {
	const single = edits.length === 1;
	let view: FuzzyView | undefined;
	const spans: EditSpan[] = [];
	edits.forEach((edit, index) => {
		const label = `edits[${index}]`;
		if (edit.oldText === "") {
			throw new Error(
				single ? `oldText must not be empty in ${path}.` : `${label}.oldText must not be empty in ${path}.`,
			);
		}
		view ??= fuzzyView(content);
		const fuzzyOld = fuzzyNormalize(edit.oldText);
		const exactAt = content.indexOf(edit.oldText);
		const occurrences = Math.max(
			countOccurrences(view.text, fuzzyOld),
			exactAt === -1 ? 0 : countOccurrences(content, edit.oldText),
		);
		if (occurrences === 0) {
			throw new Error(
				single
					? `Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`
					: `Could not find ${label} in ${path}. The oldText must match exactly including all whitespace and newlines.`,
			);
		}
		if (occurrences > 1) {
			throw new Error(
				single
					? `Found ${occurrences} occurrences of the text in ${path}. The text must be unique. Please provide more context to make it unique.`
					: `Found ${occurrences} occurrences of ${label} in ${path}. Each oldText must be unique. Please provide more context to make it unique.`,
			);
		}
		if (exactAt !== -1) {
			spans.push({ index, start: exactAt, end: exactAt + edit.oldText.length, newText: edit.newText });
			return;
		}
		const at = view.text.indexOf(fuzzyOld);
		const start = view.from[at] as number;
		const end = view.to[at + fuzzyOld.length - 1] as number;
		spans.push({ index, start, end, newText: edit.newText });
	});
	spans.sort((a, b) => a.start - b.start);
	for (let k = 1; k < spans.length; k++) {
		const previous = spans[k - 1] as EditSpan;
		const current = spans[k] as EditSpan;
		if (current.start < previous.end) {
			const [first, second] = [previous.index, current.index].sort((a, b) => a - b);
			throw new Error(
				`edits[${first}] and edits[${second}] overlap in ${path}. Merge them into one edit or target disjoint regions.`,
			);
		}
	}
	return spans;
}
