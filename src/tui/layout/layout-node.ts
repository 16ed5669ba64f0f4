/**
 * How a component tells the fullscreen layout engine that it is a stack or a scroll viewport rather than a plain
 * list of lines. The symbol is registered globally (same key as pi-tui) so components built against another copy of
 * the toolkit are recognised too.
 */
import type { Component } from "../types.ts";

export const LAYOUT_NODE: unique symbol = Symbol.for("@earendil-works/pi-tui/layout-node") as never;

/** The space a stack is laid out in (height is unbounded when a stack renders outside a layout frame). */
export interface LayoutViewport {
	width: number;
	height: number;
}

export interface StackLayoutEntry {
	component: Component;
	/** Starting size on the stack's axis: a number of cells, or "auto" (the child's natural size). */
	basis?: number | "auto";
	/** Share of the free space this entry takes (0 = none). */
	grow?: number;
	/** Share of the overflow this entry gives up, weighted by its size (default 1). */
	shrink?: number;
	minSize?: number;
	maxSize?: number;
	/** Show the entry only while this returns true for the viewport. */
	visible?: (viewport: LayoutViewport) => boolean;
}

export type StackAlign = "stretch" | "start" | "center" | "end";

export interface StackLayoutNode {
	type: "vstack" | "hstack";
	entries: readonly StackLayoutEntry[];
	gap: number;
	align: StackAlign;
}

/** What the layout engine needs from a scroll viewport. */
export interface ScrollLayoutState {
	readonly scrollTop: number;
	readonly primary: boolean;
	readonly overscroll: "chain" | "contain";
	readonly viewportHeight: number;
	getContentWidth(width: number): number;
	updateLayout(contentHeight: number, viewportHeight: number, requestRender: () => void): void;
}

export interface ScrollLayoutNode {
	type: "scroll";
	component: Component;
	state: ScrollLayoutState;
}

export type LayoutNode = StackLayoutNode | ScrollLayoutNode;

export interface LayoutComponent extends Component {
	[LAYOUT_NODE](): LayoutNode;
}

export function getLayoutNode(component: Component): LayoutNode | undefined {
	const candidate = component as Partial<LayoutComponent>;
	const describe = candidate[LAYOUT_NODE];
	return typeof describe === "function" ? describe.call(component) : undefined;
}
