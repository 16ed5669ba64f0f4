/**
 * The list behind the session tree: which entries the filter mode, the search and the folds leave, their tree
 * drawing (indent, connectors, gutters — recomputed over what is visible, so hidden entries' children hang from
 * their nearest visible ancestor), the selection, and branch-wise moves, with pi 0.87.1's rules.
 *
 * Speed on long sessions: the layout comes from TreeIndex (no entry read). What needs an entry's content — whether
 * an assistant message has text, the search text — is read on demand: the rows around the selection at once, the
 * rest by `resolveSome` in slices (the selector runs it between frames). Until an entry is read it counts as shown,
 * so the count may shrink as reading finishes. Rebuilding the list is one pass over typed arrays.
 */
import type { SessionEntry } from "../../../session/index.ts";
import { KIND_ASSISTANT, KIND_SETTINGS, KIND_TOOL_RESULT, KIND_USAGE, KIND_USER, TreeIndex } from "./tree-index.ts";
import { layoutShapes, type RowShape, Shapes } from "./tree-shapes.ts";
import { assistantListed, searchText } from "./tree-text.ts";

export type { Gutter, RowShape } from "./tree-shapes.ts";

export type TreeFilterMode = "default" | "no-tools" | "user-only" | "labeled-only" | "all";
export const TREE_FILTER_MODES: readonly TreeFilterMode[] = ["default", "no-tools", "user-only", "labeled-only", "all"];

/** What the model reads from the session. */
export interface TreeSource {
	nodes: ConstructorParameters<typeof TreeIndex>[0];
	leafId: string | null;
	entry(id: string): SessionEntry | undefined;
	/** Entries `start`..`end` of the file (broken lines left out), for reading in slices. */
	entriesBetween(start: number, end: number): SessionEntry[];
	labels: ReadonlyMap<string, { label: string; timestamp: string }>;
	/** The position of `id` in `nodes` (-1: absent), from the session's own index; without it a map is built. */
	indexOf?(id: string): number;
}

const UNREAD = 0;
const SHOWN = 1;
const HIDDEN = 2;

/** A session's tree layout and the entry contents read so far; entries never change, so reads stay valid. */
interface Reading {
	index: TreeIndex;
	leafId: string | null;
	content: Uint8Array;
	texts: (string | undefined)[];
	/** Next file position `resolveSome` reads from. */
	cursor: number;
}

/**
 * Per session (its live node list), the last layout: opening the tree again with no entry appended and the same
 * leaf reuses the layout and everything already read, instead of laying out and reading the file again.
 */
const readings = new WeakMap<object, Reading>();

function shared(source: TreeSource): Reading {
	const cached = readings.get(source.nodes);
	if (cached && cached.index.count === source.nodes.length && cached.leafId === source.leafId) return cached;
	const find = source.indexOf;
	const index = new TreeIndex(source.nodes, source.leafId, find ? (id) => find.call(source, id) : undefined);
	const reading: Reading = {
		index,
		leafId: source.leafId,
		content: new Uint8Array(index.count),
		texts: new Array(index.count),
		cursor: 0,
	};
	readings.set(source.nodes, reading);
	return reading;
}

export class TreeModel {
	readonly index: TreeIndex;
	filterMode: TreeFilterMode;
	private query = "";
	private tokens: string[] = [];
	/** Per entry: UNREAD, or SHOWN / HIDDEN by content (assistant text, broken line). */
	private readonly content: Uint8Array;
	private readonly texts: (string | undefined)[];
	/** The layout and what was read, shared with later opens of the same session (see `shared`). */
	private readonly reading: Reading;
	private refreshedAt = performance.now();
	readonly folded = new Set<number>();
	/** Entry index per row. */
	rows = new Int32Array(0);
	rowCount = 0;
	/** Row per entry (-1: not shown). */
	private rowOf: Int32Array;
	private visParent = new Int32Array(0);
	private childCount = new Int32Array(0);
	private shapes = new Shapes(new Int32Array(0), new Uint8Array(0), new Int32Array(0), []);
	multipleRoots = false;
	selected = 0;
	private lastSelected = -1;

	constructor(
		private readonly source: TreeSource,
		readonly windowSize: number,
		initialMode: TreeFilterMode = "default",
		initialSelectedId?: string | null,
	) {
		this.reading = shared(source);
		this.index = this.reading.index;
		this.content = this.reading.content;
		this.texts = this.reading.texts;
		this.filterMode = initialMode;
		this.rowOf = new Int32Array(this.index.count).fill(-1);
		const target = initialSelectedId ?? source.leafId;
		this.lastSelected = !target ? -1 : target === source.leafId ? this.index.leaf : this.index.indexOf(target);
		this.refresh();
	}

