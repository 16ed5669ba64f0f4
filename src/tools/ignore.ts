/**
 * `.gitignore` handling for our own grep/find, used when ripgrep/fd are not installed: parsing the basic syntax
 * (comments, `!` negation, trailing `/` for directories, leading or inner `/` anchoring, `*`, `**`, `?`, `[…]`,
 * backslash escapes) and a walker that honours the rules of every `.gitignore` / `.ignore` file from the search root
 * down (plus those of its ancestors up to the repository root, and `.git/info/exclude`). Like `--hidden`, dotfiles
 * are included; `.git` itself is always skipped. Symlinks are reported but never followed, so loops cannot occur.
 */
import type { Dirent } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { existsSync, fsPromises, readFileSync } from "../util/index.ts";

export interface IgnoreRule {
	regex: RegExp;
	negate: boolean;
	dirOnly: boolean;
}

/** Turns one gitignore glob into a regex body (without anchors) over `/`-separated paths. */
function globBody(glob: string): string {
	let out = "";
	for (let i = 0; i < glob.length; i++) {
		const c = glob[i] as string;
		if (c === "\\" && i + 1 < glob.length) {
			out += escapeChar(glob[++i] as string);
		} else if (c === "*") {
			if (glob[i + 1] === "*") {
				const atSegmentStart = i === 0 || glob[i - 1] === "/";
				const next = glob[i + 2];
				if (atSegmentStart && next === "/") {
					out += "(?:.*/)?";
					i += 2;
					continue;
				}
				if (atSegmentStart && next === undefined) {
					out += ".*";
					i += 1;
					continue;
				}
				while (glob[i + 1] === "*") i++;
			}
			out += "[^/]*";
		} else if (c === "?") {
			out += "[^/]";
		} else if (c === "[") {
			const cls = charClass(glob, i);
			if (cls) {
				out += cls.source;
				i = cls.end;
			} else {
				out += "\\[";
			}
		} else {
			out += escapeChar(c);
		}
	}
	return out;
}

function escapeChar(c: string): string {
	return /[.*+?^${}()|[\]\\/-]/.test(c) ? `\\${c}` : c;
}

/** A `[…]` class starting at `start`, or undefined when it is not closed. */
function charClass(glob: string, start: number): { source: string; end: number } | undefined {
	let i = start + 1;
	let negate = false;
	if (glob[i] === "!" || glob[i] === "^") {
		negate = true;
		i++;
	}
	let body = "";
	let first = true;
	for (; i < glob.length; i++) {
		const c = glob[i] as string;
		if (c === "]" && !first) return { source: `[${negate ? "^" : ""}${body}]`, end: i };
		first = false;
		if (c === "\\" && i + 1 < glob.length) body += `\\${glob[++i]}`;
		else if (c === "-") body += "-";
		else body += /[\]\\^[]/.test(c) ? `\\${c}` : c;
	}
	return undefined;
}

