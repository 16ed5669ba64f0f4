/**
 * Byte-level reading of session files: walk the lines of a file descriptor in fixed-size chunks (no whole-file
 * string), read one line back by its byte range, and peek at an entry's envelope (`type`, `id`, `parentId`, message
 * `role`) without parsing the line. The peek only recognises the key order pi and this layer write; anything
 * else is simply parsed in full by the caller.
 */
import { closeSync, fstatSync, openSync, readSync } from "../util/index.ts";
import { type LongLineVisitor, scanLongLine } from "./long-line.ts";

/**
 * Files are walked through one reused buffer of this size; a file that fits is read in one go and its bytes kept
 * (see `LineWalk.bytes`). A bigger buffer costs more in page faults on first use than the extra reads save
 * (100k entries, 82 MB: 4 MB chunks ~262 ms to open, 256 KB ~234 ms; a 1 MB file is no slower walked in chunks
 * and read back through a scratch buffer than kept whole).
 */
const CHUNK = 256 * 1024;
const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;

/**
 * Called once per line. `start`/`end` index into `buf` (end excludes the "\n" and a trailing "\r"); `offset` is
 * the line's byte offset in the file; `line` is 1-based. `terminated` is false only for a last line without "\n".
 * `hasNul` says the line contains a NUL byte (never written by JSON.stringify: a sign of disk damage).
 */
export type LineVisitor = (
	buf: Buffer,
	start: number,
	end: number,
	offset: number,
	line: number,
	terminated: boolean,
	hasNul: boolean,
) => void;

export interface LineWalk {
	/** Bytes read (the file size at the time of the walk). */
	size: number;
	/** Offset just past the last "\n" (0 when there is none). */
	validEnd: number;
	/**
	 * The file's bytes up to `validEnd` when one read took the whole file (at most one chunk) and they were left
	 * intact, so lines parsed later need not be read again.
	 */
	bytes?: Buffer;
}

/**
 * Visits every non-blank line of `fd` from offset 0. Blank lines are skipped but still counted. A line longer than
 * the buffer that ends in "\n" is first offered to `long` (its first bytes only); when that declines, it is read
 * whole and visited like the others.
 */
export function forEachLine(fd: number, visit: LineVisitor, long?: LongLineVisitor): LineWalk {
	const size = fstatSync(fd).size;
	let buf = Buffer.allocUnsafe(size < CHUNK ? Math.max(size + 1, 4096) : CHUNK);
	let carry = 0; // bytes at buf[0..carry) that start an unfinished line
	let base = 0; // file offset of buf[0]
	let line = 0;
	let read = 0;
	let reads = 0;
	let intact = true; // buf[0..read) still holds the file from offset 0
	for (;;) {
		if (carry === buf.length && long && carry >= CHUNK) {
			// A line longer than the buffer: offered to `long` first, which may index it from its first bytes.
			const info = scanLongLine(fd, buf.subarray(0, carry), base, line + 1);
			if (info && long(info)) {
				line++;
				base = base + info.length + 1 + (readByte(fd, base + info.length) === CR ? 1 : 0);
				read = Math.max(read, base);
				carry = 0;
				intact = false;
				continue;
			}
		}
		if (carry === buf.length) {
			// A line longer than the buffer, read whole: grow it once, to that line's length (found by reading
			// ahead), so a long line costs about its own size in memory rather than up to twice that.
			const bigger = Buffer.allocUnsafe(lineFits(fd, base, carry, size));
			buf.copy(bigger, 0, 0, carry);
			buf = bigger;
		}
		const n = readSync(fd, buf, carry, buf.length - carry, base + carry);
		if (n === 0) break;
		reads++;
		read = base + carry + n;
		const view = buf.subarray(0, carry + n);
		let p = 0;
		let nul = view.indexOf(0);
		for (;;) {
			const nl = view.indexOf(LF, p);
			if (nl === -1) break;
			line++;
			if (nul !== -1 && nul < p) nul = view.indexOf(0, p);
			emit(view, p, nl, base + p, line, true, nul !== -1 && nul < nl, visit);
			p = nl + 1;
		}
		if (p > 0) {
			if (p < view.length) intact = false;
			buf.copy(buf, 0, p, view.length);
			base += p;
		}
		carry = view.length - p;
	}
	const validEnd = base;
	if (carry > 0) {
		const view = buf.subarray(0, carry);
		emit(view, 0, carry, base, line + 1, false, view.indexOf(0) !== -1, visit);
	}
	if (reads === 1 && intact && validEnd > 0) return { size: read, validEnd, bytes: buf.subarray(0, validEnd) };
	return { size: read, validEnd };
}

/** The byte at `offset` (-1 past the end). */
function readByte(fd: number, offset: number): number {
	const one = Buffer.allocUnsafe(1);
	return readSync(fd, one, 0, 1, offset) === 1 ? one[0]! : -1;
}

