/**
 * CombinedAutocompleteProvider: pi-tui's standard provider. `/` completes command names (fuzzy; `skill:` names match
 * without their prefix) and then their arguments; `@` searches files below the base directory (fd or our own walk);
 * Tab completes a path from a directory listing.
 */
import { basename, dirname, join } from "node:path";
import { os, readdirSync, statSync } from "../util/index.ts";
import type { AutocompleteItem, AutocompleteProvider, AutocompleteSuggestions, SlashCommand } from "./autocomplete.ts";
import { type FoundPath, searchByWalking, searchWithFd } from "./autocomplete-files.ts";
import { fuzzyFilter } from "./fuzzy.ts";
import { autocompleteBoundaryRegex, autocompleteSeparatorRegex } from "./text-edit.ts";

const PATH_DELIMITERS = new Set([" ", "\t", '"', "'", "="]);
const tokenStartRegex = new RegExp(`${autocompleteBoundaryRegex.source}$`, "u");
const MAX_SEARCH_RESULTS = 100;
const MAX_FILE_SUGGESTIONS = 20;
const toDisplayPath = (value: string) => value.replace(/\\/g, "/");

function lastDelimiter(text: string): number {
	let last = -1;
	let index = 0;
	for (const ch of text) {
		index += ch.length;
		if (PATH_DELIMITERS.has(ch) || autocompleteSeparatorRegex.test(ch)) last = index - 1;
	}
	return last;
}

function unclosedQuoteStart(text: string): number | null {
	let open = false;
	let start = -1;
	for (let i = 0; i < text.length; i++) {
		if (text[i] !== '"') continue;
		open = !open;
		if (open) start = i;
	}
	return open ? start : null;
}

function isTokenStart(text: string, index: number): boolean {
	return PATH_DELIMITERS.has(text[index - 1] ?? "") || tokenStartRegex.test(text.slice(0, index));
}

/** An open quoted token at the end of `text` (`"…` or `@"…`), if it starts a token. */
function quotedPrefix(text: string): string | null {
	const quote = unclosedQuoteStart(text);
	if (quote === null) return null;
	if (quote > 0 && text[quote - 1] === "@") return isTokenStart(text, quote - 1) ? text.slice(quote - 1) : null;
	return isTokenStart(text, quote) ? text.slice(quote) : null;
}

function parsePathPrefix(prefix: string): { rawPrefix: string; isAtPrefix: boolean; isQuotedPrefix: boolean } {
	if (prefix.startsWith('@"')) return { rawPrefix: prefix.slice(2), isAtPrefix: true, isQuotedPrefix: true };
	if (prefix.startsWith('"')) return { rawPrefix: prefix.slice(1), isAtPrefix: false, isQuotedPrefix: true };
	if (prefix.startsWith("@")) return { rawPrefix: prefix.slice(1), isAtPrefix: true, isQuotedPrefix: false };
	return { rawPrefix: prefix, isAtPrefix: false, isQuotedPrefix: false };
}

/** The inserted text for a path: `@` kept, quoted when the prefix was or when the path has a separator in it. */
function completionValue(path: string, isAtPrefix: boolean, isQuotedPrefix: boolean): string {
	const at = isAtPrefix ? "@" : "";
	return isQuotedPrefix || autocompleteSeparatorRegex.test(path) ? `${at}"${path}"` : `${at}${path}`;
}

function expandHome(path: string): string {
	if (path === "~") return os().homedir();
	if (!path.startsWith("~/")) return path;
	const expanded = join(os().homedir(), path.slice(2));
	return path.endsWith("/") && !expanded.endsWith("/") ? `${expanded}/` : expanded;
}

/** How well a found path answers the query: exact name, name prefix, name substring, path substring. */
function scoreEntry(path: string, query: string, isDirectory: boolean): number {
	const name = basename(path).toLowerCase();
	const q = query.toLowerCase();
	let score = 0;
	if (name === q) score = 100;
	else if (name.startsWith(q)) score = 80;
	else if (name.includes(q)) score = 50;
	else if (path.toLowerCase().includes(q)) score = 30;
	return isDirectory && score > 0 ? score + 10 : score;
}

