/**
 * I/O for the `read` tool. `ReadOperations` keeps pi's shape (`readFile`, `access`, `detectImageMimeType?`), so
 * operations written for pi (ssh, sandboxes) plug in unchanged, and adds two optional methods — `stat` and
 * `readRange` — that let the tool refuse non-regular files and read only the part of a file it needs. Without them
 * the tool falls back to `readFile` of the whole file. The local default implements all of them.
 */
import { fsConstants, fsPromises } from "../util/index.ts";
import { detectSupportedImageMimeType, IMAGE_SNIFF_LENGTH } from "./image-mime.ts";

export type ReadFileKind = "file" | "directory" | "other";

export interface ReadFileInfo {
	/** "other" covers FIFOs, sockets and devices: anything that is neither a regular file nor a directory. */
	kind: ReadFileKind;
	size: number;
}

export interface ReadOperations {
	/** The whole file. Used for images, and for text when `readRange`/`stat` are missing. */
	readFile: (absolutePath: string) => Promise<Buffer>;
	/** Throws if the file is not readable. */
	access: (absolutePath: string) => Promise<void>;
	/** MIME type when the file is an image (png, jpeg, gif, webp, bmp), else null/undefined. Default: sniff content. */
	detectImageMimeType?: (absolutePath: string) => Promise<string | null | undefined>;
	/** Follows symlinks (so a symlink loop rejects with code ELOOP). */
	stat?: (absolutePath: string) => Promise<ReadFileInfo>;
	/** Up to `length` bytes starting at byte `start`; shorter (or empty) at the end of the file. */
	readRange?: (absolutePath: string, start: number, length: number) => Promise<Buffer>;
}

/**
 * The image type of a file's first bytes (pass at least `IMAGE_SNIFF_LENGTH` of them): png (not animated), jpeg,
 * gif, webp or bmp, as pi's read tool recognises them.
 */
export function sniffImageMimeType(head: Uint8Array): string | undefined {
	return detectSupportedImageMimeType(head) ?? undefined;
}

async function localReadRange(path: string, start: number, length: number): Promise<Buffer> {
	// O_NONBLOCK: if the path was swapped for a FIFO after the stat check, opening must not hang.
	const handle = await fsPromises().open(path, fsConstants().O_RDONLY | fsConstants().O_NONBLOCK);
	try {
		const buffer = Buffer.allocUnsafe(length);
		const { bytesRead } = await handle.read(buffer, 0, length, start);
		return buffer.subarray(0, bytesRead);
	} finally {
		await handle.close();
	}
}

export const localReadOperations: ReadOperations = {
	readFile: (path) => fsPromises().readFile(path),
	access: (path) => fsPromises().access(path, fsConstants().R_OK),
	stat: async (path) => {
		const info = await fsPromises().stat(path);
		const kind: ReadFileKind = info.isFile() ? "file" : info.isDirectory() ? "directory" : "other";
		return { kind, size: info.size };
	},
	readRange: localReadRange,
	detectImageMimeType: async (path) => sniffImageMimeType(await localReadRange(path, 0, IMAGE_SNIFF_LENGTH)),
};

/** Random access to a file's bytes: ranged reads when the operations allow it, else one in-memory buffer. */
export interface ByteSource {
	/** Size reported by stat; reads continue until one returns no bytes, so this is only a hint. */
	size: number;
	read(start: number, length: number): Promise<Buffer>;
	/** Whole content; only used for images. */
	readAll(): Promise<Buffer>;
}

export async function openByteSource(ops: ReadOperations, path: string, info?: ReadFileInfo): Promise<ByteSource> {
	const readRange = ops.readRange;
	if (readRange && info) {
		return {
			size: info.size,
			read: (start, length) => readRange(path, start, length),
			readAll: () => ops.readFile(path),
		};
	}
	const all = await ops.readFile(path);
	return {
		size: all.length,
		read: async (start, length) => all.subarray(start, start + length),
		readAll: async () => all,
	};
}
