/**
 * A fast path for lexing the Markdown a model usually writes: ATX headings, paragraphs, fenced code and simple bullet
 * lists separated by blank lines. For such documents it builds exactly the block tokens marked builds (same fields,
 * same `raw` text, same blank-line `space` tokens) and has marked's own inline lexer fill in the inline tokens; for
 * anything it is not certain about it returns undefined and the caller lexes with marked. Marked's block lexer builds
 * several regular expressions per list item and tries every block rule at every line; this reads each line once.
 *
 * The subset, chosen so no marked rule can read it differently: no tabs, carriage returns, math openers (`$$`, `\[`),
 * or whitespace-only lines; paragraph and list-item text starts with a letter and does not end with a space; a
 * paragraph or list ends at a blank line or the end (never interrupted by another block); lists are `- ` items, one
 * line each, and a list never follows a list; headings are `#`..`######`, a space and text without closing `#`s;
 * fences are three backticks with a plain language word, closed by a line of exactly three backticks.
 */
import { Lexer, type MarkedOptions, type Token, type Tokens } from "marked";

/** Characters a heading's text may start with. */
const HEADING_TEXT_START = /^[A-Za-z0-9*_`'"(]/;
const FENCE_OPEN = /^```([A-Za-z0-9_+.-]*)$/;
/** Any line that might open or close a fence in marked's eyes. */
const FENCE_LIKE = /^ {0,3}(?:`{3,}|~{3,})/;
const UNSAFE = /[\t\r]|\$\$|\\\[/;

type Kind = "heading" | "paragraph" | "list" | "code";

function isLetter(code: number): boolean {
	return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** 1-6 for a line starting with that many `#` and a space, else 0. */
function headingDepth(line: string): number {
	let depth = 0;
	while (depth < line.length && line.charCodeAt(depth) === 0x23) depth++;
	return depth >= 1 && depth <= 6 && line.charCodeAt(depth) === 0x20 ? depth : 0;
}

/** Text no inline rule of marked (or our math extension) can start in: letters, digits and plain punctuation. */
const PLAIN_INLINE = /^[A-Za-z0-9 .,;:?'"()=+\n-]*$/;
/** Words marked's text rule stops before (bare URLs). */
const URL_LIKE = /[hH][tT][tT][pP]|[fF][tT][pP]|[wW][wW][wW]\./;

function textToken(text: string): Tokens.Text {
	return { type: "text", raw: text, text, escaped: false };
}

/** Plain punctuation that may follow a closing `*`/`**` or a code span. */
function isCloserFollower(code: number): boolean {
	return Number.isNaN(code) || code === 0x20 || code === 0x0a || ".,;:?)".includes(String.fromCharCode(code));
}

/**
 * Marked's inline tokens for plain text with simple `code spans`, **strong** and *emphasis* around plain words (the
 * delimiters after a space or the start, before a space, the end or plain punctuation); undefined for anything else.
 */
function simpleInline(text: string): Token[] | undefined {
	if (URL_LIKE.test(text)) return undefined;
	if (PLAIN_INLINE.test(text)) return [textToken(text)];
	const out: Token[] = [];
	let plainFrom = 0;
	let i = 0;
	const flush = (to: number) => {
		if (to > plainFrom) out.push(textToken(text.slice(plainFrom, to)));
	};
	while (i < text.length) {
		const c = text.charCodeAt(i);
		if (c !== 0x60 && c !== 0x2a) {
			i++;
			continue;
		}
		const before = i === 0 ? 0x20 : text.charCodeAt(i - 1);
		if (before !== 0x20 && before !== 0x0a) return undefined;
		if (c === 0x60) {
			const close = text.indexOf("`", i + 1);
			if (close < 0 || text.charCodeAt(close + 1) === 0x60) return undefined;
			const body = text.slice(i + 1, close);
			if (body.length === 0 || body.includes("\n") || body.startsWith(" ") || body.endsWith(" ")) return undefined;
			if (!isCloserFollower(text.charCodeAt(close + 1))) return undefined;
			flush(i);
			out.push({ type: "codespan", raw: text.slice(i, close + 1), text: body });
			i = close + 1;
		} else {
			const size = text.charCodeAt(i + 1) === 0x2a ? 2 : 1;
			const delimiter = size === 2 ? "**" : "*";
			if (text.charCodeAt(i + size) === 0x2a) return undefined;
			const close = text.indexOf(delimiter, i + size);
			if (close < 0 || text.charCodeAt(close + size) === 0x2a) return undefined;
			const body = text.slice(i + size, close);
			if (body.length === 0 || !PLAIN_INLINE.test(body) || body.includes("\n")) return undefined;
			if (body.startsWith(" ") || body.endsWith(" ")) return undefined;
			if (!isCloserFollower(text.charCodeAt(close + size))) return undefined;
			flush(i);
			out.push({
				type: size === 2 ? "strong" : "em",
				raw: text.slice(i, close + size),
				text: body,
				tokens: [textToken(body)],
			} as Tokens.Strong);
			i = close + size;
		}
		plainFrom = i;
	}
	flush(text.length);
	// Everything between the delimited parts must be plain too.
	for (const token of out) if (token.type === "text" && !PLAIN_INLINE.test(token.raw)) return undefined;
	return out;
}

function endsWithSpace(line: string): boolean {
	const last = line.charCodeAt(line.length - 1);
	return last === 0x20;
}

/** Marked's tokens for `source`, or undefined when `source` is outside the subset this file handles. */
export function fastLex(source: string, options: MarkedOptions): Token[] | undefined {
	if (source.length === 0 || UNSAFE.test(source)) return undefined;
	const lines = source.split("\n");
	const tokens: Token[] = [];
	/** Inline work: text to lex and the array its tokens go into. */
	const inline: { text: string; into: Token[] }[] = [];
	let i = 0;
	let previous: Kind | undefined;
	let previousAfterBlank = false;
	// Leading blank lines: one space token with their newlines.
	while (i < lines.length - 1 && lines[i] === "") i++;
	if (i > 0) tokens.push({ type: "space", raw: "\n".repeat(i) });
	while (i < lines.length) {
		const line = lines[i] as string;
		if (line === "") {
			// Only reachable as the last (empty) piece after a final newline, handled by the block before it.
			if (i === lines.length - 1) break;
			return undefined;
		}
		const start = i;
		let kind: Kind;
		let token: Token;
		const depth = headingDepth(line);
		if (depth > 0) {
			const text = line.slice(depth + 1);
			if (!HEADING_TEXT_START.test(text) || endsWithSpace(text) || text.endsWith("#")) return undefined;
			kind = "heading";
			const into: Token[] = [];
			inline.push({ text, into });
			token = { type: "heading", raw: "", depth, text, tokens: into };
			i++;
		} else if (line.charCodeAt(0) === 0x60) {
			const open = FENCE_OPEN.exec(line);
			if (!open) return undefined;
			let close = i + 1;
			while (close < lines.length && lines[close] !== "```") {
				if (FENCE_LIKE.test(lines[close] as string)) return undefined;
				close++;
			}
			if (close >= lines.length) return undefined;
			kind = "code";
			token = { type: "code", raw: "", lang: open[1] as string, text: lines.slice(i + 1, close).join("\n") };
			i = close + 1;
		} else if (line.startsWith("- ")) {
			// A list right after a list (blank lines between) would be merged into one loose list by marked.
			if (previous === "list" && previousAfterBlank) return undefined;
			const items: Tokens.ListItem[] = [];
			while (i < lines.length && (lines[i] as string) !== "") {
				const itemLine = lines[i] as string;
				if (!itemLine.startsWith("- ") || !isLetter(itemLine.charCodeAt(2))) return undefined;
				const text = itemLine.slice(2);
				if (endsWithSpace(text)) return undefined;
				const into: Token[] = [];
				inline.push({ text, into });
				const last = i + 1 >= lines.length || lines[i + 1] === "";
				items.push({
					type: "list_item",
					raw: last ? `- ${text}` : `- ${text}\n`,
					task: false,
					loose: false,
					text,
					tokens: [{ type: "text", raw: text, text, tokens: into } as Tokens.Text],
				});
				i++;
			}
			kind = "list";
			token = { type: "list", raw: "", ordered: false, start: "", loose: false, items } as Tokens.List;
		} else if (isLetter(line.charCodeAt(0))) {
			while (i < lines.length && (lines[i] as string) !== "") {
				const next = lines[i] as string;
				if (!isLetter(next.charCodeAt(0)) || endsWithSpace(next)) return undefined;
				i++;
			}
			kind = "paragraph";
			const text = lines.slice(start, i).join("\n");
			const into: Token[] = [];
			inline.push({ text, into });
			token = { type: "paragraph", raw: "", text, tokens: into };
		} else return undefined;
		// A paragraph or list must end at a blank line or the end of the text.
		if ((kind === "paragraph" || kind === "list") && i < lines.length && lines[i] !== "") return undefined;
		let raw = lines.slice(start, i).join("\n");
		// Newlines after the block: one is part of the block when text follows directly; a run with blank lines is
		// a space token; a single final newline belongs to the block.
		let blank = i;
		while (blank < lines.length && lines[blank] === "") blank++;
		const newlines = blank - i;
		const atEnd = blank >= lines.length;
		let space = "";
		if (i < lines.length) {
			if (atEnd) {
				// `newlines` empty pieces after the block's line: that many newlines remain, minus the last piece.
				const count = newlines;
				if (count === 1) raw += "\n";
				else space = "\n".repeat(count);
			} else if (newlines === 0) raw += "\n";
			else space = "\n".repeat(newlines + 1);
		}
		token.raw = raw;
		tokens.push(token);
		if (space) tokens.push({ type: "space", raw: space });
		previous = kind;
		previousAfterBlank = space.length > 0;
		i = blank;
	}
	let lexer: Lexer | undefined;
	for (const job of inline) {
		const simple = simpleInline(job.text);
		if (simple) for (const token of simple) job.into.push(token);
		else {
			lexer ??= new Lexer(options);
			lexer.inlineTokens(job.text, job.into);
		}
	}
	return tokens;
}
