/** Finding who takes a mouse event on the fullscreen screen, and the small layers drawn over the layout. */
import { getLayoutBoxesAt, getScrollViewBox, type LayoutFrame } from "../layout/frame.ts";
import { getLayoutNode } from "../layout/layout-node.ts";
import type { ScrollView } from "../layout/scroll-view.ts";
import { dispatchMouseEvent, type TuiMouseDispatchResult } from "../mouse/dispatch.ts";
import { compositeTuiLine, isImageLine } from "../render/composite.ts";
import type { Component, TuiMouseEvent } from "../types.ts";
import { truncateToWidth, visibleWidth } from "../width.ts";

/** Overlays on top get the event first; `hit` says the pointer is over one (the base layer is then skipped). */
/** The deepest component under the pointer that handles the event (stacks and scroll views pass it through). */
export function dispatchToLayout(
	frame: LayoutFrame | undefined,
	event: TuiMouseEvent,
): TuiMouseDispatchResult | undefined {
	if (!frame) return undefined;
	const seen = new Set<Component>();
	for (const box of getLayoutBoxesAt(frame, event.screenX, event.screenY)) {
		if (seen.has(box.component)) continue;
		if (getLayoutNode(box.component) && !box.component.handleMouse) continue;
		seen.add(box.component);
		const result = dispatchMouseEvent(box.component, {
			...event,
			x: event.screenX - box.rect.x,
			y: event.screenY - box.rect.y,
			width: box.rect.width,
			height: box.rect.height,
		});
		if (result) return result;
	}
	return undefined;
}

export interface LabelRect {
	row: number;
	column: number;
	width: number;
}

/** The jump-to-end label centred on the last row of `view` while it is scrolled away from its end. */
export function compositeEndLabel(
	screen: string[],
	frame: LayoutFrame,
	view: ScrollView,
	label: (() => string) | undefined,
	width: number,
): { screen: string[]; rect?: LabelRect } {
	if (!label || !view.followEnd || view.isFollowingEnd) return { screen };
	const box = getScrollViewBox(frame, view);
	if (!box || box.clip.width <= 0 || box.clip.height <= 0) return { screen };
	const row = box.clip.y + box.clip.height - 1;
	if (row >= screen.length || isImageLine(screen[row] ?? "")) return { screen };
	const full = truncateToWidth(label(), box.clip.width, "");
	const column = box.clip.x + Math.floor((box.clip.width - visibleWidth(full)) / 2);
	const rightEdge = view.isScrollbarVisible ? box.rect.x + box.rect.width - 1 : box.clip.x + box.clip.width;
	const text = truncateToWidth(full, Math.max(0, rightEdge - column), "");
	const textWidth = visibleWidth(text);
	if (textWidth === 0) return { screen };
	const out = [...screen];
	out[row] = compositeTuiLine(out[row] ?? "", text, column, textWidth, width);
	return { screen: out, rect: { row, column, width: textWidth } };
}

/** Notices right-aligned from the top row down. */
export function compositeNotices(screen: string[], notices: readonly string[], width: number): string[] {
	const shown = notices.slice(-screen.length);
	if (shown.length === 0) return screen;
	const out = [...screen];
	shown.forEach((line, row) => {
		const w = visibleWidth(line);
		if (w > 0) out[row] = compositeTuiLine(out[row] ?? "", line, width - w, w, width);
	});
	return out;
}