	get searchQuery(): string {
		return this.query;
	}

	/** Every entry's content is read (the list and count are final). */
	get complete(): boolean {
		return this.reading.cursor >= this.index.count;
	}

	selectedEntryId(): string | undefined {
		const v = this.rows[this.selected];
		return this.rowCount > 0 && v !== undefined ? this.index.id(v) : undefined;
	}

	entryAt(row: number): SessionEntry | undefined {
		const v = this.rows[row] as number;
		return this.source.entry(this.index.id(v));
	}

	/** The entry at entry index `v`. */
	entryOf(v: number): SessionEntry | undefined {
		return this.source.entry(this.index.id(v));
	}

	label(v: number): { label: string; timestamp: string } | undefined {
		return this.source.labels.get(this.index.id(v));
	}

	shape(row: number): RowShape {
		return this.shapes.get(row);
	}

	// ---- filtering --------------------------------------------------------------------------------------------

	setFilter(mode: TreeFilterMode): void {
		this.filterMode = mode;
		this.folded.clear();
		this.refresh();
	}

	setSearch(query: string): void {
		this.query = query;
		this.tokens = query.toLowerCase().split(/\s+/).filter(Boolean);
		this.folded.clear();
		this.refresh();
	}

	/** Whether `v` passes the mode without reading its content. */
	private passesMode(v: number): boolean {
		const kind = this.index.kind[v];
		if (kind === KIND_USAGE) return false;
		switch (this.filterMode) {
			case "user-only":
				return kind === KIND_USER;
			case "no-tools":
				return kind !== KIND_SETTINGS && kind !== KIND_TOOL_RESULT;
			case "labeled-only":
				return this.source.labels.has(this.index.id(v));
			case "all":
				return true;
			default:
				return kind !== KIND_SETTINGS;
		}
	}

	/** Whether the content of `v` must be read to decide (an unread assistant or message while searching). */
	private needsContent(v: number): boolean {
		if (this.content[v] !== UNREAD) return false;
		if (this.tokens.length > 0) return true;
		return this.index.kind[v] === KIND_ASSISTANT;
	}

	/** Reads `entry` (of entry index `v`) into the content cache. */
	private absorb(v: number, entry: SessionEntry | undefined): void {
		if (!entry) {
			this.content[v] = HIDDEN;
			return;
		}
		const message = entry.type === "message" ? (entry.message as { role: string }) : undefined;
		const listed = !message || message.role !== "assistant" || assistantListed(message);
		this.content[v] = listed ? SHOWN : HIDDEN;
		this.texts[v] = searchText(entry);
	}

	private read(v: number): void {
		if (this.content[v] === UNREAD) this.absorb(v, this.source.entry(this.index.id(v)));
	}

	/** Whether `v` is shown; unread content counts as shown. */
	private shows(v: number): boolean {
		if (!this.passesMode(v)) return false;
		const state = this.content[v];
		if (state === UNREAD) return true;
		if (state === HIDDEN && v !== this.index.leaf) return false;
		if (this.tokens.length > 0) {
			const label = this.source.labels.get(this.index.id(v))?.label;
			const text = label ? `${label.toLowerCase()} ${this.texts[v] ?? ""}` : (this.texts[v] ?? "");
			for (const token of this.tokens) if (!text.includes(token)) return false;
		}
		return true;
	}

	/**
	 * Reads unread entries in file order for up to `budgetMs`. Rebuilds the list when everything is read, and every
	 * `refreshMs` before that (a rebuild is a pass over every entry); true when it rebuilt.
	 */
	resolveSome(budgetMs: number, refreshMs = 250): boolean {
		const count = this.index.count;
		if (this.reading.cursor >= count) return false;
		const now = performance.now();
		const until = now + budgetMs;
		while (this.reading.cursor < count && performance.now() < until) {
			const start = this.reading.cursor;
			const end = Math.min(count, start + 128);
			const entries = this.source.entriesBetween(start, end);
			let k = 0;
			for (let v = start; v < end; v++) {
				const entry = entries[k];
				if (entry && entry.id === this.index.id(v)) {
					k++;
					if (this.content[v] === UNREAD) this.absorb(v, entry);
				} else if (this.content[v] === UNREAD) this.absorb(v, undefined);
			}
			this.reading.cursor = end;
		}
		if (this.reading.cursor < count && now - this.refreshedAt < refreshMs) return false;
		this.refresh(false);
		return true;
	}

