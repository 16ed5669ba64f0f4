/**
 * Server-sent events over a fetch body, per the WHATWG event-stream rules: lines end in LF, CRLF or CR; `data:`
 * lines of one event join with "\n"; an empty line dispatches; `:` lines are comments; a trailing event without
 * its blank line is dispatched at end of stream. Decoding is streaming UTF-8 (a code point split across chunks
 * is fine).
 */

export interface SseMessage {
	event: string;
	data: string;
	id?: string;
}

export class SseParser {
	/** Pieces of a line not yet ended (no line break in them): joined once its end arrives, never rescanned. */
	private pending: string[] = [];
	/** The last chunk ended in CR: an LF first in the next one is the rest of that CRLF. */
	private skipLf = false;
	private eventType = "";
	private data: string[] = [];
	private id: string | undefined;

	/**
	 * Feeds decoded text; returns the messages completed by it. Only the new text is searched for line breaks, so
	 * a long line (a final event holding the whole reply) arriving in many chunks costs its length once.
	 */
	feed(text: string): SseMessage[] {
		const out: SseMessage[] = [];
		let input = text;
		if (this.skipLf) {
			this.skipLf = false;
			if (input.charCodeAt(0) === 10) input = input.slice(1);
		}
		if (input.includes("\r")) {
			// A CR ends its line now; an LF opening the next chunk belongs to it.
			if (input.endsWith("\r")) this.skipLf = true;
			input = input.replace(/\r\n?/g, "\n");
		}
		let end = input.indexOf("\n");
		if (end === -1) {
			if (input !== "") this.pending.push(input);
			return out;
		}
		let first = input.slice(0, end);
		if (this.pending.length > 0) {
			this.pending.push(first);
			first = this.pending.join("");
			this.pending = [];
		}
		this.line(first, out);
		let start = end + 1;
		end = input.indexOf("\n", start);
		while (end !== -1) {
			this.lineAt(input, start, end, out);
			start = end + 1;
			end = input.indexOf("\n", start);
		}
		if (start < input.length) this.pending.push(input.slice(start));
		return out;
	}

	/** End of stream: a last event without its blank line still counts. */
	flush(): SseMessage[] {
		const out: SseMessage[] = [];
		const rest = this.pending.join("");
		this.pending = [];
		this.skipLf = false;
		if (rest !== "") this.line(rest, out);
		this.dispatch(out);
		return out;
	}

	/** The line `text[start, end)`: `data:` lines (nearly all of them) are read in place, others via `line`. */
	private lineAt(text: string, start: number, end: number, out: SseMessage[]): void {
		if (start === end) {
			this.dispatch(out);
			return;
		}
		if (text.charCodeAt(start + 4) === 58 && text.startsWith("data", start)) {
			const valueStart = text.charCodeAt(start + 5) === 32 ? start + 6 : start + 5;
			this.data.push(valueStart >= end ? "" : text.slice(valueStart, end));
			return;
		}
		this.line(text.slice(start, end), out);
	}

	private line(line: string, out: SseMessage[]): void {
		if (line === "") {
			this.dispatch(out);
			return;
		}
		const colon = line.indexOf(":");
		if (colon === 0) return; // comment
		const field = colon === -1 ? line : line.slice(0, colon);
		const valueStart = colon === -1 ? line.length : line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1;
		const value = line.slice(valueStart);
		if (field === "data") this.data.push(value);
		else if (field === "event") this.eventType = value;
		else if (field === "id") this.id = value;
	}

	private dispatch(out: SseMessage[]): void {
		if (this.data.length > 0) {
			const data = this.data.length === 1 ? (this.data[0] as string) : this.data.join("\n");
			const message: SseMessage = { event: this.eventType || "message", data };
			if (this.id !== undefined) message.id = this.id;
			out.push(message);
			this.data = [];
		}
		this.eventType = "";
	}
}

/**
 * Iterates the SSE messages of a response body, one batch per network chunk (cheaper than one await per message
 * when a provider streams thousands of small deltas). Throws if the body errors (e.g. the connection drops).
 */
export async function* readSseBatches(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage[]> {
	const parser = new SseParser();
	const decoder = new TextDecoder();
	const reader = body.getReader();
	try {
		while (true) {
			const { value, done } = await reader.read();
			if (done) break;
			const messages = parser.feed(decoder.decode(value, { stream: true }));
			if (messages.length > 0) yield messages;
		}
		const tail = decoder.decode();
		const last = [...(tail ? parser.feed(tail) : []), ...parser.flush()];
		if (last.length > 0) yield last;
	} finally {
		reader.releaseLock();
	}
}

/** Iterates the SSE messages of a response body one by one. */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
	for await (const batch of readSseBatches(body)) yield* batch;
}
