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
	private buffer = "";
	private eventType = "";
	private data: string[] = [];
	private id: string | undefined;
	private sawCR = false;

	/** Feeds decoded text; returns the messages completed by it. */
	feed(text: string): SseMessage[] {
		const out: SseMessage[] = [];
		let chunk = text;
		if (this.sawCR && chunk.startsWith("\n")) chunk = chunk.slice(1);
		this.sawCR = false;
		const input = this.buffer + chunk;
		let start = 0;
		const length = input.length;
		while (start < length) {
			let end = start;
			while (end < length) {
				const c = input.charCodeAt(end);
				if (c === 10 || c === 13) break;
				end++;
			}
			if (end === length) break; // incomplete line
			this.line(input.slice(start, end), out);
			if (input.charCodeAt(end) === 13) {
				if (end + 1 < length) {
					start = input.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
				} else {
					this.sawCR = true;
					start = end + 1;
				}
			} else start = end + 1;
		}
		this.buffer = start < length ? input.slice(start) : "";
		return out;
	}

	/** End of stream: a last event without its blank line still counts. */
	flush(): SseMessage[] {
		const out: SseMessage[] = [];
		if (this.buffer !== "") {
			this.line(this.buffer, out);
			this.buffer = "";
		}
		this.dispatch(out);
		return out;
	}

	private line(line: string, out: SseMessage[]): void {
		if (line === "") {
			this.dispatch(out);
			return;
		}
		if (line.charCodeAt(0) === 58) return; // ":" comment
		const colon = line.indexOf(":");
		const field = colon === -1 ? line : line.slice(0, colon);
		let value = colon === -1 ? "" : line.slice(colon + 1);
		if (value.charCodeAt(0) === 32) value = value.slice(1);
		if (field === "data") this.data.push(value);
		else if (field === "event") this.eventType = value;
		else if (field === "id") this.id = value;
	}

	private dispatch(out: SseMessage[]): void {
		if (this.data.length > 0) {
			const message: SseMessage = { event: this.eventType || "message", data: this.data.join("\n") };
			if (this.id !== undefined) message.id = this.id;
			out.push(message);
		}
		this.data = [];
		this.eventType = "";
	}
}

/** Iterates the SSE messages of a response body. Throws if the body errors (e.g. the connection drops). */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
	const parser = new SseParser();
	const decoder = new TextDecoder();
	const reader = body.getReader();
	try {
		while (true) {
			const { value, done } = await reader.read();
			if (done) break;
			const messages = parser.feed(decoder.decode(value, { stream: true }));
			for (const message of messages) yield message;
		}
		const tail = decoder.decode();
		for (const message of tail ? parser.feed(tail) : []) yield message;
		for (const message of parser.flush()) yield message;
	} finally {
		reader.releaseLock();
	}
}
