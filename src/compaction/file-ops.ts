/** Files the summarised work read or changed, tracked across compactions. */
import type { AgentMessage } from "../agent/index.ts";
import type { CompactionEntry } from "../session/index.ts";

export interface FileOps {
	read: string[];
	modified: string[];
}

/** Mutable accumulator; `toFileOps` turns it into sorted lists. */
export interface FileOpsSets {
	read: Set<string>;
	modified: Set<string>;
}

export function emptyFileOps(): FileOpsSets {
	return { read: new Set(), modified: new Set() };
}

const READ_TOOLS = new Set(["read"]);
const MODIFY_TOOLS = new Set(["write", "edit"]);

function pathArgument(args: unknown): string | undefined {
	if (typeof args !== "object" || args === null) return undefined;
	const record = args as Record<string, unknown>;
	const value = record.path ?? record.file_path;
	return typeof value === "string" && value !== "" ? value : undefined;
}

/** Adds the read/write/edit tool calls of the assistant messages in `messages` to `into`. */
export function collectFileOps(messages: readonly AgentMessage[], into: FileOpsSets = emptyFileOps()): FileOpsSets {
	for (const message of messages) {
		if (message.role !== "assistant") continue;
		for (const part of message.content) {
			if (part.type !== "toolCall") continue;
			const isRead = READ_TOOLS.has(part.name);
			if (!isRead && !MODIFY_TOOLS.has(part.name)) continue;
			const path = pathArgument(part.arguments);
			if (path === undefined) continue;
			(isRead ? into.read : into.modified).add(path);
		}
	}
	return into;
}

function stringList(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** Adds the file lists an earlier compaction recorded (only ours: extension-made summaries use their own format). */
export function addCompactionFileOps(entry: CompactionEntry, into: FileOpsSets): FileOpsSets {
	if (entry.fromHook === true || typeof entry.details !== "object" || entry.details === null) return into;
	const details = entry.details as Record<string, unknown>;
	for (const path of stringList(details.readFiles)) into.read.add(path);
	for (const path of stringList(details.modifiedFiles)) into.modified.add(path);
	return into;
}

/** Sorted lists; a file that was both read and modified is listed as modified only. */
export function toFileOps(sets: FileOpsSets): FileOps {
	const modified = [...sets.modified].sort();
	const read = [...sets.read].filter((path) => !sets.modified.has(path)).sort();
	return { read, modified };
}

/** The `details` a compaction stores so the next one can carry the lists forward. */
export function compactionDetails(ops: FileOps): { readFiles: string[]; modifiedFiles: string[] } {
	return { readFiles: [...ops.read], modifiedFiles: [...ops.modified] };
}

/** `<read-files>` / `<modified-files>` blocks to append to a summary ("" when both lists are empty). */
export function formatFileLists(ops: FileOps): string {
	const blocks: string[] = [];
	if (ops.read.length > 0) blocks.push(`<read-files>\n${ops.read.join("\n")}\n</read-files>`);
	if (ops.modified.length > 0) blocks.push(`<modified-files>\n${ops.modified.join("\n")}\n</modified-files>`);
	return blocks.length === 0 ? "" : `\n\n${blocks.join("\n\n")}`;
}

/**
 * pi's file-operation accumulator (what `prepareBranchEntries` returns): reads, whole-file writes and edits kept
 * apart; `computeFileLists` folds writes and edits into "modified".
 */
export interface FileOperations {
	read: Set<string>;
	written: Set<string>;
	edited: Set<string>;
}

export function createFileOps(): FileOperations {
	return { read: new Set(), written: new Set(), edited: new Set() };
}

/** Adds the `read` / `write` / `edit` tool calls (by their `path` argument) of an assistant message. */
export function extractFileOpsFromMessage(message: AgentMessage, ops: FileOperations): void {
	if (message.role !== "assistant" || !Array.isArray(message.content)) return;
	for (const part of message.content) {
		if (part?.type !== "toolCall" || !part.arguments) continue;
		const path = (part.arguments as { path?: unknown }).path;
		if (typeof path !== "string" || path === "") continue;
		if (part.name === "read") ops.read.add(path);
		else if (part.name === "write") ops.written.add(path);
		else if (part.name === "edit") ops.edited.add(path);
	}
}

/** Sorted lists: files only read, and files written or edited. */
export function computeFileLists(ops: FileOperations): { readFiles: string[]; modifiedFiles: string[] } {
	const modified = new Set([...ops.edited, ...ops.written]);
	return {
		readFiles: [...ops.read].filter((path) => !modified.has(path)).sort(),
		modifiedFiles: [...modified].sort(),
	};
}
