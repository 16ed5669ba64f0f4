/**
 * EXIF orientation (tag 0x0112) of JPEG and WebP files, and turning a decoded image upright by it, as pi does
 * before resizing or converting: a phone photo stored sideways with "rotate 90°" in its metadata reaches the model
 * the way it is meant to be seen. Unreadable or missing metadata means orientation 1 (as stored).
 */
import type { Photon, PhotonImage } from "./image-photon.ts";

const EXIF_MAGIC = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]; // "Exif\0\0"
const ORIENTATION_TAG = 0x0112;

function startsExif(bytes: Uint8Array, at: number): boolean {
	return EXIF_MAGIC.every((b, i) => bytes[at + i] === b);
}

/** The orientation value in IFD0 of the TIFF structure at `tiff`, 1 when absent or out of range. */
function orientationInTiff(bytes: Uint8Array, tiff: number): number {
	if (tiff + 8 > bytes.length) return 1;
	const little = bytes[tiff] === 0x49 && bytes[tiff + 1] === 0x49; // "II"; anything else reads big-endian
	const b = (i: number) => bytes[i] ?? 0;
	const u16 = (i: number) => (little ? b(i) | (b(i + 1) << 8) : (b(i) << 8) | b(i + 1));
	const u32 = (i: number) =>
		(little
			? b(i) | (b(i + 1) << 8) | (b(i + 2) << 16) | (b(i + 3) << 24)
			: (b(i) << 24) | (b(i + 1) << 16) | (b(i + 2) << 8) | b(i + 3)) >>> 0;
	const ifd = tiff + (little ? u32(tiff + 4) | 0 : u32(tiff + 4));
	if (ifd + 2 > bytes.length) return 1;
	const count = u16(ifd);
	for (let n = 0; n < count; n++) {
		const entry = ifd + 2 + n * 12;
		if (entry + 12 > bytes.length) return 1;
		if (u16(entry) !== ORIENTATION_TAG) continue;
		const value = u16(entry + 8);
		return value >= 1 && value <= 8 ? value : 1;
	}
	return 1;
}

/** Where the TIFF data of a JPEG's APP1 "Exif" segment starts, or -1. */
function jpegTiffStart(bytes: Uint8Array): number {
	let at = 2;
	while (at < bytes.length - 1) {
		if (bytes[at] !== 0xff) return -1;
		const marker = bytes[at + 1];
		if (marker === 0xff) {
			at += 1; // fill byte
			continue;
		}
		if (marker === 0xe1) {
			if (at + 10 > bytes.length || at + 4 >= bytes.length) return -1;
			if (startsExif(bytes, at + 4)) return at + 10;
		}
		if (at + 4 > bytes.length) return -1;
		at += 2 + (((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0));
	}
	return -1;
}

/** Where the TIFF data of a WebP's "EXIF" chunk starts (after an optional "Exif\0\0"), or -1. */
function webpTiffStart(bytes: Uint8Array): number {
	let at = 12;
	while (at + 8 <= bytes.length) {
		const id = String.fromCharCode(bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0, bytes[at + 3] ?? 0);
		const size =
			(bytes[at + 4] ?? 0) | ((bytes[at + 5] ?? 0) << 8) | ((bytes[at + 6] ?? 0) << 16) | ((bytes[at + 7] ?? 0) << 24);
		const data = at + 8;
		if (id === "EXIF") {
			if (data + size > bytes.length) return -1;
			return size >= 6 && startsExif(bytes, data) ? data + 6 : data;
		}
		at = data + size + (size % 2); // chunks are padded to an even length
	}
	return -1;
}

const hasAscii = (bytes: Uint8Array, at: number, text: string) =>
	[...text].every((ch, i) => bytes[at + i] === ch.charCodeAt(0));

/** The EXIF orientation (1–8) of a JPEG or WebP file's bytes; 1 for anything else. */
export function exifOrientation(bytes: Uint8Array): number {
	let tiff = -1;
	if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xd8) tiff = jpegTiffStart(bytes);
	else if (bytes.length >= 12 && hasAscii(bytes, 0, "RIFF") && hasAscii(bytes, 8, "WEBP")) tiff = webpTiffStart(bytes);
	return tiff === -1 ? 1 : orientationInTiff(bytes, tiff);
}

/**
 * Orientations 5–8 swap width and height: each source pixel (x, y) of a w×h image lands at column/row of an h×w
 * image. 5 transposes, 6 turns clockwise, 7 transverses, 8 turns counter-clockwise.
 */
const SWAPPING: Record<number, (x: number, y: number, w: number, h: number) => [number, number]> = {
	5: (x, y) => [y, x],
	6: (x, y, _w, h) => [h - 1 - y, x],
	7: (x, y, w, h) => [h - 1 - y, w - 1 - x],
	8: (x, y, w) => [y, w - 1 - x],
};

function swapAxes(photon: Photon, image: PhotonImage, place: (typeof SWAPPING)[number]): PhotonImage {
	const w = image.get_width();
	const h = image.get_height();
	const src = image.get_raw_pixels();
	const dst = new Uint8Array(src.length);
	for (let y = 0; y < h; y++) {
		for (let x = 0; x < w; x++) {
			const [col, row] = place(x, y, w, h);
			dst.set(src.subarray((y * w + x) * 4, (y * w + x) * 4 + 4), (row * h + col) * 4);
		}
	}
	return new photon.PhotonImage(dst, h, w);
}

/**
 * The decoded `image` turned upright by the EXIF orientation in `originalBytes`. Mirrors and the half turn change
 * `image` in place and return it; orientations that swap the axes return a new image (the caller frees the old).
 */
export function applyExifOrientation(photon: Photon, image: PhotonImage, originalBytes: Uint8Array): PhotonImage {
	const orientation = exifOrientation(originalBytes);
	if (orientation === 2 || orientation === 3) photon.fliph(image);
	if (orientation === 3 || orientation === 4) photon.flipv(image);
	const place = SWAPPING[orientation];
	return place ? swapAxes(photon, image, place) : image;
}
