/**
 * Terminal control sequences inside rendered strings, recognised as pi-tui 0.87.1 does: CSI sequences that end in
 * one of `m G K H J`, OSC sequences (hyperlinks, titles) and APC sequences (the cursor marker), the last two ended by
 * BEL or ST. Anything else that starts with ESC is ordinary (zero-width) text. Also: OSC 8 hyperlinks, and the SGR
 * style state that wrapping carries from one line to the next.
 */

/** The position of a sequence inside a string: [start, end). */
export interface SequenceSpan {
	start: number;
	end: number;
}

/** End (exclusive) of the complete control sequence that starts at `pos`, or -1 when none starts there. */
export function sequenceEnd(str: string, pos: number): number {
	if (str.charCodeAt(pos) !== 0x1b) return -1;
	const kind = str.charCodeAt(pos + 1);
	if (kind === 0x5b) {
		for (let j = pos + 2; j < str.length; j++) {
			const c = str.charCodeAt(j);
			// m, G, K, H, J
			if (c === 0x6d || c === 0x47 || c === 0x4b || c === 0x48 || c === 0x4a) return j + 1;
		}
		return -1;
	}
	if (kind === 0x5d || kind === 0x5f) {
		for (let j = pos + 2; j < str.length; j++) {
			const c = str.charCodeAt(j);
			if (c === 0x07) return j + 1;
			if (c === 0x1b && str.charCodeAt(j + 1) === 0x5c) return j + 2;
		}
	}
	return -1;
}

