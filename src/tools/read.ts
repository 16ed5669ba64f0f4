/**
 * The `read` tool: a window of a text file (offset/limit, head-truncated to 2000 lines / 50 KB with continuation
 * hints the model can follow), or an image attachment. Text is UTF-8, UTF-16 with a byte-order mark (converted), or
 * shown as Latin-1; binary files are described, not shown. Only regular files are read — directories, FIFOs, devices
 * and symlink loops are refused with a clear message — and text is read in bounded chunks (see read-window.ts), so
 * a small window of a huge file costs little time and memory.
 */
import type { ImageContent, TextContent } from "../ai/index.ts";
import { decodeFile } from "./edit-text.ts";
import { IMAGE_SNIFF_LENGTH } from "./image-mime.ts";
import type { ImageResizeOptions } from "./images.ts";
import { readPathVariants, resolveToolPath } from "./paths.ts";
import description from "./read.txt" with { type: "text" };

/** The tool description the model reads (also used by the execution-env form in `harness/`). */
export const READ_DESCRIPTION: string = description.trim();

import {
	type ByteSource,
	localReadOperations,
	openByteSource,
	type ReadFileInfo,
	type ReadOperations,
	sniffImageMimeType,
} from "./read-source.ts";
import type { FileReadTracker } from "./read-tracker.ts";
import { decodeWindow, looksBinary, scanWindow, type WindowScan } from "./read-window.ts";
import { readSchema } from "./schemas.generated.ts";
import { runAbortable, throwIfAborted } from "./tool-abort.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, truncateHead } from "./truncate.ts";
import type { BuiltinTool, TruncationResult } from "./types.ts";

export type { ReadFileInfo, ReadFileKind, ReadOperations } from "./read-source.ts";
export { localReadOperations, sniffImageMimeType } from "./read-source.ts";

export interface ReadToolDetails {
	truncation?: TruncationResult;
}

export interface ReadToolOptions {
	/** Where the bytes come from. Default: the local filesystem. */
	operations?: ReadOperations;
	/** Count the lines after the window (for "N lines total") only when at most this many bytes remain. */
	countBudget?: number;
	/** Image files larger than this are described instead of read (they would not fit any provider anyway). */
	maxImageBytes?: number;
	/** Fit images to the inline size limits before attaching them (settings `images.autoResize`; default true). */
	autoResizeImages?: boolean;
	/** Limits other than the defaults (2000×2000 px, 4.5 MB of base64). */
	resizeOptions?: ImageResizeOptions;
	/** Whether the current model takes images; when it says false, an image read carries pi's note about that. */
	modelAcceptsImages?: () => boolean | undefined;
	/** Remembers which version of each file the model has seen (so `edit` can refuse a file changed since). */
	tracker?: FileReadTracker;
}

const NON_VISION_NOTE = "[Current model does not support images. The image will be omitted from this request.]";

const DEFAULT_COUNT_BUDGET = 8 * 1024 * 1024;
const DEFAULT_MAX_IMAGE_BYTES = 128 * 1024 * 1024;
const SAMPLE_BYTES = 8 * 1024;

type Content = (TextContent | ImageContent)[];
type ReadResult = { content: Content; details: ReadToolDetails | undefined };

function errorCode(error: unknown): string | undefined {
	const code = (error as { code?: unknown } | null)?.code;
	return typeof code === "string" ? code : undefined;
}

/** Turns filesystem errors into messages that name the path and say what is wrong. */
function describeError(error: unknown, path: string): Error {
	switch (errorCode(error)) {
		case "ENOENT":
			return new Error(`File not found: ${path} (ENOENT)`);
		case "ELOOP":
			return new Error(`Symbolic link loop (too many levels of symbolic links): ${path} (ELOOP)`);
		case "EACCES":
		case "EPERM":
			return new Error(`Permission denied: ${path} (${errorCode(error)})`);
		case "ENOTDIR":
			return new Error(`Not a directory: a parent of ${path} is a file (ENOTDIR)`);
		case "EISDIR":
			return new Error(`Is a directory: ${path}. Use ls to list its contents.`);
		default:
			return error instanceof Error ? error : new Error(String(error));
	}
}

