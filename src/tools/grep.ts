/**
 * The `grep` tool: searches file contents with ripgrep when it is on PATH, else with our own walker (same
 * .gitignore rules, hidden files included, binary files skipped). Output is `path:N: text` per matching line and
 * `path-N- text` for context lines, paths relative to the searched directory.
 */

import { basename, relative, sep } from "node:path";
import type { Static } from "@sinclair/typebox";
import { statSync } from "../util/index.ts";
import { findRipgrep, throwIfAborted } from "./external.ts";
import { type GrepHit, type GrepSearch, grepNative } from "./grep-native.ts";
import { grepRipgrep } from "./grep-rg.ts";
import { resolveToolPath } from "./paths.ts";
import { grepSchema } from "./schemas.generated.ts";
import { DEFAULT_MAX_BYTES, formatSize, GREP_MAX_LINE_LENGTH, truncateHead, truncateLine } from "./truncate.ts";
import type { BuiltinTool, TruncationResult } from "./types.ts";

export interface GrepOperations {
	/** Whether the path is a directory; throws (e.g. ENOENT) when it does not exist. */
	isDirectory(absolutePath: string): boolean | Promise<boolean>;
	/** Kept for compatibility with pi's interface; not used (context lines come from the search itself). */
	readFile?(absolutePath: string): string | Promise<string>;
	/**
	 * Whether a path that is not a directory is a regular file. FIFOs, devices and sockets are refused rather than
	 * searched (reading one could block forever or never end). Without it, the local filesystem is asked.
	 */
	isRegularFile?(absolutePath: string): boolean | Promise<boolean>;
}

export interface GrepToolOptions {
	operations?: GrepOperations;
	/** Always use the built-in search, even when ripgrep is installed. */
	forceNative?: boolean;
}

export interface GrepToolDetails {
	truncation?: TruncationResult;
	matchLimitReached?: number;
	linesTruncated?: boolean;
}

const DEFAULT_LIMIT = 100;

/** Local answer to "is this a regular file?"; a path that cannot be inspected locally is left to the search. */
function isLocalRegularFile(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return true;
	}
}

const localOperations: GrepOperations = {
	isDirectory: (path) => statSync(path).isDirectory(),
	isRegularFile: isLocalRegularFile,
};

type GrepParams = Static<typeof grepSchema>;

/** Turns hits into output lines, counting matches and bounding the collected text. */
class HitCollector {
	readonly lines: string[] = [];
	matches = 0;
	limitReached = false;
	linesTruncated = false;
	private bytes = 0;
	private lastMatch: { file: string; line: number } | undefined;

	constructor(
		private readonly limit: number,
		private readonly context: number,
		private readonly displayPath: (file: string) => string,
	) {}

	/** Adds a hit; false when the search should stop. */
	add(hit: GrepHit): boolean {
		if (this.limitReached) {
			// Past the limit only the trailing context of the last match is still wanted.
			const last = this.lastMatch;
			if (hit.isMatch || !last || hit.file !== last.file || hit.line > last.line + this.context) return false;
		}
		if (hit.isMatch) {
			this.matches++;
			this.lastMatch = { file: hit.file, line: hit.line };
			if (this.matches >= this.limit) this.limitReached = true;
		}
		const { text, wasTruncated } = truncateLine(hit.text, GREP_MAX_LINE_LENGTH);
		if (wasTruncated) this.linesTruncated = true;
		const path = this.displayPath(hit.file);
		const line = hit.isMatch ? `${path}:${hit.line}: ${text}` : `${path}-${hit.line}- ${text}`;
		this.lines.push(line);
		this.bytes += Buffer.byteLength(line) + 1;
		// Twice the output limit is plenty: the rest would be cut by the byte truncation anyway.
		if (this.bytes > DEFAULT_MAX_BYTES * 2) return false;
		if (this.limitReached && this.lastMatch) {
			if (this.context === 0 || hit.line >= this.lastMatch.line + this.context) return false;
		}
		return true;
	}
}

function toPosix(path: string): string {
	return sep === "/" ? path : path.split(sep).join("/");
}

export function createGrepTool(
	cwd: string,
	options: GrepToolOptions = {},
): BuiltinTool<typeof grepSchema, GrepToolDetails | undefined> {
	const operations = options.operations ?? localOperations;
	return {
		name: "grep",
		label: "grep",
		description:
			"Search file contents for a pattern. Returns matching lines with file paths and line numbers. Respects " +
			`.gitignore. Output is truncated to ${DEFAULT_LIMIT} matches or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is ` +
			`hit first). Long lines are truncated to ${GREP_MAX_LINE_LENGTH} chars.`,
		parameters: grepSchema,
		promptSnippet: "Search file contents for patterns (respects .gitignore)",
		async execute(_toolCallId, params, signal) {
			const p = params as GrepParams;
			throwIfAborted(signal);
			const searchPath = resolveToolPath(p.path || ".", cwd);
			let isDirectory: boolean;
			try {
				isDirectory = await operations.isDirectory(searchPath);
			} catch {
				throw new Error(`Path not found: ${searchPath}`);
			}
			// The search itself always runs here (rg or our own), so a FIFO or device must never reach it.
			const isRegular = operations.isRegularFile ?? isLocalRegularFile;
			if (!isDirectory && !(await isRegular(searchPath))) {
				throw new Error(`Not a regular file (FIFO, device or socket), not searched: ${searchPath}`);
			}
			const limit = Math.max(1, Math.floor(p.limit ?? DEFAULT_LIMIT));
			const context = Math.max(0, Math.floor(p.context ?? 0));
			const displayPath = isDirectory
				? (file: string) => toPosix(relative(searchPath, file)) || basename(file)
				: (file: string) => basename(file);
			const collector = new HitCollector(limit, context, displayPath);
			const search: GrepSearch = {
				searchPath,
				isDirectory,
				pattern: p.pattern,
				ignoreCase: p.ignoreCase === true,
				literal: p.literal === true,
				glob: p.glob || undefined,
				context,
				signal,
				onHit: (hit) => collector.add(hit),
				finished: () => collector.limitReached,
			};
			const rg = options.forceNative ? undefined : findRipgrep();
			if (rg) await grepRipgrep(rg, search);
			else await grepNative(search);
			throwIfAborted(signal);

			if (collector.matches === 0) return { content: [{ type: "text", text: "No matches found" }], details: undefined };
			const truncation = truncateHead(collector.lines.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
			const details: GrepToolDetails = {};
			const notices: string[] = [];
			if (collector.limitReached) {
				notices.push(`${limit} matches limit reached. Use limit=${limit * 2} for more, or refine pattern`);
				details.matchLimitReached = limit;
			}
			if (truncation.truncated) {
				notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
				details.truncation = truncation;
			}
			if (collector.linesTruncated) {
				notices.push(`Some lines truncated to ${GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines`);
				details.linesTruncated = true;
			}
			let text = truncation.content;
			if (notices.length > 0) text += `\n\n[${notices.join(". ")}]`;
			return { content: [{ type: "text", text }], details: Object.keys(details).length > 0 ? details : undefined };
		},
	};
}
