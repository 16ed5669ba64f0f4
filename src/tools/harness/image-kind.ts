/**
 * Which image formats the harness read tool treats as images: JPEG (not JPEG-LS), PNG (not animated), GIF, WebP,
 * and a well-formed BMP (sane header sizes, one colour plane, a standard bit depth).
 */
const u16le = (b: Uint8Array, at: number) => (b[at] ?? 0) + ((b[at + 1] ?? 0) << 8);
const u32le = (b: Uint8Array, at: number) =>
	(b[at] ?? 0) + ((b[at + 1] ?? 0) << 8) + ((b[at + 2] ?? 0) << 16) + (b[at + 3] ?? 0) * 0x1000000;
const u32be = (b: Uint8Array, at: number) =>
	(b[at] ?? 0) * 0x1000000 + ((b[at + 1] ?? 0) << 16) + ((b[at + 2] ?? 0) << 8) + (b[at + 3] ?? 0);
const ascii = (b: Uint8Array, at: number, text: string) =>
	b.length >= at + text.length && [...text].every((ch, i) => b[at + i] === ch.charCodeAt(0));
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function animatedPng(b: Uint8Array): boolean {
	for (let at = PNG.length; at + 8 <= b.length; ) {
		if (ascii(b, at + 4, "acTL")) return true;
		if (ascii(b, at + 4, "IDAT")) return false;
		const next = at + 12 + u32be(b, at);
		if (next <= at || next > b.length) return false;
		at = next;
	}
	return false;
}

function wellFormedBmp(b: Uint8Array): boolean {
	if (b.length < 26) return false;
	const size = u32le(b, 2);
	const pixels = u32le(b, 10);
	const dib = u32le(b, 14);
	if ((size !== 0 && size < 26) || pixels < 14 + dib || (size !== 0 && pixels >= size)) return false;
	let planes: number;
	let depth: number;
	if (dib === 12) {
		planes = u16le(b, 22);
		depth = u16le(b, 24);
	} else if (dib >= 40 && dib <= 124 && b.length >= 30) {
		planes = u16le(b, 26);
		depth = u16le(b, 28);
	} else return false;
	return planes === 1 && [1, 4, 8, 16, 24, 32].includes(depth);
}

export function imageMimeType(b: Uint8Array): string | undefined {
	if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return b[3] === 0xf7 ? undefined : "image/jpeg";
	if (PNG.every((byte, i) => b[i] === byte))
		return b.length >= 16 && u32be(b, 8) === 13 && ascii(b, 12, "IHDR") && !animatedPng(b) ? "image/png" : undefined;
	if (ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a")) return "image/gif";
	if (ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP")) return "image/webp";
	if (ascii(b, 0, "BM") && wellFormedBmp(b)) return "image/bmp";
	return undefined;
}
