/** Session ids (UUID v7, or a caller-supplied id that is safe in a file name) and 8-hex entry ids. */
import { randomUUID } from "node:crypto";

const HEX = "0123456789abcdef";

function hex(bytes: Uint8Array): string {
	let out = "";
	for (const b of bytes) out += HEX[b >> 4]! + HEX[b & 15]!;
	return out;
}

/** RFC 9562 UUID version 7: 48-bit Unix milliseconds, then random bits (sortable by creation time). */
export function uuidv7(now = Date.now()): string {
	const b = crypto.getRandomValues(new Uint8Array(16));
	let ms = now;
	for (let i = 5; i >= 0; i--) {
		b[i] = ms % 256;
		ms = Math.floor(ms / 256);
	}
	b[6] = (b[6]! & 0x0f) | 0x70;
	b[8] = (b[8]! & 0x3f) | 0x80;
	const h = hex(b);
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * A new entry id: 8 random hex chars, redrawn while `taken` says it is used; after 100 collisions (a file with
 * billions of entries) a full UUID.
 */
export function newEntryId(taken: (id: string) => boolean): string {
	for (let i = 0; i < 100; i++) {
		const id = hex(crypto.getRandomValues(new Uint8Array(4)));
		if (!taken(id)) return id;
	}
	return randomUUID();
}

const SESSION_ID_RE = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** Throws unless `id` can be a session id: it becomes part of a file name, so no separators and no dot first. */
export function assertValidSessionId(id: string): void {
	if (!SESSION_ID_RE.test(id)) {
		throw new Error(
			`Invalid session id ${JSON.stringify(id)}: use 1-128 letters, digits, ".", "_" or "-", not starting with "."`,
		);
	}
}
