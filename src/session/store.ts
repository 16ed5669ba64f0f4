/**
 * The in-memory entry tree. Every entry is a small `EntryNode` (id, parent, type, message role, where its line is
 * in the file); the entry object itself is parsed from the file the first time something asks for it. A message
 * entry whose line is in the file is then held weakly (see `EntryNode.weak`): the same object while anything uses
 * it, read again from its line once nothing does. Entries that are not `message`s are small, parsed at load and
 * kept, so labels, names, settings and compactions are known without touching message lines.
 */
import { IdIndex } from "./id-index.ts";
import { Bytes } from "./json-members.ts";
import { deferContent, LAZY_CONTENT_MIN, parseWithoutContent } from "./lazy-content.ts";
import { parseJsonLine } from "./scan.ts";
import { checkEntry } from "./schema.ts";
import type { LabelEntry, SessionEntry, SessionInfoEntry, SessionTreeNode } from "./types.ts";

export interface EntryNode {
	id: string;
	/** Effective parent (a parent on a corrupt line is bridged to that line's own parent when it is known). */
	parentId: string | null;
	type: string;
	/** `message.role` for message entries when known (from the line's envelope or after parsing). */
	role: string | undefined;
	/** 1-based line in the file; 0 when the entry was not read from a file. */
	line: number;
	/** Position in the store's file-order list (set by the store). */
	seq: number;
	/** Byte range of the line in the file (without "\n"); -1 when not file-backed. */
	offset: number;
	length: number;
	/** The parsed entry; undefined until first use for lazily loaded lines. */
	entry: SessionEntry | undefined;
	/** Parsing or validating the line failed when it was first used; the node contributes nothing. */
	broken: boolean;
	/**
	 * A message entry whose line is in the file is held only weakly: while anything else holds it (the agent's
	 * context, a view) it is this object; once nothing does, it is parsed from the file again when asked for.
	 */
	weak?: WeakRef<SessionEntry>;
}

/** Reads lines back from the session file. */
export interface LineSource {
	readonly path: string;
	/**
	 * The bytes at `offset`; throws when the file is shorter. With `scratch` (at least `length` bytes) they may be
	 * read into it, and the result is then valid only until the next read into the same scratch.
	 */
	read(offset: number, length: number, scratch?: Buffer): Buffer;
}

/** Nodes read together when they are at most this far apart in the file … */
const PREFETCH_GAP = 64 * 1024;
/**
 * … and span at most this much. Runs are read into one reused buffer of this size: every megabyte of fresh
 * buffers costs page faults (milliseconds on a slow machine), and parsed values do not keep the bytes.
 */
const PREFETCH_SPAN = 256 * 1024;

export function nodeFor(entry: SessionEntry, line = 0): EntryNode {
	const role = entry.type === "message" ? entry.message.role : undefined;
	return {
		id: entry.id,
		parentId: entry.parentId,
		type: entry.type,
		role,
		line,
		seq: 0,
		offset: -1,
		length: 0,
		entry,
		broken: false,
	};
}

export class EntryStore {
	readonly nodes: EntryNode[] = [];
	private byId = new IdIndex<EntryNode>();
	private children: Map<string | null, EntryNode[]> | undefined;
	private readonly labels = new Map<string, { label: string; timestamp: string }>();
	private name: string | undefined;

	constructor(
		private source: LineSource | undefined,
		private readonly diagnostics: string[],
	) {}

	setSource(source: LineSource | undefined): void {
		this.source = source;
	}

	/** Takes over the nodes of a freshly loaded file (ids already unique, `byId` built by the loader). */
	adoptLoaded(nodes: EntryNode[], byId: IdIndex<EntryNode>): void {
		if (this.nodes.length > 0) throw new Error("adoptLoaded needs an empty store");
		for (const node of nodes) {
			node.seq = this.nodes.length;
			this.nodes.push(node);
		}
		this.byId = byId;
		for (const node of nodes) {
			if (node.entry?.type === "label") this.applyLabel(node.entry);
			else if (node.entry?.type === "session_info") this.applyInfo(node.entry);
		}
	}

	/** Adds a node in file order (loaded or newly appended). The caller guarantees a unique id. */
	add(node: EntryNode): void {
		if (node.entry && node.type === "message" && node.offset >= 0) {
			node.weak = new WeakRef(node.entry);
			node.entry = undefined;
		}
		node.seq = this.nodes.length;
		this.nodes.push(node);
		this.byId.set(node.id, node);
		if (this.children) {
			const key = node.parentId !== null && this.byId.has(node.parentId) ? node.parentId : null;
			const list = this.children.get(key);
			if (list) list.push(node);
			else this.children.set(key, [node]);
		}
		const entry = node.entry;
		if (entry?.type === "label") this.applyLabel(entry);
		else if (entry?.type === "session_info") this.applyInfo(entry);
	}

	has(id: string): boolean {
		return this.byId.has(id);
	}

