/**
 * The `ls` tool: one directory's entries, dotfiles included, sorted case-insensitively, directories marked with a
 * trailing `/`.
 */

import { join } from "node:path";
import { errorMessage, existsSync, readdirSync, statSync } from "../util/index.ts";
import { throwIfAborted } from "./external.ts";
import { resolveToolPath } from "./paths.ts";
import { lsSchema } from "./schemas.generated.ts";
import { DEFAULT_MAX_BYTES, formatSize, truncateHead } from "./truncate.ts";
import type { BuiltinTool, TruncationResult } from "./types.ts";

export interface LsOperations {
	exists(absolutePath: string): boolean | Promise<boolean>;
	/** Follows symlinks; throws when the path cannot be inspected. */
	stat(absolutePath: string): { isDirectory(): boolean } | Promise<{ isDirectory(): boolean }>;
	/** Entry names (not paths). */
	readdir(absolutePath: string): string[] | Promise<string[]>;
}

export interface LsToolOptions {
	operations?: LsOperations;
}

export interface LsToolDetails {
	truncation?: TruncationResult;
	entryLimitReached?: number;
}

const DEFAULT_LIMIT = 500;

const localOperations: LsOperations = {
	exists: (path) => existsSync(path),
	stat: (path) => statSync(path),
	readdir: (path) => readdirSync(path),
};

export function createLsTool(
	cwd: string,
	options: LsToolOptions = {},
): BuiltinTool<typeof lsSchema, LsToolDetails | undefined> {
	const operations = options.operations ?? localOperations;
	return {
		name: "ls",
		label: "ls",
		description:
			"List directory contents. Returns entries sorted alphabetically, with '/' suffix for directories. " +
			`Includes dotfiles. Output is truncated to ${DEFAULT_LIMIT} entries or ${DEFAULT_MAX_BYTES / 1024}KB ` +
			"(whichever is hit first).",
		parameters: lsSchema,
		promptSnippet: "List directory contents",
		async execute(_toolCallId, params, signal) {
			const p = params as { path?: string; limit?: number };
			throwIfAborted(signal);
			const dir = resolveToolPath(p.path || ".", cwd);
			const limit = Math.max(1, Math.floor(p.limit ?? DEFAULT_LIMIT));
			if (!(await operations.exists(dir))) throw new Error(`Path not found: ${dir}`);
			if (!(await operations.stat(dir)).isDirectory()) throw new Error(`Not a directory: ${dir}`);
			let names: string[];
			try {
				names = await operations.readdir(dir);
			} catch (err) {
				throw new Error(`Cannot read directory: ${errorMessage(err)}`);
			}
			names.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));

			const lines: string[] = [];
			for (const name of names) {
				if (lines.length >= limit) break;
				throwIfAborted(signal);
				let isDir = false;
				try {
					isDir = (await operations.stat(join(dir, name))).isDirectory();
				} catch {
					// A dangling symlink or an entry that vanished: list it without the directory mark.
				}
				lines.push(isDir ? `${name}/` : name);
			}
			if (lines.length === 0) return { content: [{ type: "text", text: "(empty directory)" }], details: undefined };

			const truncation = truncateHead(lines.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
			const details: LsToolDetails = {};
			const notices: string[] = [];
			if (names.length > limit) {
				notices.push(`${limit} entries limit reached. Use limit=${limit * 2} for more`);
				details.entryLimitReached = limit;
			}
			if (truncation.truncated) {
				notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
				details.truncation = truncation;
			}
			let text = truncation.content;
			if (notices.length > 0) text += `\n\n[${notices.join(". ")}]`;
			return { content: [{ type: "text", text }], details: Object.keys(details).length > 0 ? details : undefined };
		},
	};
}
