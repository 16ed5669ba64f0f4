/**
 * Fitting an image to what providers accept (pi's `resizeImage`), and converting one to PNG (pi's `convertToPng`),
 * with Photon. Defaults: at most 2000×2000 pixels and 4.5 MB of base64 (headroom below Anthropic's 5 MB). An image
 * already inside every limit is returned as it came. Otherwise it is turned upright (EXIF), scaled to fit the box
 * (Lanczos3), and encoded as PNG and as JPEG at falling qualities; the first candidate under the byte limit wins.
 * When none is, the dimensions shrink by a quarter and it tries again, down to 1×1. `null` when the image cannot be
 * decoded, Photon is unavailable, or nothing fits.
 */
import { applyExifOrientation } from "./image-exif.ts";
import type { ResizedImage } from "./image-mime.ts";
import { discardPhoton, loadPhoton, type PhotonImage } from "./image-photon.ts";

export interface ImageResizeOptions {
	/** Widest result in pixels (default 2000). */
	maxWidth?: number;
	/** Tallest result in pixels (default 2000). */
	maxHeight?: number;
	/** The base64 text must stay below this many bytes (default 4.5 MB). */
	maxBytes?: number;
	/** First JPEG quality tried (default 80), before 85, 70, 55 and 40. */
	jpegQuality?: number;
}

const DEFAULTS: Required<ImageResizeOptions> = {
	maxWidth: 2000,
	maxHeight: 2000,
	maxBytes: 4.5 * 1024 * 1024,
	jpegQuality: 80,
};

const toBase64 = (bytes: Uint8Array): string =>
	Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");

/** Width and height scaled down to fit the box, keeping the aspect ratio (rounded as pi rounds). */
function fitInside(width: number, height: number, maxWidth: number, maxHeight: number): [number, number] {
	let w = width;
	let h = height;
	if (w > maxWidth) {
		h = Math.round((h * maxWidth) / w);
		w = maxWidth;
	}
	if (h > maxHeight) {
		w = Math.round((w * maxHeight) / h);
		h = maxHeight;
	}
	return [w, h];
}

/** Decodes `bytes` and turns the image upright; the caller frees it. */
async function decodeUpright(bytes: Uint8Array): Promise<PhotonImage | null> {
	const photon = await loadPhoton();
	if (!photon) return null;
	const raw = photon.PhotonImage.new_from_byteslice(bytes);
	const upright = applyExifOrientation(photon, raw, bytes);
	if (upright !== raw) raw.free();
	return upright;
}

export async function resizeImage(
	inputBytes: Uint8Array,
	mimeType: string,
	options?: ImageResizeOptions,
): Promise<ResizedImage | null> {
	const opts = { ...DEFAULTS, ...options };
	const photon = await loadPhoton();
	if (!photon) return null;
	let image: PhotonImage | null = null;
	try {
		image = await decodeUpright(inputBytes);
		if (!image) return null;
		const source = image;
		const originalWidth = source.get_width();
		const originalHeight = source.get_height();
		const base64Size = Math.ceil(inputBytes.byteLength / 3) * 4;
		if (originalWidth <= opts.maxWidth && originalHeight <= opts.maxHeight && base64Size < opts.maxBytes) {
			const kind = mimeType.split("/")[1] ?? "png";
			const data = toBase64(inputBytes);
			const size = { originalWidth, originalHeight, width: originalWidth, height: originalHeight };
			return { data, mimeType: mimeType || `image/${kind}`, ...size, wasResized: false };
		}

		const qualities = [...new Set([opts.jpegQuality, 85, 70, 55, 40])];
		/** The first encoding of the image at this size whose base64 is under the limit. */
		const firstFitting = (width: number, height: number): { data: string; mimeType: string } | undefined => {
			const scaled = photon.resize(source, width, height, photon.SamplingFilter.Lanczos3);
			try {
				const png = toBase64(scaled.get_bytes());
				if (png.length < opts.maxBytes) return { data: png, mimeType: "image/png" };
				for (const quality of qualities) {
					const jpeg = toBase64(scaled.get_bytes_jpeg(quality));
					if (jpeg.length < opts.maxBytes) return { data: jpeg, mimeType: "image/jpeg" };
				}
				return undefined;
			} finally {
				scaled.free();
			}
		};

		let [width, height] = fitInside(originalWidth, originalHeight, opts.maxWidth, opts.maxHeight);
		for (;;) {
			const found = firstFitting(width, height);
			if (found) return { ...found, originalWidth, originalHeight, width, height, wasResized: true };
			const nextWidth = width === 1 ? 1 : Math.max(1, Math.floor(width * 0.75));
			const nextHeight = height === 1 ? 1 : Math.max(1, Math.floor(height * 0.75));
			if (nextWidth === width && nextHeight === height) return null;
			width = nextWidth;
			height = nextHeight;
		}
	} catch {
		discardPhoton();
		return null;
	} finally {
		try {
			image?.free();
		} catch {
			// the instance is being discarded anyway
		}
	}
}

/** The image re-encoded as PNG (turned upright first); `null` when it cannot be decoded or Photon is missing. */
export async function convertImageBytesToPng(bytes: Uint8Array): Promise<Uint8Array | null> {
	try {
		const image = await decodeUpright(bytes);
		if (!image) return null;
		try {
			return new Uint8Array(image.get_bytes());
		} finally {
			image.free();
		}
	} catch {
		discardPhoton();
		return null;
	}
}

/** Base64 image data as PNG (for terminals that show only PNG); PNG input comes back unchanged. */
export async function convertToPng(
	base64Data: string,
	mimeType: string,
): Promise<{ data: string; mimeType: string } | null> {
	if (mimeType === "image/png") return { data: base64Data, mimeType };
	const png = await convertImageBytesToPng(new Uint8Array(Buffer.from(base64Data, "base64")));
	return png ? { data: toBase64(png), mimeType: "image/png" } : null;
}
