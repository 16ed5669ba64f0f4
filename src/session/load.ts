/**
 * Loading a session file into entry nodes, tolerating damage:
 * - line 1 must be a session header, else `SessionFormatError` (the file is not touched);
 * - a corrupt line (bad JSON, failed schema, duplicate id) is skipped with a `file:line` diagnostic; when its
 *   envelope is readable, entries that named it as parent are attached to its own parent instead; a line where a
 *   torn entry runs into a whole one (how pi leaves a crash mid-write) keeps the whole one;
 * - a last line without "\n" is kept if it is a whole valid entry, else ignored as torn (the writer cuts it off
 *   before the next append);
 * - in v3 files, `message` lines written in pi's key order are only indexed (their envelope is peeked) and parsed
 *   on first use; all other lines are parsed at once. v1/v2 files are parsed whole and migrated in memory.
 */
import { IdIndex } from "./id-index.ts";
import { type LongLine, PARENT_KEY } from "./long-line.ts";
import { migrateEntries } from "./migrate.ts";
import { ascii, forEachLine, type LineVisitor, parseJsonLine, peekEnvelope } from "./scan.ts";
import { checkEntry, checkHeader } from "./schema.ts";
import { type EntryNode, firstLineOf } from "./store.ts";
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "./types.ts";

/** The file is not a session file (missing or bad header). One line, names the file. */
export class SessionFormatError extends Error {
	override readonly name = "SessionFormatError";
	constructor(
		readonly file: string,
		reason: string,
	) {
		super(`Not a pi session file: ${file} (${reason})`);
	}
}

/** A line kept verbatim when an old file is rewritten (it could not be read, so it is not ours to drop). */
export interface RawLine {
	offset: number;
	length: number;
}

export interface LoadedFile {
	header: SessionHeader;
	/** Entries in file order, and the same by id (duplicates of an id already dropped). */
	nodes: EntryNode[];
	byId: IdIndex<EntryNode>;
	diagnostics: string[];
	/** File size when read. */
	size: number;
	/** Offset just past the last "\n". */
	validEnd: number;
	/** "torn": an unreadable fragment follows `validEnd`; "unterminated": a valid entry without "\n" does. */
	tail: "ok" | "torn" | "unterminated";
	/** The file's bytes up to `validEnd`, kept when the file was small enough to be read at once. */
	bytes?: Buffer;
	/** Set when the file was v1/v2: the version it had, and its lines in order for the rewrite. */
	migratedFrom?: number;
	rewriteOrder?: (EntryNode | RawLine)[];
}

type Raw = Record<string, unknown>;

/**
 * Reads the session in `fd` (named `file` in diagnostics). `newId` draws ids for v1 entries. Throws
 * `SessionFormatError` for a file whose first line is not a header.
 */
