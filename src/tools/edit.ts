/**
 * The `edit` tool: exact-text replacements in one file. All entries are located in the original content (exact
 * match first, then a normalised fuzzy match mapped back to the original span; see edit-match.ts), must be unique
 * and must not overlap; they are then spliced in, back to front in effect, in one write. The file's bytes are
 * preserved outside the replaced spans: encoding (UTF-8, or Latin-1 for anything else), BOM and line endings are
 * kept (see edit-text.ts). The read-modify-write runs inside the file mutation queue.
 */

import { fsConstants, fsPromises } from "../util/index.ts";
import description from "./edit.txt" with { type: "text" };

/** The tool description the model reads (also used by the execution-env form in `harness/`). */
export const EDIT_DESCRIPTION: string = description.trim();

import { renderDiff } from "./edit-diff.ts";
import { type EditEntry, locateEdits } from "./edit-match.ts";
import { decodeFile, encodeFile, lfView, toLf, toOriginalIndex, withLineEnding } from "./edit-text.ts";
import { withFileMutationQueue } from "./file-mutation-queue.ts";
import { resolveToolPath } from "./paths.ts";
import type { FileReadTracker } from "./read-tracker.ts";
import { editSchema } from "./schemas.generated.ts";
import { runAbortable, throwIfAborted } from "./tool-abort.ts";
import { formatSize } from "./truncate.ts";
import type { BuiltinTool } from "./types.ts";

export interface EditToolDetails {
	/** Changed lines with line numbers and 4 lines of context. */
	diff: string;
	/** 1-based line of the first change in the new file. */
	firstChangedLine?: number;
}

export interface EditOperations {
	/** The file's bytes. */
	readFile: (absolutePath: string) => Promise<Buffer>;
	/** Replaces the file's bytes. */
	writeFile: (absolutePath: string, content: Buffer) => Promise<void>;
	/** Optional check that the file can be read and written; throws if not. */
	access?: (absolutePath: string) => Promise<void>;
}

export interface EditToolOptions {
	/** Where the bytes come from and go. Default: the local filesystem. */
	operations?: EditOperations;
	/** Refuse to edit a file that changed on disk since the `read` tool sharing this tracker read it. */
	tracker?: FileReadTracker;
}

/** Files larger than this are not loaded (the edit holds several copies of the text in memory). */
const MAX_EDIT_BYTES = 256 * 1024 * 1024;

