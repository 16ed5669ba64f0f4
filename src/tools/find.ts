/**
 * The `find` tool: lists files and directories whose name (or, for patterns with a `/`, whose path) matches a glob.
 * Uses fd when it is on PATH, else our own walker with the same .gitignore handling as grep. Results are paths
 * relative to the searched directory, `/`-separated, directories with a trailing `/`.
 */

import { isAbsolute, relative, sep } from "node:path";
import { childProcess, existsSync, matchGlob } from "../util/index.ts";
import { findFd, throwIfAborted } from "./external.ts";
import { walkTree } from "./ignore.ts";
import { resolveToolPath } from "./paths.ts";
import { findSchema } from "./schemas.generated.ts";
import { DEFAULT_MAX_BYTES, formatSize, truncateHead } from "./truncate.ts";
import type { BuiltinTool, TruncationResult } from "./types.ts";

export interface FindOperations {
	exists(absolutePath: string): boolean | Promise<boolean>;
	/**
	 * Custom matching (e.g. on a remote machine): paths matching `pattern` below `searchPath`, absolute or relative
	 * to it, directories optionally with a trailing `/`. When absent, fd or the built-in walker is used.
	 */
	glob?(
		pattern: string,
		searchPath: string,
		options: { ignore: string[]; limit: number },
	): string[] | Promise<string[]>;
}

export interface FindToolOptions {
	operations?: FindOperations;
	/** Always use the built-in walker, even when fd is installed. */
	forceNative?: boolean;
}

export interface FindToolDetails {
	truncation?: TruncationResult;
	resultLimitReached?: number;
}

const DEFAULT_LIMIT = 1000;

const localOperations: FindOperations = { exists: (path) => existsSync(path) };

function toPosix(path: string): string {
	return sep === "/" ? path : path.split(sep).join("/");
}

/** `path` (absolute or relative to `searchPath`) as a relative POSIX path, keeping a trailing `/`. */
function displayPath(path: string, searchPath: string): string {
	const isDir = path.endsWith("/") || path.endsWith("\\");
	const bare = isDir ? path.slice(0, -1) : path;
	const rel = toPosix(isAbsolute(bare) ? relative(searchPath, bare) : bare);
	return isDir ? `${rel}/` : rel;
}

/** Patterns with a `/` match the whole path, so they get a `**\/` prefix unless already rooted. */
function fullPathPattern(pattern: string): string | undefined {
	if (!pattern.includes("/")) return undefined;
	return pattern.startsWith("/") || pattern.startsWith("**/") ? pattern : `**/${pattern}`;
}

async function findNative(
	pattern: string,
	searchPath: string,
	limit: number,
	signal: AbortSignal | undefined,
): Promise<string[]> {
	const full = fullPathPattern(pattern);
	const results: string[] = [];
	for await (const entry of walkTree(searchPath, { signal })) {
		const matched = full ? matchGlob(full, toPosix(entry.path)) : matchGlob(pattern, entry.name);
		if (!matched) continue;
		results.push(entry.kind === "directory" ? `${entry.rel}/` : entry.rel);
		if (results.length >= limit) break;
	}
	return results;
}

function findWithFd(
	fd: string,
	pattern: string,
	searchPath: string,
	limit: number,
	signal: AbortSignal | undefined,
): Promise<string[]> {
	const full = fullPathPattern(pattern);
	const args = ["--glob", "--color=never", "--hidden", "--no-require-git", "--exclude", ".git"];
	args.push("--max-results", String(limit));
	if (full) args.push("--full-path");
	args.push("--", full ?? pattern, searchPath);
	return new Promise((resolve, reject) => {
		const child = childProcess().spawn(fd, args, { stdio: ["ignore", "pipe", "pipe"] });
		const out: Buffer[] = [];
		let stderr = "";
		const onAbort = () => child.kill("SIGKILL");
		signal?.addEventListener("abort", onAbort, { once: true });
		child.stdout.on("data", (data: Buffer) => out.push(data));
		child.stderr.on("data", (data: Buffer) => {
			if (stderr.length < 16384) stderr += data.toString("utf8");
		});
		child.once("error", (err) => {
			signal?.removeEventListener("abort", onAbort);
			reject(err);
		});
		child.once("close", (code) => {
			signal?.removeEventListener("abort", onAbort);
			if (signal?.aborted) return reject(new Error("Operation aborted"));
			if (code !== 0) return reject(new Error(stderr.trim() || `fd exited with code ${code}`));
			const lines = Buffer.concat(out).toString("utf8").split("\n");
			resolve(lines.map((l) => l.replace(/\r$/, "")).filter((l) => l.length > 0));
		});
	});
}

export function createFindTool(
	cwd: string,
	options: FindToolOptions = {},
): BuiltinTool<typeof findSchema, FindToolDetails | undefined> {
	const operations = options.operations ?? localOperations;
	return {
		name: "find",
		label: "find",
		description:
			"Search for files by glob pattern. Returns matching file paths relative to the search directory. " +
			`Respects .gitignore. Output is truncated to ${DEFAULT_LIMIT} results or ${DEFAULT_MAX_BYTES / 1024}KB ` +
			"(whichever is hit first).",
		parameters: findSchema,
		promptSnippet: "Find files by glob pattern (respects .gitignore)",
		async execute(_toolCallId, params, signal) {
			const p = params as { pattern: string; path?: string; limit?: number };
			throwIfAborted(signal);
			const searchPath = resolveToolPath(p.path || ".", cwd);
			if (!(await operations.exists(searchPath))) throw new Error(`Path not found: ${searchPath}`);
			const limit = Math.max(1, Math.floor(p.limit ?? DEFAULT_LIMIT));

			let found: string[];
			const fd = options.forceNative ? undefined : findFd();
			if (operations.glob) {
				const ignore = ["**/node_modules/**", "**/.git/**"];
				found = (await operations.glob(p.pattern, searchPath, { ignore, limit })).slice(0, limit);
			} else if (fd) {
				found = await findWithFd(fd, p.pattern, searchPath, limit, signal);
			} else {
				found = await findNative(p.pattern, searchPath, limit, signal);
			}
			throwIfAborted(signal);
			if (found.length === 0) {
				return { content: [{ type: "text", text: "No files found matching pattern" }], details: undefined };
			}

			const paths = found.map((path) => displayPath(path, searchPath));
			paths.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
			const truncation = truncateHead(paths.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
			const details: FindToolDetails = {};
			const notices: string[] = [];
			if (found.length >= limit) {
				notices.push(`${limit} results limit reached. Use limit=${limit * 2} for more, or refine pattern`);
				details.resultLimitReached = limit;
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
