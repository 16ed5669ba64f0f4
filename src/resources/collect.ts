/**
 * Finding resource files on disk. Folders are read in name order; entries starting with `.` and `node_modules`
 * are skipped; symlinks are followed (broken ones skipped).
 */

import { basename, extname, join, resolve } from "node:path";
import { existsSync, readdirSync, realpathSync, statSync } from "../util/index.ts";

export type EntryKind = "file" | "dir" | "missing";

export function kindOf(path: string): EntryKind {
	try {
		const stat = statSync(path);
		return stat.isDirectory() ? "dir" : stat.isFile() ? "file" : "missing";
	} catch {
		// Missing or a broken symlink: both mean "nothing usable here".
		return "missing";
	}
}

/** Canonical form of a path for de-duplication: symlinks resolved when it exists, else just absolute. */
export function canonicalPath(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		// Not there (yet): the absolute path is the best identity available.
		return resolve(path);
	}
}

function entries(dir: string): { path: string; name: string; kind: EntryKind }[] {
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		// Unreadable or missing folder: it contributes nothing.
		return [];
	}
	return names
		.filter((name) => !name.startsWith(".") && name !== "node_modules")
		.sort()
		.map((name) => ({ path: join(dir, name), name, kind: kindOf(join(dir, name)) }));
}

/**
 * Skill files under a folder. A folder holding `SKILL.md` is one skill and is not searched further; otherwise its
 * sub-folders are searched for `SKILL.md`, and, at the top level only when `rootMarkdown` is set, loose `.md`
 * files are skills too.
 */
export function collectSkillFiles(dir: string, rootMarkdown: boolean): string[] {
	const found = entries(dir);
	const skillFile = found.find((e) => e.name === "SKILL.md" && e.kind === "file");
	if (skillFile) return [skillFile.path];
	const out: string[] = [];
	for (const entry of found) {
		if (entry.kind === "dir") out.push(...collectSkillFiles(entry.path, false));
		else if (rootMarkdown && entry.kind === "file" && extname(entry.name) === ".md") out.push(entry.path);
	}
	return out;
}

/** Files with the given extension in a folder; sub-folders too when `recursive`. */
export function collectFilesByExtension(dir: string, extension: string, recursive: boolean): string[] {
	const out: string[] = [];
	for (const entry of entries(dir)) {
		if (entry.kind === "dir" && recursive) out.push(...collectFilesByExtension(entry.path, extension, true));
		else if (entry.kind === "file" && extname(entry.name) === extension) out.push(entry.path);
	}
	return out;
}

/** The nearest folder at or above `start` that contains `.git` (a folder or a worktree file), if any. */
export function findGitRoot(start: string): string | undefined {
	for (let dir = resolve(start); ; ) {
		if (existsSync(join(dir, ".git"))) return dir;
		const parent = resolve(dir, "..");
		if (parent === dir) return undefined;
		dir = parent;
	}
}

/** `start` and its ancestors, nearest first, ending at `stop` (inclusive) or the filesystem root. */
export function ancestorsUpTo(start: string, stop?: string): string[] {
	const out: string[] = [];
	for (let dir = resolve(start); ; ) {
		out.push(dir);
		if (stop !== undefined && dir === stop) return out;
		const parent = resolve(dir, "..");
		if (parent === dir) return out;
		dir = parent;
	}
}

export function stem(path: string): string {
	const name = basename(path);
	const ext = extname(name);
	return ext ? name.slice(0, -ext.length) : name;
}
