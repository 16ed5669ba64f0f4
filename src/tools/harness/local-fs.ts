/**
 * The file-system half of a local execution environment (pi's `FileSystem` seam over this machine): every
 * operation returns a `Result` and never throws; node error codes map to pi's backend-independent file codes.
 */
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import {
	type Context,
	err,
	FileError,
	type FileErrorCode,
	type FileInfo,
	type FileSystem,
	ok,
	type Result,
	type TextLineReader,
} from "../../agent/index.ts";
import { fsPromises, os } from "../../util/index.ts";

const CODES: Record<string, FileErrorCode> = {
	ENOENT: "not_found",
	EACCES: "permission_denied",
	EPERM: "permission_denied",
	ENOTDIR: "not_directory",
	EISDIR: "is_directory",
	EINVAL: "invalid",
	ENOTSUP: "not_supported",
	ENOSYS: "not_supported",
};

export function toFileError(error: unknown, path?: string): FileError {
	const code = (error as { code?: string } | undefined)?.code;
	const message = error instanceof Error ? error.message : String(error);
	return new FileError((code && CODES[code]) || "unknown", message, path, error instanceof Error ? error : undefined);
}

async function attempt<T>(
	path: string | undefined,
	context: Context,
	action: () => Promise<T>,
): Promise<Result<T, FileError>> {
	if (context.abortSignal?.aborted) return err(new FileError("aborted", "Operation aborted", path));
	try {
		return ok(await action());
	} catch (error) {
		return err(toFileError(error, path));
	}
}

function kindOf(stat: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FileInfo["kind"] {
	if (stat.isSymbolicLink()) return "symlink";
	return stat.isDirectory() ? "directory" : "file";
}

/** A line reader over a whole-file read: lines keep whether they ended with `\n`. */
function lineReader(text: string): TextLineReader {
	let at = 0;
	return {
		async readLine() {
			if (at >= text.length) return ok(undefined);
			const end = text.indexOf("\n", at);
			const line =
				end === -1 ? { text: text.slice(at), terminated: false } : { text: text.slice(at, end), terminated: true };
			at = end === -1 ? text.length : end + 1;
			return ok(line);
		},
		async close() {},
	};
}

let tempCounter = 0;
const randomSuffix = () =>
	`${Date.now().toString(36)}${(tempCounter++).toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** A `FileSystem` over the local disk with relative paths resolved against `cwd`. */
export function createLocalFileSystem(cwd: string): FileSystem {
	const abs = (path: string) => (isAbsolute(path) ? resolve(path) : resolve(cwd, path));
	const fsp = () => fsPromises();
	const info = async (path: string): Promise<FileInfo> => {
		const full = abs(path);
		const stat = await fsp().lstat(full);
		return { name: basename(full), path: full, kind: kindOf(stat), size: stat.size, mtimeMs: stat.mtimeMs };
	};
	return {
		cwd,
		absolutePath: async (path, context) => attempt(path, context, async () => abs(path)),
		joinPath: async (parts, context) => attempt(undefined, context, async () => join(...parts)),
		readTextFile: (path, context) => attempt(abs(path), context, () => fsp().readFile(abs(path), "utf8")),
		openTextLineReader: (path, context) =>
			attempt(abs(path), context, async () => lineReader(await fsp().readFile(abs(path), "utf8"))),
		readTextLines: (path, options, context) =>
			attempt(abs(path), context, async () => {
				const text = await fsp().readFile(abs(path), "utf8");
				const lines = text.split("\n");
				if (text.endsWith("\n")) lines.pop();
				return options?.maxLines !== undefined ? lines.slice(0, options.maxLines) : lines;
			}),
		readBinaryFile: (path, context) =>
			attempt(abs(path), context, async () => new Uint8Array(await fsp().readFile(abs(path)))),
		writeFile: (path, content, context) =>
			attempt(abs(path), context, async () => {
				await fsp().mkdir(dirname(abs(path)), { recursive: true });
				await fsp().writeFile(abs(path), content);
			}),
		appendFile: (path, content, context) =>
			attempt(abs(path), context, async () => {
				await fsp().mkdir(dirname(abs(path)), { recursive: true });
				await fsp().appendFile(abs(path), content);
			}),
		renameFile: (source, destination, context) =>
			attempt(abs(source), context, () => fsp().rename(abs(source), abs(destination))),
		fileInfo: (path, context) => attempt(abs(path), context, () => info(path)),
		listDir: (path, context) =>
			attempt(abs(path), context, async () => {
				const names = await fsp().readdir(abs(path));
				return Promise.all(names.map((name) => info(join(abs(path), name))));
			}),
		canonicalPath: (path, context) => attempt(abs(path), context, () => fsp().realpath(abs(path))),
		exists: async (path, context) => {
			const result = await attempt(abs(path), context, () => fsp().lstat(abs(path)));
			if (result.ok) return ok(true);
			return result.error.code === "not_found" ? ok(false) : err(result.error);
		},
		createDir: (path, options, context) =>
			attempt(abs(path), context, async () => {
				await fsp().mkdir(abs(path), { recursive: options?.recursive ?? true });
			}),
		remove: (path, options, context) =>
			attempt(abs(path), context, () =>
				fsp().rm(abs(path), { recursive: options?.recursive ?? false, force: options?.force ?? false }),
			),
		createTempDir: (prefix, context) =>
			attempt(undefined, context, () => fsp().mkdtemp(join(os().tmpdir(), prefix ?? "tmp-"))),
		createTempFile: (options, context) =>
			attempt(undefined, context, async () => {
				const path = join(os().tmpdir(), `${options?.prefix ?? ""}${randomSuffix()}${options?.suffix ?? ""}`);
				await fsp().writeFile(path, "", { flag: "wx" });
				return path;
			}),
		cleanup: async () => {},
	};
}
