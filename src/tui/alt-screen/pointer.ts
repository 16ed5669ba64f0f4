/**
 * Mouse gestures on the fullscreen screen, in the order pi-tui resolves them: a component that captured the
 * pointer (or was pressed) keeps getting the gesture and a click on release; then the search panel's buttons, the
 * jump-to-end label, overlays and components under the pointer; what nobody handles becomes text selection (or a
 * click on an OSC 8 link).
 */
import type { LayoutFrame, ScrollbarGeometry } from "../layout/frame.ts";
import { getScrollbarGeometry, getScrollViewBox, getScrollViewsAt } from "../layout/frame.ts";
import type { ScrollView } from "../layout/scroll-view.ts";
import {
	dispatchMouseEvent,
	retargetMouseEvent,
	type TuiMouseDispatchResult,
	type TuiMouseDispatchTarget,
} from "../mouse/dispatch.ts";
import { paintSelection } from "../mouse/selection.ts";
import { ClickCounter, createMouseEvent, mouseEventTypeOf, type RawMouseReport } from "../mouse/sgr.ts";
import { isImageLine } from "../render/composite.ts";
import type { TuiMouseEvent, TuiMouseEventType } from "../types.ts";
import { getOsc8LinkAtColumn } from "../width.ts";
import { SelectionTracker } from "./selection-tracker.ts";

export interface PointerHost {
	layout(): LayoutFrame | undefined;
	screen(): readonly string[];
	size(): { columns: number; rows: number };
	hasOverlay(): boolean;
	requestRender(): void;
	dispatchToOverlay(event: TuiMouseEvent): { hit: boolean; result?: TuiMouseDispatchResult };
	dispatchToLayout(event: TuiMouseEvent): TuiMouseDispatchResult | undefined;
	applyResult(event: TuiMouseEvent, result: TuiMouseDispatchResult): boolean;
	/** The selection is complete (button released after a drag or multi-click). */
	copy(): void;
	openUrl?: (url: string) => void;
	endIndicatorHit(x: number, y: number): boolean;
	/** Returns the search button direction under (x, y), navigating there; undefined when none. */
	searchButtonHit(x: number, y: number): -1 | 1 | undefined;
}

export class AltScreenPointer {
	readonly selection: SelectionTracker;
	private captured: TuiMouseDispatchTarget | undefined;
	private pressTarget: TuiMouseDispatchTarget | undefined;
	private pressPoint: { x: number; y: number } | undefined;
	private pressMoved = false;
	private pressedUrl: string | undefined;
	private readonly componentClicks = new ClickCounter();
	private barDrag: { view: ScrollView; grab: number } | undefined;
	private barHover: ScrollView | undefined;

	constructor(private readonly host: PointerHost) {
		this.selection = new SelectionTracker(host);
	}

	capture(target: TuiMouseDispatchTarget): void {
		this.captured = target;
	}

	reset(): void {
		this.barDrag = undefined;
		this.setBarHover(undefined);
		this.selection.clear();
		this.selection.forgetClicks();
		this.endGesture();
		this.componentClicks.reset();
		this.pressedUrl = undefined;
	}

	/** The terminal lost focus: drop an unfinished selection and any gesture. */
	focusLost(): void {
		const wasSelecting = this.selection.pressed;
		const visible = wasSelecting && this.selection.bounds() !== undefined;
		this.endGesture();
		this.barDrag = undefined;
		this.setBarHover(undefined);
		this.componentClicks.reset();
		this.pressedUrl = undefined;
		if (wasSelecting) this.selection.clear();
		else this.selection.stopAutoScroll();
		this.selection.forgetClicks();
		if (visible) this.host.requestRender();
	}

	private endGesture(): void {
		this.captured = undefined;
		this.pressTarget = undefined;
		this.pressPoint = undefined;
		this.pressMoved = false;
	}

	private event(type: TuiMouseEventType, report: RawMouseReport, clickCount?: number): TuiMouseEvent {
		const { columns, rows } = this.host.size();
		return createMouseEvent(type, report.button, report.x, report.y, columns, rows, clickCount ? { clickCount } : {});
	}