const depthOf = (path: string) => toDisplayPath(path).split("/").filter(Boolean).length;

function replaceLine(lines: string[], line: number, text: string): string[] {
	const next = [...lines];
	next[line] = text;
	return next;
}

export class CombinedAutocompleteProvider implements AutocompleteProvider {
	private commands: (AutocompleteItem | SlashCommand)[];
	private basePath: string;
	private fdPath: string | null;

	constructor(commands: (AutocompleteItem | SlashCommand)[] = [], basePath: string, fdPath: string | null = null) {
		this.commands = commands;
		this.basePath = basePath;
		this.fdPath = fdPath;
	}

	async getSuggestions(
		lines: string[],
		cursorLine: number,
		cursorCol: number,
		options: { signal: AbortSignal; force?: boolean },
	): Promise<AutocompleteSuggestions | null> {
		const before = (lines[cursorLine] || "").slice(0, cursorCol);
		const atPrefix = this.extractAtPrefix(before);
		if (atPrefix) {
			const { rawPrefix, isQuotedPrefix } = parsePathPrefix(atPrefix);
			const items = await this.fuzzyFileSuggestions(rawPrefix, isQuotedPrefix, options.signal);
			return items.length > 0 ? { items, prefix: atPrefix } : null;
		}
		if (!options.force && before.startsWith("/")) return this.commandSuggestions(before);
		const pathPrefix = this.extractPathPrefix(before, options.force ?? false);
		if (pathPrefix === null) return null;
		const items = this.getFileSuggestions(pathPrefix);
		return items.length > 0 ? { items, prefix: pathPrefix } : null;
	}

	private async commandSuggestions(before: string): Promise<AutocompleteSuggestions | null> {
		const space = before.indexOf(" ");
		const nameOf = (cmd: AutocompleteItem | SlashCommand) => ("name" in cmd ? cmd.name : cmd.value);
		if (space === -1) {
			const prefix = before.slice(1);
			const candidates = this.commands.map((cmd) => {
				const hint = "argumentHint" in cmd && cmd.argumentHint ? cmd.argumentHint : undefined;
				const desc = cmd.description ?? "";
				const description = hint ? (desc ? `${hint} — ${desc}` : hint) : desc;
				return { name: nameOf(cmd), description: description || undefined };
			});
			// Skill commands match on their bare name unless the user is typing `skill:` already.
			const key = (c: { name: string }) =>
				!prefix.startsWith("skill:") && c.name.startsWith("skill:") ? c.name.slice("skill:".length) : c.name;
			const items: AutocompleteItem[] = fuzzyFilter(candidates, prefix, key).map((c) => ({
				value: c.name,
				label: c.name,
				...(c.description && { description: c.description }),
			}));
			return items.length > 0 ? { items, prefix: before } : null;
		}
		const command = this.commands.find((cmd) => nameOf(cmd) === before.slice(1, space));
		if (!command || !("getArgumentCompletions" in command) || !command.getArgumentCompletions) return null;
		const argument = before.slice(space + 1);
		const items = await command.getArgumentCompletions(argument);
		return Array.isArray(items) && items.length > 0 ? { items, prefix: argument } : null;
	}