export function loadSessionFile(fd: number, file: string, newId: (taken: Set<string>) => string): LoadedFile {
	const diagnostics: string[] = [];
	let header: Raw | undefined;
	let headerProblem: string | undefined;
	let lazy = false;
	const nodes: EntryNode[] = [];
	const byId = new IdIndex<EntryNode>();
	const push = (node: EntryNode) => {
		if (byId.add(node.id, node) !== node) {
			diagnostics.push(`${file}:${node.line}: skipped entry with duplicate id ${node.id}`);
			return;
		}
		nodes.push(node);
	};
	const legacy: { value: Raw; line: number }[] = [];
	const order: (number | RawLine)[] = []; // index into legacy, or a raw line
	const bridges = new Map<string, string | null>(); // id on a corrupt line → its parent
	let tail: LoadedFile["tail"] = "ok";

	const corrupt = (line: number, reason: string, buf: Buffer, start: number, end: number, offset: number) => {
		const envelope = peekEnvelope(buf, start, end, false);
		if (envelope && !bridges.has(envelope.id)) bridges.set(envelope.id, envelope.parentId);
		diagnostics.push(`${file}:${line}: skipped corrupt line (${reason})`);
		order.push({ offset, length: end - start });
	};

	const visit: LineVisitor = (buf, start, end, offset, line, terminated, hasNul) => {
		if (header === undefined && headerProblem === undefined) {
			let value: unknown;
			try {
				value = parseJsonLine(buf, start, end);
			} catch {
				// Reported as a bad header just below.
				value = undefined;
			}
			headerProblem = line !== 1 ? "line 1 is empty" : checkHeader(value);
			if (!headerProblem) {
				header = value as Raw;
				if (!terminated) tail = "unterminated";
				const version = typeof header.version === "number" ? header.version : 1;
				lazy = version >= CURRENT_SESSION_VERSION;
			}
			return;
		}
		if (headerProblem) return;
		if (lazy && !hasNul && terminated) {
			const envelope = peekEnvelope(buf, start, end, true, nodes.at(-1)?.id);
			if (envelope?.type === "message") {
				const node: EntryNode = {
					id: envelope.id,
					parentId: envelope.parentId,
					type: "message",
					role: envelope.role,
					line,
					seq: 0,
					offset,
					length: end - start,
					entry: undefined,
					broken: false,
				};
				push(node);
				return;
			}
		}
		let value: unknown;
		try {
			if (hasNul) throw new Error("contains NUL bytes");
			value = parseJsonLine(buf, start, end);
		} catch (error) {
			if (!terminated) {
				tail = "torn";
				diagnostics.push(
					`${file}:${line}: ignored torn last line (${end - start} bytes, no newline); before the next write it moves to ${file}.torn`,
				);
				return;
			}
			const glued = lazy ? recoverGlued(buf, start, end) : undefined;
			if (glued) {
				const torn = peekEnvelope(buf, start, glued.at, false);
				if (torn && !bridges.has(torn.id)) bridges.set(torn.id, torn.parentId);
				diagnostics.push(
					`${file}:${line}: a torn entry runs into entry ${glued.entry.id} (crash mid-write); kept the whole entry`,
				);
				push(nodeOf(glued.entry, line, offset + glued.at - start, end - glued.at));
				return;
			}
			corrupt(line, firstLineOf(error), buf, start, end, offset);
			return;
		}
		if (!lazy) {
			if (!terminated) {
				tail = "unterminated";
				diagnostics.push(`${file}:${line}: last line has no newline; kept`);
			}
			order.push(legacy.length);
			legacy.push({ value: value as Raw, line });
			return;
		}
		const problem = checkEntry(value);
		if (problem) {
			if (!terminated) {
				tail = "torn";
				diagnostics.push(
					`${file}:${line}: ignored torn last line (${problem}); before the next write it moves to ${file}.torn`,
				);
				return;
			}
			corrupt(line, problem, buf, start, end, offset);
			return;
		}
		if (!terminated) {
			tail = "unterminated";
			diagnostics.push(`${file}:${line}: last line has no newline; kept (the next write completes it)`);
		}
		const entry = value as SessionEntry;
		push(nodeOf(entry, line, offset, end - start));
	};
	// A long message line (an image, a huge tool output) is indexed from its first bytes, like a short one.
	const long = (l: LongLine): boolean => {
		if (!header || !lazy) return false;
		const envelope = peekLongMessage(l, nodes.at(-1)?.id);
		if (!envelope) return false;
		const { id, parentId, role } = envelope;
		const node: EntryNode = {
			id,
			parentId,
			type: "message",
			role,
			line: l.line,
			seq: 0,
			offset: l.offset,
			length: l.length,
			entry: undefined,
			broken: false,
		};
		push(node);
		return true;
	};
	const walk = forEachLine(fd, visit, long);

	if (!header) throw new SessionFormatError(file, headerProblem ?? "file is empty");
	const result: LoadedFile = {
		header: header as SessionHeader,
		nodes,
		byId,
		diagnostics,
		size: walk.size,
		validEnd: walk.validEnd,
		tail,
	};
	if (walk.bytes) result.bytes = walk.bytes;
	if (typeof result.header.cwd !== "string") result.header.cwd = "";
	const version = typeof header.version === "number" ? header.version : 1;
	if (version > CURRENT_SESSION_VERSION) {
		diagnostics.push(`${file}: written by a newer pi (format ${version}); entries this version does not know are kept`);
	}
	if (!lazy) migrateLegacy(file, result, version, legacy, order, bridges, newId, push);
	bridge(file, result, bridges);
	return result;
}

const ENTRY_START = ascii('{"type":"');