/** Finds the file (trying the spellings from readPathVariants when the path as given does not exist). */
async function locate(ops: ReadOperations, absolute: string, shown: string): Promise<[string, ReadFileInfo?]> {
	const probe = async (candidate: string): Promise<ReadFileInfo | undefined> => {
		if (ops.stat) return ops.stat(candidate);
		await ops.access(candidate);
		return undefined;
	};
	let firstError: unknown;
	for (const candidate of [absolute, ...readPathVariants(absolute)]) {
		try {
			return [candidate, await probe(candidate)];
		} catch (error) {
			if (candidate === absolute) firstError = error;
		}
	}
	throw describeError(firstError, shown);
}

interface ImageReadOptions {
	maxBytes: number;
	modelAcceptsImages: (() => boolean | undefined) | undefined;
	autoResizeImages: boolean;
	resizeOptions: ImageResizeOptions | undefined;
}

/** An image file as the model gets it: converted to a type it takes and fitted to the limits, with pi's notes. */
async function readImage(
	source: ByteSource,
	mimeType: string,
	path: string,
	opts: ImageReadOptions,
): Promise<ReadResult> {
	if (source.size > opts.maxBytes) {
		const text = `Read image file [${mimeType}]\nImage not attached: ${path} is ${formatSize(source.size)}, over the ${formatSize(opts.maxBytes)} limit.`;
		return { content: [{ type: "text", text }], details: undefined };
	}
	const { processImage } = await import("./images.ts");
	const done = await processImage(await source.readAll(), mimeType, {
		autoResizeImages: opts.autoResizeImages,
		...(opts.resizeOptions ? { resizeOptions: opts.resizeOptions } : {}),
	});
	const nonVision = opts.modelAcceptsImages?.() === false ? [NON_VISION_NOTE] : [];
	if (!done.ok) {
		const text = [`Read image file [${mimeType}]`, done.message, ...nonVision].join("\n");
		return { content: [{ type: "text", text }], details: undefined };
	}
	const note = [`Read image file [${done.mimeType}]`, ...done.hints, ...nonVision].join("\n");
	return {
		content: [
			{ type: "text", text: note },
			{ type: "image", data: done.data, mimeType: done.mimeType },
		],
		details: undefined,
	};
}

/** The text shown for a scanned window, with pi's continuation hints. */
function renderWindow(scan: WindowScan, startLine: number, limit: number | undefined, path: string, size: number) {
	const truncation = truncateHead(decodeWindow(scan.bytes, scan.endedBy === "bytes"));
	const total = scan.totalLines;
	if (total !== undefined) {
		truncation.totalLines = Math.min(limit ?? Number.POSITIVE_INFINITY, total - startLine);
		if (limit === undefined && scan.bytesFromStart !== undefined) truncation.totalBytes = scan.bytesFromStart;
	}
	const first = startLine + 1;
	const limitText = formatSize(DEFAULT_MAX_BYTES);
	if (truncation.firstLineExceedsLimit) {
		const lineSize = `${scan.firstLineBytesExact ? "" : "over "}${formatSize(scan.firstLineBytes)}`;
		const text = `[Line ${first} is ${lineSize}, exceeds ${limitText} limit. Use bash: sed -n '${first}p' ${path} | head -c ${DEFAULT_MAX_BYTES}]`;
		return { text, details: { truncation } };
	}
	if (truncation.truncated) {
		const last = first + truncation.outputLines - 1;
		const of = total !== undefined ? `of ${total}` : `of a ${formatSize(size)} file`;
		const by = truncation.truncatedBy === "bytes" ? ` (${limitText} limit)` : "";
		const text = `${truncation.content}\n\n[Showing lines ${first}-${last} ${of}${by}. Use offset=${last + 1} to continue.]`;
		return { text, details: { truncation } };
	}
	if (limit !== undefined && scan.endedBy === "lines") {
		const next = startLine + limit + 1;
		const more = total !== undefined ? `${total - (startLine + limit)} more lines` : "More lines";
		return { text: `${truncation.content}\n\n[${more} in file. Use offset=${next} to continue.]`, details: undefined };
	}
	return { text: truncation.content, details: undefined };
}

const MAX_UTF16_BYTES = 16 * 1024 * 1024;

/**
 * A file starting with a UTF-16 byte-order mark, as UTF-8 bytes (so it reads like any text file), or a note when it
 * is too big to convert here; undefined for every other file.
 */