/**
 * A buffer size that holds the line starting at file offset `base`, of which `carry` bytes are already read: its
 * length up to and including the next "\n" (or the end of the file), rounded up to whole chunks.
 */
function lineFits(fd: number, base: number, carry: number, size: number): number {
	const scratch = Buffer.allocUnsafe(CHUNK);
	let at = base + carry;
	for (;;) {
		const n = readSync(fd, scratch, 0, CHUNK, at);
		if (n === 0) break;
		const nl = scratch.subarray(0, n).indexOf(LF);
		if (nl !== -1) {
			at += nl + 1;
			break;
		}
		at += n;
	}
	const need = Math.max(at, Math.min(size, base + carry + 1)) - base;
	return Math.ceil((need + 1) / CHUNK) * CHUNK;
}

function emit(
	buf: Buffer,
	start: number,
	end: number,
	offset: number,
	line: number,
	terminated: boolean,
	hasNul: boolean,
	visit: LineVisitor,
): void {
	let e = end;
	if (e > start && buf[e - 1] === CR) e--;
	let s = start;
	while (s < e && (buf[s] === SPACE || buf[s] === TAB)) s++;
	if (s === e) return;
	visit(buf, start, e, offset, line, terminated, hasNul);
}

/** Bun's JSONL parser reads a line's bytes in place (no string per line); absent under Node. */
const jsonl = typeof Bun !== "undefined" ? Bun.JSONL : undefined;

/**
 * The JSON value of `buf[start..end)`, which must hold exactly one value (as `JSON.parse` of the line would see
 * it). Under Bun the bytes are parsed in place; anything the fast path does not accept as exactly one value goes
 * through `JSON.parse`, so errors read the same everywhere.
 */
export function parseJsonLine(buf: Buffer, start: number, end: number): unknown {
	if (jsonl) {
		const result = jsonl.parseChunk(buf, start, end);
		if (result.error === null && result.done && result.values.length === 1) return result.values[0];
	}
	return JSON.parse(buf.toString("utf8", start, end));
}

/** Reads `length` bytes at `offset` (into `into` when given). Throws when the file is shorter than that. */
export function readRange(fd: number, offset: number, length: number, into?: Buffer): Buffer {
	const buf = into && into.length >= length ? into.subarray(0, length) : Buffer.allocUnsafe(length);
	let done = 0;
	while (done < length) {
		const n = readSync(fd, buf, done, length - done, offset + done);
		if (n === 0) throw new Error(`file ends at byte ${offset + done}, expected ${offset + length}`);
		done += n;
	}
	return buf;
}

/** The first line of a file (up to `max` bytes), or undefined when it cannot be read. */
export function readFirstLine(path: string, max = 64 * 1024): string | undefined {
	let fd: number;
	try {
		fd = openSync(path, "r");
	} catch {
		// Unreadable or vanished: the caller treats it like a file that is not a session.
		return undefined;
	}
	try {
		const buf = Buffer.allocUnsafe(Math.min(max, 4096));
		let size = 0;
		let big = buf;
		for (;;) {
			const n = readSync(fd, big, size, big.length - size, size);
			if (n === 0) break;
			const nl = big.indexOf(LF, size);
			size += n;
			if (nl !== -1 && nl < size) return big.toString("utf8", 0, nl);
			if (size === big.length) {
				if (big.length >= max) return undefined;
				const next = Buffer.allocUnsafe(Math.min(max, big.length * 4));
				big.copy(next, 0, 0, size);
				big = next;
			}
		}
		return size > 0 ? big.toString("utf8", 0, size) : undefined;
	} catch {
		// A read error mid-way: same as unreadable.
		return undefined;
	} finally {
		closeSync(fd);
	}
}

/** What `peekEnvelope` found at the start of a line. */
export interface Envelope {
	type: string;
	id: string;
	parentId: string | null;
	/** `message.role` when the line is a message entry written in pi's key order. */
	role: string | undefined;
}

/** The bytes of an ASCII pattern (a plain loop: `Uint8Array.from` with a mapper costs ~1.5 ms at start-up). */
export function ascii(text: string): Uint8Array {
	const bytes = new Uint8Array(text.length);
	for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
	return bytes;
}
const P_TYPE = ascii('{"type":"');
const P_ID = ascii('","id":"');
const P_PARENT = ascii('","parentId":');
const P_NULL = ascii("null");
const P_TIMESTAMP = ascii(',"timestamp":"');
const P_ROLE = ascii(',"message":{"role":"');
const PARENT_KEY = ascii('"parentId":');
const QUOTE = 34;
const CLOSE_BRACE = 125;
const MAX_TOKEN = 64;