/** Parses one line of an ignore file; undefined for blank lines and comments. */
export function parseIgnoreLine(raw: string): IgnoreRule | undefined {
	let line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
	// Trailing spaces are dropped unless escaped with a backslash.
	line = line.replace(/(?<!\\)[ \t]+$/, "");
	if (!line || line.startsWith("#")) return undefined;
	let negate = false;
	if (line.startsWith("!")) {
		negate = true;
		line = line.slice(1);
	} else if (line.startsWith("\\!") || line.startsWith("\\#")) {
		line = line.slice(1);
	}
	let dirOnly = false;
	while (line.endsWith("/") && !line.endsWith("\\/")) {
		dirOnly = true;
		line = line.slice(0, -1);
	}
	if (!line) return undefined;
	const anchored = line.includes("/");
	if (line.startsWith("/")) line = line.slice(1);
	const body = globBody(line);
	const regex = new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`);
	return { regex, negate, dirOnly };
}

export function parseIgnoreFile(text: string): IgnoreRule[] {
	const rules: IgnoreRule[] = [];
	for (const line of text.split("\n")) {
		const rule = parseIgnoreLine(line);
		if (rule) rules.push(rule);
	}
	return rules;
}

/** The rules of one directory, with how to turn a walk-relative path into a path relative to that directory. */
interface RuleSet {
	rules: IgnoreRule[];
	/** For rules from the walk root or below: the directory relative to the walk root ("" for the root). */
	base?: string;
	/** For rules from above the walk root: the walk root relative to the rule directory. */
	prefix?: string;
}

const IGNORE_FILES = [".gitignore", ".ignore"];

function readRules(dir: string, names: readonly string[]): IgnoreRule[] {
	const rules: IgnoreRule[] = [];
	for (const name of names) {
		try {
			rules.push(...parseIgnoreFile(readFileSync(join(dir, name), "utf8")));
		} catch {
			// No such file (the common case) or unreadable: no rules from it.
		}
	}
	return rules;
}

function toPosix(path: string): string {
	return sep === "/" ? path : path.split(sep).join("/");
}

/** Rule sets from the ancestors of `root`, up to the repository root (the nearest directory holding `.git`). */
function ancestorRuleSets(root: string): RuleSet[] {
	const sets: RuleSet[] = [];
	let dir = root;
	for (;;) {
		const isRepoRoot = existsSync(join(dir, ".git"));
		if (dir !== root) {
			const rules = readRules(dir, IGNORE_FILES);
			if (rules.length > 0) sets.unshift({ rules, prefix: toPosix(relative(dir, root)) });
		}
		if (isRepoRoot) {
			const exclude = readRules(join(dir, ".git", "info"), ["exclude"]);
			if (exclude.length > 0) sets.unshift({ rules: exclude, prefix: toPosix(relative(dir, root)) });
			break;
		}
		const parent = dirname(dir);
		if (parent === dir) break;
		dir = parent;
	}
	return sets;
}

/** Whether `rel` (relative to the walk root) is ignored; deeper rule sets and later rules win. */
export function isIgnored(sets: readonly RuleSet[], rel: string, isDir: boolean): boolean {
	for (let s = sets.length - 1; s >= 0; s--) {
		const set = sets[s] as RuleSet;
		let path: string;
		if (set.prefix !== undefined) path = set.prefix ? `${set.prefix}/${rel}` : rel;
		else if (!set.base) path = rel;
		else if (rel.startsWith(`${set.base}/`)) path = rel.slice(set.base.length + 1);
		else continue;
		for (let r = set.rules.length - 1; r >= 0; r--) {
			const rule = set.rules[r] as IgnoreRule;
			if (rule.dirOnly && !isDir) continue;
			if (rule.regex.test(path)) return !rule.negate;
		}
	}
	return false;
}

export interface WalkEntry {
	/** Absolute path. */
	path: string;
	/** Path relative to the walk root, `/`-separated. */
	rel: string;
	name: string;
	kind: "file" | "directory" | "symlink" | "other";
}

export interface WalkOptions {
	signal?: AbortSignal;
	/** Apply .gitignore/.ignore rules (default true). */
	respectIgnore?: boolean;
	/**
	 * Decides before the ignore rules (like ripgrep's `--glob`): true keeps the entry even if ignored, false drops
	 * it, undefined leaves it to the rules.
	 */
	override?: (rel: string, name: string, isDir: boolean) => boolean | undefined;
}

async function entryKind(dir: string, entry: Dirent): Promise<WalkEntry["kind"]> {
	if (entry.isSymbolicLink()) return "symlink";
	if (entry.isDirectory()) return "directory";
	if (entry.isFile()) return "file";
	try {
		// Some file systems do not report types in readdir.
		const stats = await fsPromises().lstat(join(dir, entry.name));
		if (stats.isSymbolicLink()) return "symlink";
		if (stats.isDirectory()) return "directory";
		return stats.isFile() ? "file" : "other";
	} catch {
		// Vanished while walking.
		return "other";
	}
}

/**
 * Depth-first walk below `root` (not including it), entries sorted by name. Stop early by breaking out of the
 * loop; unreadable directories are skipped.
 */
export async function* walkTree(root: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
	const respect = options.respectIgnore ?? true;
	const inherited = respect ? ancestorRuleSets(root) : [];
	type Frame = { dir: string; rel: string; sets: RuleSet[] };
	const stack: Frame[] = [{ dir: root, rel: "", sets: inherited }];
	while (stack.length > 0) {
		if (options.signal?.aborted) throw new Error("Operation aborted");
		const frame = stack.pop() as Frame;
		let entries: Dirent[];
		try {
			entries = await fsPromises().readdir(frame.dir, { withFileTypes: true });
		} catch {
			// Permission denied or removed meanwhile: skip this directory.
			continue;
		}
		let sets = frame.sets;
		if (respect && entries.some((e) => IGNORE_FILES.includes(e.name))) {
			const rules = readRules(frame.dir, IGNORE_FILES);
			if (rules.length > 0) sets = [...sets, { rules, base: frame.rel }];
		}
		entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
		const subdirs: Frame[] = [];
		for (const entry of entries) {
			if (entry.name === ".git") continue;
			const kind = await entryKind(frame.dir, entry);
			const rel = frame.rel ? `${frame.rel}/${entry.name}` : entry.name;
			const isDir = kind === "directory";
			const decided = options.override?.(rel, entry.name, isDir);
			if (decided === false) continue;
			if (decided === undefined && respect && isIgnored(sets, rel, isDir)) continue;
			const path = join(frame.dir, entry.name);
			yield { path, rel, name: entry.name, kind };
			if (isDir) subdirs.push({ dir: path, rel, sets });
		}
		// Reverse so the stack pops subdirectories in name order.
		for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i] as Frame);
	}
}
