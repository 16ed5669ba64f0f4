/**
 * Text-editing primitives shared by Input and Editor: segmenters, character classes, word motions (as pi-tui moves
 * by words), the Emacs kill ring and the undo stack.
 */

export const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
export const wordSegmenter = new Intl.Segmenter(undefined, { granularity: "word" });

/** ASCII punctuation that splits a word-like segment for word motions. */
export const PUNCTUATION = /[(){}[\]<>.,;:'"!?+\-=*/\\|&%^$#@~`]/;

/** Scripts where a line may break between any two characters. */
export const cjkBreakRegex =
	/[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}\p{Script_Extensions=Bopomofo}]/u;
const cjkPunctuation = new RegExp(
	`(?:(?=\\p{Punctuation})${cjkBreakRegex.source}|[，．：；！？（）［］｛｝“”‘’…—])`,
	"u",
);
/** What ends an unquoted completion token: whitespace or CJK punctuation. */
export const autocompleteSeparatorRegex = new RegExp(`(?:\\s|${cjkPunctuation.source})`, "u");
/** Where a completion token may start. */
export const autocompleteBoundaryRegex = new RegExp(`(?:^|${autocompleteSeparatorRegex.source})`, "u");

export function isWhitespaceChar(char: string): boolean {
	return /\s/.test(char);
}

/** Length of the first grapheme of `text` (1 when empty, so callers always make progress). */
export function firstGraphemeLength(text: string): number {
	for (const { segment } of graphemeSegmenter.segment(text)) return segment.length;
	return 1;
}

/** Length of the last grapheme of `text` (1 when empty). */
export function lastGraphemeLength(text: string): number {
	let last = "";
	for (const { segment } of graphemeSegmenter.segment(text)) last = segment;
	return last.length || 1;
}

export interface WordMotionOptions {
	/** Segmentation to use instead of the plain word segmenter (the Editor merges paste markers). */
	segment?: (text: string) => Iterable<Intl.SegmentData>;
	/** Segments moved over as one unit (paste markers). */
	isAtomicSegment?: (segment: string) => boolean;
}

/** Cursor offset one word to the left: whitespace is skipped, then one word (split at ASCII punctuation) or punctuation run. */
export function findWordBackward(text: string, cursor: number, options: WordMotionOptions = {}): number {
	if (cursor <= 0) return 0;
	const before = text.slice(0, cursor);
	const segments = [...(options.segment ? options.segment(before) : wordSegmenter.segment(before))];
	const atomic = (s: string) => options.isAtomicSegment?.(s) ?? false;
	const top = () => segments[segments.length - 1];
	let pos = cursor;
	while (segments.length > 0 && !atomic(top()?.segment ?? "") && isWhitespaceChar(top()?.segment ?? "")) {
		pos -= segments.pop()?.segment.length ?? 0;
	}
	const last = top();
	if (!last) return pos;
	if (atomic(last.segment)) return pos - last.segment.length;
	if (last.isWordLike) {
		let cut = 0;
		for (const match of last.segment.matchAll(new RegExp(PUNCTUATION, "g"))) cut = match.index + match[0].length;
		return pos - (last.segment.length - cut);
	}
	while (segments.length > 0) {
		const s = top() as Intl.SegmentData;
		if (atomic(s.segment) || s.isWordLike || isWhitespaceChar(s.segment)) break;
		pos -= s.segment.length;
		segments.pop();
	}
	return pos;
}

/** Cursor offset one word to the right (mirror of findWordBackward). */
export function findWordForward(text: string, cursor: number, options: WordMotionOptions = {}): number {
	if (cursor >= text.length) return text.length;
	const after = text.slice(cursor);
	const segments = [...(options.segment ? options.segment(after) : wordSegmenter.segment(after))];
	const atomic = (s: string) => options.isAtomicSegment?.(s) ?? false;
	let i = 0;
	let pos = cursor;
	while (i < segments.length && !atomic(segments[i]?.segment ?? "") && isWhitespaceChar(segments[i]?.segment ?? "")) {
		pos += segments[i]?.segment.length ?? 0;
		i++;
	}
	const first = segments[i];
	if (!first) return pos;
	if (atomic(first.segment)) return pos + first.segment.length;
	if (first.isWordLike) return pos + (PUNCTUATION.exec(first.segment)?.index ?? first.segment.length);
	while (i < segments.length) {
		const s = segments[i] as Intl.SegmentData;
		if (atomic(s.segment) || s.isWordLike || isWhitespaceChar(s.segment)) break;
		pos += s.segment.length;
		i++;
	}
	return pos;
}

/** Emacs-style kill ring: killed text entries, consecutive kills merged, yank-pop cycles. */
export class KillRing {
	private ring: string[] = [];

	/** Record killed text; with `accumulate` it joins the newest entry (before it when `prepend`). */
	push(text: string, opts: { prepend: boolean; accumulate: boolean }): void {
		if (!text) return;
		const last = opts.accumulate ? this.ring.pop() : undefined;
		if (last === undefined) this.ring.push(text);
		else this.ring.push(opts.prepend ? text + last : last + text);
	}

	peek(): string | undefined {
		return this.ring[this.ring.length - 1];
	}

	/** Move the newest entry to the back, so the next older one becomes current. */
	rotate(): void {
		const last = this.ring.length > 1 ? this.ring.pop() : undefined;
		if (last !== undefined) this.ring.unshift(last);
	}

	get length(): number {
		return this.ring.length;
	}
}

/** Snapshots for undo; each push stores a deep copy. */
export class UndoStack<S> {
	private stack: S[] = [];

	push(state: S): void {
		this.stack.push(structuredClone(state));
	}

	pop(): S | undefined {
		return this.stack.pop();
	}

	clear(): void {
		this.stack.length = 0;
	}

	get length(): number {
		return this.stack.length;
	}
}

/** Replace CSI-u encoded Ctrl+letter sequences some terminals send inside a paste with the control byte they mean. */
export function decodePastedControls(text: string): string {
	return text.replace(new RegExp(`${String.fromCharCode(27)}\\[(\\d+);5u`, "g"), (match, code: string) => {
		const cp = Number(code);
		if (cp >= 97 && cp <= 122) return String.fromCharCode(cp - 96);
		if (cp >= 65 && cp <= 90) return String.fromCharCode(cp - 64);
		return match;
	});
}

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/**
 * Collects bracketed paste (`ESC[200~ … ESC[201~`), which may arrive split over several input chunks.
 * `feed` returns the pasted text with what followed it, the input untouched when no paste is open, or null while
 * the paste is still incomplete.
 */
export class PasteCollector {
	private buffer: string | undefined;

	feed(data: string): { paste: string; rest: string } | { input: string } | null {
		let chunk = data;
		if (chunk.includes(PASTE_START)) {
			this.buffer = "";
			chunk = chunk.replace(PASTE_START, "");
		}
		if (this.buffer === undefined) return { input: chunk };
		this.buffer += chunk;
		const end = this.buffer.indexOf(PASTE_END);
		if (end === -1) return null;
		const paste = this.buffer.slice(0, end);
		const rest = this.buffer.slice(end + PASTE_END.length);
		this.buffer = undefined;
		return { paste, rest };
	}
}
