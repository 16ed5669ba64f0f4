/**
 * The fullscreen layout frame: the component tree laid out in a width × height box (stacks share space, scroll views
 * clip and offset their content), painted into exactly `height` screen rows, with the box tree kept for hit testing
 * (mouse routing, wheel chaining, selection inside a scroll view).
 */

import { isImageLine } from "../image-line.ts";
import type { Component } from "../types.ts";
import { CURSOR_MARKER } from "../types.ts";
import { visibleWidth } from "../width.ts";
import { activeBackground, placeOnLine } from "./compose.ts";
import { getLayoutNode, type LayoutViewport } from "./layout-node.ts";
import type { ScrollView } from "./scroll-view.ts";
import { allocateStackSizes, visibleStackEntries } from "./stack.ts";

export interface LayoutRect {
	x: number;
	y: number;
	width: number;
	height: number;
}

export interface LayoutBox {
	component: Component;
	rect: LayoutRect;
	/** The part of `rect` that is visible (intersected with every ancestor). */
	clip: LayoutRect;
	children: LayoutBox[];
	parent?: LayoutBox;
	/** A leaf's rendered lines; row `lineOffset` is drawn at `rect.y`. */
	lines?: readonly string[];
	lineOffset?: number;
	scrollView?: ScrollView;
	/** All lines of a scroll view's content (selection and search read them). */
	scrollContentLines?: readonly string[];
	layer: number;
}

export interface LayoutFrame {
	root: LayoutBox;
	width: number;
	height: number;
	lines: string[];
	primaryScrollView?: ScrollView;
}

interface FrameContext {
	viewport: LayoutViewport;
	/** One render per component and width per frame, however often the layout measures it. */
	cache: Map<Component, Map<number, string[]>>;
	requestRender: () => void;
	primaryScrollView: ScrollView | undefined;
}