/** The envelope of a long `message` line in pi's key order, or undefined when it must be parsed whole. */
function peekLongMessage(
	long: LongLine,
	previousId: string | undefined,
): { id: string; parentId: string | null; role: string } | undefined {
	if (long.hasNul || !long.closed || long.parentKeyInRest) return undefined;
	const head = long.head;
	const envelope = peekEnvelope(head, 0, head.length, false, previousId);
	if (envelope?.type !== "message" || envelope.role === undefined) return undefined;
	// The envelope's own key comes first; another one in the head is the sign of a torn entry glued to a whole one.
	const first = head.indexOf(PARENT_KEY);
	if (head.indexOf(PARENT_KEY, first + 1) !== -1) return undefined;
	return { id: envelope.id, parentId: envelope.parentId, role: envelope.role };
}

/**
 * The whole entry at the end of a line that begins with a torn one: pi appends after a crash mid-write without
 * cutting the fragment off, so the next entry ends up on the fragment's line.
 */
function recoverGlued(buf: Buffer, start: number, end: number): { entry: SessionEntry; at: number } | undefined {
	let pos = end;
	for (let tries = 0; tries < 64; tries++) {
		pos = buf.lastIndexOf(ENTRY_START, pos - 1);
		if (pos <= start) return undefined;
		if (!peekEnvelope(buf, pos, end, true)) continue;
		try {
			const value = parseJsonLine(buf, pos, end);
			if (checkEntry(value) === undefined) return { entry: value as SessionEntry, at: pos };
		} catch {
			// An object nested inside the entry, not its start: keep looking further back.
		}
	}
	return undefined;
}

function nodeOf(entry: SessionEntry, line: number, offset: number, length: number): EntryNode {
	const role = entry.type === "message" ? entry.message.role : undefined;
	return {
		id: entry.id,
		parentId: entry.parentId,
		type: entry.type,
		role,
		line,
		seq: 0,
		offset,
		length,
		entry,
		broken: false,
	};
}

function migrateLegacy(
	file: string,
	result: LoadedFile,
	version: number,
	legacy: { value: Raw; line: number }[],
	order: (number | RawLine)[],
	bridges: Map<string, string | null>,
	newId: (taken: Set<string>) => string,
	push: (node: EntryNode) => void,
): void {
	const values = legacy.map((l) => l.value);
	const notes = migrateEntries(result.header as Raw, values, newId);
	for (const note of notes) result.diagnostics.push(`${file}: ${note}`);
	result.migratedFrom = version;
	const rewrite: (EntryNode | RawLine)[] = [];
	const byIndex: (EntryNode | undefined)[] = [];
	for (let i = 0; i < values.length; i++) {
		const value = values[i]!;
		const line = legacy[i]!.line;
		const problem = checkEntry(value);
		if (problem) {
			const id = typeof value.id === "string" ? value.id : undefined;
			if (id && !bridges.has(id)) bridges.set(id, typeof value.parentId === "string" ? value.parentId : null);
			result.diagnostics.push(`${file}:${line}: skipped entry after migration (${problem})`);
			byIndex.push(undefined);
			continue;
		}
		const node = nodeOf(value as unknown as SessionEntry, line, -1, 0);
		byIndex.push(node);
		push(node);
	}
	for (const item of order) {
		if (typeof item === "number") {
			const node = byIndex[item];
			if (node) rewrite.push(node);
		} else rewrite.push(item);
	}
	result.rewriteOrder = rewrite;
}

/** Re-attaches entries whose parent was on a corrupt line to that line's own parent, when it is known. */
function bridge(file: string, result: LoadedFile, bridges: Map<string, string | null>): void {
	const known = result.byId;
	let previous: string | undefined;
	for (const node of result.nodes) {
		const before = previous;
		previous = node.id;
		if (node.parentId === null || node.parentId === before || known.has(node.parentId)) continue;
		let parent: string | null = node.parentId;
		const hops = new Set<string>();
		while (parent !== null && !known.has(parent) && bridges.has(parent) && !hops.has(parent)) {
			hops.add(parent);
			parent = bridges.get(parent) ?? null;
		}
		if (parent === null || known.has(parent)) {
			result.diagnostics.push(
				`${file}:${node.line}: parent ${node.parentId} was on a corrupt line; entry attached to ${parent ?? "the root"}`,
			);
			node.parentId = parent;
			if (node.entry) node.entry.parentId = parent;
		} else {
			result.diagnostics.push(`${file}:${node.line}: parent ${node.parentId} not found; entry starts a separate root`);
		}
	}
}
