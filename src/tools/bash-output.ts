/**
 * Collects a command's output with bounded memory: only a rolling tail (enough for the 2000-line / 50 KB result)
 * stays in memory, while everything is counted. Once the output outgrows the limits, the full output is spilled to
 * `<tmpdir>/pi-bash-<16 hex>.log` — what was received so far first, then every later chunk. Output that is binary
 * (its first or last 8 KB, as the `read` tool judges files) is not shown: the result says what it was and where the
 * whole output is.
 */

import { join } from "node:path";
import { closeSync, openSync, os, writeSync } from "../util/index.ts";
import { isUtf8Prefix } from "./read-window.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, truncateTail } from "./truncate.ts";
import type { TruncationResult } from "./types.ts";

/** Raw bytes kept from the start and the end of the output for the binary check. */
const SAMPLE_BYTES = 8 * 1024;

/** Control characters that ordinary text contains: backspace, tab, newline, form feed, carriage return, escape. */
const TEXT_CONTROLS = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x1b]);

/**
 * Whether output bytes are binary rather than text. Valid UTF-8 is text unless most of it is control characters
 * (NUL-separated lists such as `find -print0` stay text); otherwise it is binary when more than a tenth of the
 * characters are invalid sequences or control characters (text in a legacy 8-bit encoding has few of both).
 */
export function outputLooksBinary(sample: Uint8Array): boolean {
	if (sample.length === 0) return false;
	const valid = isUtf8Prefix(sample);
	const text = new TextDecoder("utf-8").decode(sample, { stream: true });
	let odd = 0;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if ((code < 0x20 && !TEXT_CONTROLS.has(code)) || code === 0x7f || code === 0xfffd) odd++;
	}
	return odd > text.length * (valid ? 0.3 : 0.1);
}

/** Raw bytes of the output's end kept in memory (2× the byte limit, so sanitising still leaves enough). */
const TAIL_KEEP = DEFAULT_MAX_BYTES * 2;
/** The tail is compacted once it grows past this many bytes. */
const TAIL_COMPACT_AT = DEFAULT_MAX_BYTES * 4;

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences on purpose
const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: dropping control characters on purpose
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;

/** Removes ANSI escapes, carriage returns and other control characters (tabs and newlines stay). */
export function sanitizeOutput(text: string): string {
	return text.replace(ANSI, "").replace(CONTROL, "");
}

export interface OutputSnapshot {
	text: string;
	truncation?: TruncationResult;
	fullOutputPath?: string;
}

export class OutputCollector {
	/** The end of the output as raw bytes: decoded only when a snapshot is taken, not chunk by chunk. */
	private tail: Buffer[] = [];
	private tailBytes = 0;
	/** The tail no longer starts at the output's first byte (it may start inside a character). */
	private tailCut = false;
	private finished = false;
	/** Raw chunks kept until the spill file exists, so it can start with everything received. */
	private pending: Buffer[] | undefined = [];
	private fd: number | undefined;
	private path: string | undefined;
	private totalBytes = 0;
	private newlines = 0;
	private endsWithNewline = false;
	private currentLineBytes = 0;
	private previousLineBytes = 0;
	private head = Buffer.alloc(0);
	private last = Buffer.alloc(0);

	push(chunk: Buffer): void {
		if (this.head.length < SAMPLE_BYTES) this.head = Buffer.concat([this.head, chunk.subarray(0, SAMPLE_BYTES)]);
		this.last = Buffer.concat([this.last, chunk.subarray(-SAMPLE_BYTES)]).subarray(-SAMPLE_BYTES);
		this.totalBytes += chunk.length;
		this.countLines(chunk);
		this.tail.push(chunk);
		this.tailBytes += chunk.length;
		if (this.fd !== undefined) {
			this.writeFile(chunk);
		} else {
			this.pending?.push(chunk);
			if (this.totalBytes > DEFAULT_MAX_BYTES || this.totalLines() > DEFAULT_MAX_LINES) this.openSpill();
		}
		if (this.tailBytes > TAIL_COMPACT_AT) this.compact();
	}

	/** Flushes the decoder and closes the spill file. */
	finish(): void {
		this.finished = true;
		if (this.fd !== undefined) {
			try {
				closeSync(this.fd);
			} catch {
				// Closing a temp file we own cannot fail in a way the user cares about.
			}
			this.fd = undefined;
		}
	}

