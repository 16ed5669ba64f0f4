/**
 * StdinBuffer: turns raw stdin chunks into single input sequences. A terminal may batch several keys into one
 * read, or split one escape sequence across reads (common over SSH and for long mouse reports); components need
 * exactly one key per call for `matchesKey` and friends. Bracketed pastes come out whole as one `paste` event.
 * A lone ESC waits `escapeTimeout` ms for a following byte (Alt+key and escape sequences start with ESC) before it
 * is delivered as the Escape key; any other unfinished sequence is delivered as it is after `timeout` ms.
 */
import { EventEmitter } from "node:events";

export interface StdinBufferOptions {
	/** How long to wait for the rest of an unfinished escape sequence (default 50 ms). */
	timeout?: number;
	/** How long a lone ESC waits for a following byte before it counts as Escape (default 10 ms). */
	escapeTimeout?: number;
}

export type StdinBufferEventMap = {
	data: [string];
	paste: [string];
};

const ESC = "\x1b";
const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
const DEFAULT_TIMEOUT_MS = 50;
const DEFAULT_ESCAPE_TIMEOUT_MS = 10;

/** Whether `data` (starting with ESC) is a whole sequence yet. */
function isComplete(data: string): boolean {
	if (data.length === 1) return false;
	const kind = data[1];
	if (kind === "[") {
		// X10 mouse: ESC [ M and three raw bytes.
		if (data.startsWith("\x1b[M")) return data.length >= 6;
		return isCompleteCsi(data);
	}
	// OSC ends with BEL or ST; DCS and APC (XTVERSION, kitty graphics replies) with ST.
	if (kind === "]") return data.endsWith("\x07") || data.endsWith("\x1b\\");
	if (kind === "P" || kind === "_") return data.endsWith("\x1b\\");
	if (kind === "O") return data.length >= 3;
	return true;
}

/** A CSI ends with a byte in @..~; an SGR mouse report needs its three numbers first. */
function isCompleteCsi(data: string): boolean {
	if (data.length < 3) return false;
	const last = data.charCodeAt(data.length - 1);
	if (last < 0x40 || last > 0x7e) return false;
	if (data[2] !== "<") return true;
	return /^<\d+;\d+;\d+[Mm]$/.test(data.slice(2));
}

/** ESC sequence, or undefined when `rest` (starting with ESC) holds only the start of one. */
function takeEscapeSequence(rest: string): string | undefined {
	for (let end = 2; end <= rest.length; end++) {
		const candidate = rest.slice(0, end);
		if (!isComplete(candidate)) continue;
		// WezTerm sends the Escape press as a raw ESC and its release as CSI u right after: ESC ESC [27;1:3u.
		// When a second ESC begins a new sequence, the first is an Escape of its own.
		if (candidate === "\x1b\x1b" && "[]OP_".includes(rest[2] ?? "\0")) return ESC;
		return candidate;
	}
	return undefined;
}

