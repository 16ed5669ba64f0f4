/**
 * Finding where a member's value sits inside JSON bytes without parsing the value. Strings are skipped with
 * `indexOf` for their closing quote, so a multi-megabyte string (an image's base64, a tool's output) costs one
 * native scan and no allocation. The bytes come through `Bytes`: a buffer already in memory, or a window paged
 * through a file, so a line larger than any buffer can be walked. Used to parse a large session line without its
 * message content.
 */

import { isAscii } from "node:buffer";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const WINDOW = 256 * 1024;
/** How far before a position a window starts, so the few steps a walk takes back stay in it. */
const LOOK_BACK = 4096;

/** Reads `length` bytes at `offset`, into `into` when it is given and large enough. */
export type ReadBytes = (offset: number, length: number, into?: Buffer) => Buffer;

export interface Range {
	start: number;
	end: number;
}

/** The window buffer every paging `Bytes` reads into (one walk runs at a time; a buffer per walk is garbage). */
let shared: Buffer | undefined;

/** Bytes addressed by absolute position (a file offset), held in one window at a time. */
export class Bytes {
	private window: Buffer;
	private base: number;

	/** `buf` holds the bytes from position `base`; `pager` (when given) reads in the others, within [lo, hi). */
	constructor(
		buf: Buffer,
		base: number,
		private readonly pager?: { read: ReadBytes; lo: number; hi: number; window?: number },
	) {
		this.window = buf;
		this.base = base;
	}

	/** The byte at `p`; undefined outside the bytes. */
	at(p: number): number | undefined {
		const i = p - this.base;
		if (i >= 0 && i < this.window.length) return this.window[i];
		return this.page(p) ? this.window[p - this.base] : undefined;
	}

	/** The first position of `byte` in [from, end), or -1. */
	indexOf(byte: number, from: number, end: number): number {
		let p = from;
		while (p < end) {
			if (p < this.base || p >= this.base + this.window.length) {
				if (!this.page(p)) return -1;
			}
			const i = this.window.indexOf(byte, p - this.base);
			if (i !== -1 && i + this.base < end) return i + this.base;
			if (i !== -1) return -1;
			p = this.base + this.window.length;
		}
		return -1;
	}

	/** Whether every byte in [start, end) is ASCII, looked at a window at a time. */
	isAscii(start: number, end: number): boolean {
		let p = start;
		while (p < end) {
			if (p < this.base || p >= this.base + this.window.length) {
				if (!this.page(p)) return false;
			}
			const to = Math.min(end, this.base + this.window.length);
			if (!isAscii(this.window.subarray(p - this.base, to - this.base))) return false;
			p = to;
		}
		return true;
	}

	/** The bytes [start, end) decoded as `encoding`. */
	text(start: number, end: number, encoding: "utf8" | "latin1" = "utf8"): string {
		const i = start - this.base;
		if (i >= 0 && end - this.base <= this.window.length) return this.window.toString(encoding, i, end - this.base);
		if (!this.pager) throw new Error(`bytes ${start}-${end} are outside the buffer`);
		return this.pager.read(start, end - start).toString(encoding);
	}

	private page(p: number): boolean {
		const pager = this.pager;
		if (!pager || p < pager.lo || p >= pager.hi) return false;
		const size = pager.window ?? WINDOW;
		const start = Math.max(pager.lo, p - Math.min(LOOK_BACK, size >> 1));
		const length = Math.min(size, pager.hi - start);
		if (size === WINDOW) {
			shared ??= Buffer.allocUnsafe(WINDOW);
			this.window = pager.read(start, length, shared);
		} else this.window = pager.read(start, length);
		this.base = start;
		return true;
	}
}

