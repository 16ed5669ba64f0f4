/**
 * The `write` tool: creates or replaces a whole file, creating missing parent directories. Runs inside the file
 * mutation queue so it never interleaves with an `edit` or another `write` of the same file.
 */

import { dirname } from "node:path";
import { fsPromises } from "../util/index.ts";
import { withFileMutationQueue } from "./file-mutation-queue.ts";
import { resolveToolPath } from "./paths.ts";
import type { FileReadTracker } from "./read-tracker.ts";
import { writeSchema } from "./schemas.generated.ts";
import { runAbortable, throwIfAborted } from "./tool-abort.ts";
import type { BuiltinTool } from "./types.ts";
import description from "./write.txt" with { type: "text" };

/** The tool description the model reads (also used by the execution-env form in `harness/`). */
export const WRITE_DESCRIPTION: string = description.trim();

export interface WriteOperations {
	/** Writes `content` (UTF-8) to the file, replacing it. */
	writeFile: (absolutePath: string, content: string) => Promise<void>;
	/** Creates the directory and any missing parents; succeeds if it already exists. */
	mkdir: (dir: string) => Promise<void>;
}

export interface WriteToolOptions {
	/** Where the bytes go. Default: the local filesystem. */
	operations?: WriteOperations;
	/** Told what was written, so a later `edit` of the file does not take our own write for a change on disk. */
	tracker?: FileReadTracker;
}

export const localWriteOperations: WriteOperations = {
	writeFile: async (path, content) => {
		// Opening a FIFO for writing blocks until a reader appears: refuse it (and sockets) up front. A stat failure
		// (usually: the file does not exist yet) is left for writeFile to handle or report.
		const info = await fsPromises()
			.stat(path)
			.catch(() => undefined);
		if (info && (info.isFIFO() || info.isSocket())) throw new Error(`Not a regular file: ${path}`);
		await fsPromises().writeFile(path, content, "utf8");
	},
	mkdir: async (dir) => {
		await fsPromises().mkdir(dir, { recursive: true });
	},
};

export function createWriteTool(
	cwd: string,
	options: WriteToolOptions = {},
): BuiltinTool<typeof writeSchema, undefined> {
	const ops = options.operations ?? localWriteOperations;
	return {
		name: "write",
		label: "write",
		description: WRITE_DESCRIPTION,
		promptSnippet: "Create or overwrite files",
		promptGuidelines: ["Use write only to create a new file or to replace a file's entire content."],
		parameters: writeSchema,
		execute: (_toolCallId, params: { path: string; content: string }, signal) =>
			runAbortable(signal, () => {
				const absolute = resolveToolPath(params.path, cwd);
				return withFileMutationQueue(absolute, async () => {
					throwIfAborted(signal);
					await ops.mkdir(dirname(absolute));
					throwIfAborted(signal);
					await ops.writeFile(absolute, params.content);
					await options.tracker?.remember(absolute);
					const text = `Successfully wrote ${params.content.length} bytes to ${params.path}`;
					return { content: [{ type: "text" as const, text }], details: undefined };
				});
			}),
	};
}
