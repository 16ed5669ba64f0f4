/**
 * Bounded line-window reading for the `read` tool. The file is read in growing chunks (64 KB up to 1 MB) and never
 * held in memory as a whole: lines before the window are only counted, the window itself is kept up to a byte cap
 * (just over the output limit, enough for `truncateHead` to decide exactly as it would on the full text), and
 * after the window the remaining newlines are counted only when the rest of the file is small (`countBudget`), so
 * that "N lines total" can be reported without scanning a huge file.
 *
 * Lines follow pi's convention: the text is split on "\n", so a trailing newline yields a final empty line and an
 * empty file has one (empty) line.
 */
import type { ByteSource } from "./read-source.ts";
import { throwIfAborted } from "./tool-abort.ts";

const FIRST_CHUNK = 64 * 1024;
const MAX_CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;

export interface WindowRequest {
	/** 0-based index of the first line to return. */
	startLine: number;
	/** Lines to collect at most. */
	lineCap: number;
	/** Bytes of window content to keep at most. */
	byteCap: number;
	/** Count the lines after the window only when at most this many bytes remain. */
	countBudget: number;
	signal?: AbortSignal;
}

export interface WindowScan {
	/** False when the file has fewer than startLine + 1 lines; `totalLines` is then set. */
	startFound: boolean;
	/** Window bytes: the lines joined by "\n" (no newline after the last one unless the file ends there). */
	bytes: Buffer;
	/** How collection stopped: end of file, `lineCap` lines complete, or `byteCap` reached. */
	endedBy: "eof" | "lines" | "bytes";
	/** Lines in the whole file, when the scan reached the end of it. */
	totalLines?: number;
	/** Byte length of the window's first line; a lower bound when `firstLineBytesExact` is false. */
	firstLineBytes: number;
	firstLineBytesExact: boolean;
	/** Bytes from the window start to the end of the file, when the scan reached it. */
	bytesFromStart?: number;
}

async function* chunks(source: ByteSource, signal: AbortSignal | undefined): AsyncGenerator<[Buffer, number]> {
	let position = 0;
	let size = FIRST_CHUNK;
	for (;;) {
		throwIfAborted(signal);
		const chunk = await source.read(position, size);
		throwIfAborted(signal);
		if (chunk.length === 0) return;
		yield [chunk, position];
		position += chunk.length;
		size = Math.min(size * 2, MAX_CHUNK);
	}
}

export async function scanWindow(source: ByteSource, request: WindowRequest): Promise<WindowScan> {
	const { startLine, lineCap, byteCap, countBudget, signal } = request;
	const parts: Buffer[] = [];
	let newlines = 0;
	let windowNewlines = 0;
	let collected = 0;
	let windowStart = 0;
	let firstLineEnd: number | undefined;
	let endedBy: WindowScan["endedBy"] = "eof";
	let phase: "skip" | "collect" | "count" = startLine <= 0 ? "collect" : "skip";
	let stoppedEarly = false;
	let scannedTo = 0;

	const finishCollecting = (how: "lines" | "bytes", position: number): void => {
		endedBy = how;
		phase = "count";
		if (Math.max(0, source.size - position) > countBudget) stoppedEarly = true;
	};
	if (phase === "collect" && lineCap <= 0) finishCollecting("lines", 0);

	outer: for await (const [chunk, base] of chunks(source, signal)) {
		scannedTo = base + chunk.length;
		let i = 0;
		while (i < chunk.length) {
			if (stoppedEarly) break outer;
			const nl = chunk.indexOf(NEWLINE, i);
			if (phase === "skip") {
				if (nl === -1) break;
				newlines++;
				i = nl + 1;
				if (newlines === startLine) {
					phase = "collect";
					windowStart = base + i;
					if (lineCap <= 0) finishCollecting("lines", base + i);
				}
				continue;
			}
			if (phase === "collect") {
				const last = nl !== -1 && windowNewlines + 1 === lineCap;
				const segmentEnd = nl === -1 ? chunk.length : last ? nl : nl + 1;
				const room = byteCap - collected;
				if (segmentEnd - i > room) {
					parts.push(chunk.subarray(i, i + room));
					collected += room;
					i += room;
					finishCollecting("bytes", base + i);
					continue;
				}
				parts.push(chunk.subarray(i, segmentEnd));
				collected += segmentEnd - i;
				if (nl === -1) break;
				if (windowNewlines === 0) firstLineEnd = base + nl;
				newlines++;
				windowNewlines++;
				i = nl + 1;
				if (last) finishCollecting("lines", base + i);
				continue;
			}
			// Counting the rest of the file.
			if (nl === -1) break;
			if (firstLineEnd === undefined) firstLineEnd = base + nl;
			newlines++;
			i = nl + 1;
		}
	}

	if (phase === "skip") {
		return {
			startFound: false,
			bytes: Buffer.alloc(0),
			endedBy: "eof",
			totalLines: newlines + 1,
			firstLineBytes: 0,
			firstLineBytesExact: true,
		};
	}
	const bytes = Buffer.concat(parts);
	const reachedEnd = !stoppedEarly;
	const endPosition = reachedEnd ? scannedTo : undefined;
	const firstLineBytes = (firstLineEnd ?? endPosition ?? windowStart + bytes.length) - windowStart;
	return {
		startFound: true,
		bytes,
		endedBy,
		totalLines: reachedEnd ? newlines + 1 : undefined,
		firstLineBytes,
		firstLineBytesExact: firstLineEnd !== undefined || reachedEnd,
		bytesFromStart: endPosition !== undefined ? endPosition - windowStart : undefined,
	};
}

const SAMPLE_BYTES = 8 * 1024;
/** Control bytes that ordinary text contains: backspace, tab, newline, form feed, carriage return, escape. */
const TEXT_CONTROLS = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x1b]);

/**
 * Binary check on the first 8 KB: a NUL byte, or bytes that are not UTF-8 with a high share of control characters.
 * Text in a legacy 8-bit encoding (invalid UTF-8, few control bytes) is not binary; it is shown as Latin-1.
 */
export function looksBinary(sample: Uint8Array): boolean {
	const head = sample.subarray(0, SAMPLE_BYTES);
	if (head.includes(0)) return true;
	if (isUtf8Prefix(head)) return false;
	let control = 0;
	for (const byte of head) {
		if ((byte < 0x20 && !TEXT_CONTROLS.has(byte)) || byte === 0x7f) control++;
	}
	return control > head.length * 0.1;
}

/** True when `bytes` is valid UTF-8, allowing an incomplete character at the very end (a cut mid-sequence). */
export function isUtf8Prefix(bytes: Uint8Array): boolean {
	try {
		new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
		return true;
	} catch {
		// Invalid sequence somewhere before the end.
		return false;
	}
}

/** Decodes window bytes: UTF-8 (BOM dropped) when valid, else Latin-1 so every byte maps to one character. */
export function decodeWindow(bytes: Buffer, cut: boolean): string {
	if (!isUtf8Prefix(bytes)) return bytes.toString("latin1");
	// A cut window may end inside a character; streaming mode drops that incomplete tail instead of mangling it.
	return new TextDecoder("utf-8").decode(bytes, { stream: cut });
}