	handle(report: RawMouseReport): void {
		const type = mouseEventTypeOf(report);
		const event = this.event(type, report);
		const target = this.captured ?? this.pressTarget;
		if (target) {
			this.continueGesture(report, event, target);
			return;
		}
		const plainLeftPress = !report.release && (report.button & 32) === 0 && (report.button & 3) === 0;
		if (plainLeftPress && this.host.searchButtonHit(report.x, report.y) !== undefined) return;
		const overlay = this.host.dispatchToOverlay(event);
		if (!overlay.hit) {
			if (plainLeftPress && this.host.endIndicatorHit(report.x, report.y)) return;
			const onBar = this.scrollbar(report, plainLeftPress);
			if (!this.barDrag) this.setBarHover(this.barAt(report.x, report.y, true)?.view);
			if (onBar) return;
		} else this.setBarHover(undefined);
		const result = overlay.result ?? (overlay.hit ? undefined : this.host.dispatchToLayout(event));
		if (result) {
			const render = this.host.applyResult(event, result);
			if (type === "press") {
				this.selection.clear();
				this.pressedUrl = undefined;
				this.pressTarget = result.target;
				this.pressPoint = { x: report.x, y: report.y };
				this.pressMoved = false;
			}
			if (render) this.host.requestRender();
			return;
		}
		this.select(report);
	}

	/** Drag/release of a gesture a component took: it keeps getting them; release on the press cell is a click. */
	private continueGesture(report: RawMouseReport, event: TuiMouseEvent, target: TuiMouseDispatchTarget): void {
		if (this.pressPoint && (report.x !== this.pressPoint.x || report.y !== this.pressPoint.y)) {
			this.pressMoved = true;
			this.componentClicks.reset();
		}
		let render = false;
		const result = dispatchMouseEvent(target.component, retargetMouseEvent(event, target));
		if (result) render = this.host.applyResult(event, result);
		if (report.release) {
			if (!this.pressMoved && this.pressPoint?.x === report.x && this.pressPoint.y === report.y) {
				const count = this.componentClicks.click(target.component, `${report.x}:${report.y}`);
				const click = this.event("click", report, count);
				const clicked = dispatchMouseEvent(target.component, retargetMouseEvent(click, target));
				if (clicked) render = this.host.applyResult(click, clicked) || render;
			}
			this.endGesture();
		}
		if (render) this.host.requestRender();
	}

	/** The scroll view whose bar is at (x, y), with the bar's geometry (no bars while an overlay is shown). */
	private barAt(x: number, y: number, includeHidden = false): { view: ScrollView; bar: ScrollbarGeometry } | undefined {
		const frame = this.host.layout();
		if (!frame || this.host.hasOverlay()) return undefined;
		for (const view of getScrollViewsAt(frame, x, y)) {
			const box = getScrollViewBox(frame, view);
			const bar = box ? getScrollbarGeometry(box, includeHidden) : undefined;
			if (bar && x === bar.column && y >= bar.trackTop && y < bar.trackTop + bar.trackHeight) return { view, bar };
		}
		return undefined;
	}

	/** A hovered bar stays visible and draws a solid thumb. */
	private setBarHover(view: ScrollView | undefined): void {
		if (view === this.barHover) return;
		this.barHover?.setScrollbarActive(false);
		this.barHover = view;
		view?.setScrollbarActive(true);
	}

	private dragBarTo(view: ScrollView, bar: ScrollbarGeometry, y: number, grab: number): void {
		const room = bar.trackHeight - bar.thumbHeight;
		const offset = Math.max(0, Math.min(room, y - bar.trackTop - grab));
		view.scrollTo(room === 0 ? 0 : Math.round((offset / room) * bar.maxScrollTop));
	}

