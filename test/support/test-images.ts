/**
 * Images made on the spot for image tests, with Photon (the library under test encodes PNG, JPEG and WebP) and by
 * hand (GIF, BMP, an EXIF orientation segment), so no binary fixtures are checked in.
 */
import { loadPhoton } from "../../src/tools/image-photon.ts";

/** RGBA pixels of a w×h picture with detail in both directions (noise keeps PNG from compressing it away). */
export function testPixels(width: number, height: number, noise = 0): Uint8Array {
	const pixels = new Uint8Array(width * height * 4);
	let seed = 12345;
	const random = () => {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		return seed / 0x7fffffff;
	};
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const i = (y * width + x) * 4;
			const n = noise > 0 ? Math.floor(random() * noise) : 0;
			pixels[i] = ((x * 255) / Math.max(1, width - 1) + n) & 0xff;
			pixels[i + 1] = ((y * 255) / Math.max(1, height - 1) + n) & 0xff;
			pixels[i + 2] = ((x + y) % 64 < 32 ? 40 : 210) ^ n;
			pixels[i + 3] = 255;
		}
	}
	return pixels;
}

async function photon() {
	const loaded = await loadPhoton();
	if (!loaded) throw new Error("photon did not load");
	return loaded;
}

export type Encoding = "png" | "jpeg" | "webp";

export async function encodeImage(pixels: Uint8Array, width: number, height: number, as: Encoding, quality = 90) {
	const p = await photon();
	const image = new p.PhotonImage(pixels, width, height);
	try {
		if (as === "png") return new Uint8Array(image.get_bytes());
		if (as === "jpeg") return new Uint8Array(image.get_bytes_jpeg(quality));
		return new Uint8Array(image.get_bytes_webp());
	} finally {
		image.free();
	}
}

/** A JPEG with an APP1 "Exif" segment (big-endian TIFF, one IFD0 entry) saying `orientation`. */
export function withExifOrientation(jpeg: Uint8Array, orientation: number): Uint8Array {
	const tiff = [
		0x4d,
		0x4d,
		0,
		42,
		0,
		0,
		0,
		8,
		0,
		1,
		0x01,
		0x12,
		0,
		3,
		0,
		0,
		0,
		1,
		0,
		orientation,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
	];
	const body = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
	const length = body.length + 2;
	const segment = [0xff, 0xe1, length >> 8, length & 0xff, ...body];
	return new Uint8Array([...jpeg.subarray(0, 2), ...segment, ...jpeg.subarray(2)]);
}

/** A 24-bit bottom-up BMP of the pixels (alpha dropped). */
export function encodeBmp(pixels: Uint8Array, width: number, height: number): Uint8Array {
	const rowSize = Math.ceil((width * 3) / 4) * 4;
	const size = 54 + rowSize * height;
	const out = Buffer.alloc(size);
	out.write("BM", 0, "ascii");
	out.writeUInt32LE(size, 2);
	out.writeUInt32LE(54, 10);
	out.writeUInt32LE(40, 14);
	out.writeInt32LE(width, 18);
	out.writeInt32LE(height, 22);
	out.writeUInt16LE(1, 26);
	out.writeUInt16LE(24, 28);
	out.writeUInt32LE(rowSize * height, 34);
	for (let y = 0; y < height; y++) {
		const row = 54 + (height - 1 - y) * rowSize;
		for (let x = 0; x < width; x++) {
			const i = (y * width + x) * 4;
			out[row + x * 3] = pixels[i + 2] ?? 0;
			out[row + x * 3 + 1] = pixels[i + 1] ?? 0;
			out[row + x * 3 + 2] = pixels[i] ?? 0;
		}
	}
	return new Uint8Array(out);
}

/**
 * A GIF of the pixels in a 6×6×6 colour cube palette. The LZW stream sends a clear code every 254 pixels, so every
 * code is 9 bits wide and no dictionary is needed.
 */
export function encodeGif(pixels: Uint8Array, width: number, height: number): Uint8Array {
	const bytes: number[] = [];
	const text = (s: string) => bytes.push(...[...s].map((c) => c.charCodeAt(0)));
	const u16 = (n: number) => bytes.push(n & 0xff, n >> 8);
	text("GIF89a");
	u16(width);
	u16(height);
	bytes.push(0xf7, 0, 0); // global colour table of 256 entries
	for (let i = 0; i < 256; i++) {
		const c = i < 216 ? [Math.floor(i / 36), Math.floor(i / 6) % 6, i % 6].map((v) => v * 51) : [0, 0, 0];
		bytes.push(...c);
	}
	bytes.push(0x2c);
	u16(0);
	u16(0);
	u16(width);
	u16(height);
	bytes.push(0, 8); // no local table; LZW minimum code size 8
	const codes: number[] = [];
	for (let p = 0; p < width * height; p++) {
		if (p % 254 === 0) codes.push(256);
		const q = (v: number) => Math.round((pixels[p * 4 + v] ?? 0) / 51);
		codes.push(q(0) * 36 + q(1) * 6 + q(2));
	}
	codes.push(257);
	const packed: number[] = [];
	let acc = 0;
	let bits = 0;
	for (const code of codes) {
		acc |= code << bits;
		bits += 9;
		while (bits >= 8) {
			packed.push(acc & 0xff);
			acc >>>= 8;
			bits -= 8;
		}
	}
	if (bits > 0) packed.push(acc & 0xff);
	for (let i = 0; i < packed.length; i += 255) {
		const block = packed.slice(i, i + 255);
		bytes.push(block.length, ...block);
	}
	bytes.push(0, 0x3b);
	return new Uint8Array(bytes);
}
