/**
 * The session tree laid out once, from the entries' ids, parents, types and roles only (no entry is read): the
 * pre-order in which the tree lists entries (at every branch the child leading to the current leaf first, as in
 * pi), each entry's position in it and the size of its subtree (so a subtree is one range of positions), and the
 * path to the current leaf. Typed arrays throughout, no copy of the ids: a 100k-entry session lays out in a few
 * milliseconds.
 */
import type { TreeNodeInfo } from "../../../session/index.ts";

/** What `passesMode` and `needsContent` look at, one byte per entry. */
export const KIND_OTHER = 0;
export const KIND_USAGE = 1;
export const KIND_SETTINGS = 2;
export const KIND_USER = 3;
export const KIND_TOOL_RESULT = 4;
/** An assistant message, or a message whose role is not known before it is read. */
export const KIND_ASSISTANT = 5;
export const KIND_MESSAGE = 6;

const SETTINGS_TYPES = new Set([
	"label",
	"context_edit",
	"custom",
	"model_change",
	"thinking_level_change",
	"session_info",
]);

function kindOf(type: string, role: string | undefined): number {
	if (type === "message") {
		if (role === "user") return KIND_USER;
		if (role === "toolResult") return KIND_TOOL_RESULT;
		if (role === "assistant" || role === undefined) return KIND_ASSISTANT;
		return KIND_MESSAGE;
	}
	if (type === "usage") return KIND_USAGE;
	return SETTINGS_TYPES.has(type) ? KIND_SETTINGS : KIND_OTHER;
}

export class TreeIndex {
	readonly count: number;
	/** One byte per entry: KIND_*. */
	readonly kind: Uint8Array;
	/** Index of the parent entry; -1 for a root (no parent, or a parent not in the session). */
	readonly parent: Int32Array;
	/** Entry indices in listing order (entries not reachable from a root are left out). */
	readonly order: Int32Array;
	/** Listing position of each entry (-1 when unreachable). */
	readonly pos: Int32Array;
	/** Entries in each subtree, itself included. */
	readonly size: Int32Array;
	/** 1 for the entries on the path from the root to the current leaf. */
	readonly active: Uint8Array;
	readonly leaf: number;
	private byId: Map<string, number> | undefined;

	/**
	 * `find` (optional) looks an id up in the session's own index (its position in `nodes`, -1 when absent), so
	 * the few parents that are not the previous entry and the leaf are found without building a map of every id.
	 */
	constructor(
		private readonly nodes: readonly TreeNodeInfo[],
		leafId: string | null,
		private readonly find?: (id: string) => number,
	) {
		const n = nodes.length;
		this.count = n;
		const kind = new Uint8Array(n);
		const parent = new Int32Array(n);
		let previous: string | undefined;
		for (let i = 0; i < n; i++) {
			const node = nodes[i] as TreeNodeInfo;
			kind[i] = kindOf(node.type, node.role);
			const parentId = node.parentId;
			if (parentId === null) parent[i] = -1;
			else if (previous === parentId) parent[i] = i - 1;
			else parent[i] = this.indexOf(parentId);
			previous = node.id;
		}
		this.kind = kind;
		this.parent = parent;
		this.leaf = leafId === null ? -1 : this.findFromEnd(leafId);
		this.active = new Uint8Array(n);
		for (let i = this.leaf, steps = 0; i >= 0 && steps <= n; i = parent[i] as number, steps++) this.active[i] = 1;

		// Children in file order, as one flat array with a start offset per entry.
		const start = new Int32Array(n + 1);
		for (let i = 0; i < n; i++) {
			const p = parent[i] as number;
			if (p >= 0) (start[p + 1] as number)++;
		}
		for (let i = 0; i < n; i++) start[i + 1] = (start[i + 1] as number) + (start[i] as number);
		const fill = start.slice(0, n);
		const children = new Int32Array(n);
		const roots: number[] = [];
		for (let i = 0; i < n; i++) {
			const p = parent[i] as number;
			if (p >= 0) children[(fill[p] as number)++] = i;
			else roots.push(i);
		}

		// Pre-order with the active child first; an explicit stack keeps deep chains off the call stack.
		this.order = new Int32Array(n);
		this.pos = new Int32Array(n).fill(-1);
		let written = 0;
		const stack: number[] = [];
		const ordered = (list: ArrayLike<number>, from: number, to: number): number[] => {
			const out: number[] = [];
			for (let k = from; k < to; k++) if (this.active[list[k] as number]) out.push(list[k] as number);
			for (let k = from; k < to; k++) if (!this.active[list[k] as number]) out.push(list[k] as number);
			return out;
		};
		const rootOrder = ordered(roots, 0, roots.length);
		for (let k = rootOrder.length - 1; k >= 0; k--) stack.push(rootOrder[k] as number);
		while (stack.length > 0) {
			const v = stack.pop() as number;
			if (this.pos[v] !== -1) continue;
			this.pos[v] = written;
			this.order[written++] = v;
			const from = start[v] as number;
			const to = start[v + 1] as number;
			if (to - from === 1) stack.push(children[from] as number);
			else if (to > from) {
				const kids = ordered(children, from, to);
				for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k] as number);
			}
		}
		this.listed = written;
		this.size = new Int32Array(n);
		for (let p = written - 1; p >= 0; p--) {
			const v = this.order[p] as number;
			this.size[v] = (this.size[v] as number) + 1;
			const up = parent[v] as number;
			if (up >= 0) this.size[up] = (this.size[up] as number) + (this.size[v] as number);
		}
	}

	/** How many entries the listing holds. */
	readonly listed: number;

	/** The id of entry `v`. */
	id(v: number): string {
		return (this.nodes[v] as TreeNodeInfo).id;
	}

	/** The message role of entry `v` (undefined: not a message, or not known before reading). */
	role(v: number): string | undefined {
		return (this.nodes[v] as TreeNodeInfo).role;
	}

	/** The entry index of `id` looked for from the end (where the leaf usually is), without building the map. */
	private findFromEnd(id: string): number {
		if (this.byId || this.find) return this.indexOf(id);
		for (let i = this.count - 1, k = 0; i >= 0 && k < 4096; i--, k++) if (this.id(i) === id) return i;
		return this.indexOf(id);
	}

	/** The entry index of `id`, or -1. */
	indexOf(id: string): number {
		if (this.find) {
			const v = this.find(id);
			return v >= 0 && v < this.count && this.id(v) === id ? v : -1;
		}
		if (!this.byId) {
			this.byId = new Map();
			for (let i = 0; i < this.count; i++) this.byId.set(this.id(i), i);
		}
		return this.byId.get(id) ?? -1;
	}

	/** Whether `a` is a proper ancestor of `b` (both listed). */
	isAncestor(a: number, b: number): boolean {
		const pa = this.pos[a] as number;
		const pb = this.pos[b] as number;
		return pa < pb && pb < pa + (this.size[a] as number);
	}
}