/** OSC 133 prompt-zone marks at the start of a line (used for prompt jumps; never painted). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences on purpose
export const OSC133_ZONE_PREFIX = /^(?:\x1b\]133;[ABC](?:\x07|\x1b\\))+/;

function intersect(a: LayoutRect, b: LayoutRect): LayoutRect {
	const x = Math.max(a.x, b.x);
	const y = Math.max(a.y, b.y);
	const right = Math.min(a.x + a.width, b.x + b.width);
	const bottom = Math.min(a.y + a.height, b.y + b.height);
	return { x, y, width: Math.max(0, right - x), height: Math.max(0, bottom - y) };
}

function linesOf(ctx: FrameContext, component: Component, width: number): string[] {
	const w = Math.max(1, Math.floor(width));
	let byWidth = ctx.cache.get(component);
	if (!byWidth) {
		byWidth = new Map();
		ctx.cache.set(component, byWidth);
	}
	let lines = byWidth.get(w);
	if (!lines) {
		lines = component.render(w);
		byWidth.set(w, lines);
	}
	return lines;
}

function widestLine(lines: readonly string[]): number {
	let max = 0;
	for (const line of lines) max = Math.max(max, visibleWidth(line));
	return max;
}

function shift(box: LayoutBox, dy: number): void {
	box.rect.y += dy;
	for (const child of box.children) shift(child, dy);
}

function reclip(box: LayoutBox, parentClip: LayoutRect): void {
	box.clip = intersect(parentClip, box.rect);
	for (const child of box.children) reclip(child, box.clip);
}

function leafBox(
	ctx: FrameContext,
	component: Component,
	rect: LayoutRect,
	height: number | undefined,
	clip: LayoutRect,
): LayoutBox {
	const lines = linesOf(ctx, component, rect.width);
	const h = height === undefined ? lines.length : Math.max(0, Math.floor(height));
	// A leaf cut shorter than its content keeps its cursor row in view (an editor taller than its slot).
	let lineOffset = 0;
	if (lines.length > h && h > 0) {
		const cursorRow = lines.findIndex((line) => line.includes(CURSOR_MARKER));
		if (cursorRow >= h) lineOffset = cursorRow - h + 1;
	}
	const r = { ...rect, height: h };
	return { component, rect: r, clip: intersect(clip, r), children: [], lines, lineOffset, layer: 0 };
}

function layout(
	ctx: FrameContext,
	component: Component,
	x: number,
	y: number,
	width: number,
	height: number | undefined,
	clip: LayoutRect,
): LayoutBox {
	const w = Math.max(1, Math.floor(width));
	const node = getLayoutNode(component);
	if (!node) return leafBox(ctx, component, { x, y, width: w, height: 0 }, height, clip);

	if (node.type === "scroll") {
		const state = node.state;
		const before = state.scrollTop;
		const contentWidth = state.getContentWidth(w);
		const content = layout(ctx, node.component, x, y - before, contentWidth, undefined, clip);
		const viewportHeight = height === undefined ? content.rect.height : Math.max(0, Math.floor(height));
		state.updateLayout(content.rect.height, viewportHeight, ctx.requestRender);
		shift(content, before - state.scrollTop);
		const view = state as unknown as ScrollView;
		if (state.primary || !ctx.primaryScrollView) ctx.primaryScrollView = view;
		const rect = { x, y, width: w, height: viewportHeight };
		const box: LayoutBox = {
			component,
			rect,
			clip: intersect(clip, rect),
			children: [content],
			scrollView: view,
			scrollContentLines: linesOf(ctx, node.component, contentWidth),
			layer: 0,
		};
		content.parent = box;
		reclip(content, box.clip);
		return box;
	}

	const entries = visibleStackEntries(node.entries, ctx.viewport);
	const box: LayoutBox = { component, rect: { x, y, width: w, height: 0 }, clip, children: [], layer: 0 };
	const adopt = (child: LayoutBox): void => {
		child.parent = box;
		box.children.push(child);
	};

	if (node.type === "vstack") {
		const natural = entries.map((e) => (typeof e.basis === "number" ? e.basis : linesOf(ctx, e.component, w).length));
		const sizes = allocateStackSizes(entries, natural, height, node.gap);
		const sum = sizes.reduce((a, b) => a + b, 0) + Math.max(0, entries.length - 1) * node.gap;
		box.rect.height = height === undefined ? sum : Math.max(0, Math.floor(height));
		box.clip = intersect(clip, box.rect);
		let childY = y;
		entries.forEach((entry, i) => {
			const size = sizes[i] as number;
			adopt(layout(ctx, entry.component, x, childY, w, size, box.clip));
			childY += size + node.gap;
		});
		return box;
	}

	const natural = entries.map((e) =>
		typeof e.basis === "number" ? e.basis : widestLine(linesOf(ctx, e.component, w)),
	);
	const widths = allocateStackSizes(entries, natural, w, node.gap);
	const heights = entries.map((e, i) => linesOf(ctx, e.component, Math.max(1, widths[i] as number)).length);
	box.rect.height = height === undefined ? heights.reduce((a, b) => Math.max(a, b), 0) : Math.max(0, height);
	box.clip = intersect(clip, box.rect);
	const bandHeight = box.rect.height;
	let childX = x;
	entries.forEach((entry, i) => {
		const childWidth = widths[i] as number;
		const childHeight = node.align === "stretch" ? bandHeight : Math.min(bandHeight, heights[i] as number);
		let childY = y;
		if (node.align === "center") childY += Math.floor((bandHeight - childHeight) / 2);
		else if (node.align === "end") childY += bandHeight - childHeight;
		if (childWidth === 0) {
			adopt({
				component: entry.component,
				rect: { x: childX, y: childY, width: 0, height: childHeight },
				clip: { x: childX, y: childY, width: 0, height: 0 },
				children: [],
				layer: 0,
			});
		} else {
			adopt(layout(ctx, entry.component, childX, childY, childWidth, childHeight, box.clip));
		}
		childX += childWidth + node.gap;
	});
	return box;
}

export interface ScrollbarGeometry {
	column: number;
	trackTop: number;
	trackHeight: number;
	thumbTop: number;
	thumbHeight: number;
	maxScrollTop: number;
}

/**
 * Where a scroll view's bar is drawn: the last column of its box; thumb height proportional to the visible share
 * (at least 2 rows). With `includeHiddenAuto`, an "auto" bar that is currently hidden counts too (hover targets).
 */
export function getScrollbarGeometry(box: LayoutBox, includeHiddenAuto = false): ScrollbarGeometry | undefined {
	const view = box.scrollView;
	if (!view || box.rect.width <= 0 || box.rect.height <= 0) return undefined;
	const contentHeight = box.children[0]?.rect.height ?? box.scrollContentLines?.length ?? 0;
	const trackHeight = box.rect.height;
	const revealable = includeHiddenAuto && view.scrollbar === "auto" && contentHeight > trackHeight;
	if (!view.isScrollbarVisible && !revealable) return undefined;
	const thumbHeight = Math.max(
		Math.min(2, trackHeight),
		Math.min(trackHeight, Math.round((trackHeight * trackHeight) / Math.max(1, contentHeight))),
	);
	const maxScrollTop = Math.max(0, contentHeight - trackHeight);
	const thumbOffset =
		maxScrollTop === 0 ? 0 : Math.round((view.scrollTop / maxScrollTop) * (trackHeight - thumbHeight));
	const column = box.rect.x + box.rect.width - 1;
	if (column < box.clip.x || column >= box.clip.x + box.clip.width) return undefined;
	return { column, trackTop: box.rect.y, trackHeight, thumbTop: box.rect.y + thumbOffset, thumbHeight, maxScrollTop };
}

