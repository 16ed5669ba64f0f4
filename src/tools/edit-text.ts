/**
 * Byte-faithful text handling for `edit`. A file is decoded as UTF-16 (LE or BE) when it starts with that
 * byte-order mark, as UTF-8 when it is valid UTF-8, and as Latin-1 otherwise (one character per byte, so any byte
 * sequence round-trips unchanged); a byte-order mark is set aside and put back. UTF-16 is decoded code unit by code
 * unit, so even unpaired surrogates come back as the same bytes. Matching runs on an LF view of the text (each CRLF seen as LF) whose offsets map back to
 * the original text, so edits are spliced into the original and every byte outside the edited spans is kept.
 */

export type FileEncoding = "utf8" | "latin1" | "utf16le" | "utf16be";
export type LineEnding = "\r\n" | "\n";

export interface DecodedFile {
	/** Decoded content without the byte-order mark. */
	text: string;
	encoding: FileEncoding;
	/** The file started with the byte-order mark of its encoding. */
	bom: boolean;
	/** The style of the first line break (LF when there is none): used for the line breaks of new text. */
	lineEnding: LineEnding;
}

const BOMS: Record<FileEncoding, number[]> = {
	utf8: [0xef, 0xbb, 0xbf],
	utf16le: [0xff, 0xfe],
	utf16be: [0xfe, 0xff],
	latin1: [],
};

function startsWith(bytes: Buffer, prefix: number[]): boolean {
	return bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}

/** Byte-swapped copy (UTF-16 BE <-> LE). */
function swapped(bytes: Buffer): Buffer {
	return Buffer.from(bytes).swap16();
}

function withLineInfo(text: string, encoding: FileEncoding, bom: boolean): DecodedFile {
	const firstBreak = text.indexOf("\n");
	const lineEnding: LineEnding = firstBreak > 0 && text[firstBreak - 1] === "\r" ? "\r\n" : "\n";
	return { text, encoding, bom, lineEnding };
}

export function decodeFile(bytes: Buffer): DecodedFile {
	for (const encoding of ["utf16le", "utf16be"] as const) {
		const bom = BOMS[encoding];
		// An odd byte count is not UTF-16 (a Latin-1 file may start with these two bytes): handled below.
		if (!startsWith(bytes, bom) || bytes.length % 2 !== 0) continue;
		const body = bytes.subarray(bom.length);
		return withLineInfo((encoding === "utf16le" ? body : swapped(body)).toString("utf16le"), encoding, true);
	}
	const bom = startsWith(bytes, BOMS.utf8);
	const body = bom ? bytes.subarray(3) : bytes;
	try {
		return withLineInfo(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body), "utf8", bom);
	} catch {
		// Not valid UTF-8: Latin-1 maps every byte to exactly one character, so re-encoding restores the bytes.
		return withLineInfo(body.toString("latin1"), "latin1", bom);
	}
}

/** Encodes text back with the file's encoding and BOM; null when a character cannot be stored in Latin-1. */
export function encodeFile(text: string, file: Pick<DecodedFile, "encoding" | "bom">): Buffer | null {
	if (file.encoding === "latin1" && !canEncodeLatin1(text)) return null;
	const body = file.encoding === "utf16be" ? Buffer.from(text, "utf16le").swap16() : Buffer.from(text, file.encoding);
	if (!file.bom) return body;
	// A Latin-1 file keeps the UTF-8 BOM bytes it started with (they were set aside before decoding).
	const bom = BOMS[file.encoding === "latin1" ? "utf8" : file.encoding];
	return Buffer.concat([Buffer.from(bom), body]);
}

export function canEncodeLatin1(text: string): boolean {
	for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
	return true;
}

/** All CRLF pairs as LF. */
export function toLf(text: string): string {
	return text.includes("\r\n") ? text.replace(/\r\n/g, "\n") : text;
}

/** LF-separated text converted to the given line-ending style. */
export function withLineEnding(text: string, ending: LineEnding): string {
	return ending === "\n" ? text : text.replace(/\n/g, "\r\n");
}

/** The text with CRLF read as LF, plus what is needed to map its offsets back to the original. */
export interface LfView {
	text: string;
	/** Sorted LF-view indices of the "\n" characters that were preceded by a dropped "\r". */
	droppedCr: number[];
}

export function lfView(original: string): LfView {
	if (!original.includes("\r\n")) return { text: original, droppedCr: [] };
	const droppedCr: number[] = [];
	for (let at = original.indexOf("\r\n"); at !== -1; at = original.indexOf("\r\n", at + 2)) {
		droppedCr.push(at - droppedCr.length);
	}
	return { text: original.replace(/\r\n/g, "\n"), droppedCr };
}

/**
 * Original-text index of an LF-view offset. A span boundary just before a "\n" that was a CRLF lands before its
 * "\r", so a span either takes a whole CRLF or none of it.
 */
export function toOriginalIndex(view: LfView, index: number): number {
	let low = 0;
	let high = view.droppedCr.length;
	while (low < high) {
		const mid = (low + high) >> 1;
		if ((view.droppedCr[mid] as number) < index) low = mid + 1;
		else high = mid;
	}
	return index + low;
}
