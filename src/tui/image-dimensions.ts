/**
 * Pixel sizes read from the headers of base64 PNG, JPEG, GIF and WebP data (null when the data is not that format
 * or is cut short), and how many terminal cells an image takes when scaled into a box of cells.
 */
import type { CellDimensions } from "./terminal-capabilities.ts";

export interface ImageDimensions {
	widthPx: number;
	heightPx: number;
}

export interface ImageCellSize {
	columns: number;
	rows: number;
}

const DEFAULT_CELL: CellDimensions = { widthPx: 9, heightPx: 18 };

function decode(base64Data: string): Buffer {
	return Buffer.from(base64Data, "base64");
}

function ascii(bytes: Buffer, start: number, end: number): string {
	return bytes.subarray(start, end).toString("ascii");
}

/** PNG: the IHDR chunk right after the signature holds width and height (big-endian, bytes 16–23). */
export function getPngDimensions(base64Data: string): ImageDimensions | null {
	try {
		const bytes = decode(base64Data);
		if (bytes.length < 24) return null;
		if (bytes[0] !== 0x89 || bytes[1] !== 0x50 || bytes[2] !== 0x4e || bytes[3] !== 0x47) return null;
		return { widthPx: bytes.readUInt32BE(16), heightPx: bytes.readUInt32BE(20) };
	} catch {
		return null;
	}
}

/** JPEG: walk the segments after SOI until a baseline/extended/progressive start-of-frame (SOF0–SOF2). */
export function getJpegDimensions(base64Data: string): ImageDimensions | null {
	try {
		const bytes = decode(base64Data);
		if (bytes.length < 2 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
		let at = 2;
		while (at < bytes.length - 9) {
			if (bytes[at] !== 0xff) {
				at++;
				continue;
			}
			const marker = bytes[at + 1] as number;
			if (marker >= 0xc0 && marker <= 0xc2) {
				return { widthPx: bytes.readUInt16BE(at + 7), heightPx: bytes.readUInt16BE(at + 5) };
			}
			if (at + 3 >= bytes.length) return null;
			const segmentLength = bytes.readUInt16BE(at + 2);
			if (segmentLength < 2) return null;
			at += 2 + segmentLength;
		}
		return null;
	} catch {
		return null;
	}
}

/** GIF: the logical screen size follows the 6-byte signature (little-endian). */
export function getGifDimensions(base64Data: string): ImageDimensions | null {
	try {
		const bytes = decode(base64Data);
		if (bytes.length < 10) return null;
		const signature = ascii(bytes, 0, 6);
		if (signature !== "GIF87a" && signature !== "GIF89a") return null;
		return { widthPx: bytes.readUInt16LE(6), heightPx: bytes.readUInt16LE(8) };
	} catch {
		return null;
	}
}

/** WebP: lossy (VP8), lossless (VP8L) and extended (VP8X) files keep their size in different places. */
export function getWebpDimensions(base64Data: string): ImageDimensions | null {
	try {
		const bytes = decode(base64Data);
		if (bytes.length < 30) return null;
		if (ascii(bytes, 0, 4) !== "RIFF" || ascii(bytes, 8, 12) !== "WEBP") return null;
		const chunk = ascii(bytes, 12, 16);
		if (chunk === "VP8 ") {
			return { widthPx: bytes.readUInt16LE(26) & 0x3fff, heightPx: bytes.readUInt16LE(28) & 0x3fff };
		}
		if (chunk === "VP8L") {
			const bits = bytes.readUInt32LE(21);
			return { widthPx: (bits & 0x3fff) + 1, heightPx: ((bits >> 14) & 0x3fff) + 1 };
		}
		if (chunk === "VP8X") {
			const u24 = (at: number) =>
				((bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16)) + 1;
			return { widthPx: u24(24), heightPx: u24(27) };
		}
		return null;
	} catch {
		return null;
	}
}

/** The size of a PNG, JPEG, GIF or WebP image by its MIME type; null for other types or unreadable data. */
export function getImageDimensions(base64Data: string, mimeType: string): ImageDimensions | null {
	switch (mimeType) {
		case "image/png":
			return getPngDimensions(base64Data);
		case "image/jpeg":
			return getJpegDimensions(base64Data);
		case "image/gif":
			return getGifDimensions(base64Data);
		case "image/webp":
			return getWebpDimensions(base64Data);
		default:
			return null;
	}
}

/**
 * The cells an image takes when scaled (up or down, keeping its aspect ratio) to fit `maxWidthCells` columns and,
 * when given, `maxHeightCells` rows; at least one cell each way.
 */
export function calculateImageCellSize(
	imageDimensions: ImageDimensions,
	maxWidthCells: number,
	maxHeightCells?: number,
	cellDimensions: CellDimensions = DEFAULT_CELL,
): ImageCellSize {
	const maxColumns = Math.max(1, Math.floor(maxWidthCells));
	const maxRows = maxHeightCells === undefined ? undefined : Math.max(1, Math.floor(maxHeightCells));
	const width = Math.max(1, imageDimensions.widthPx);
	const height = Math.max(1, imageDimensions.heightPx);
	const byWidth = (maxColumns * cellDimensions.widthPx) / width;
	const byHeight = maxRows === undefined ? byWidth : (maxRows * cellDimensions.heightPx) / height;
	const scale = Math.min(byWidth, byHeight);
	const columns = Math.ceil((width * scale) / cellDimensions.widthPx);
	const rows = Math.ceil((height * scale) / cellDimensions.heightPx);
	return {
		columns: Math.max(1, Math.min(maxColumns, columns)),
		rows: Math.max(1, maxRows === undefined ? rows : Math.min(maxRows, rows)),
	};
}

/** Rows an image takes when scaled to `targetWidthCells` columns. */
export function calculateImageRows(
	imageDimensions: ImageDimensions,
	targetWidthCells: number,
	cellDimensions: CellDimensions = DEFAULT_CELL,
): number {
	return calculateImageCellSize(imageDimensions, targetWidthCells, undefined, cellDimensions).rows;
}
