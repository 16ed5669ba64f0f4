/**
 * Reading session files for the `/resume` picker, fast: one directory listing (no stat) before the first frame,
 * then each file stat'ed, read once and walked line by line with string searches. Only the lines the picker needs
 * are parsed (the header, `session_info` names, the user and assistant messages for the search text, the last
 * message's time); other entries are only counted. Rows are cached per path, size and mtime, so opening the picker
 * again re-reads only files that changed. A file whose first line is not a session header is a "damaged" row:
 * listed with the reason, never rewritten.
 */
import { join } from "node:path";
import { nodeFs } from "../../../util/index.ts";

export interface SessionRow {
	path: string;
	id: string;
	cwd: string;
	name?: string;
	parentSessionPath?: string;
	/** Last activity (the newest message's time, else the header's, else the file's mtime), ms since epoch. */
	modified: number;
	messageCount: number;
	firstMessage: string;
	/** What the search matches against: id, name, the user and assistant text, cwd (lower case). */
	searchText: string;
	/** Why the file cannot be opened as a session, when it cannot. */
	damaged?: string;
}

/** A file found by the directory listing, before it is read. */
export interface SessionFileRef {
	path: string;
	mtimeMs: number;
	size: number;
}

interface CacheEntry {
	mtimeMs: number;
	size: number;
	row: SessionRow;
}

const cache = new Map<string, CacheEntry>();

/** Forgets cached rows (tests; after a rename or delete the next scan re-reads the file anyway). */
export function forgetSessionRow(path?: string): void {
	if (path === undefined) cache.clear();
	else cache.delete(path);
}

/**
 * The `.jsonl` files of `dirs`, newest first by name (pi's names start with the creation time), with no stat: a
 * directory listing is all the picker waits for before its first frame.
 */
export function listSessionFiles(dirs: readonly string[]): string[] {
	const out: string[] = [];
	for (const dir of dirs) {
		let names: string[];
		try {
			names = nodeFs().readdirSync(dir);
		} catch {
			// A folder that does not exist yet holds no sessions.
			continue;
		}
		const prefix = join(dir, "/");
		// The default sort compares strings natively (no comparator calls); newest first is its reverse.
		names.sort().reverse();
		for (const name of names) if (name.endsWith(".jsonl")) out.push(prefix + name);
	}
	return out;
}

/** The folders under the sessions root (one per working directory) plus the root itself. */
export function sessionFoldersUnder(root: string): string[] {
	const out = [root];
	try {
		for (const d of nodeFs().readdirSync(root, { withFileTypes: true }))
			if (d.isDirectory() || d.isSymbolicLink()) out.push(join(root, d.name));
	} catch {
		// No sessions saved anywhere yet.
	}
	return out;
}

/**
 * The picker row of one file (cached while its size and mtime stay the same), or undefined when it is no longer a
 * file (removed since the listing, or a folder named `*.jsonl`).
 */
export function readSessionRow(path: string): SessionRow | undefined {
	const fs = nodeFs();
	const info = fs.statSync(path, { throwIfNoEntry: false });
	if (!info?.isFile()) return undefined;
	const ref: SessionFileRef = { path, mtimeMs: info.mtimeMs, size: info.size };
	const hit = cache.get(path);
	if (hit && hit.mtimeMs === ref.mtimeMs && hit.size === ref.size) return hit.row;
	let row: SessionRow;
	try {
		row = rowOf(ref, fs.readFileSync(path, "utf8"));
	} catch (error) {
		row = damagedRow(ref, `cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
	}
	cache.set(path, { mtimeMs: ref.mtimeMs, size: ref.size, row });
	return row;
}

function damagedRow(ref: SessionFileRef, reason: string): SessionRow {
	const name = ref.path.slice(ref.path.lastIndexOf("/") + 1);
	return {
		path: ref.path,
		id: name.replace(/\.jsonl$/, ""),
		cwd: "",
		modified: ref.mtimeMs,
		messageCount: 0,
		firstMessage: reason,
		searchText: name.toLowerCase(),
		damaged: reason,
	};
}

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	let out = "";
	for (const block of content as { type?: unknown; text?: unknown }[]) {
		if (block?.type === "text" && typeof block.text === "string") out = out ? `${out} ${block.text}` : block.text;
	}
	return out;
}

function parse(line: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(line);
		return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
	} catch {
		// A torn or damaged line: skipped here as the loader skips it.
		return undefined;
	}
}

const MESSAGE = '"type":"message"';
const INFO = '"type":"session_info"';

/** Builds a row from a file's text. Exported for tests. */
export function rowOf(ref: SessionFileRef, text: string): SessionRow {
	let end = text.indexOf("\n");
	if (end === -1) end = text.length;
	const headerLine = text.slice(0, end).trim();
	if (headerLine === "") return damagedRow(ref, "empty file: no session header");
	const header = parse(headerLine);
	if (!header) return damagedRow(ref, "the first line is not valid JSON");
	if (header.type !== "session" || typeof header.id !== "string")
		return damagedRow(ref, "the first line is not a session header");
	let messageCount = 0;
	let firstMessage = "";
	let name: string | undefined;
	let lastMessageLine = "";
	const search: string[] = [];
	let start = end + 1;
	while (start < text.length) {
		let stop = text.indexOf("\n", start);
		if (stop === -1) stop = text.length;
		// Every entry pi or we write starts with its type; the search covers only the first 40 characters.
		const head = text.slice(start, Math.min(stop, start + 40));
		if (head.includes(MESSAGE)) {
			messageCount++;
			const line = text.slice(start, stop);
			lastMessageLine = line;
			if (line.includes('"role":"user"') || line.includes('"role":"assistant"')) {
				const message = parse(line)?.message as { role?: string; content?: unknown } | undefined;
				const words = message?.role === "user" || message?.role === "assistant" ? textOf(message.content) : "";
				if (words) {
					search.push(words);
					if (!firstMessage && message?.role === "user") firstMessage = words;
				}
			}
		} else if (head.includes(INFO)) {
			const entry = parse(text.slice(start, stop));
			if (entry?.type === "session_info")
				name = typeof entry.name === "string" ? entry.name.trim() || undefined : undefined;
		}
		start = stop + 1;
	}
	const headerTime = typeof header.timestamp === "string" ? Date.parse(header.timestamp) : Number.NaN;
	let modified = Number.isNaN(headerTime) ? ref.mtimeMs : headerTime;
	const stamp = /"timestamp":(\d{10,})/.exec(lastMessageLine);
	if (stamp) modified = Number(stamp[1]);
	const cwd = typeof header.cwd === "string" ? header.cwd : "";
	const row: SessionRow = {
		path: ref.path,
		id: header.id,
		cwd,
		modified,
		messageCount,
		firstMessage: firstMessage || "(no messages)",
		searchText: `${header.id} ${name ?? ""} ${search.join(" ")} ${cwd}`.toLowerCase(),
	};
	if (name) row.name = name;
	if (typeof header.parentSession === "string" && header.parentSession !== "")
		row.parentSessionPath = header.parentSession;
	return row;
}