const bigSize = (bytes: number) => (bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)}GB` : formatSize(bytes));

/** Why the local operations will not edit a file; reported after "Could not edit file: <path>." */
class EditRefusal extends Error {}

export const localEditOperations: EditOperations = {
	readFile: async (path) => {
		// Refuse FIFOs and devices before opening them: reading one could block forever or never end.
		const info = await fsPromises().stat(path);
		if (!info.isFile() && !info.isDirectory()) throw new Error(`Not a regular file: ${path}`);
		return fsPromises().readFile(path);
	},
	// Writing in place (not a new file renamed over it) keeps the file's mode, owner and links.
	writeFile: (path, content) => fsPromises().writeFile(path, content),
	access: async (path) => {
		const info = await fsPromises().stat(path);
		if (info.isFile()) {
			// Root may write any file: a file nobody may write is refused by its mode bits, as for everyone else.
			const mode = (info.mode & 0o7777).toString(8).padStart(4, "0");
			if ((info.mode & 0o222) === 0) {
				throw new EditRefusal(
					`It is read-only (mode ${mode}); no changes were made. Change its permissions first if it should be edited.`,
				);
			}
			if (info.size > MAX_EDIT_BYTES) {
				throw new EditRefusal(
					`It is ${bigSize(info.size)}, over the ${formatSize(MAX_EDIT_BYTES)} the edit tool loads; change it with bash (sed, a script) instead.`,
				);
			}
		} else {
			const what = info.isDirectory() ? "a directory" : "not a regular file (a FIFO, socket or device)";
			throw new EditRefusal(`It is ${what}; nothing was read or changed.`);
		}
		await fsPromises().access(path, fsConstants().R_OK | fsConstants().W_OK);
	},
};

/**
 * Accepts older argument shapes: top-level `oldText`/`newText` (one replacement), `edits` sent as a JSON string,
 * and a single edit object instead of an array.
 */
export function prepareEditArguments(args: unknown): unknown {
	if (!args || typeof args !== "object" || Array.isArray(args)) return args;
	const input: Record<string, unknown> = { ...(args as Record<string, unknown>) };
	let edits = input.edits;
	if (typeof edits === "string") {
		try {
			edits = JSON.parse(edits);
		} catch {
			// Not JSON: leave the string for schema validation to report.
		}
	}
	if (edits && typeof edits === "object" && !Array.isArray(edits)) edits = [edits];
	if (typeof input.oldText === "string" && typeof input.newText === "string") {
		edits = [...(Array.isArray(edits) ? edits : []), { oldText: input.oldText, newText: input.newText }];
		delete input.oldText;
		delete input.newText;
	}
	if (edits !== undefined) input.edits = edits;
	return input;
}

function couldNotEdit(error: unknown, path: string): Error {
	if (error instanceof EditRefusal) return new Error(`Could not edit file: ${path}. ${error.message}`);
	const code = (error as { code?: unknown } | null)?.code;
	if (typeof code === "string") return new Error(`Could not edit file: ${path}. Error code: ${code}.`);
	return error instanceof Error ? error : new Error(String(error));
}

/** Applies the edits to decoded file text; returns the new text and how many blocks were replaced. */
export function applyEdits(text: string, lineEnding: "\r\n" | "\n", edits: EditEntry[], path: string) {
	const view = lfView(text);
	const entries = edits.map((edit) => ({ oldText: toLf(edit.oldText), newText: toLf(edit.newText) }));
	const spans = locateEdits(view.text, entries, path);
	const pieces: string[] = [];
	let cursor = 0;
	for (const span of spans) {
		const start = toOriginalIndex(view, span.start);
		pieces.push(text.slice(cursor, start), withLineEnding(span.newText, lineEnding));
		cursor = toOriginalIndex(view, span.end);
	}
	pieces.push(text.slice(cursor));
	return { oldLf: view.text, newText: pieces.join(""), replaced: spans.length };
}

export function createEditTool(
	cwd: string,
	options: EditToolOptions = {},
): BuiltinTool<typeof editSchema, EditToolDetails> {
	const ops = options.operations ?? localEditOperations;

	async function run(path: string, edits: EditEntry[], signal?: AbortSignal) {
		// The schema allows an empty list (as pi's does, so models see the same schema); an empty call is refused here.
		if (!Array.isArray(edits) || edits.length === 0) {
			throw new Error("Edit tool input is invalid. edits must contain at least one replacement.");
		}
		const absolute = resolveToolPath(path, cwd);
		return withFileMutationQueue(absolute, async () => {
			throwIfAborted(signal);
			await options.tracker?.assertUnchanged(absolute, path);
			let bytes: Buffer;
			try {
				await ops.access?.(absolute);
				bytes = await ops.readFile(absolute);
			} catch (error) {
				throw couldNotEdit(error, path);
			}
			throwIfAborted(signal);
			const file = decodeFile(bytes);
			const { oldLf, newText, replaced } = applyEdits(file.text, file.lineEnding, edits, path);
			if (newText === file.text) {
				throw new Error(
					`No changes made to ${path}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.`,
				);
			}
			const encoded = encodeFile(newText, file);
			if (!encoded) {
				throw new Error(
					`Could not edit ${path}: the file is not UTF-8 and is kept as single-byte (Latin-1) text, but the new text contains characters that do not exist in Latin-1. Use ASCII or Latin-1 characters only.`,
				);
			}
			throwIfAborted(signal);
			await ops.writeFile(absolute, encoded);
			await options.tracker?.remember(absolute);
			const { diff, firstChangedLine } = renderDiff(oldLf, toLf(newText));
			return {
				content: [{ type: "text" as const, text: `Successfully replaced ${replaced} block(s) in ${path}.` }],
				details: { diff, firstChangedLine },
			};
		});
	}

	return {
		name: "edit",
		label: "edit",
		description: EDIT_DESCRIPTION,
		promptSnippet: "Make precise file edits with exact text replacement, including multiple disjoint edits in one call",
		promptGuidelines: [
			"Use edit for targeted changes; each edits[].oldText must match the file exactly, whitespace included.",
			"For several separate changes in one file, make one edit call with one edits[] entry per change rather than several calls.",
			"Every edits[].oldText is matched against the file as it was before the call, not after the other entries; entries must not overlap or nest, so merge changes that are close together into one entry.",
			"Keep each oldText short: just enough surrounding text to be unique in the file, without long unchanged stretches.",
		],
		parameters: editSchema,
		prepareArguments: prepareEditArguments,
		execute: (_toolCallId, params: { path: string; edits: EditEntry[] }, signal) =>
			runAbortable(signal, () => run(params.path, params.edits, signal)),
	};
}
