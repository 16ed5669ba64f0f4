/**
 * pi-agent-core's `read`, `edit` and `write` tools over an execution environment: the same behaviour as our
 * built-in tools (truncation, fuzzy edit matching, line endings, the mutation queue), with every byte going
 * through the env given to each call.
 */
import { type Context, type ExecutionEnv, getOrThrow } from "../../agent/index.ts";
import { createEditTool as createLocalEditTool, EDIT_DESCRIPTION, type EditOperations } from "../edit.ts";
import { renderDiff } from "../edit-diff.ts";
import { withFileMutationQueue } from "../file-mutation-queue.ts";
import { normalizeToolPath, readPathVariants } from "../paths.ts";
import { createReadTool as createLocalReadTool, READ_DESCRIPTION, type ReadOperations } from "../read.ts";
import { editSchema, readSchema, writeSchema } from "../schemas.generated.ts";
import type { TruncationResult } from "../types.ts";
import { WRITE_DESCRIPTION } from "../write.ts";
import { imageMimeType } from "./image-kind.ts";
import type { AgentHarnessTool, ExecutionToolContext } from "./types.ts";
import { unifiedPatch } from "./unified-patch.ts";

async function envPath(env: ExecutionEnv, path: string, context: Context): Promise<string> {
	return getOrThrow(await env.absolutePath(normalizeToolPath(path), context));
}

/** The first spelling of `path` that exists (macOS screenshot names, NFD, curly quotes), else `path`. */
async function existingVariant(env: ExecutionEnv, path: string, context: Context): Promise<string> {
	for (const variant of new Set([path, ...readPathVariants(path)])) {
		if (getOrThrow(await env.exists(variant, context))) return variant;
	}
	return path;
}

function readOperations(env: ExecutionEnv, context: Context): ReadOperations {
	return {
		readFile: async (path) => Buffer.from(getOrThrow(await env.readBinaryFile(path, context))),
		access: async (path) => {
			if (!getOrThrow(await env.exists(path, context)))
				throw Object.assign(new Error(`ENOENT: no such file or directory, access '${path}'`), { code: "ENOENT" });
		},
		stat: async (path) => {
			const target = getOrThrow(await env.canonicalPath(path, context));
			const info = getOrThrow(await env.fileInfo(target, context));
			return { kind: info.kind === "symlink" ? "other" : info.kind, size: info.size };
		},
	};
}

function editOperations(env: ExecutionEnv, context: Context): EditOperations {
	return {
		readFile: async (path) => {
			const info = getOrThrow(await env.fileInfo(path, context));
			if (info.kind === "directory") throw new Error(`Path is a directory: ${path}`);
			return Buffer.from(getOrThrow(await env.readBinaryFile(path, context)));
		},
		writeFile: async (path, content) => getOrThrow(await env.writeFile(path, new Uint8Array(content), context)),
	};
}

export interface ReadToolDetails {
	truncation?: TruncationResult;
}

export type ReadImageProcessorResult =
	| { ok: true; data: string; mimeType: string; hints: string[] }
	| { ok: false; message: string };
export type ReadImageProcessor = (
	bytes: Uint8Array,
	mimeType: string,
	options: { autoResizeImages: boolean },
	context: Context,
) => Promise<ReadImageProcessorResult>;
export interface ReadToolOptions {
	/** Whether an image processor should resize images (default true). */
	autoResizeImages?: boolean;
	/** Converts or resizes images before they are attached. */
	imageProcessor?: ReadImageProcessor;
}

type ImageResult = {
	content: ({ type: "text"; text: string } | { type: "image"; data: string; mimeType: string })[];
	details: undefined;
};

/** An image file as the model gets it: processed when a processor is given, BMP only through one. */
async function readImage(
	bytes: Uint8Array,
	mimeType: string,
	options: ReadToolOptions | undefined,
	context: Context,
): Promise<ImageResult | undefined> {
	if (options?.imageProcessor) {
		const done = await options.imageProcessor(
			bytes,
			mimeType,
			{ autoResizeImages: options.autoResizeImages ?? true },
			context,
		);
		if (!done.ok)
			return {
				content: [{ type: "text", text: `Read image file [${mimeType}]\n${done.message}` }],
				details: undefined,
			};
		const hints = done.hints.length > 0 ? `\n${done.hints.join("\n")}` : "";
		return {
			content: [
				{ type: "text", text: `Read image file [${done.mimeType}]${hints}` },
				{ type: "image", data: done.data, mimeType: done.mimeType },
			],
			details: undefined,
		};
	}
	if (mimeType === "image/bmp") {
		const text = "Read image file [image/bmp]\n[Image omitted: configure an imageProcessor to convert BMP images.]";
		return { content: [{ type: "text", text }], details: undefined };
	}
	return undefined;
}