/** Byte classes: 1 = [a-z], 2 = [A-Z], 4 = [0-9], 8 = "_", 16 = "-", 32 = ":" "." "+". */
const CLASS = new Uint8Array(256);
for (let c = 97; c <= 122; c++) CLASS[c] = 1;
for (let c = 65; c <= 90; c++) CLASS[c] = 2;
for (let c = 48; c <= 57; c++) CLASS[c] = 4;
CLASS[95] = 8;
CLASS[45] = 16;
for (const c of [58, 46, 43]) CLASS[c] = 32;
const TYPE_CHARS = 1 | 8;
const ROLE_CHARS = 1 | 2 | 8;
const ID_CHARS = 1 | 2 | 4 | 8 | 16;
const TIME_CHARS = 1 | 2 | 4 | 16 | 32;

/** Interned names, so 100k nodes share one string per type and role (found by comparing bytes). */
const NAMES = [
	"message",
	"thinking_level_change",
	"model_change",
	"usage",
	"compaction",
	"branch_summary",
	"custom",
	"custom_message",
	"context_edit",
	"label",
	"session_info",
	"user",
	"assistant",
	"toolResult",
	"bashExecution",
	"branchSummary",
	"compactionSummary",
	"system",
];

function at(buf: Buffer, pos: number, end: number, pattern: Uint8Array): boolean {
	if (pos + pattern.length > end) return false;
	for (let i = 0; i < pattern.length; i++) if (buf[pos + i] !== pattern[i]) return false;
	return true;
}

/** End of the run of `chars` starting at `pos` (at most MAX_TOKEN long), or -1 unless a quote follows it. */
function token(buf: Buffer, pos: number, end: number, chars: number): number {
	let q = pos;
	const limit = Math.min(end, pos + MAX_TOKEN);
	while (q < limit && (CLASS[buf[q]!]! & chars) !== 0) q++;
	return q > pos && q < end && buf[q] === QUOTE ? q : -1;
}

function name(buf: Buffer, start: number, end: number): string {
	for (const known of NAMES) if (sameText(buf, start, end, known)) return known;
	return buf.toString("latin1", start, end);
}

function sameText(buf: Buffer, start: number, end: number, text: string | undefined): boolean {
	if (text === undefined || text.length !== end - start) return false;
	for (let i = 0; i < text.length; i++) if (buf[start + i] !== text.charCodeAt(i)) return false;
	return true;
}

/**
 * The envelope of a line written in pi's key order (`{"type":…,"id":…,"parentId":…,"timestamp":…` and, for
 * messages, `"message":{"role":…`), or undefined. Reads bytes only; `previousId` is reused as the parent id
 * string when equal (the common linear case). With `strict`, also undefined unless the line looks whole: it
 * ends with "}" and holds no second `"parentId":` key (two entries glued together after a torn write). A line
 * that passes may still be corrupt inside; the caller finds out when it parses it.
 */
export function peekEnvelope(
	buf: Buffer,
	start: number,
	end: number,
	strict: boolean,
	previousId?: string,
): Envelope | undefined {
	if (!at(buf, start, end, P_TYPE)) return undefined;
	let p = start + P_TYPE.length;
	let q = token(buf, p, end, TYPE_CHARS);
	if (q < 0) return undefined;
	const type = name(buf, p, q);
	if (!at(buf, q, end, P_ID)) return undefined;
	p = q + P_ID.length;
	q = token(buf, p, end, ID_CHARS);
	if (q < 0) return undefined;
	const id = buf.toString("latin1", p, q);
	if (!at(buf, q, end, P_PARENT)) return undefined;
	p = q + P_PARENT.length;
	let parentId: string | null = null;
	if (at(buf, p, end, P_NULL)) p += P_NULL.length;
	else if (buf[p] === QUOTE) {
		q = token(buf, p + 1, end, ID_CHARS);
		if (q < 0) return undefined;
		parentId = sameText(buf, p + 1, q, previousId) ? previousId! : buf.toString("latin1", p + 1, q);
		p = q + 1;
	} else return undefined;
	// A damaged line (not strict) only needs its id and parent, for re-attaching its children.
	if (!at(buf, p, end, P_TIMESTAMP)) return strict ? undefined : { type, id, parentId, role: undefined };
	q = token(buf, p + P_TIMESTAMP.length, end, TIME_CHARS);
	if (q < 0) return strict ? undefined : { type, id, parentId, role: undefined };
	p = q + 1;
	let role: string | undefined;
	if (type === "message" && at(buf, p, end, P_ROLE)) {
		q = token(buf, p + P_ROLE.length, end, ROLE_CHARS);
		if (q >= 0) role = name(buf, p + P_ROLE.length, q);
		p = q >= 0 ? q : p;
	}
	if (strict) {
		if (buf[end - 1] !== CLOSE_BRACE) return undefined;
		const again = buf.indexOf(PARENT_KEY, p);
		if (again !== -1 && again < end) return undefined;
	}
	return { type, id, parentId, role };
}
