/**
 * Lines longer than the loader's walk buffer (an image or a huge tool output in one message): rather than growing
 * the buffer to hold the line, the walk reads on to its end in small pieces and hands over its first bytes and
 * what the rest held. The loader indexes a message line in pi's key order from its envelope, as it would a short
 * one, so opening a session costs a bounded buffer however large its entries are.
 */
import { readSync } from "../util/index.ts";

const LF = 10;
const CR = 13;
const CLOSE_BRACE = 125;
const PIECE = 256 * 1024;
export const PARENT_KEY = Buffer.from('"parentId":');

let piece: Buffer | undefined;

/** A long line: `head` holds its first bytes (from file offset `offset`); the rest was only scanned. */
export interface LongLine {
	head: Buffer;
	offset: number;
	/** Bytes of the line, without its "\n" and a trailing "\r". */
	length: number;
	/** 1-based line number. */
	line: number;
	/** A NUL byte anywhere in the line. */
	hasNul: boolean;
	/** The line's last byte is "}". */
	closed: boolean;
	/** `"parentId":` appears again after `head` (the sign of a torn entry running into a whole one). */
	parentKeyInRest: boolean;
}

/** Handles a long line, or returns false to have it read whole and visited like any other. */
export type LongLineVisitor = (line: LongLine) => boolean;

/**
 * Scans the rest of the line whose first `head.length` bytes start at file offset `offset`. Returns undefined when
 * the file ends before a "\n" (a last line without one is read whole: it may be torn).
 */
export function scanLongLine(fd: number, head: Buffer, offset: number, line: number): LongLine | undefined {
	// One buffer for every scan: a fresh one per long line would be garbage the size of the file by the end.
	piece ??= Buffer.allocUnsafe(PIECE);
	const overlap = PARENT_KEY.length - 1;
	let hasNul = head.includes(0);
	let parentKeyInRest = false;
	let at = offset + head.length;
	let last = head.at(-1) ?? 0;
	let beforeLast = head.at(-2) ?? 0;
	// The tail of the previous piece, so a key split across two pieces is still seen.
	let carried = head.subarray(Math.max(0, head.length - overlap));
	for (;;) {
		const n = readSync(fd, piece, 0, PIECE, at);
		if (n === 0) return undefined;
		const view = piece.subarray(0, n);
		const nl = view.indexOf(LF);
		const part = nl === -1 ? view : view.subarray(0, nl);
		if (!hasNul && part.includes(0)) hasNul = true;
		if (!parentKeyInRest) {
			const joined = carried.length > 0 ? Buffer.concat([carried, part.subarray(0, overlap)]) : undefined;
			parentKeyInRest = part.includes(PARENT_KEY) || (joined?.includes(PARENT_KEY) ?? false);
		}
		if (part.length >= 2) {
			last = part[part.length - 1]!;
			beforeLast = part[part.length - 2]!;
		} else if (part.length === 1) {
			beforeLast = last;
			last = part[0]!;
		}
		if (nl !== -1) {
			let length = at + nl - offset;
			let end = last;
			if (last === CR) {
				length--;
				end = beforeLast;
			}
			return { head, offset, length, line, hasNul, closed: end === CLOSE_BRACE, parentKeyInRest };
		}
		carried = Buffer.from(part.subarray(Math.max(0, part.length - overlap)));
		at += n;
	}
}
