/**
 * How each visible row of the session tree is drawn (pi 0.87.1's rules over the visible tree, where a hidden
 * entry's children hang from its nearest visible ancestor): indent, connector, last-child flag and the gutters of
 * the ancestors' connectors. One pass over the rows in listing order with a stack of open ancestors (a subtree is
 * one range of listing positions, so "is ancestor" is two comparisons).
 */
import type { TreeIndex } from "./tree-index.ts";

export interface Gutter {
	position: number;
	show: boolean;
}

export interface RowShape {
	indent: number;
	showConnector: boolean;
	isLast: boolean;
	isVirtualRootChild: boolean;
	gutters: readonly Gutter[];
}

const NO_GUTTERS: readonly Gutter[] = [];
const CONNECTOR = 1;
const LAST = 2;
const VIRTUAL = 4;
const BRANCHED = 8;

/** The shapes of all rows, in typed arrays (a 100k-row list allocates no object per row). */
export class Shapes {
	constructor(
		private readonly indent: Int32Array,
		private readonly flags: Uint8Array,
		/** Per row, which of `pool`'s gutter lists it draws (rows of one branch share one list). */
		private readonly gutterIds: Int32Array,
		private readonly pool: readonly (readonly Gutter[])[],
	) {}

	get(row: number): RowShape {
		const flags = this.flags[row] ?? LAST;
		return {
			indent: this.indent[row] ?? 0,
			showConnector: (flags & CONNECTOR) !== 0,
			isLast: (flags & LAST) !== 0,
			isVirtualRootChild: (flags & VIRTUAL) !== 0,
			gutters: this.pool[this.gutterIds[row] ?? 0] ?? NO_GUTTERS,
		};
	}
}

export function layoutShapes(
	idx: TreeIndex,
	rows: Int32Array,
	rowCount: number,
	visParent: Int32Array<ArrayBuffer>,
	childCount: Int32Array<ArrayBuffer>,
): { visParent: Int32Array<ArrayBuffer>; childCount: Int32Array<ArrayBuffer>; shapes: Shapes; multipleRoots: boolean } {
	const m = rowCount;
	if (visParent.length < m) {
		visParent = new Int32Array(m);
		childCount = new Int32Array(m);
	}
	childCount.fill(0, 0, m);
	const lastChild = new Int32Array(m).fill(-1);
	// Open ancestors as rows, with each one's end of subtree (listing position) beside it.
	const stack = new Int32Array(m);
	const stackEnd = new Int32Array(m);
	const pos = idx.pos;
	const size = idx.size;
	let depth = 0;
	let roots = 0;
	let lastRoot = -1;
	for (let r = 0; r < m; r++) {
		const v = rows[r] as number;
		const p = pos[v] as number;
		// Every row after an open ancestor has a greater position, so "p < end" alone says "inside its subtree".
		while (depth > 0 && p >= (stackEnd[depth - 1] as number)) depth--;
		const q = depth > 0 ? (stack[depth - 1] as number) : -1;
		visParent[r] = q;
		if (q >= 0) {
			childCount[q] = (childCount[q] as number) + 1;
			lastChild[q] = r;
		} else {
			roots++;
			lastRoot = r;
		}
		stack[depth] = r;
		stackEnd[depth++] = p + (size[v] as number);
	}
	const multi = roots > 1;
	const indent = new Int32Array(m);
	const flags = new Uint8Array(m);
	// Gutter lists by id (0: none), per row and per parent row for its children (-1: not made yet); typed arrays,
	// as a 100k-slot JS array is slow to fill.
	const pool: (readonly Gutter[])[] = [NO_GUTTERS];
	const gutterIds = new Int32Array(m);
	const childGutters = new Int32Array(m).fill(-1);
	for (let r = 0; r < m; r++) {
		const q = visParent[r] as number;
		if (q < 0) {
			indent[r] = multi ? 1 : 0;
			flags[r] = (multi ? CONNECTOR | VIRTUAL | BRANCHED : 0) | (r === lastRoot ? LAST : 0);
			continue;
		}
		const parentIndent = indent[q] as number;
		const parentFlags = flags[q] as number;
		const many = (childCount[q] as number) > 1;
		indent[r] = many || (parentFlags & BRANCHED && parentIndent > 0) ? parentIndent + 1 : parentIndent;
		let inherited = childGutters[q] as number;
		if (inherited < 0) {
			const shown = (parentFlags & CONNECTOR) !== 0 && (parentFlags & VIRTUAL) === 0;
			inherited = gutterIds[q] as number;
			if (shown) {
				const display = multi ? Math.max(0, parentIndent - 1) : parentIndent;
				const own = pool[inherited] as readonly Gutter[];
				inherited = pool.length;
				pool.push([...own, { position: Math.max(0, display - 1), show: (parentFlags & LAST) === 0 }]);
			}
			childGutters[q] = inherited;
		}
		gutterIds[r] = inherited;
		flags[r] = (many ? CONNECTOR | BRANCHED : 0) | (lastChild[q] === r ? LAST : 0);
	}
	return { visParent, childCount, shapes: new Shapes(indent, flags, gutterIds, pool), multipleRoots: multi };
}
