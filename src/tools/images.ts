/**
 * The image functions as the rest of the app and the SDK see them. Each loads its module on first call, so the
 * image code (and Photon's WASM behind it) stays out of start-up: `pi -p hello` never reaches it.
 */
import type { ImageContent, TextContent } from "../ai/index.ts";
import type { ResizedImage } from "./image-mime.ts";
import type * as Process from "./image-process.ts";
import type { ImageResizeOptions } from "./image-resize.ts";

export type {
	NormalizeToolResultImagesOptions,
	ProcessImageOptions,
	ProcessImageResult,
} from "./image-process.ts";
export type { ImageResizeOptions } from "./image-resize.ts";

const resizeModule = () => import("./image-resize.ts");
const processModule = () => import("./image-process.ts");

/** Fits an image to the size limits (see image-resize.ts); `null` when it cannot. */
export async function resizeImage(
	inputBytes: Uint8Array,
	mimeType: string,
	options?: ImageResizeOptions,
): Promise<ResizedImage | null> {
	return (await resizeModule()).resizeImage(inputBytes, mimeType, options);
}

/** Base64 image data converted to PNG; `null` when it cannot be decoded. */
export async function convertToPng(
	base64Data: string,
	mimeType: string,
): Promise<{ data: string; mimeType: string } | null> {
	return (await resizeModule()).convertToPng(base64Data, mimeType);
}

/** An image made ready for a model: converted, resized, with hints (see image-process.ts). */
export async function processImage(
	bytes: Uint8Array,
	mimeType: string,
	options?: Process.ProcessImageOptions,
): Promise<Process.ProcessImageResult> {
	return (await processModule()).processImage(bytes, mimeType, options);
}

/** Tool-result content with its images processed; the same array when there are none or nothing changed. */
export async function normalizeToolResultImages<T extends TextContent | ImageContent>(
	content: T[],
	options?: Process.NormalizeToolResultImagesOptions,
): Promise<(T | TextContent | ImageContent)[]> {
	if (!content.some((block) => block.type === "image")) return content;
	return (await processModule()).normalizeToolResultImages(content, options);
}
