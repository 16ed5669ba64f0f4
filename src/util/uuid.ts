/** Identifiers shared by several layers. */

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
