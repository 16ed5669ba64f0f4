/**
 * File search for `@` completion: through `fd` when the host gives its path (as pi does), otherwise our own
 * breadth-first directory walk, so completion works on machines without fd. Results are paths relative to the base
 * directory, directories with a trailing `/`.
 */
import type { Dirent } from "node:fs";
import { join } from "node:path";
import { childProcess, readdirSync, readFileSync, statSync } from "../util/index.ts";

export interface FoundPath {
	path: string;
	isDirectory: boolean;
}

export interface FileSearch {
	baseDir: string;
	query: string;
	maxResults: number;
	signal: AbortSignal;
	/** 1 = only the base directory's own entries. */
	maxDepth?: number;
}

const toDisplayPath = (value: string) => value.replace(/\\/g, "/");
const escapeRegex = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** fd's pattern for a query: with a `/`, its segments joined by either separator (matched on the full path). */
function fdPattern(query: string): string {
	const normalized = toDisplayPath(query);
	if (!normalized.includes("/")) return normalized;
	const trimmed = normalized.replace(/^\/+|\/+$/g, "");
	const segments = trimmed.split("/").filter(Boolean).map(escapeRegex);
	if (segments.length === 0) return normalized;
	return segments.join("[\\\\/]") + (normalized.endsWith("/") ? "[\\\\/]" : "");
}

function isGitPath(path: string): boolean {
	return path === ".git" || path.startsWith(".git/") || path.includes("/.git/");
}

export function searchWithFd(fdPath: string, search: FileSearch): Promise<FoundPath[]> {
	const args = ["--base-directory", search.baseDir, "--max-results", String(search.maxResults)];
	args.push("--type", "f", "--type", "d", "--follow", "--hidden");
	args.push("--exclude", ".git", "--exclude", ".git/*", "--exclude", ".git/**");
	if (search.maxDepth !== undefined) args.push("--max-depth", String(search.maxDepth));
	if (toDisplayPath(search.query).includes("/")) args.push("--full-path");
	if (search.query) args.push(fdPattern(search.query));
	return new Promise((resolve) => {
		if (search.signal.aborted) return resolve([]);
		const child = childProcess().spawn(fdPath, args, { stdio: ["ignore", "pipe", "pipe"] });
		let stdout = "";
		let done = false;
		const onAbort = () => {
			if (child.exitCode === null) child.kill("SIGKILL");
		};
		const finish = (found: FoundPath[]) => {
			if (done) return;
			done = true;
			search.signal.removeEventListener("abort", onAbort);
			resolve(found);
		};
		search.signal.addEventListener("abort", onAbort, { once: true });
		child.stdout.setEncoding("utf-8");
		child.stdout.on("data", (chunk: string) => {
			stdout += chunk;
		});
		child.on("error", () => finish([]));
		child.on("close", (code) => {
			if (search.signal.aborted || code !== 0 || !stdout) return finish([]);
			const found: FoundPath[] = [];
			for (const line of stdout.trim().split("\n").filter(Boolean)) {
				const path = toDisplayPath(line);
				const isDirectory = path.endsWith("/");
				if (!isGitPath(isDirectory ? path.slice(0, -1) : path)) found.push({ path, isDirectory });
			}
			finish(found);
		});
	});
}

/** One .gitignore rule, anchored at the directory holding the file. */
interface IgnoreRule {
	base: string;
	regex: RegExp;
	dirOnly: boolean;
	/** Matches the entry name at any depth (no slash in the pattern). */
	anyDepth: boolean;
}

function globToRegex(glob: string): RegExp {
	let out = "";
	for (let i = 0; i < glob.length; i++) {
		const c = glob[i] as string;
		if (c === "*") {
			if (glob[i + 1] === "*") {
				out += ".*";
				i++;
				if (glob[i + 1] === "/") i++;
			} else out += "[^/]*";
		} else if (c === "?") out += "[^/]";
		else out += escapeRegex(c);
	}
	return new RegExp(`^${out}$`);
}