	node(id: string): EntryNode | undefined {
		return this.byId.get(id);
	}

	get size(): number {
		return this.nodes.length;
	}

	lastId(): string | null {
		return this.nodes.at(-1)?.id ?? null;
	}

	entry(id: string): SessionEntry | undefined {
		const node = this.byId.get(id);
		return node ? this.materialize(node) : undefined;
	}

	/** The node's entry, parsing and validating its line on first use; undefined when the line is corrupt. */
	materialize(node: EntryNode): SessionEntry | undefined {
		if (node.entry || node.broken) return node.entry;
		const held = node.weak?.deref();
		if (held) return held;
		try {
			if (!this.source) throw new Error("no file to read from");
			if (this.paged(node)) this.parsePaged(node, this.source);
			else this.parse(node, this.source.read(node.offset, node.length), 0);
		} catch (error) {
			this.markBroken(node, error);
		}
		return node.entry ?? node.weak?.deref();
	}

	/** Parses the lines of many nodes with few reads (runs of nearby lines are read at once). */
	prefetch(nodes: EntryNode[]): void {
		const source = this.source;
		if (!source) return;
		const todo: EntryNode[] = [];
		for (const node of nodes) {
			if (node.entry || node.broken || node.offset < 0 || node.weak?.deref()) continue;
			// A large message line is walked in windows, never read whole.
			if (this.paged(node)) this.materialize(node);
			else todo.push(node);
		}
		todo.sort((a, b) => a.offset - b.offset);
		let scratch: Buffer | undefined;
		let long: Buffer | undefined;
		let i = 0;
		while (i < todo.length) {
			const first = todo[i]!;
			let j = i + 1;
			let runEnd = first.offset + first.length;
			while (j < todo.length) {
				const next = todo[j]!;
				if (next.offset - runEnd > PREFETCH_GAP || next.offset + next.length - first.offset > PREFETCH_SPAN) break;
				runEnd = Math.max(runEnd, next.offset + next.length);
				j++;
			}
			let buf: Buffer | undefined;
			try {
				const length = runEnd - first.offset;
				// A single line longer than the span gets a buffer of its own, reused by longer lines.
				if (length <= PREFETCH_SPAN) scratch ??= Buffer.allocUnsafe(PREFETCH_SPAN);
				else if (!long || long.length < length) long = Buffer.allocUnsafe(length);
				buf = source.read(first.offset, length, length <= PREFETCH_SPAN ? scratch : long);
			} catch {
				// Fall back to one read per node below, which reports each failure.
				buf = undefined;
			}
			for (let k = i; k < j; k++) {
				const node = todo[k]!;
				if (!buf) {
					this.materialize(node);
					continue;
				}
				try {
					this.parse(node, buf, node.offset - first.offset);
				} catch (error) {
					this.markBroken(node, error);
				}
			}
			i = j;
		}
	}

	/** A message line long enough to keep its content on disk and too long for a prefetch run. */
	private paged(node: EntryNode): boolean {
		return node.type === "message" && node.length > PREFETCH_SPAN;
	}

	/** Parses a long message line walked through a window, without reading its content. */
	private parsePaged(node: EntryNode, source: LineSource): void {
		const read = (offset: number, length: number, into?: Buffer) => source.read(offset, length, into);
		const bytes = new Bytes(Buffer.alloc(0), node.offset, { read, lo: node.offset, hi: node.offset + node.length });
		const lazy = parseWithoutContent(bytes, node.offset, node.offset + node.length);
		if (lazy) this.adopt(node, lazy.value, lazy);
		else this.adopt(node, parseJsonLine(source.read(node.offset, node.length), 0, node.length), undefined);
	}

	/** Parses the node's line at `buf[at…]`; a large message line without its content. */
	private parse(node: EntryNode, buf: Buffer, at: number): void {
		const lazy =
			this.source && node.type === "message" && node.length >= LAZY_CONTENT_MIN
				? parseWithoutContent(new Bytes(buf, node.offset - at), node.offset, node.offset + node.length)
				: undefined;
		this.adopt(node, lazy ? lazy.value : parseJsonLine(buf, at, at + node.length), lazy);
	}

	private adopt(node: EntryNode, value: unknown, lazy: ReturnType<typeof parseWithoutContent>): void {
		const problem = checkEntry(value);
		if (problem) throw new Error(problem);
		const entry = value as SessionEntry;
		if (entry.id !== node.id || entry.type !== node.type) throw new Error("line changed since it was indexed");
		if (entry.parentId !== node.parentId) entry.parentId = node.parentId;
		if (entry.type !== "message") {
			node.entry = entry;
			return;
		}
		node.weak = new WeakRef(entry);
		node.role = entry.message.role;
		const source = this.source;
		if (!lazy || !source) return;
		// The content is checked against the entry's schema when it is read (it was not parsed here).
		const shell = { ...entry, message: { ...entry.message } };
		const check = (content: unknown) => checkEntry({ ...shell, message: { ...shell.message, content } });
		const place = {
			line: node.line,
			offset: lazy.content.start,
			length: lazy.content.end - lazy.content.start,
			idOffset: lazy.id.start,
			idText: lazy.id.text,
		};
		deferContent(entry.message as { content?: unknown }, source, place, check, (reason) =>
			this.diagnostics.push(`${source.path}:${node.line}: content of entry ${node.id} unavailable (${reason})`),
		);
	}