	/** Pressing on a bar jumps there (or grabs the thumb) and drags it until release; true when it took the event. */
	private scrollbar(report: RawMouseReport, plainLeftPress: boolean): boolean {
		const drag = this.barDrag;
		if (drag) {
			if (report.release) {
				this.barDrag = undefined;
				return true;
			}
			const frame = this.host.layout();
			const box = frame ? getScrollViewBox(frame, drag.view) : undefined;
			const bar = box ? getScrollbarGeometry(box) : undefined;
			if (bar) this.dragBarTo(drag.view, bar, report.y, drag.grab);
			return true;
		}
		if (!plainLeftPress) return false;
		const hit = this.barAt(report.x, report.y);
		if (!hit) return false;
		this.selection.clear();
		this.selection.forgetClicks();
		this.pressedUrl = undefined;
		this.setBarHover(hit.view);
		const onThumb = report.y >= hit.bar.thumbTop && report.y < hit.bar.thumbTop + hit.bar.thumbHeight;
		const grab = onThumb ? report.y - hit.bar.thumbTop : Math.floor(hit.bar.thumbHeight / 2);
		if (!onThumb) this.dragBarTo(hit.view, hit.bar, report.y, grab);
		this.barDrag = { view: hit.view, grab };
		return true;
	}

	private select(report: RawMouseReport): void {
		const button = report.button & 3;
		if (button !== 0 && !(report.release && button === 3)) return;
		const selection = this.selection;
		if (report.release) {
			if (!selection.pressed) return;
			const isClick = selection.release(report);
			const url = isClick ? this.pressedUrl : undefined;
			this.pressedUrl = undefined;
			if (url && this.host.openUrl) {
				selection.anchor = undefined;
				selection.focus = undefined;
				try {
					this.host.openUrl(url);
				} catch {
					// Opening a link is best-effort.
				}
				this.host.requestRender();
				return;
			}
			if (isClick) {
				const click = this.event("click", report, selection.clickCount);
				const overlay = this.host.dispatchToOverlay(click);
				const result = overlay.result ?? (overlay.hit ? undefined : this.host.dispatchToLayout(click));
				if (result) {
					const render = this.host.applyResult(click, result);
					selection.clear();
					if (render) this.host.requestRender();
					return;
				}
			}
			this.host.copy();
			this.host.requestRender();
			return;
		}
		if ((report.button & 32) !== 0) {
			if (!selection.pressed || !selection.anchor) return;
			this.pressedUrl = undefined;
			selection.drag(report);
			this.host.requestRender();
			return;
		}
		selection.press(report);
		const { columns, rows } = this.host.size();
		const row = this.host.screen()[Math.max(0, Math.min(rows - 1, report.y))] ?? "";
		this.pressedUrl =
			selection.clickCount > 1 ? undefined : getOsc8LinkAtColumn(row, Math.max(0, Math.min(columns - 1, report.x)));
		this.host.requestRender();
	}

	/** The screen with the selection in reverse video. */
	paintSelection(screen: string[]): string[] {
		const range = this.selection.bounds();
		if (!range) return screen;
		const { columns } = this.host.size();
		const view = range.start.scrollView;
		if (!view) {
			return paintSelection(
				screen,
				range,
				{ minRow: 0, maxRow: screen.length - 1, minCol: 0, maxCol: columns },
				isImageLine,
			);
		}
		const frame = this.host.layout();
		const box = frame ? getScrollViewBox(frame, view) : undefined;
		if (!box) return screen;
		const toScreen = (p: typeof range.start) => ({
			...p,
			row: box.rect.y + p.row - view.scrollTop,
			col: box.rect.x + p.col,
		});
		return paintSelection(
			screen,
			{ start: toScreen(range.start), end: toScreen(range.end) },
			{
				minRow: Math.max(0, box.rect.y, box.clip.y),
				maxRow: Math.min(screen.length - 1, box.rect.y + box.rect.height - 1, box.clip.y + box.clip.height - 1),
				minCol: Math.max(0, box.rect.x, box.clip.x),
				maxCol: Math.min(columns, box.rect.x + box.rect.width, box.clip.x + box.clip.width),
			},
			isImageLine,
		);
	}
}