	/** The tail-truncated text so far, with the truncation facts counted over the whole output. */
	snapshot(): OutputSnapshot {
		const raw = this.tailText();
		const truncation = truncateTail(sanitizeOutput(raw));
		const totalLines = this.totalLines();
		const tooBig = this.totalBytes > DEFAULT_MAX_BYTES || totalLines > DEFAULT_MAX_LINES;
		if (!truncation.truncated && !tooBig) return { text: truncation.content, fullOutputPath: this.path };
		// Sanitizing may have shortened the text: count the truncation against the real output.
		truncation.truncated = true;
		truncation.truncatedBy ??= totalLines > DEFAULT_MAX_LINES ? "lines" : "bytes";
		truncation.totalLines = totalLines;
		truncation.totalBytes = this.totalBytes;
		return { text: truncation.content, truncation, fullOutputPath: this.path };
	}

	/** The output looks binary (what the model would be shown is not text). */
	get binary(): boolean {
		return outputLooksBinary(this.head.subarray(0, SAMPLE_BYTES)) || outputLooksBinary(this.last);
	}

	/**
	 * The final result text: the tail plus a notice when it was truncated, or "(no output)"; for binary output a
	 * one-line summary (the whole output goes to the spill file, which it names).
	 */
	format(): { text: string; truncation?: TruncationResult; fullOutputPath?: string } {
		if (this.totalBytes > 0 && this.binary) {
			if (this.path === undefined) {
				this.openSpill();
				this.finish();
			}
			const text = `Binary output, ${this.totalBytes} bytes (not shown; full output: ${this.path}; inspect it with e.g. file or xxd)`;
			return { text, fullOutputPath: this.path };
		}
		const snap = this.snapshot();
		const { truncation } = snap;
		let text = snap.text;
		if (truncation) {
			const end = truncation.totalLines;
			const start = end - truncation.outputLines + 1;
			const where = snap.fullOutputPath ? `Full output: ${snap.fullOutputPath}` : "Full output unavailable";
			if (truncation.lastLinePartial) {
				const lineSize = formatSize(this.currentLineBytes || this.previousLineBytes);
				text += `\n\n[Showing last ${formatSize(truncation.outputBytes)} of line ${end} (line is ${lineSize}). ${where}]`;
			} else if (truncation.truncatedBy === "lines") {
				text += `\n\n[Showing lines ${start}-${end} of ${end}. ${where}]`;
			} else {
				text += `\n\n[Showing lines ${start}-${end} of ${end} (${formatSize(DEFAULT_MAX_BYTES)} limit). ${where}]`;
			}
		}
		if (!text) text = "(no output)";
		return { text, truncation, fullOutputPath: snap.fullOutputPath };
	}

	get bytes(): number {
		return this.totalBytes;
	}

	/** Characters currently held in memory (bounded, whatever the output size). */
	get bufferedChars(): number {
		return this.tailBytes + (this.pending?.reduce((n, b) => n + b.length, 0) ?? 0);
	}

	private totalLines(): number {
		if (this.totalBytes === 0) return 0;
		return this.newlines + (this.endsWithNewline ? 0 : 1);
	}

	private countLines(chunk: Buffer): void {
		// A plain byte loop: Buffer#indexOf per line costs a native call each, 20× slower on `yes`-like output.
		let lineStart = 0;
		for (let i = 0; i < chunk.length; i++) {
			if (chunk[i] !== 10) continue;
			this.newlines++;
			this.previousLineBytes = this.currentLineBytes + (i - lineStart);
			this.currentLineBytes = 0;
			lineStart = i + 1;
		}
		this.currentLineBytes += chunk.length - lineStart;
		if (chunk.length > 0) this.endsWithNewline = chunk[chunk.length - 1] === 10;
	}

	/**
	 * The tail as text. A cut tail drops the continuation bytes of a character it starts inside; until the output
	 * is finished an incomplete character at the end waits for its remaining bytes (as a streaming decoder would).
	 */
	private tailText(): string {
		let bytes = this.tail.length === 1 ? (this.tail[0] as Buffer) : Buffer.concat(this.tail);
		if (this.tail.length > 1) this.tail = [bytes];
		if (this.tailCut) {
			let skip = 0;
			while (skip < 3 && skip < bytes.length && ((bytes[skip] as number) & 0xc0) === 0x80) skip++;
			bytes = bytes.subarray(skip);
		}
		return new TextDecoder("utf-8").decode(bytes, { stream: !this.finished });
	}

	private compact(): void {
		const joined = Buffer.concat(this.tail);
		const kept = Buffer.from(joined.subarray(joined.length - TAIL_KEEP));
		this.tail = [kept];
		this.tailBytes = kept.length;
		this.tailCut = true;
	}

	private openSpill(): void {
		this.path = join(
			os().tmpdir(),
			`pi-bash-${Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("hex")}.log`,
		);
		this.fd = openSync(this.path, "w");
		for (const chunk of this.pending ?? []) this.writeFile(chunk);
		this.pending = undefined;
	}

	private writeFile(chunk: Buffer): void {
		if (this.fd === undefined) return;
		let offset = 0;
		while (offset < chunk.length) offset += writeSync(this.fd, chunk, offset);
	}
}