function isSpace(c: number | undefined): boolean {
	return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(bytes: Bytes, p: number, end: number): number {
	while (p < end && isSpace(bytes.at(p))) p++;
	return p;
}

/** `p` at an opening quote: the position after the closing quote, or -1. */
function stringEnd(bytes: Bytes, p: number, end: number): number {
	let from = p + 1;
	for (;;) {
		const q = bytes.indexOf(QUOTE, from, end);
		if (q < 0) return -1;
		let slashes = 0;
		for (let k = q - 1; k > p && bytes.at(k) === BACKSLASH; k--) slashes++;
		if (slashes % 2 === 0) return q + 1;
		from = q + 1;
	}
}

/** `p` at the first byte of a value: the position after it, or -1 when it does not end before `end`. */
function valueEnd(bytes: Bytes, p: number, end: number): number {
	const c = bytes.at(p);
	if (c === QUOTE) return stringEnd(bytes, p, end);
	if (c === 0x5b || c === 0x7b) {
		let depth = 0;
		while (p < end) {
			const b = bytes.at(p);
			if (b === QUOTE) {
				p = stringEnd(bytes, p, end);
				if (p < 0) return -1;
				continue;
			}
			if (b === 0x5b || b === 0x7b) depth++;
			else if (b === 0x5d || b === 0x7d) {
				depth--;
				if (depth === 0) return p + 1;
			}
			p++;
		}
		return -1;
	}
	while (p < end) {
		const b = bytes.at(p);
		if (b === 0x2c || b === 0x5d || b === 0x7d || isSpace(b)) break;
		p++;
	}
	return p;
}

/**
 * The value ranges of the object at `start` (which must be `{`), for the members named in `keys` (a key written
 * with escapes is not recognised: callers fall back to a full parse). The last of duplicate keys wins, as in
 * `JSON.parse`. With `inner`, the object value of member `inner.key` is walked in the same pass and its own
 * members named in `inner.keys` come as that range's `members`. Undefined when the bytes are not an object that
 * ends before `end`.
 */
export function objectMembers(
	bytes: Bytes,
	start: number,
	end: number,
	keys: string[],
	inner?: { key: string; keys: string[] },
): Map<string, Range & { members?: Map<string, Range> }> | undefined {
	return walkObject(bytes, start, end, keys, inner)?.found;
}

function walkObject(
	bytes: Bytes,
	start: number,
	end: number,
	keys: string[],
	inner?: { key: string; keys: string[] },
): { found: Map<string, Range & { members?: Map<string, Range> }>; end: number } | undefined {
	const found = new Map<string, Range & { members?: Map<string, Range> }>();
	const longest = Math.max(...keys.map((k) => k.length));
	let p = skipSpace(bytes, start, end);
	if (bytes.at(p) !== 0x7b) return undefined;
	p = skipSpace(bytes, p + 1, end);
	if (bytes.at(p) === 0x7d) return { found, end: p + 1 };
	while (p < end) {
		if (bytes.at(p) !== QUOTE) return undefined;
		const keyEnd = stringEnd(bytes, p, end);
		if (keyEnd < 0) return undefined;
		const key = keyEnd - p - 2 <= longest ? bytes.text(p + 1, keyEnd - 1, "latin1") : undefined;
		p = skipSpace(bytes, keyEnd, end);
		if (bytes.at(p) !== 0x3a) return undefined;
		const valueStart = skipSpace(bytes, p + 1, end);
		const nested =
			inner && key === inner.key && bytes.at(valueStart) === 0x7b
				? walkObject(bytes, valueStart, end, inner.keys)
				: undefined;
		const after = nested ? nested.end : valueEnd(bytes, valueStart, end);
		if (after < 0 || after === valueStart) return undefined;
		if (key !== undefined && keys.includes(key)) {
			found.set(
				key,
				nested ? { start: valueStart, end: after, members: nested.found } : { start: valueStart, end: after },
			);
		}
		p = skipSpace(bytes, after, end);
		if (bytes.at(p) === 0x7d) return { found, end: p + 1 };
		if (bytes.at(p) !== 0x2c) return undefined;
		p = skipSpace(bytes, p + 1, end);
	}
	return undefined;
}

/** The ranges of the elements of the array at `start` (which must be `[`); undefined when it is not one. */
export function arrayElements(bytes: Bytes, start: number, end: number): Range[] | undefined {
	const out: Range[] = [];
	let p = skipSpace(bytes, start, end);
	if (bytes.at(p) !== 0x5b) return undefined;
	p = skipSpace(bytes, p + 1, end);
	if (bytes.at(p) === 0x5d) return out;
	while (p < end) {
		const after = valueEnd(bytes, p, end);
		if (after < 0 || after === p) return undefined;
		out.push({ start: p, end: after });
		p = skipSpace(bytes, after, end);
		if (bytes.at(p) === 0x5d) return out;
		if (bytes.at(p) !== 0x2c) return undefined;
		p = skipSpace(bytes, p + 1, end);
	}
	return undefined;
}

/**
 * The `length` of the JSON string at `range` (quotes included) without decoding it, when that is plain: ASCII
 * without escapes, one byte per code unit. Undefined otherwise.
 */
export function plainStringLength(bytes: Bytes, range: Range): number | undefined {
	if (bytes.at(range.start) !== QUOTE || range.end - range.start < 2) return undefined;
	const inner = { start: range.start + 1, end: range.end - 1 };
	if (bytes.indexOf(BACKSLASH, inner.start, inner.end) !== -1) return undefined;
	return bytes.isAscii(inner.start, inner.end) ? inner.end - inner.start : undefined;
}
