/**
 * Word wrapping for terminal strings that may carry styling, with pi-tui 0.87.1's rules: break at spaces, put each
 * CJK character in a word of its own (so CJK text breaks anywhere), break a word longer than the line by columns,
 * close underline and hyperlinks at each break and re-open the styling on the next line, carry styling across
 * newlines, and trim trailing whitespace from wrapped lines. Lines are not padded.
 */
import { isPrintableAscii, StyleState, sequenceEnd } from "./ansi.ts";
import { forEachGrapheme, hasCjk } from "./grapheme.ts";
import { visibleWidth } from "./width.ts";

/** Visit the control sequences and graphemes of `text` in order (graphemes are segmented between sequences). */
function scan(
	text: string,
	onCode: (code: string) => void,
	onGrapheme: (grapheme: string, width: number) => void,
): void {
	let pos = 0;
	let runStart = 0;
	const flushRun = (end: number) => {
		if (end <= runStart) return;
		forEachGrapheme(text.slice(runStart, end), (grapheme, width) => {
			onGrapheme(grapheme, width);
			return false;
		});
	};
	while (pos < text.length) {
		const esc = text.indexOf("\x1b", pos);
		if (esc === -1) break;
		const end = sequenceEnd(text, esc);
		if (end === -1) {
			pos = esc + 1;
			continue;
		}
		flushRun(esc);
		onCode(text.slice(esc, end));
		pos = end;
		runStart = end;
	}
	flushRun(text.length);
}

const ASCII_RUNS = / +|[^ ]+/g;

interface Word {
	text: string;
	/** Columns, or -1 when only measuring the joined text gives pi-tui's figure (see `splitWords`). */
	width: number;
}

/**
 * Split a line into words: runs of spaces, runs of other graphemes, and single CJK graphemes. Control sequences
 * go with the grapheme after them (or the last word when nothing follows). A word's width is the sum of its
 * graphemes' unless a sequence sits between two of them or it holds a tab: pi-tui measures the word's text joined
 * (and tabs as spaces), which can cluster differently, so such words are measured later.
 */
function splitWords(line: string): Word[] {
	// Printable ASCII: every character is one grapheme one column wide; words are runs of spaces and of the rest.
	if (isPrintableAscii(line)) {
		const runs = line.match(ASCII_RUNS) ?? [];
		return runs.map((text) => ({ text, width: text.length }));
	}
	const words: Word[] = [];
	let current: Word = { text: "", width: 0 };
	let currentIsSpace = false;
	let pending = "";
	scan(
		line,
		(code) => {
			pending += code;
		},
		(grapheme, w) => {
			const space = grapheme === " ";
			if (!space && hasCjk(grapheme)) {
				if (current.text) words.push(current);
				current = { text: "", width: 0 };
				words.push({ text: pending + grapheme, width: w });
				pending = "";
				return;
			}
			if (current.text && currentIsSpace !== space) {
				words.push(current);
				current = { text: "", width: 0 };
			}
			if ((pending && current.text) || grapheme === "\t") current.width = -1;
			else if (current.width >= 0) current.width += w;
			current.text += pending + grapheme;
			pending = "";
			currentIsSpace = space;
		},
	);
	if (pending) {
		const last = words[words.length - 1];
		if (current.text || !last) current.text += pending;
		else last.text += pending;
	}
	if (current.text) words.push(current);
	return words;
}

/** Break a word wider than the line into rows of `width` columns, starting with the styling in force. */
function breakWord(word: string, width: number, style: StyleState): string[] {
	const rows: string[] = [];
	let row = style.opener();
	let rowWidth = 0;
	scan(
		word,
		(code) => {
			row += code;
			style.apply(code);
		},
		(grapheme, w) => {
			if (rowWidth + w > width) {
				rows.push(row + style.lineEndCloser());
				row = style.opener();
				rowWidth = 0;
			}
			row += grapheme;
			rowWidth += w;
		},
	);
	if (row) rows.push(row);
	return rows.length > 0 ? rows : [""];
}

function wrapLine(line: string, width: number): string[] {
	if (!line) return [""];
	if (visibleWidth(line) <= width) return [line];
	const rows: string[] = [];
	const style = new StyleState();
	let row = "";
	let rowWidth = 0;
	for (const { text: word, width: measured } of splitWords(line)) {
		const wordWidth = measured >= 0 ? measured : visibleWidth(word);
		const blank = word.trim() === "";
		if (wordWidth > width && !blank) {
			if (row) rows.push(row + style.lineEndCloser());
			const broken = breakWord(word, width, style);
			for (let i = 0; i < broken.length - 1; i++) rows.push(broken[i] as string);
			row = broken[broken.length - 1] as string;
			rowWidth = visibleWidth(row);
			continue;
		}
		if (rowWidth > 0 && rowWidth + wordWidth > width) {
			rows.push(row.trimEnd() + style.lineEndCloser());
			// A wrapped line never starts with the spaces it broke at.
			row = blank ? style.opener() : style.opener() + word;
			rowWidth = blank ? 0 : wordWidth;
		} else {
			row += word;
			rowWidth += wordWidth;
		}
		style.applyAll(word);
	}
	if (row) rows.push(row);
	return rows.length > 0 ? rows.map((r) => r.trimEnd()) : [""];
}

/**
 * Wrap `text` to lines of at most `width` visible columns (a single grapheme wider than `width` still gets a line).
 * Newlines (LF, CRLF, CR) always break, and styling open at a newline continues on the next line.
 */
export function wrapTextWithAnsi(text: string, width: number): string[] {
	if (!text) return [""];
	// One line that fits (the usual case) comes back as it is.
	if (!text.includes("\n") && !text.includes("\r") && visibleWidth(text) <= width) return [text];
	const out: string[] = [];
	if (!text.includes("\x1b")) {
		// Unstyled: nothing is carried from line to line.
		for (const line of text.split(/\r\n|\r|\n/)) for (const row of wrapLine(line, width)) out.push(row);
		return out;
	}
	const carried = new StyleState();
	for (const line of text.split(/\r\n|\r|\n/)) {
		const prefix = out.length > 0 ? carried.opener() : "";
		for (const row of wrapLine(prefix + line, width)) out.push(row);
		carried.applyAll(line);
	}
	return out.length > 0 ? out : [""];
}
