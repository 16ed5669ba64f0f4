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

export function layoutShapes(
	idx: TreeIndex,
	rows: Int32Array,
	rowCount: number,
	visParent: Int32Array<ArrayBuffer>,
	childCount: Int32Array<ArrayBuffer>,
): {
	visParent: Int32Array<ArrayBuffer>;
	childCount: Int32Array<ArrayBuffer>;
	shapes: RowShape[];
	multipleRoots: boolean;
} {
	const m = rowCount;
	if (visParent.length < m) {
		visParent = new Int32Array(m);
		childCount = new Int32Array(m);
	}
	childCount.fill(0, 0, m);
	const lastChild = new Int32Array(m).fill(-1);
	const stack: number[] = [];
	let roots = 0;
	let lastRoot = -1;
	for (let r = 0; r < m; r++) {
		const v = rows[r] as number;
		while (stack.length > 0 && !idx.isAncestor(rows[stack[stack.length - 1] as number] as number, v)) stack.pop();
		const q = stack.length > 0 ? (stack[stack.length - 1] as number) : -1;
		visParent[r] = q;
		if (q >= 0) {
			childCount[q] = (childCount[q] as number) + 1;
			lastChild[q] = r;
		} else {
			roots++;
			lastRoot = r;
		}
		stack.push(r);
	}
	const multi = roots > 1;
	const shapes: RowShape[] = new Array(m);
	const branched = new Uint8Array(m);
	const childGutters: (readonly Gutter[] | undefined)[] = new Array(m);
	for (let r = 0; r < m; r++) {
		const q = visParent[r] as number;
		if (q < 0) {
			shapes[r] = {
				indent: multi ? 1 : 0,
				showConnector: multi,
				isLast: r === lastRoot,
				isVirtualRootChild: multi,
				gutters: NO_GUTTERS,
			};
			branched[r] = multi ? 1 : 0;
			continue;
		}
		const parent = shapes[q] as RowShape;
		const many = (childCount[q] as number) > 1;
		const indent = many || (branched[q] && parent.indent > 0) ? parent.indent + 1 : parent.indent;
		let gutters = childGutters[q];
		if (!gutters) {
			const shown = parent.showConnector && !parent.isVirtualRootChild;
			const display = multi ? Math.max(0, parent.indent - 1) : parent.indent;
			gutters = shown
				? [...parent.gutters, { position: Math.max(0, display - 1), show: !parent.isLast }]
				: parent.gutters;
			childGutters[q] = gutters;
		}
		shapes[r] = { indent, showConnector: many, isLast: lastChild[q] === r, isVirtualRootChild: false, gutters };
		branched[r] = many ? 1 : 0;
	}
	return { visParent, childCount, shapes, multipleRoots: multi };
}
