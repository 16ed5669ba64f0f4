/**
 * Which image formats the model can take, recognised by their first bytes (not the file name): JPEG (not JPEG-LS),
 * PNG (not animated), GIF, WebP and BMP (with a consistent header). Anything else is `null`.
 */
import { fsPromises } from "../util/index.ts";

/** How many leading bytes the sniff needs at most. */
export const IMAGE_SNIFF_LENGTH = 4100;

export type SupportedImageMimeType = "image/jpeg" | "image/png" | "image/gif" | "image/webp" | "image/bmp";

const byteAt = (bytes: Uint8Array, i: number): number => bytes[i] ?? 0;
const u16le = (b: Uint8Array, i: number): number => byteAt(b, i) | (byteAt(b, i + 1) << 8);
const u32le = (b: Uint8Array, i: number): number => u16le(b, i) + u16le(b, i + 2) * 0x10000;
const u32be = (b: Uint8Array, i: number): number =>
	byteAt(b, i) * 0x1000000 + (byteAt(b, i + 1) << 16) + (byteAt(b, i + 2) << 8) + byteAt(b, i + 3);

function hasAscii(bytes: Uint8Array, at: number, text: string): boolean {
	if (bytes.length < at + text.length) return false;
	for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
	return true;
}

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function isStillPng(bytes: Uint8Array): boolean {
	if (bytes.length < 16 || u32be(bytes, 8) !== 13 || !hasAscii(bytes, 12, "IHDR")) return false;
	// An `acTL` chunk before the first `IDAT` makes it an animated PNG.
	let at = PNG_MAGIC.length;
	while (at + 8 <= bytes.length) {
		if (hasAscii(bytes, at + 4, "acTL")) return false;
		if (hasAscii(bytes, at + 4, "IDAT")) return true;
		const next = at + 12 + u32be(bytes, at);
		if (next <= at || next > bytes.length) return true;
		at = next;
	}
	return true;
}

function isBmp(bytes: Uint8Array): boolean {
	if (bytes.length < 26) return false;
	const fileSize = u32le(bytes, 2);
	const dataOffset = u32le(bytes, 10);
	const headerSize = u32le(bytes, 14);
	if (fileSize !== 0 && (fileSize < 26 || dataOffset >= fileSize)) return false;
	if (dataOffset < 14 + headerSize) return false;
	let planesAt: number;
	if (headerSize === 12) planesAt = 22;
	else if (headerSize >= 40 && headerSize <= 124 && bytes.length >= 30) planesAt = 26;
	else return false;
	return u16le(bytes, planesAt) === 1 && [1, 4, 8, 16, 24, 32].includes(u16le(bytes, planesAt + 2));
}

/** The image type of these leading bytes, or null when it is not one the model takes. */
export function detectSupportedImageMimeType(bytes: Uint8Array): SupportedImageMimeType | null {
	if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
		return bytes[3] === 0xf7 ? null : "image/jpeg";
	}
	if (bytes.length >= 8 && PNG_MAGIC.every((b, i) => bytes[i] === b)) return isStillPng(bytes) ? "image/png" : null;
	if (hasAscii(bytes, 0, "GIF87a") || hasAscii(bytes, 0, "GIF89a")) return "image/gif";
	if (hasAscii(bytes, 0, "RIFF") && hasAscii(bytes, 8, "WEBP")) return "image/webp";
	if (hasAscii(bytes, 0, "BM") && isBmp(bytes)) return "image/bmp";
	return null;
}

/** The image type of a file from its first bytes; rejects when the file cannot be opened. */
export async function detectSupportedImageMimeTypeFromFile(filePath: string): Promise<SupportedImageMimeType | null> {
	const handle = await fsPromises().open(filePath, "r");
	try {
		const buffer = Buffer.alloc(IMAGE_SNIFF_LENGTH);
		const { bytesRead } = await handle.read(buffer, 0, IMAGE_SNIFF_LENGTH, 0);
		return detectSupportedImageMimeType(buffer.subarray(0, bytesRead));
	} finally {
		await handle.close();
	}
}

/** An image after fitting it to the model's limits (pi's `ResizedImage`). */
export interface ResizedImage {
	data: string;
	mimeType: string;
	originalWidth: number;
	originalHeight: number;
	width: number;
	height: number;
	wasResized: boolean;
}

/** For a resized image, the note that tells the model how to map coordinates back to the original. */
export function formatDimensionNote(result: ResizedImage): string | undefined {
	if (!result.wasResized) return undefined;
	const scale = (result.originalWidth / result.width).toFixed(2);
	return `[Image: original ${result.originalWidth}x${result.originalHeight}, displayed at ${result.width}x${result.height}. Multiply coordinates by ${scale} to map to original image.]`;
}