function readIgnoreRules(dir: string, base: string): IgnoreRule[] {
	let text: string;
	try {
		text = readFileSync(join(dir, ".gitignore"), "utf8");
	} catch {
		return [];
	}
	const rules: IgnoreRule[] = [];
	for (const raw of text.split(/\r?\n/)) {
		let line = raw.trim();
		// Negations are not supported by this simple reader; they are skipped rather than misread.
		if (!line || line.startsWith("#") || line.startsWith("!")) continue;
		const dirOnly = line.endsWith("/");
		if (dirOnly) line = line.slice(0, -1);
		const anyDepth = !line.includes("/");
		line = line.replace(/^\//, "");
		if (line) rules.push({ base, regex: globToRegex(line), dirOnly, anyDepth });
	}
	return rules;
}

function ignored(rules: IgnoreRule[], path: string, name: string, isDirectory: boolean): boolean {
	for (const rule of rules) {
		if (rule.dirOnly && !isDirectory) continue;
		if (rule.base && !path.startsWith(`${rule.base}/`)) continue;
		const local = rule.base ? path.slice(rule.base.length + 1) : path;
		if (rule.anyDepth ? rule.regex.test(name) : rule.regex.test(local)) return true;
	}
	return false;
}

const SKIPPED_DIRS = new Set([".git", "node_modules"]);

/**
 * Our stand-in for fd: a breadth-first walk (shallow entries first) that skips `.git` and `node_modules`, honours
 * simple .gitignore rules, follows symlinked directories once, and matches the query as fd would (smart case; on the
 * entry name, or on the whole path when the query has a `/`).
 */
export async function searchByWalking(search: FileSearch): Promise<FoundPath[]> {
	const query = toDisplayPath(search.query);
	const caseSensitive = query !== query.toLowerCase();
	const needle = caseSensitive ? query : query.toLowerCase();
	const fullPath = query.includes("/");
	const pattern = fullPath ? new RegExp(fdPattern(query), caseSensitive ? "" : "i") : undefined;
	const matches = (path: string, name: string) => {
		if (!query) return true;
		if (pattern) return pattern.test(path);
		return (caseSensitive ? name : name.toLowerCase()).includes(needle);
	};
	const found: FoundPath[] = [];
	const seen = new Set<string>();
	let queue: { dir: string; rel: string; rules: IgnoreRule[] }[] = [{ dir: search.baseDir, rel: "", rules: [] }];
	let depth = 0;
	let visited = 0;
	while (queue.length > 0 && found.length < search.maxResults) {
		depth++;
		const next: typeof queue = [];
		for (const { dir, rel, rules: inherited } of queue) {
			if (search.signal.aborted) return [];
			// Yield now and then so a large tree does not block typing.
			if (++visited % 200 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
			const rules = [...inherited, ...readIgnoreRules(dir, rel)];
			let entries: Dirent[];
			try {
				entries = readdirSync(dir, { withFileTypes: true });
			} catch {
				continue;
			}
			entries.sort((a, b) => a.name.localeCompare(b.name));
			for (const entry of entries) {
				const path = rel ? `${rel}/${entry.name}` : entry.name;
				const full = join(dir, entry.name);
				let isDirectory = entry.isDirectory();
				if (entry.isSymbolicLink()) {
					try {
						isDirectory = statSync(full).isDirectory();
					} catch {
						continue;
					}
				}
				if (isDirectory && SKIPPED_DIRS.has(entry.name)) continue;
				if (ignored(rules, path, entry.name, isDirectory)) continue;
				if (matches(path, entry.name)) {
					found.push({ path: isDirectory ? `${path}/` : path, isDirectory });
					if (found.length >= search.maxResults) break;
				}
				if (isDirectory && (search.maxDepth === undefined || depth < search.maxDepth)) {
					let key = full;
					try {
						key = `${statSync(full).ino}:${statSync(full).dev}`;
					} catch {}
					if (!seen.has(key)) {
						seen.add(key);
						next.push({ dir: full, rel: path, rules });
					}
				}
			}
			if (found.length >= search.maxResults) break;
		}
		queue = next;
	}
	return found;
}
