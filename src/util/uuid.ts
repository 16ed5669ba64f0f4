/** Identifiers shared by several layers. */

const MAX_TIMESTAMP = 0xffff_ffff_ffff;
const MAX_SEQUENCE = (1n << 41n) - 1n;

let lastTimestamp = -1;
/** 41-bit counter behind the timestamp: random at first, then +1 per id, so ids of one process sort in order. */
let sequence: bigint | undefined;

/**
 * RFC 9562 UUID version 7, as pi-ai 0.87.1 makes them: 48-bit Unix milliseconds, then a per-process counter that
 * starts at a random value and grows by one per id, then random bits. Without `timestampMs` the clock never goes
 * backwards (ids keep their order); a given `timestampMs` is kept as is. Throws RangeError for a timestamp that is
 * not an integer in 0..2^48-1.
 */
export function uuidv7(timestampMs?: number): string {
	const requested = timestampMs ?? Date.now();
	if (!Number.isInteger(requested) || requested < 0 || requested > MAX_TIMESTAMP) {
		throw new RangeError(`UUIDv7 timestamp must be an integer between 0 and ${MAX_TIMESTAMP}`);
	}
	const time = timestampMs === undefined ? Math.max(requested, lastTimestamp) : requested;
	if (timestampMs === undefined) lastTimestamp = time;
	const b = crypto.getRandomValues(new Uint8Array(16));
	if (sequence === undefined) {
		sequence =
			(BigInt(b[1]!) << 32n) | (BigInt(b[2]!) << 24n) | (BigInt(b[3]!) << 16n) | (BigInt(b[4]!) << 8n) | BigInt(b[5]!);
	} else {
		if (sequence === MAX_SEQUENCE) throw new RangeError("UUIDv7 generator sequence exhausted");
		sequence++;
	}
	let ms = time;
	for (let i = 5; i >= 0; i--) {
		b[i] = ms % 256;
		ms = Math.floor(ms / 256);
	}
	const seq = sequence;
	b[6] = 0x70 | Number((seq >> 37n) & 0x0fn);
	b[7] = Number((seq >> 29n) & 0xffn);
	b[8] = 0x80 | Number((seq >> 23n) & 0x3fn);
	b[9] = Number((seq >> 15n) & 0xffn);
	b[10] = Number((seq >> 7n) & 0xffn);
	b[11] = (Number(seq & 0x7fn) << 1) | (b[11]! & 0x01);
	let hex = "";
	for (const byte of b) hex += byte.toString(16).padStart(2, "0");
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
