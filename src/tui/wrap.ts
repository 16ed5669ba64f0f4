/**
 * Word wrapping for terminal strings that may carry styling, with pi-tui 0.87.1's rules: break at spaces, put each
 * CJK character in a word of its own (so CJK text breaks anywhere), break a word longer than the line by columns,
 * close underline and hyperlinks at each break and re-open the styling on the next line, carry styling across
 * newlines, and trim trailing whitespace from wrapped lines. Lines are not padded.
 */
import { StyleState, sequenceEnd } from "./ansi.ts";
import { forEachGrapheme } from "./grapheme.ts";
import { visibleWidth } from "./width.ts";

/** Characters of the CJK scripts: each is a word of its own for wrapping. */
const CJK =
	/[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}\p{Script_Extensions=Bopomofo}]/u;

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

/**
 * Split a line into words: runs of spaces, runs of other graphemes, and single CJK graphemes. Control sequences
 * go with the grapheme after them (or the last word when nothing follows).
 */
function splitWords(line: string): string[] {
	const words: string[] = [];
	let current = "";
	let currentIsSpace = false;
	let pending = "";
	scan(
		line,
		(code) => {
			pending += code;
		},
		(grapheme) => {
			const space = grapheme === " ";
			if (!space && (grapheme.length > 1 || grapheme.charCodeAt(0) >= 0x80) && CJK.test(grapheme)) {
				if (current) words.push(current);
				current = "";
				words.push(pending + grapheme);
				pending = "";
				return;
			}
			if (current && currentIsSpace !== space) {
				words.push(current);
				current = "";
			}
			current += pending + grapheme;
			pending = "";
			currentIsSpace = space;
		},
	);
	if (pending) {
		if (current) current += pending;
		else if (words.length > 0) words[words.length - 1] += pending;
		else current = pending;
	}
	if (current) words.push(current);
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
	for (const word of splitWords(line)) {
		const wordWidth = visibleWidth(word);
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
	const out: string[] = [];
	const carried = new StyleState();
	for (const line of text.split(/\r\n|\r|\n/)) {
		const prefix = out.length > 0 ? carried.opener() : "";
		for (const row of wrapLine(prefix + line, width)) out.push(row);
		carried.applyAll(line);
	}
	return out.length > 0 ? out : [""];
}