	private markBroken(node: EntryNode, error: unknown): void {
		node.broken = true;
		const where = `${this.source?.path ?? "(memory)"}:${node.line}`;
		this.diagnostics.push(`${where}: skipped corrupt entry ${node.id} (${firstLineOf(error)})`);
	}

	/** All entries in file order (parses every line not parsed yet). */
	/** Entries `start` to `end` (exclusive) in file order: part of `entries()` for callers that go in slices. */
	entriesBetween(start: number, end: number): SessionEntry[] {
		const nodes = this.nodes.slice(start, end);
		this.prefetch(nodes);
		const out: SessionEntry[] = [];
		for (const node of nodes) {
			const entry = this.materialize(node);
			if (entry) out.push(entry);
		}
		return out;
	}

	entries(): SessionEntry[] {
		this.prefetch(this.nodes);
		const out: SessionEntry[] = [];
		for (const node of this.nodes) {
			const entry = this.materialize(node);
			if (entry) out.push(entry);
		}
		return out;
	}

	/**
	 * Nodes from the root down to `leafId` (empty for null or an unknown id). A parent that is the entry just
	 * before in file order (the usual case) is found without a lookup. Stops at a cycle.
	 */
	path(leafId: string | null): EntryNode[] {
		const out: EntryNode[] = [];
		const nodes = this.nodes;
		let node = leafId === null ? undefined : this.byId.get(leafId);
		// Walking to the previous entry always moves back in the file; only a lookup can revisit an entry.
		let seen: Set<string> | undefined;
		while (node) {
			if (seen) {
				if (seen.has(node.id)) break;
				seen.add(node.id);
			}
			out.push(node);
			const parentId = node.parentId;
			if (parentId === null) break;
			const previous = node.seq > 0 ? nodes[node.seq - 1] : undefined;
			if (previous !== undefined && previous.id === parentId) {
				node = previous;
				continue;
			}
			seen ??= new Set(out.map((n) => n.id));
			node = this.byId.get(parentId);
		}
		return out.reverse();
	}

	childNodes(parentId: string | null): EntryNode[] {
		if (!this.children) {
			this.children = new Map();
			for (const node of this.nodes) {
				const key = node.parentId !== null && this.byId.has(node.parentId) ? node.parentId : null;
				const list = this.children.get(key);
				if (list) list.push(node);
				else this.children.set(key, [node]);
			}
		}
		return this.children.get(parentId) ?? [];
	}

	getLabel(id: string): string | undefined {
		return this.labels.get(id)?.label;
	}

	labelEntries(): ReadonlyMap<string, { label: string; timestamp: string }> {
		return this.labels;
	}

	getName(): string | undefined {
		return this.name;
	}

	/**
	 * Roots (entries whose parent is null or missing) with their subtrees, children in file order. The children of
	 * a corrupt entry take its place. Iterative, so deep linear sessions stay off the call stack.
	 */
	tree(): SessionTreeNode[] {
		const seen = new Set<string>();
		const roots: SessionTreeNode[] = [];
		const stack: [EntryNode[], SessionTreeNode[]][] = [[this.childNodes(null), roots]];
		while (stack.length > 0) {
			const [kids, into] = stack.pop()!;
			for (const kid of kids) {
				if (seen.has(kid.id)) continue;
				seen.add(kid.id);
				const entry = this.materialize(kid);
				if (!entry) {
					stack.push([this.childNodes(kid.id), into]);
					continue;
				}
				const out: SessionTreeNode = { entry, children: [] };
				const label = this.labels.get(kid.id);
				if (label) {
					out.label = label.label;
					out.labelTimestamp = label.timestamp;
				}
				into.push(out);
				stack.push([this.childNodes(kid.id), out.children]);
			}
		}
		return roots;
	}

	private applyLabel(entry: LabelEntry): void {
		const label = entry.label;
		if (typeof label === "string" && label !== "")
			this.labels.set(entry.targetId, { label, timestamp: entry.timestamp });
		else this.labels.delete(entry.targetId);
	}

	private applyInfo(entry: SessionInfoEntry): void {
		const name = typeof entry.name === "string" ? entry.name.trim() : "";
		this.name = name || undefined;
	}
}

export function firstLineOf(error: unknown): string {
	const text = error instanceof Error ? error.message : String(error);
	return text.split("\n")[0]!.slice(0, 200);
}