function paintScrollbar(box: LayoutBox, screen: string[], totalWidth: number): void {
	const geometry = getScrollbarGeometry(box);
	const view = box.scrollView;
	if (!geometry || !view) return;
	for (let i = 0; i < geometry.trackHeight; i++) {
		const row = geometry.trackTop + i;
		if (row < box.clip.y || row >= box.clip.y + box.clip.height || row < 0 || row >= screen.length) continue;
		const onThumb = row >= geometry.thumbTop && row < geometry.thumbTop + geometry.thumbHeight;
		const glyph = onThumb
			? view.scrollbarThumbStyle(view.isScrollbarActive ? "█" : "┃")
			: view.scrollbarTrackStyle("│");
		const line = screen[row] ?? "";
		if (isImageLine(line)) continue;
		// An overlaid bar keeps the background of the cell it covers; a reserved column ("always") does not.
		const bg = view.scrollbar === "always" ? "" : activeBackground(line, geometry.column);
		screen[row] = placeOnLine(line, `${bg}${glyph}`, geometry.column, 1, totalWidth);
	}
}

function paint(box: LayoutBox, screen: string[], totalWidth: number): void {
	if (box.lines) {
		const offset = box.lineOffset ?? 0;
		const first = Math.max(box.rect.y, box.clip.y, 0);
		const last = Math.min(box.rect.y + box.rect.height, box.clip.y + box.clip.height, screen.length);
		for (let row = first; row < last; row++) {
			const source = box.lines[offset + row - box.rect.y];
			if (source === undefined) continue;
			const line = source.replace(OSC133_ZONE_PREFIX, "");
			// A full-width box on an empty row needs no compositing (rows are erased before drawing and cut later).
			if (box.rect.x === 0 && box.rect.width >= totalWidth && (isImageLine(line) || !screen[row])) screen[row] = line;
			else screen[row] = placeOnLine(screen[row] ?? "", line, box.rect.x, box.rect.width, totalWidth);
		}
	}
	for (const child of box.children) paint(child, screen, totalWidth);
	paintScrollbar(box, screen, totalWidth);
}

/** Lay out `root` in width × height and paint it; `requestRender` is handed to scroll views for later changes. */
export function renderLayoutFrame(
	root: Component,
	width: number,
	height: number,
	requestRender: () => void,
): LayoutFrame {
	const w = Math.max(1, Math.floor(width));
	const h = Math.max(1, Math.floor(height));
	const ctx: FrameContext = {
		viewport: { width: w, height: h },
		cache: new Map(),
		requestRender,
		primaryScrollView: undefined,
	};
	const rootBox = layout(ctx, root, 0, 0, w, h, { x: 0, y: 0, width: w, height: h });
	const lines = Array.from({ length: h }, () => "");
	paint(rootBox, lines, w);
	return {
		root: rootBox,
		width: w,
		height: h,
		lines,
		...(ctx.primaryScrollView ? { primaryScrollView: ctx.primaryScrollView } : {}),
	};
}

function contains(rect: LayoutRect, x: number, y: number): boolean {
	return x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height;
}

/** The boxes under (x, y), deepest first (then by layer), ending with the root. */
export function getLayoutBoxesAt(frame: LayoutFrame, x: number, y: number): LayoutBox[] {
	const hits: { box: LayoutBox; depth: number }[] = [];
	const visit = (box: LayoutBox, depth: number): void => {
		if (!contains(box.clip, x, y)) return;
		hits.push({ box, depth });
		for (const child of box.children) visit(child, depth + 1);
	};
	visit(frame.root, 0);
	hits.sort((a, b) => b.box.layer - a.box.layer || b.depth - a.depth);
	return hits.map((hit) => hit.box);
}

export function getScrollViewBox(frame: LayoutFrame, scrollView: ScrollView): LayoutBox | undefined {
	const visit = (box: LayoutBox): LayoutBox | undefined => {
		if (box.scrollView === scrollView) return box;
		for (const child of box.children) {
			const found = visit(child);
			if (found) return found;
		}
		return undefined;
	};
	return visit(frame.root);
}

/** Scroll views under (x, y), innermost first (the order wheel scrolling chains through). */
export function getScrollViewsAt(frame: LayoutFrame, x: number, y: number): ScrollView[] {
	const hits: { view: ScrollView; depth: number }[] = [];
	const visit = (box: LayoutBox, depth: number): void => {
		if (!contains(box.clip, x, y)) return;
		if (box.scrollView && contains(box.rect, x, y)) hits.push({ view: box.scrollView, depth });
		for (const child of box.children) visit(child, depth + 1);
	};
	visit(frame.root, 0);
	hits.sort((a, b) => b.depth - a.depth);
	return hits.map((hit) => hit.view);
}