export function createReadTool<TContext extends ExecutionToolContext = ExecutionToolContext>(
	options?: ReadToolOptions,
): AgentHarnessTool<TContext, typeof readSchema, ReadToolDetails | undefined> {
	return {
		name: "read",
		label: "read",
		description: READ_DESCRIPTION,
		parameters: readSchema,
		async execute(toolCallId, params, _onUpdate, { env }, _invocation, context) {
			const path = await existingVariant(env, await envPath(env, params.path, context), context);
			// Read once: sniff the image kind here, and let the text path reuse the bytes.
			const bytes = await env.readBinaryFile(path, context);
			const mime = bytes.ok ? imageMimeType(bytes.value) : undefined;
			const image = bytes.ok && mime ? await readImage(bytes.value, mime, options, context) : undefined;
			if (image) return image;
			const operations = readOperations(env, context);
			if (bytes.ok) {
				const read = operations.readFile;
				operations.readFile = async (p) => (p === path ? Buffer.from(bytes.value) : read(p));
			}
			const tool = createLocalReadTool(env.cwd, { operations });
			return tool.execute(toolCallId, { ...params, path }, context.abortSignal);
		},
	};
}

export interface EditToolDetails {
	diff: string;
	patch: string;
	firstChangedLine?: number;
}

export function createEditTool<TContext extends ExecutionToolContext = ExecutionToolContext>(): AgentHarnessTool<
	TContext,
	typeof editSchema,
	EditToolDetails | undefined
> {
	const local = createLocalEditTool("/");
	return {
		name: "edit",
		label: "edit",
		description: EDIT_DESCRIPTION,
		parameters: editSchema,
		...(local.prepareArguments ? { prepareArguments: local.prepareArguments } : {}),
		async execute(toolCallId, params, _onUpdate, { env }, _invocation, context) {
			if (!Array.isArray(params.edits) || params.edits.length === 0)
				throw new Error("Edit tool input is invalid. edits must contain at least one replacement.");
			const path = await envPath(env, params.path, context);
			let before = "";
			const ops = editOperations(env, context);
			const tool = createLocalEditTool(env.cwd, {
				operations: {
					readFile: async (p) => {
						const bytes = await ops.readFile(p);
						before = bytes
							.toString("utf8")
							.replace(/^\uFEFF/, "")
							.replace(/\r\n/g, "\n");
						return bytes;
					},
					writeFile: ops.writeFile,
				},
			});
			const result = await tool.execute(toolCallId, params, context.abortSignal);
			const after = getOrThrow(await env.readTextFile(path, context))
				.replace(/^\uFEFF/, "")
				.replace(/\r\n/g, "\n");
			const details = result.details;
			// Our diff shows the empty "line" after a final newline; pi's does not.
			const diff =
				before.endsWith("\n") && after.endsWith("\n")
					? renderDiff(before.slice(0, -1), after.slice(0, -1)).diff
					: (details?.diff ?? "");
			return {
				content: [{ type: "text", text: `Successfully replaced ${params.edits.length} block(s) in ${params.path}.` }],
				details: {
					diff,
					patch: unifiedPatch(params.path, before, after),
					...(details?.firstChangedLine !== undefined ? { firstChangedLine: details.firstChangedLine } : {}),
				},
			};
		},
	};
}

export function createWriteTool<TContext extends ExecutionToolContext = ExecutionToolContext>(): AgentHarnessTool<
	TContext,
	typeof writeSchema,
	undefined
> {
	return {
		name: "write",
		label: "write",
		description: WRITE_DESCRIPTION,
		parameters: writeSchema,
		async execute(_toolCallId, { path, content }, _onUpdate, { env }, _invocation, context) {
			const absolute = await envPath(env, path, context);
			return withFileMutationQueue(absolute, async () => {
				if (context.abortSignal?.aborted) throw new Error("Operation aborted");
				getOrThrow(await env.writeFile(absolute, content, context));
				if (context.abortSignal?.aborted) throw new Error("Operation aborted");
				return { content: [{ type: "text" as const, text: `Successfully wrote to ${path}` }], details: undefined };
			});
		},
	};
}