	applyCompletion(
		lines: string[],
		cursorLine: number,
		cursorCol: number,
		item: AutocompleteItem,
		prefix: string,
	): { lines: string[]; cursorLine: number; cursorCol: number } {
		const line = lines[cursorLine] || "";
		const beforePrefix = line.slice(0, cursorCol - prefix.length);
		let after = line.slice(cursorCol);
		// Completing inside quotes: the item brings its closing quote, so drop the one already there.
		if ((prefix.startsWith('"') || prefix.startsWith('@"')) && item.value.endsWith('"') && after.startsWith('"')) {
			after = after.slice(1);
		}
		if (prefix.startsWith("/") && beforePrefix.trim() === "" && !prefix.slice(1).includes("/")) {
			return {
				lines: replaceLine(lines, cursorLine, `${beforePrefix}/${item.value} ${after}`),
				cursorLine,
				cursorCol: beforePrefix.length + item.value.length + 2,
			};
		}
		const isDirectory = item.label.endsWith("/");
		// A completed directory leaves the cursor before its closing quote, ready for more path.
		const offset = isDirectory && item.value.endsWith('"') ? item.value.length - 1 : item.value.length;
		const suffix = prefix.startsWith("@") && !isDirectory ? " " : "";
		return {
			lines: replaceLine(lines, cursorLine, beforePrefix + item.value + suffix + after),
			cursorLine,
			cursorCol: beforePrefix.length + offset + suffix.length,
		};
	}

	/** Tab completes files except while a slash command name is being typed. */
	shouldTriggerFileCompletion(lines: string[], cursorLine: number, cursorCol: number): boolean {
		const before = (lines[cursorLine] || "").slice(0, cursorCol).trim();
		return !(before.startsWith("/") && !before.includes(" "));
	}

	private extractAtPrefix(text: string): string | null {
		const quoted = quotedPrefix(text);
		if (quoted?.startsWith('@"')) return quoted;
		const start = lastDelimiter(text) + 1;
		return text[start] === "@" ? text.slice(start) : null;
	}

	private extractPathPrefix(text: string, force: boolean): string | null {
		const quoted = quotedPrefix(text);
		if (quoted) return quoted;
		const delimiter = lastDelimiter(text);
		const prefix = delimiter === -1 ? text : text.slice(delimiter + 1);
		if (force) return prefix;
		if (prefix.includes("/") || prefix.startsWith(".") || prefix.startsWith("~/")) return prefix;
		if (prefix === "" && text !== "" && tokenStartRegex.test(text)) return prefix;
		return null;
	}

	/** Entries of the directory named by the prefix whose names start with its last part; directories first. */
	private getFileSuggestions(prefix: string): AutocompleteItem[] {
		try {
			const { rawPrefix, isAtPrefix, isQuotedPrefix } = parsePathPrefix(prefix);
			const expanded = rawPrefix.startsWith("~") ? expandHome(rawPrefix) : rawPrefix;
			const absolute = rawPrefix.startsWith("~") || expanded.startsWith("/");
			const resolve = (dir: string) => (absolute ? dir : join(this.basePath, dir));
			const isRoot = ["", "./", "../", "~", "~/", "/"].includes(rawPrefix);
			let searchDir: string;
			let searchPrefix = "";
			if (isRoot || rawPrefix.endsWith("/")) searchDir = resolve(expanded);
			else {
				searchDir = resolve(dirname(expanded));
				searchPrefix = basename(expanded);
			}
			const items: AutocompleteItem[] = [];
			for (const entry of readdirSync(searchDir, { withFileTypes: true })) {
				if (!entry.name.toLowerCase().startsWith(searchPrefix.toLowerCase())) continue;
				let isDirectory = entry.isDirectory();
				if (!isDirectory && entry.isSymbolicLink()) {
					try {
						isDirectory = statSync(join(searchDir, entry.name)).isDirectory();
					} catch {}
				}
				const path = toDisplayPath(this.displayPath(rawPrefix, entry.name));
				items.push({
					value: completionValue(isDirectory ? `${path}/` : path, isAtPrefix, isQuotedPrefix),
					label: entry.name + (isDirectory ? "/" : ""),
				});
			}
			items.sort((a, b) => {
				const aDir = a.label.endsWith("/");
				const bDir = b.label.endsWith("/");
				if (aDir !== bDir) return aDir ? -1 : 1;
				return a.label.localeCompare(b.label);
			});
			return items;
		} catch {
			return [];
		}
	}

