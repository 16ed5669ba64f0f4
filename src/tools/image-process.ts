/**
 * An image on its way to a model (pi's `processImage`): a type providers take (PNG, JPEG, GIF, WebP; "image/jpg"
 * and parameters like "; charset" normalised) passes as it is, anything else (BMP, …) is converted to PNG. Then,
 * unless auto-resize is off (`images.autoResize: false`), it is fitted to the size limits. The hints say what
 * happened ("[Image converted from image/bmp to image/png.]", the dimension note); when the image cannot be
 * converted or made small enough the result is a message for the model instead.
 *
 * `normalizeToolResultImages` does the same to images any tool returns (extension tools, MCP bridges), keeping
 * a block that cannot be processed as it came, so one oversized screenshot does not make every later request fail.
 */
import type { ImageContent, TextContent } from "../ai/index.ts";
import { formatDimensionNote } from "./image-mime.ts";
import { convertImageBytesToPng, type ImageResizeOptions, resizeImage } from "./image-resize.ts";

export interface ProcessImageOptions {
	/** Fit the image to the inline size limits (default true). */
	autoResizeImages?: boolean;
	/** Limits other than the defaults (e.g. a model's own). */
	resizeOptions?: ImageResizeOptions;
}

export type ProcessImageResult =
	| { ok: true; data: string; mimeType: string; hints: string[] }
	| { ok: false; message: string };

const baseMimeType = (mimeType: string): string => (mimeType.split(";")[0] ?? "").trim().toLowerCase();

const INLINE_TYPES: Record<string, string> = {
	"image/png": "image/png",
	"image/jpeg": "image/jpeg",
	"image/jpg": "image/jpeg",
	"image/gif": "image/gif",
	"image/webp": "image/webp",
};

const conversionHint = (from: string | undefined, to: string): string[] =>
	from && from !== to ? [`[Image converted from ${from} to ${to}.]`] : [];

export async function processImage(
	bytes: Uint8Array,
	mimeType: string,
	options?: ProcessImageOptions,
): Promise<ProcessImageResult> {
	let normalized: { bytes: Uint8Array; mimeType: string; from?: string };
	const inline = INLINE_TYPES[baseMimeType(mimeType)];
	if (inline) normalized = { bytes, mimeType: inline };
	else {
		const png = await convertImageBytesToPng(bytes);
		if (!png) {
			return { ok: false, message: "[Image omitted: could not be converted to a supported inline image format.]" };
		}
		normalized = { bytes: png, mimeType: "image/png", from: baseMimeType(mimeType) };
	}

	if (options?.autoResizeImages ?? true) {
		const resized = await resizeImage(normalized.bytes, normalized.mimeType, options?.resizeOptions);
		if (!resized) {
			return { ok: false, message: "[Image omitted: could not be resized below the inline image size limit.]" };
		}
		const note = formatDimensionNote(resized);
		const hints = [...conversionHint(normalized.from, resized.mimeType), ...(note ? [note] : [])];
		return { ok: true, data: resized.data, mimeType: resized.mimeType, hints };
	}
	const data = Buffer.from(normalized.bytes).toString("base64");
	return { ok: true, data, mimeType: normalized.mimeType, hints: conversionHint(normalized.from, normalized.mimeType) };
}

export interface NormalizeToolResultImagesOptions {
	autoResizeImages?: boolean;
	resizeOptions?: ImageResizeOptions;
}

type ToolResultContent = TextContent | ImageContent;

/** The content with every image processed (hints as a text block after it); the same array when nothing changed. */
export async function normalizeToolResultImages<T extends ToolResultContent>(
	content: T[],
	options?: NormalizeToolResultImagesOptions,
): Promise<(T | ToolResultContent)[]> {
	if (!content.some((block) => block.type === "image")) return content;
	const out: (T | ToolResultContent)[] = [];
	let changed = false;
	for (const block of content) {
		if (block.type !== "image") {
			out.push(block);
			continue;
		}
		const image = block as ImageContent;
		const done = await processImage(Buffer.from(image.data, "base64"), image.mimeType, {
			autoResizeImages: options?.autoResizeImages ?? true,
			...(options?.resizeOptions ? { resizeOptions: options.resizeOptions } : {}),
		});
		if (!done.ok || (done.data === image.data && done.mimeType === image.mimeType && done.hints.length === 0)) {
			out.push(block);
			continue;
		}
		out.push({ type: "image", data: done.data, mimeType: done.mimeType });
		if (done.hints.length > 0) out.push({ type: "text", text: done.hints.join("\n") });
		changed = true;
	}
	return changed ? out : content;
}
