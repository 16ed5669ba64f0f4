/**
 * Strict JSONL framing for the RPC protocol.
 *
 * - LF (U+000A) is the only record separator. U+2028 / U+2029 (valid inside JSON strings) and a lone CR are not.
 * - One CR directly before the LF is dropped, so CRLF input works.
 * - Bytes are decoded as a UTF-8 stream: a character split across chunks is joined, not replaced.
 * - Every separator ends a line, empty ones included (the server answers an empty line with a parse error, as pi
 *   does). At end of input, text after the last LF is delivered as a final line when it is not empty.
 *
 * Node's `readline` is deliberately not used: it also splits on U+2028/U+2029 and CR.
 */
import type { Readable } from "node:stream";

const LF = "\n";
const CR = 13;

/** One record per line: JSON text plus LF. `JSON.stringify` escapes LF inside strings, so the frame is safe. */
export function serializeJsonLine(value: unknown): string {
	return `${JSON.stringify(value)}\n`;
}

/**
 * Incremental LF splitter. Feed chunks with `push`, then call `end` once at end of input. `onLine` gets each
 * line without its terminator (and without a CR before the LF).
 */
export class JsonlLineSplitter {
	private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
	/** Text after the last LF seen so far. */
	private rest = "";

	constructor(private readonly onLine: (line: string) => void) {}

	push(chunk: Uint8Array | string): void {
		const text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
		if (text.length === 0) return;
		let start = 0;
		let newline = text.indexOf(LF);
		if (newline === -1) {
			this.rest += text;
			return;
		}
		// First line: completes whatever was pending from earlier chunks.
		if (this.rest.length > 0) {
			const line = this.rest + text.slice(0, newline);
			this.rest = "";
			this.emit(line);
		} else {
			this.emit(text.slice(0, newline));
		}
		start = newline + 1;
		newline = text.indexOf(LF, start);
		while (newline !== -1) {
			this.emit(text.slice(start, newline));
			start = newline + 1;
			newline = text.indexOf(LF, start);
		}
		if (start < text.length) this.rest = text.slice(start);
	}

	/** Flushes a trailing partial character and delivers a final line that had no LF. */
	end(): void {
		const tail = this.rest + this.decoder.decode();
		this.rest = "";
		if (tail.length > 0) this.emit(tail);
	}

	private emit(line: string): void {
		const last = line.length - 1;
		this.onLine(last >= 0 && line.charCodeAt(last) === CR ? line.slice(0, last) : line);
	}
}

/**
 * Reads LF-framed lines from a stream (a child's stdout, `process.stdin`). A final line without LF is delivered
 * on `end`. Returns a function that detaches the reader.
 */
export function attachJsonlLineReader(stream: Readable, onLine: (line: string) => void): () => void {
	const splitter = new JsonlLineSplitter(onLine);
	const onData = (chunk: Uint8Array | string) => splitter.push(chunk);
	const onEnd = () => splitter.end();
	stream.on("data", onData);
	stream.on("end", onEnd);
	return () => {
		stream.off("data", onData);
		stream.off("end", onEnd);
	};
}

/** Where RPC command lines come from: delivers each line, then `onEnd` once at end of input. */
export interface LineInput {
	/** Starts reading; the returned function stops it (and lets the process end). */
	listen(onLine: (line: string) => void, onEnd: () => void): () => void;
}

/** Lines of a Node readable stream (`process.stdin` under Node, a child's stdout). */
export function streamLineInput(stream: Readable): LineInput {
	return {
		listen(onLine, onEnd) {
			const detach = attachJsonlLineReader(stream, onLine);
			stream.on("end", onEnd);
			return () => {
				detach();
				stream.off("end", onEnd);
				// A paused stream no longer holds the event loop open.
				stream.pause();
			};
		},
	};
}

/**
 * Lines of a web byte stream (`Bun.stdin.stream()` in the binary). Under Bun this is much cheaper than
 * `process.stdin`, whose first touch builds Node's stream machinery (~20 ms of start-up on a slow machine).
 */
export function webStreamLineInput(stream: ReadableStream<Uint8Array>): LineInput {
	return {
		listen(onLine, onEnd) {
			const reader = stream.getReader();
			const splitter = new JsonlLineSplitter(onLine);
			let stopped = false;
			const pump = async () => {
				while (!stopped) {
					const chunk = await reader.read();
					if (stopped) return;
					if (chunk.done) {
						splitter.end();
						onEnd();
						return;
					}
					splitter.push(chunk.value);
				}
			};
			pump().catch(() => {
				// A read error on stdin (descriptor closed under us) ends input like EOF does.
				if (!stopped) onEnd();
			});
			return () => {
				stopped = true;
				// Cancelling releases the descriptor so the process can end; a rejection only means it already closed.
				reader.cancel().catch(() => undefined);
			};
		},
	};
}