async function utf16Text(source: ByteSource, head: Buffer, path: string): Promise<ByteSource | string | undefined> {
	const le = head[0] === 0xff && head[1] === 0xfe;
	const be = head[0] === 0xfe && head[1] === 0xff;
	if ((!le && !be) || source.size % 2 !== 0) return undefined;
	if (source.size > MAX_UTF16_BYTES) {
		return `UTF-16 text file, ${formatSize(source.size)}: ${path} (too large to convert here; use bash, e.g. iconv -f UTF-16 -t UTF-8 ${path} | head)`;
	}
	const file = decodeFile(await source.readAll());
	if (file.encoding !== "utf16le" && file.encoding !== "utf16be") return undefined;
	const bytes = Buffer.from(file.text, "utf8");
	return {
		size: bytes.length,
		read: async (start, length) => bytes.subarray(start, start + length),
		readAll: async () => bytes,
	};
}

export function createReadTool(
	cwd: string,
	options: ReadToolOptions = {},
): BuiltinTool<typeof readSchema, ReadToolDetails | undefined> {
	const ops = options.operations ?? localReadOperations;
	const countBudget = options.countBudget ?? DEFAULT_COUNT_BUDGET;
	const imageOptions: ImageReadOptions = {
		maxBytes: options.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES,
		autoResizeImages: options.autoResizeImages ?? true,
		resizeOptions: options.resizeOptions,
		modelAcceptsImages: options.modelAcceptsImages,
	};

	async function run(path: string, offset?: number, limit?: number, signal?: AbortSignal): Promise<ReadResult> {
		const [absolute, info] = await locate(ops, resolveToolPath(path, cwd), path);
		if (info?.kind === "directory") throw new Error(`Is a directory: ${path}. Use ls to list its contents.`);
		if (info?.kind === "other") throw new Error(`Not a regular file: ${path}`);
		if (info) await ops.access(absolute).catch((error: unknown) => Promise.reject(describeError(error, path)));
		// Stamped before the bytes are read: a change made while reading then counts as a change since the read.
		await options.tracker?.remember(absolute);
		throwIfAborted(signal);

		const source = await openByteSource(ops, absolute, info).catch((error: unknown) =>
			Promise.reject(describeError(error, path)),
		);
		const mimeType = ops.detectImageMimeType
			? await ops.detectImageMimeType(absolute)
			: sniffImageMimeType(await source.read(0, IMAGE_SNIFF_LENGTH));
		throwIfAborted(signal);
		if (mimeType) return readImage(source, mimeType, path, imageOptions);

		const head = await source.read(0, SAMPLE_BYTES);
		const utf16 = await utf16Text(source, head, path);
		if (typeof utf16 === "string") return { content: [{ type: "text", text: utf16 }], details: undefined };
		if (!utf16 && looksBinary(head)) {
			const note = `Binary file, ${source.size} bytes: ${path} (contents not shown; inspect it with bash, e.g. file or xxd)`;
			return { content: [{ type: "text", text: note }], details: undefined };
		}
		const text = utf16 ?? source;

		const startLine = offset ? Math.max(0, Math.floor(offset) - 1) : 0;
		const userLimit = limit === undefined ? undefined : Math.max(0, Math.floor(limit));
		const scan = await scanWindow(text, {
			startLine,
			// Two lines past the limit lets truncateHead see the same decision it would make on the whole file.
			lineCap: Math.min(userLimit ?? Number.POSITIVE_INFINITY, DEFAULT_MAX_LINES + 2),
			byteCap: DEFAULT_MAX_BYTES + 8,
			countBudget,
			signal,
		});
		if (!scan.startFound) throw new Error(`Offset ${offset} is beyond end of file (${scan.totalLines} lines total)`);
		const window = renderWindow(scan, startLine, userLimit, path, text.size);
		return { content: [{ type: "text", text: window.text }], details: window.details };
	}

	return {
		name: "read",
		label: "read",
		description: READ_DESCRIPTION,
		promptSnippet: "Read file contents",
		promptGuidelines: ["Use read to look at files instead of cat, head, tail or sed."],
		parameters: readSchema,
		execute: (_toolCallId, params: { path: string; offset?: number; limit?: number }, signal) =>
			runAbortable(signal, () => run(params.path, params.offset, params.limit, signal)),
	};
}
