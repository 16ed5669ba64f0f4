/**
 * Finding sessions on disk without opening them for writing: the most recent one (file mtimes plus one header
 * read, never whole files), one by id, and `SessionInfo` rows for pickers. Files that are not sessions are
 * skipped silently here; `open` is where a bad file is reported.
 */

import { join, resolve } from "node:path";
import { closeSync, nodeFs, openSync, readdirSync, statSync } from "../util/index.ts";
import { newEntryId } from "./ids.ts";
import { loadSessionFile } from "./load.ts";
import { readFirstLine, readRange } from "./scan.ts";
import { checkHeader } from "./schema.ts";
import { EntryStore } from "./store.ts";
import type { SessionHeader, SessionInfo, SessionListProgress } from "./types.ts";

function jsonlFiles(dir: string): string[] {
	try {
		return readdirSync(dir, { withFileTypes: true })
			.filter((d) => d.isFile() && d.name.endsWith(".jsonl"))
			.map((d) => join(dir, d.name));
	} catch {
		// No such directory (nothing saved yet): no sessions.
		return [];
	}
}

function subdirs(dir: string): string[] {
	try {
		return readdirSync(dir, { withFileTypes: true })
			.filter((d) => d.isDirectory())
			.map((d) => join(dir, d.name));
	} catch {
		// Missing root: no sessions.
		return [];
	}
}

/** The header of `path` when its first line is one, else undefined. Reads only the first line. */
export function readHeader(path: string): SessionHeader | undefined {
	const line = readFirstLine(path);
	if (line === undefined) return undefined;
	try {
		const value: unknown = JSON.parse(line);
		return checkHeader(value) === undefined ? (value as SessionHeader) : undefined;
	} catch {
		// Not JSON: not a session.
		return undefined;
	}
}

/**
 * The most recently modified valid session file in `sessionDir`, or null. With `cwd`, only a session whose header
 * names that working directory counts (as pi 0.87.1: a shared session dir holds other projects' sessions too).
 * One stat per file and one header read for the winner (more only when the newest files do not qualify); no sort,
 * no full reads.
 */
export function findMostRecentSession(sessionDir: string, cwd?: string): string | null {
	const wanted = cwd ? resolve(cwd) : undefined;
	const qualifies = (path: string) => {
		const header = readHeader(path);
		if (!header) return false;
		return (
			wanted === undefined || (typeof header.cwd === "string" && header.cwd !== "" && resolve(header.cwd) === wanted)
		);
	};
	let names: string[];
	try {
		names = readdirSync(sessionDir);
	} catch {
		// No such directory (nothing saved yet): no sessions.
		return null;
	}
	const candidates: { path: string; mtime: number }[] = [];
	// One stat per file is this function's whole cost (1000 files: ~6 ms on a slow machine): the fs function is
	// called directly and paths are joined by concatenation onto the normalised folder.
	const { statSync: stat } = nodeFs();
	const prefix = join(sessionDir, "/");
	for (const name of names) {
		if (!name.endsWith(".jsonl")) continue;
		const path = prefix + name;
		// A directory named *.jsonl, or a file that vanished since readdir, is no candidate.
		const info = stat(path, { throwIfNoEntry: false });
		if (info?.isFile()) candidates.push({ path, mtime: info.mtimeMs });
	}
	while (candidates.length > 0) {
		let best = 0;
		for (let i = 1; i < candidates.length; i++) {
			if ((candidates[i]?.mtime ?? -1) > (candidates[best]?.mtime ?? -1)) best = i;
		}
		const { path } = candidates[best] as { path: string };
		if (qualifies(path)) return path;
		candidates.splice(best, 1);
	}
	return null;
}

/** The session file in `sessionDir` whose header id is `id` (file name first, then headers), or undefined. */
export function findSessionById(sessionDir: string, id: string): string | undefined {
	const files = jsonlFiles(sessionDir);
	const named = files.filter((f) => f.endsWith(`_${id}.jsonl`));
	for (const path of [...named, ...files.filter((f) => !named.includes(f))]) {
		if (readHeader(path)?.id === id) return path;
	}
	return undefined;
}

/** Session files whose id starts with `prefix` (file names carry the id, so headers are read only to confirm). */
export function findSessionsByIdPrefix(sessionDir: string, prefix: string): string[] {
	if (prefix === "") return [];
	return jsonlFiles(sessionDir).filter((path) => {
		const name = path.slice(path.lastIndexOf("/") + 1);
		const underscore = name.indexOf("_");
		if (underscore >= 0 && !name.slice(underscore + 1).startsWith(prefix)) return false;
		return readHeader(path)?.id.startsWith(prefix) === true;
	});
}

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((b: { type?: unknown; text?: unknown }) => (b?.type === "text" && typeof b.text === "string" ? b.text : ""))
		.filter((t) => t !== "")
		.join(" ");
}

/** One `SessionInfo` (reads the file once; parses only non-message lines and the first user message). */
export function sessionInfoOf(path: string): SessionInfo | undefined {
	let fd: number;
	try {
		fd = openSync(path, "r");
	} catch {
		// Unreadable: left out of the list.
		return undefined;
	}
	try {
		const loaded = loadSessionFile(fd, path, (taken) => newEntryId((id) => taken.has(id)));
		const store = new EntryStore({ path, read: (offset, length) => readRange(fd, offset, length) }, []);
		let messageCount = 0;
		let firstMessage: string | undefined;
		store.adoptLoaded(loaded.nodes, loaded.byId);
		for (const node of loaded.nodes) {
			if (node.type !== "message") continue;
			messageCount++;
			if (firstMessage !== undefined || (node.role !== undefined && node.role !== "user")) continue;
			const entry = store.materialize(node);
			if (entry?.type === "message" && entry.message.role === "user") firstMessage = textOf(entry.message.content);
		}
		const stat = statSync(path);
		const created = new Date(loaded.header.timestamp);
		const info: SessionInfo = {
			path,
			id: loaded.header.id,
			cwd: loaded.header.cwd,
			created: Number.isNaN(created.getTime()) ? stat.mtime : created,
			modified: stat.mtime,
			messageCount,
			firstMessage: firstMessage ?? "(no messages)",
		};
		const name = store.getName();
		if (name) info.name = name;
		const parent = loaded.header.parentSession ?? loaded.header.branchedFrom;
		if (typeof parent === "string" && parent !== "") info.parentSessionPath = parent;
		return info;
	} catch {
		// Not a session (bad header) or unreadable mid-way: left out of the list.
		return undefined;
	} finally {
		closeSync(fd);
	}
}

/** `SessionInfo` for every session file in `dirs`, newest first. Yields to the event loop between files. */
export async function listSessions(
	dirs: string[],
	onProgress?: SessionListProgress,
	signal?: AbortSignal,
): Promise<SessionInfo[]> {
	const files = dirs.flatMap(jsonlFiles);
	const out: SessionInfo[] = [];
	for (let i = 0; i < files.length; i++) {
		signal?.throwIfAborted();
		const info = sessionInfoOf(files[i]!);
		if (info) out.push(info);
		onProgress?.(i + 1, files.length);
		if (i % 16 === 15) await new Promise((r) => setImmediate(r));
	}
	return out.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

/** The root itself and its immediate sub-folders (one per working directory). */
export function sessionDirsUnder(root: string): string[] {
	return [root, ...subdirs(root)];
}