/** Whole sequences in `buffer`, and the unfinished escape sequence left at its end. */
function splitSequences(buffer: string): { sequences: string[]; rest: string } {
	const sequences: string[] = [];
	let pos = 0;
	while (pos < buffer.length) {
		const rest = buffer.slice(pos);
		if (rest.startsWith(ESC)) {
			const sequence = takeEscapeSequence(rest);
			if (sequence === undefined) return { sequences, rest };
			sequences.push(sequence);
			pos += sequence.length;
		} else {
			// One character at a time; a surrogate pair stays together.
			const code = buffer.codePointAt(pos) as number;
			const width = code > 0xffff ? 2 : 1;
			sequences.push(buffer.slice(pos, pos + width));
			pos += width;
		}
	}
	return { sequences, rest: "" };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: kitty key events start with ESC
const PLAIN_KITTY_KEY = /^\x1b\[(\d+)(?::\d*)?(?::\d+)?u$/;

/** The code point of an unmodified kitty key event for a printable key. */
function plainKittyCodePoint(sequence: string): number | undefined {
	const m = PLAIN_KITTY_KEY.exec(sequence);
	if (!m) return undefined;
	const code = Number.parseInt(m[1] as string, 10);
	return code >= 32 ? code : undefined;
}

export class StdinBuffer extends EventEmitter<StdinBufferEventMap> {
	private buffer = "";
	private timer: ReturnType<typeof setTimeout> | undefined;
	private readonly timeoutMs: number;
	private readonly escapeTimeoutMs: number;
	private pasting = false;
	private pasteBuffer = "";
	/** Some terminals send a kitty key event and the plain character too; the duplicate is dropped. */
	private lastKittyCodePoint: number | undefined;

	constructor(options: StdinBufferOptions = {}) {
		super();
		this.timeoutMs = options.timeout ?? DEFAULT_TIMEOUT_MS;
		this.escapeTimeoutMs = options.escapeTimeout ?? DEFAULT_ESCAPE_TIMEOUT_MS;
	}

	/** Feed one chunk read from stdin. */
	process(data: string | Buffer): void {
		this.cancelTimer();
		let text: string;
		if (typeof data === "string") text = data;
		// A single high byte is the 8-bit "meta" form of ESC + (byte - 128).
		else if (data.length === 1 && (data[0] as number) > 127)
			text = ESC + String.fromCharCode((data[0] as number) - 128);
		else text = data.toString();
		if (text.length === 0 && this.buffer.length === 0) {
			this.emitSequence("");
			return;
		}
		this.buffer += text;
		if (this.pasting) {
			this.pasteBuffer += this.buffer;
			this.buffer = "";
			this.finishPaste();
			return;
		}
		const start = this.buffer.indexOf(PASTE_START);
		if (start !== -1) {
			const before = this.buffer.slice(0, start);
			const split = splitSequences(before);
			for (const sequence of split.sequences) this.emitSequence(sequence);
			if (split.rest) this.emitSequence(split.rest);
			this.lastKittyCodePoint = undefined;
			this.pasting = true;
			this.pasteBuffer = this.buffer.slice(start + PASTE_START.length);
			this.buffer = "";
			this.finishPaste();
			return;
		}
		const split = splitSequences(this.buffer);
		this.buffer = split.rest;
		for (const sequence of split.sequences) this.emitSequence(sequence);
		if (this.buffer.length > 0) {
			const wait = this.buffer === ESC ? this.escapeTimeoutMs : this.timeoutMs;
			this.timer = setTimeout(() => {
				for (const sequence of this.flush()) this.emitSequence(sequence);
			}, wait);
		}
	}

	/** Emit the paste once its end marker has arrived, then go on with what followed it. */
	private finishPaste(): void {
		const end = this.pasteBuffer.indexOf(PASTE_END);
		if (end === -1) return;
		const content = this.pasteBuffer.slice(0, end);
		const after = this.pasteBuffer.slice(end + PASTE_END.length);
		this.pasting = false;
		this.pasteBuffer = "";
		this.lastKittyCodePoint = undefined;
		this.emit("paste", content);
		if (after.length > 0) this.process(after);
	}

	private emitSequence(sequence: string): void {
		const code = sequence.length > 0 && sequence.length <= 2 ? sequence.codePointAt(0) : undefined;
		const single = code !== undefined && String.fromCodePoint(code).length === sequence.length;
		if (single && code === this.lastKittyCodePoint) {
			this.lastKittyCodePoint = undefined;
			return;
		}
		this.lastKittyCodePoint = plainKittyCodePoint(sequence);
		this.emit("data", sequence);
	}

	private cancelTimer(): void {
		if (this.timer !== undefined) clearTimeout(this.timer);
		this.timer = undefined;
	}

	/** Take what is buffered (an unfinished sequence) as one string, without emitting it. */
	flush(): string[] {
		this.cancelTimer();
		if (this.buffer.length === 0) return [];
		const sequences = [this.buffer];
		this.buffer = "";
		this.lastKittyCodePoint = undefined;
		return sequences;
	}

	/** Drop everything buffered, including a paste in progress. */
	clear(): void {
		this.cancelTimer();
		this.buffer = "";
		this.pasting = false;
		this.pasteBuffer = "";
		this.lastKittyCodePoint = undefined;
	}

	getBuffer(): string {
		return this.buffer;
	}

	destroy(): void {
		this.clear();
	}
}