	/**
	 * Reads the entries around the selection so the rows a frame draws are decided; at most `budgetMs` (a rare
	 * search on an unread session would otherwise read it all here), the rest is left to `resolveSome`.
	 */
	private readAround(anchor: number, budgetMs = 30): void {
		const order = this.index.order;
		const listed = this.index.listed;
		const want = this.windowSize + 2;
		const until = performance.now() + budgetMs;
		for (const step of [-1, 1]) {
			let found = 0;
			for (let p = anchor; p >= 0 && p < listed && found < want; p += step) {
				const v = order[p] as number;
				if (!this.passesMode(v)) continue;
				if (this.needsContent(v)) {
					if (performance.now() > until) break;
					this.read(v);
				}
				if (this.shows(v)) found++;
			}
		}
	}

	// ---- the list -----------------------------------------------------------------------------------------------

	/** Recomputes rows, shapes and the selection (keeping the selected entry, else its nearest shown ancestor). */
	refresh(readNearSelection = true): void {
		this.refreshedAt = performance.now();
		if (this.rowCount > 0) this.lastSelected = this.rows[this.selected] ?? this.lastSelected;
		const idx = this.index;
		if (readNearSelection) {
			const anchor = this.lastSelected >= 0 ? (idx.pos[this.lastSelected] as number) : idx.listed - 1;
			this.readAround(Math.max(0, anchor));
		}
		for (let r = 0; r < this.rowCount; r++) this.rowOf[this.rows[r] as number] = -1;
		if (this.rows.length < idx.listed) this.rows = new Int32Array(idx.listed);
		let m = 0;
		const folds = this.folded.size > 0;
		for (let p = 0; p < idx.listed; p++) {
			const v = idx.order[p] as number;
			if (this.shows(v)) {
				this.rows[m] = v;
				this.rowOf[v] = m++;
			}
			if (folds && this.folded.has(v)) p += (idx.size[v] as number) - 1;
		}
		this.rowCount = m;
		this.computeShapes();
		this.selected = this.nearestRow(this.lastSelected);
		if (m > 0) this.lastSelected = this.rows[this.selected] as number;
	}

	private nearestRow(v: number): number {
		if (this.rowCount === 0) return 0;
		for (let steps = 0; v >= 0 && steps <= this.index.count; v = this.index.parent[v] as number, steps++) {
			const row = this.rowOf[v] as number;
			if (row >= 0) return row;
		}
		return this.rowCount - 1;
	}

	private computeShapes(): void {
		const out = layoutShapes(this.index, this.rows, this.rowCount, this.visParent, this.childCount);
		this.visParent = out.visParent;
		this.childCount = out.childCount;
		this.shapes = out.shapes;
		this.multipleRoots = out.multipleRoots;
	}

	// ---- selection and folds ---------------------------------------------------------------------------------

	move(delta: number, wrap: boolean): void {
		if (this.rowCount === 0) return;
		const last = this.rowCount - 1;
		let next = this.selected + delta;
		if (wrap) next = next < 0 ? last : next > last ? 0 : next;
		else next = Math.max(0, Math.min(last, next));
		this.select(next);
	}

	select(row: number): void {
		this.selected = row;
		this.lastSelected = this.rows[row] ?? this.lastSelected;
		this.readAround(this.index.pos[this.lastSelected] as number);
	}

	/** A root, or the first entry of a branch, with shown children. */
	isFoldable(row: number): boolean {
		if (row + 1 >= this.rowCount || this.visParent[row + 1] !== row) return false;
		const q = this.visParent[row] as number;
		return q < 0 || (this.childCount[q] as number) > 1;
	}

	isFolded(row: number): boolean {
		return this.folded.has(this.rows[row] as number);
	}

	/** `app.tree.foldOrUp`: folds the selected branch start, else moves to the previous branch start. */
	foldOrUp(): void {
		if (this.rowCount === 0) return;
		const v = this.rows[this.selected] as number;
		if (this.isFoldable(this.selected) && !this.folded.has(v)) {
			this.folded.add(v);
			this.refresh(false);
			return;
		}
		let r = this.selected;
		while (true) {
			const q = this.visParent[r] as number;
			if (q < 0) break;
			if ((this.childCount[q] as number) > 1 && r < this.selected) break;
			r = q;
		}
		this.select(r);
	}

	/** `app.tree.unfoldOrDown`: unfolds the selected entry, else moves to the next branch start or the branch end. */
	unfoldOrDown(): void {
		if (this.rowCount === 0) return;
		const v = this.rows[this.selected] as number;
		if (this.folded.has(v)) {
			this.folded.delete(v);
			this.refresh(false);
			return;
		}
		let r = this.selected;
		while (true) {
			const first = r + 1 < this.rowCount && this.visParent[r + 1] === r ? r + 1 : -1;
			if (first < 0) break;
			if ((this.childCount[r] as number) > 1) {
				r = first;
				break;
			}
			r = first;
		}
		this.select(r);
	}
}
