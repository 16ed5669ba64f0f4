/**
 * Decoder for AWS's binary event stream (`application/vnd.amazon.eventstream`), as Bedrock's ConverseStream sends
 * it. Each message: total length and headers length (u32 big-endian), a CRC32 of those 8 bytes, the headers, the
 * payload, and a CRC32 of everything before it. Bytes arrive in arbitrary chunks; `push` returns the messages a
 * chunk completes and keeps the rest. A bad length or CRC is an `EventStreamError` (the stream cannot resync).
 */

export type EventStreamHeaderValue =
	| { type: "boolean"; value: boolean }
	| { type: "byte" | "short" | "integer"; value: number }
	| { type: "long"; value: bigint }
	| { type: "binary"; value: Uint8Array }
	| { type: "string"; value: string }
	| { type: "timestamp"; value: Date }
	| { type: "uuid"; value: string };

export interface EventStreamMessage {
	headers: Record<string, EventStreamHeaderValue>;
	payload: Uint8Array;
}

export class EventStreamError extends Error {
	override name = "EventStreamError";
}

const PRELUDE = 12;
const TRAILER = 4;
/** The format's limits: 16 MiB per message, 128 KiB of headers. */
const MAX_MESSAGE = 16 * 1024 * 1024;
const MAX_HEADERS = 128 * 1024;

let table: Uint32Array | undefined;

export function crc32(data: Uint8Array, start = 0, end = data.length): number {
	if (!table) {
		table = new Uint32Array(256);
		for (let n = 0; n < 256; n++) {
			let c = n;
			for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
			table[n] = c >>> 0;
		}
	}
	let crc = 0xffffffff;
	for (let i = start; i < end; i++) crc = (table[(crc ^ (data[i] as number)) & 0xff] as number) ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}

const utf8 = new TextDecoder("utf-8", { fatal: false });

function decodeHeaders(view: DataView, bytes: Uint8Array, start: number, end: number): EventStreamMessage["headers"] {
	const headers: EventStreamMessage["headers"] = {};
	let at = start;
	const need = (n: number) => {
		if (at + n > end) throw new EventStreamError("event stream header runs past the headers section");
	};
	while (at < end) {
		need(1);
		const nameLength = view.getUint8(at++);
		need(nameLength + 1);
		const name = utf8.decode(bytes.subarray(at, at + nameLength));
		at += nameLength;
		const kind = view.getUint8(at++);
		let value: EventStreamHeaderValue;
		switch (kind) {
			case 0:
			case 1:
				value = { type: "boolean", value: kind === 0 };
				break;
			case 2:
				need(1);
				value = { type: "byte", value: view.getInt8(at) };
				at += 1;
				break;
			case 3:
				need(2);
				value = { type: "short", value: view.getInt16(at) };
				at += 2;
				break;
			case 4:
				need(4);
				value = { type: "integer", value: view.getInt32(at) };
				at += 4;
				break;
			case 5:
			case 8: {
				need(8);
				const long = view.getBigInt64(at);
				value = kind === 5 ? { type: "long", value: long } : { type: "timestamp", value: new Date(Number(long)) };
				at += 8;
				break;
			}
			case 6:
			case 7: {
				need(2);
				const length = view.getUint16(at);
				at += 2;
				need(length);
				const raw = bytes.slice(at, at + length);
				value = kind === 6 ? { type: "binary", value: raw } : { type: "string", value: utf8.decode(raw) };
				at += length;
				break;
			}
			case 9: {
				need(16);
				let hex = "";
				for (const b of bytes.subarray(at, at + 16)) hex += b.toString(16).padStart(2, "0");
				value = {
					type: "uuid",
					value: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
				};
				at += 16;
				break;
			}
			default:
				throw new EventStreamError(`event stream header "${name}" has unknown type ${kind}`);
		}
		headers[name] = value;
	}
	return headers;
}

/** Decodes one whole message (exactly its bytes). */
export function decodeMessage(bytes: Uint8Array): EventStreamMessage {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	if (bytes.length < PRELUDE + TRAILER) throw new EventStreamError("event stream message is shorter than 16 bytes");
	const total = view.getUint32(0);
	const headersLength = view.getUint32(4);
	if (total !== bytes.length) throw new EventStreamError(`event stream message length ${total} ≠ ${bytes.length}`);
	if (crc32(bytes, 0, 8) !== view.getUint32(8)) throw new EventStreamError("event stream prelude CRC mismatch");
	if (crc32(bytes, 0, total - TRAILER) !== view.getUint32(total - TRAILER))
		throw new EventStreamError("event stream message CRC mismatch");
	if (PRELUDE + headersLength > total - TRAILER)
		throw new EventStreamError(`event stream headers length ${headersLength} exceeds the message`);
	const headers = decodeHeaders(view, bytes, PRELUDE, PRELUDE + headersLength);
	return { headers, payload: bytes.slice(PRELUDE + headersLength, total - TRAILER) };
}

/**
 * Incremental decoder: feed chunks in order, get whole messages back. Messages are read in place at an offset, so
 * a chunk holding many small messages is not copied once per message.
 */
export class EventStreamDecoder {
	private buffer: Uint8Array = new Uint8Array(0);
	/** Where the first unread byte of `buffer` is. */
	private offset = 0;

	push(chunk: Uint8Array): EventStreamMessage[] {
		if (chunk.length > 0) {
			const left = this.buffer.length - this.offset;
			if (left === 0) this.buffer = chunk;
			else {
				const joined = new Uint8Array(left + chunk.length);
				joined.set(this.buffer.subarray(this.offset));
				joined.set(chunk, left);
				this.buffer = joined;
			}
			this.offset = 0;
		}
		const out: EventStreamMessage[] = [];
		const buffer = this.buffer;
		const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
		let at = this.offset;
		while (buffer.length - at >= PRELUDE) {
			const total = view.getUint32(at);
			if (crc32(buffer, at, at + 8) !== view.getUint32(at + 8))
				throw new EventStreamError("event stream prelude CRC mismatch");
			if (total < PRELUDE + TRAILER || total > MAX_MESSAGE || view.getUint32(at + 4) > MAX_HEADERS)
				throw new EventStreamError(`event stream message length ${total} is out of range`);
			if (buffer.length - at < total) break;
			out.push(decodeMessage(buffer.subarray(at, at + total)));
			at += total;
			this.offset = at;
		}
		if (this.offset === buffer.length) {
			this.buffer = new Uint8Array(0);
			this.offset = 0;
		}
		return out;
	}

	/** Throws when the stream ended inside a message. */
	end(): void {
		const left = this.buffer.length - this.offset;
		if (left > 0) throw new EventStreamError(`event stream ended inside a message (${left} bytes left over)`);
	}
}