/** Find the first complete sequence at or after `from`; fills `span` and returns true, or returns false. */
export function findSequence(str: string, from: number, span: SequenceSpan): boolean {
	let esc = str.indexOf("\x1b", from);
	while (esc !== -1) {
		const end = sequenceEnd(str, esc);
		if (end !== -1) {
			span.start = esc;
			span.end = end;
			return true;
		}
		esc = str.indexOf("\x1b", esc + 1);
	}
	return false;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** True when every character is printable ASCII (each is then one grapheme, one column). */
export function isPrintableAscii(str: string): boolean {
	// A compiled regular expression beats a character loop until the loop's code is hot (the first frame).
	return PRINTABLE_ASCII.test(str);
}

/** Remove the control sequences, keeping the visible text. */
export function stripTerminalSequences(str: string): string {
	if (!str.includes("\x1b")) return str;
	const span: SequenceSpan = { start: 0, end: 0 };
	let out = "";
	let pos = 0;
	while (findSequence(str, pos, span)) {
		out += str.slice(pos, span.start);
		pos = span.end;
	}
	return pos === 0 ? str : out + str.slice(pos);
}

/** An OSC 8 hyperlink opener; `url` is never empty. */
export interface Osc8Link {
	params: string;
	url: string;
	/** BEL or ST, kept because some terminals only make BEL-terminated links clickable. */
	terminator: string;
}

/**
 * Read an OSC 8 sequence: the link it opens, null when it closes the current link, undefined when `code` is not an
 * OSC 8 sequence with a params field.
 */
export function parseOsc8(code: string): Osc8Link | null | undefined {
	if (!code.startsWith("\x1b]8;")) return undefined;
	const bel = code.endsWith("\x07");
	const body = code.slice(4, bel ? -1 : -2);
	const split = body.indexOf(";");
	if (split === -1) return undefined;
	const url = body.slice(split + 1);
	if (url === "") return null;
	return { params: body.slice(0, split), url, terminator: bel ? "\x07" : "\x1b\\" };
}

export function osc8Open(link: Osc8Link): string {
	return `\x1b]8;${link.params};${link.url}${link.terminator}`;
}

export function osc8Close(terminator: string): string {
	return `\x1b]8;;${terminator}`;
}

/** The URI of an OSC 8 sequence ("" for a closing one), or undefined if `code` is not OSC 8. */
export function osc8Uri(code: string): string | undefined {
	const link = parseOsc8(code);
	return link === undefined ? undefined : (link?.url ?? "");
}

/** The closing sequence for the hyperlink still open at the end of `text`, or "". */
export function openLinkCloser(text: string): string {
	if (!text.includes("\x1b]8;")) return "";
	const span: SequenceSpan = { start: 0, end: 0 };
	let open: Osc8Link | null = null;
	let pos = 0;
	while (findSequence(text, pos, span)) {
		const link = parseOsc8(text.slice(span.start, span.end));
		if (link !== undefined) open = link;
		pos = span.end;
	}
	return open ? osc8Close(open.terminator) : "";
}

/** The parameters of the first `ESC [ <digits and ;> m` inside `code`, or undefined when there is none. */
function sgrParams(code: string): string | undefined {
	for (let start = code.indexOf("\x1b["); start !== -1; start = code.indexOf("\x1b[", start + 1)) {
		let j = start + 2;
		for (let c = code.charCodeAt(j); (c >= 0x30 && c <= 0x39) || c === 0x3b; c = code.charCodeAt(++j));
		if (code.charCodeAt(j) === 0x6d) return code.slice(start + 2, j);
	}
	return undefined;
}

/**
 * The URL of an OSC 8 sequence (`ESC ] 8 ; params ; url` ended by BEL or ST, params without ";" and url without
 * BEL or ESC): "" for a closing one, undefined when `code` is not such a sequence.
 */
export function osc8LinkUrl(code: string): string | undefined {
	if (!code.startsWith("\x1b]8;")) return undefined;
	const bel = code.endsWith("\x07");
	if (!bel && !code.endsWith("\x1b\\")) return undefined;
	const body = code.slice(4, bel ? -1 : -2);
	const split = body.indexOf(";");
	if (split === -1) return undefined;
	const url = body.slice(split + 1);
	return url.includes("\x07") || url.includes("\x1b") ? undefined : url;
}

const SGR_FLAGS = ["1", "2", "3", "4", "5", "7", "8", "9"] as const;

/**
 * Styling in force at a point of a string: the SGR attributes (flags, foreground, background) and the open OSC 8
 * hyperlink. Wrapping re-opens it at the start of each continuation line.
 */
export class StyleState {
	/** Active flag attributes, by SGR code (1 bold … 9 strikethrough). */
	private flags = new Set<string>();
	private fg: string | null = null;
	private bg: string | null = null;
	private link: Osc8Link | null = null;

	/** Apply one control sequence. */
	apply(code: string): void {
		const link = parseOsc8(code);
		if (link !== undefined) {
			this.link = link;
			return;
		}
		if (!code.endsWith("m")) return;
		const params = sgrParams(code);
		if (params === undefined) return;
		if (params === "" || params === "0") {
			this.resetSgr();
			return;
		}
		const parts = params.split(";");
		for (let i = 0; i < parts.length; ) {
			const n = Number.parseInt(parts[i] as string, 10);
			if (n === 38 || n === 48) {
				const width = parts[i + 1] === "5" && parts[i + 2] !== undefined ? 3 : 0;
				const span = width || (parts[i + 1] === "2" && parts[i + 4] !== undefined ? 5 : 0);
				if (span > 0) {
					const colour = parts.slice(i, i + span).join(";");
					if (n === 38) this.fg = colour;
					else this.bg = colour;
					i += span;
					continue;
				}
			}
			this.applyNumber(n);
			i++;
		}
	}

	private applyNumber(n: number): void {
		if (n === 0) this.resetSgr();
		else if (n === 21) this.flags.delete("1");
		else if (n === 22) {
			this.flags.delete("1");
			this.flags.delete("2");
		} else if (n >= 1 && n <= 9 && n !== 6) this.flags.add(String(n));
		else if (n >= 23 && n <= 29 && n !== 26) this.flags.delete(String(n - 20));
		else if (n === 39) this.fg = null;
		else if (n === 49) this.bg = null;
		else if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) this.fg = String(n);
		else if ((n >= 40 && n <= 47) || (n >= 100 && n <= 107)) this.bg = String(n);
	}

	/** Apply every control sequence in `text`, in order. */
	applyAll(text: string): void {
		if (!text.includes("\x1b")) return;
		const span: SequenceSpan = { start: 0, end: 0 };
		let pos = 0;
		while (findSequence(text, pos, span)) {
			this.apply(text.slice(span.start, span.end));
			pos = span.end;
		}
	}

	/** An SGR reset clears attributes and colours but leaves the hyperlink open. */
	private resetSgr(): void {
		this.flags.clear();
		this.fg = null;
		this.bg = null;
	}

	/** Sequences that re-establish this state: one SGR with every attribute, then the hyperlink. */
	opener(): string {
		const codes: string[] = SGR_FLAGS.filter((flag) => this.flags.has(flag));
		if (this.fg) codes.push(this.fg);
		if (this.bg) codes.push(this.bg);
		const sgr = codes.length > 0 ? `\x1b[${codes.join(";")}m` : "";
		return this.link ? sgr + osc8Open(this.link) : sgr;
	}

	/** What must end before a line break: underline (it would run into the padding) and the hyperlink. */
	lineEndCloser(): string {
		const underline = this.flags.has("4") ? "\x1b[24m" : "";
		return this.link ? underline + osc8Close(this.link.terminator) : underline;
	}
}
