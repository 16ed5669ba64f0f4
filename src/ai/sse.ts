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

	/** Feeds decoded text; returns the messages completed by it. */
	feed(text: string): SseMessage[] {
		const out: SseMessage[] = [];
		let input = this.buffer === "" ? text : this.buffer + text;
		this.buffer = "";
		if (input.includes("\r")) {
			// A CR at the very end may be the first half of a CRLF: keep it for the next chunk.
			if (input.endsWith("\r")) {
				this.buffer = "\r";
				input = input.slice(0, -1);
			}
			input = input.replace(/\r\n?/g, "\n");
		}
		let start = 0;
		let end = input.indexOf("\n");
		while (end !== -1) {
			this.line(input.slice(start, end), out);
			start = end + 1;
			end = input.indexOf("\n", start);
		}
		if (start < input.length) this.buffer = input.slice(start) + this.buffer;
		return out;
	}

	/** End of stream: a last event without its blank line still counts. */
	flush(): SseMessage[] {
		const out: SseMessage[] = [];
		const rest = this.buffer.replace(/\r$/, "");
		this.buffer = "";
		if (rest !== "") this.line(rest, out);
		this.dispatch(out);
		return out;
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
