/** Word wrapping for terminal strings that may carry ANSI styling. */
import { osc8Uri, type TerminalToken, tokenize } from "./width.ts";

const RESET = "\x1b[0m";
const OSC8_CLOSE = "\x1b]8;;\x07";

/** SGR attribute slots: setting codes and the code that clears each slot. */
const SGR_SLOTS: Record<number, string> = {
	1: "bold",
	2: "dim",
	3: "italic",
	4: "underline",
	5: "blink",
	7: "inverse",
};
Object.assign(SGR_SLOTS, { 8: "hidden", 9: "strike", 53: "overline" });
const SGR_CLEARS: Record<number, string[]> = {
	22: ["bold", "dim"],
	23: ["italic"],
	24: ["underline"],
	25: ["blink"],
	27: ["inverse"],
	28: ["hidden"],
	29: ["strike"],
	39: ["fg"],
	49: ["bg"],
	55: ["overline"],
};

/** The styling in force at some point of a string: active SGR attributes and an open hyperlink. */
class StyleState {
	private slots = new Map<string, string>();
	private link: string | undefined;

	apply(token: string): void {
		const uri = osc8Uri(token);
		if (uri !== undefined) {
			this.link = uri ? token : undefined;
			return;
		}
		if (!token.startsWith("\x1b[") || !token.endsWith("m")) return;
		const params = token.slice(2, -1).split(";");
		for (let i = 0; i < params.length; i++) {
			const param = params[i] ?? "";
			const code = Number(param.split(":")[0] || "0");
			if (code === 0) this.slots.clear();
			else if (SGR_SLOTS[code]) this.slots.set(SGR_SLOTS[code], param);
			else if (SGR_CLEARS[code]) for (const slot of SGR_CLEARS[code]) this.slots.delete(slot);
			else if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) this.slots.set("fg", param);
			else if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) this.slots.set("bg", param);
			else if (code === 38 || code === 48 || code === 58) {
				// Extended colour: 38;5;n or 38;2;r;g;b (colon forms arrive as one parameter).
				const extra = param.includes(":") ? 0 : params[i + 1] === "5" ? 2 : params[i + 1] === "2" ? 4 : 0;
				const value = params.slice(i, i + 1 + extra).join(";");
				this.slots.set(code === 38 ? "fg" : code === 48 ? "bg" : "underlineColor", value);
				i += extra;
			}
		}
	}

	/** Sequences that re-establish this state at the start of a line. */
	opener(): string {
		const sgr = [...this.slots.values()].map((value) => `\x1b[${value}m`).join("");
		return sgr + (this.link ?? "");
	}

	/** Sequences that end this state at the end of a line, so nothing bleeds into the padding. */
	closer(): string {
		return (this.link ? OSC8_CLOSE : "") + (this.slots.size > 0 ? RESET : "");
	}
}

interface Segment {
	tokens: TerminalToken[];
	width: number;
	space: boolean;
}

function isSpace(token: TerminalToken): boolean {
	return !token.escape && (token.text === " " || token.text === "\t");
}

/** Group tokens into runs of spaces and runs of non-spaces; escapes stay with the run they appear in. */
function segments(tokens: TerminalToken[]): Segment[] {
	const out: Segment[] = [];
	let current: Segment | undefined;
	for (const token of tokens) {
		const space = token.escape ? (current?.space ?? false) : isSpace(token);
		if (!current || current.space !== space) {
			current = { tokens: [], width: 0, space };
			out.push(current);
		}
		current.tokens.push(token);
		current.width += token.width;
	}
	return out;
}

class LineBuilder {
	readonly lines: string[] = [];
	private tokens: TerminalToken[] = [];
	width = 0;
	private prefix: string;

	constructor(private readonly style: StyleState) {
		this.prefix = style.opener();
	}

	add(token: TerminalToken): void {
		if (token.escape) this.style.apply(token.text);
		this.tokens.push(token);
		this.width += token.width;
	}

	/** Drop a token from the output but keep its effect on styling (used for spaces swallowed by a wrap). */
	skip(token: TerminalToken): void {
		if (token.escape) this.add(token);
	}

	flush(trimTrailingSpaces: boolean): void {
		if (trimTrailingSpaces) {
			for (let i = this.tokens.length - 1; i >= 0; i--) {
				const token = this.tokens[i] as TerminalToken;
				if (token.escape) continue;
				if (!isSpace(token)) break;
				this.tokens.splice(i, 1);
				this.width -= token.width;
			}
		}
		const body = this.tokens.map((t) => t.text).join("");
		this.lines.push(this.prefix + body + this.style.closer());
		this.prefix = this.style.opener();
		this.tokens = [];
		this.width = 0;
	}
}

function wrapLine(line: string, width: number, style: StyleState): string[] {
	const builder = new LineBuilder(style);
	let wrapped = false;
	for (const segment of segments(tokenize(line))) {
		if (segment.space) {
			if (wrapped && builder.width === 0) {
				for (const token of segment.tokens) builder.skip(token);
				continue;
			}
			if (builder.width + segment.width <= width) {
				for (const token of segment.tokens) builder.add(token);
				continue;
			}
			builder.flush(true);
			wrapped = true;
			for (const token of segment.tokens) builder.skip(token);
			continue;
		}
		if (builder.width + segment.width > width && builder.width > 0) {
			builder.flush(true);
			wrapped = true;
		}
		for (const token of segment.tokens) {
			if (!token.escape && builder.width + token.width > width && builder.width > 0) {
				builder.flush(false);
				wrapped = true;
			}
			builder.add(token);
		}
	}
	builder.flush(wrapped);
	return builder.lines;
}

/**
 * Wrap `text` to lines of at most `width` visible columns, at spaces where possible and inside words when a word is
 * longer than the line. Styling active at a break is closed at the end of the line and re-opened on the next one.
 * Newlines in the input always break. Lines are not padded.
 */
export function wrapTextWithAnsi(text: string, width: number): string[] {
	const limit = Math.max(1, Math.floor(width));
	const style = new StyleState();
	const out: string[] = [];
	for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
		if (line === "") {
			out.push("");
			continue;
		}
		out.push(...wrapLine(line, limit, style));
	}
	return out;
}