	/** The path as the user would write it: their prefix's directory part followed by the entry name. */
	private displayPath(rawPrefix: string, name: string): string {
		if (rawPrefix.endsWith("/")) return rawPrefix + name;
		if (rawPrefix.includes("/") || rawPrefix.includes("\\")) {
			if (rawPrefix.startsWith("~/")) {
				const dir = dirname(rawPrefix.slice(2));
				return `~/${dir === "." ? name : join(dir, name)}`;
			}
			if (rawPrefix.startsWith("/")) {
				const dir = dirname(rawPrefix);
				return dir === "/" ? `/${name}` : `${dir}/${name}`;
			}
			const path = join(dirname(rawPrefix), name);
			return rawPrefix.startsWith("./") && !path.startsWith("./") ? `./${path}` : path;
		}
		return rawPrefix.startsWith("~") ? `~/${name}` : name;
	}

	private search(baseDir: string, query: string, signal: AbortSignal, maxDepth?: number): Promise<FoundPath[]> {
		const search = { baseDir, query, maxResults: MAX_SEARCH_RESULTS, signal, maxDepth };
		return this.fdPath ? searchWithFd(this.fdPath, search) : searchByWalking(search);
	}

	/** `@query`: the base directory's own matches first, then deeper ones; best 20 by score, depth and length. */
	private async fuzzyFileSuggestions(
		query: string,
		isQuotedPrefix: boolean,
		signal: AbortSignal,
	): Promise<AutocompleteItem[]> {
		if (signal.aborted) return [];
		try {
			const scoped = this.scopedQuery(query);
			const baseDir = scoped?.baseDir ?? this.basePath;
			const q = scoped?.query ?? query;
			const shallow = await this.search(baseDir, q, signal, 1);
			const deep = await this.search(baseDir, q, signal);
			const seen = new Set(shallow.map((e) => e.path));
			const entries = [...shallow, ...deep.filter((e) => !seen.has(e.path) && seen.add(e.path))];
			if (signal.aborted) return [];
			const scored = entries
				.map((e) => ({ ...e, score: q ? scoreEntry(e.path, q, e.isDirectory) : 1 }))
				.filter((e) => e.score > 0)
				.sort(
					(a, b) =>
						b.score - a.score ||
						depthOf(a.path) - depthOf(b.path) ||
						a.path.length - b.path.length ||
						a.path.localeCompare(b.path),
				);
			return scored.slice(0, MAX_FILE_SUGGESTIONS).map(({ path, isDirectory }) => {
				const bare = isDirectory ? path.slice(0, -1) : path;
				const shown = scoped ? this.scopedDisplay(scoped.displayBase, bare) : bare;
				return {
					value: completionValue(isDirectory ? `${shown}/` : shown, true, isQuotedPrefix),
					label: basename(bare) + (isDirectory ? "/" : ""),
					description: shown,
				};
			});
		} catch {
			return [];
		}
	}

	/** `@dir/part`: search inside `dir` (when it exists) for `part`. */
	private scopedQuery(raw: string): { baseDir: string; query: string; displayBase: string } | null {
		const normalized = toDisplayPath(raw);
		const slash = normalized.lastIndexOf("/");
		if (slash === -1) return null;
		const displayBase = normalized.slice(0, slash + 1);
		let baseDir: string;
		if (displayBase.startsWith("~/")) baseDir = expandHome(displayBase);
		else if (displayBase.startsWith("/")) baseDir = displayBase;
		else baseDir = join(this.basePath, displayBase);
		try {
			if (!statSync(baseDir).isDirectory()) return null;
		} catch {
			return null;
		}
		return { baseDir, query: normalized.slice(slash + 1), displayBase };
	}

	private scopedDisplay(displayBase: string, relative: string): string {
		return displayBase === "/"
			? `/${toDisplayPath(relative)}`
			: `${toDisplayPath(displayBase)}${toDisplayPath(relative)}`;
	}
}
