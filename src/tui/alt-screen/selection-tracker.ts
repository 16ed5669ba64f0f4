/**
 * The fullscreen renderer's own text selection: press/drag/release build a selection anchored in a scroll view's
 * content (so it survives scrolling) or in the screen; a second click on the same word selects the word, a third the
 * line; dragging past the view's edge scrolls it. The copied text has no styles.
 */
import { getScrollViewBox, getScrollViewsAt, type LayoutFrame } from "../layout/frame.ts";
import type { ScrollView } from "../layout/scroll-view.ts";
import {
	lineSelection,
	orderSelection,
	type SelectionPoint,
	type SelectionRange,
	selectedText,
	wordSelection,
} from "../mouse/selection.ts";
import type { RawMouseReport } from "../mouse/sgr.ts";
import { MULTI_CLICK_MS } from "../mouse/sgr.ts";

export interface TrackedPoint extends SelectionPoint {
	scrollView?: ScrollView;
}

export interface SelectionHost {
	layout(): LayoutFrame | undefined;
	/** The last painted screen rows (selection outside any scroll view reads them). */
	screen(): readonly string[];
	size(): { columns: number; rows: number };
	hasOverlay(): boolean;
	requestRender(): void;
}

export class SelectionTracker {
	anchor: TrackedPoint | undefined;
	focus: TrackedPoint | undefined;
	/** Between a left press and its release. */
	pressed = false;
	dragged = false;
	private granularity: "character" | "word" | "line" = "character";
	private initial: SelectionRange<TrackedPoint> | undefined;
	private lastClick:
		| { at: number; count: number; row: number; view?: ScrollView; start: number; end: number }
		| undefined;
	private autoScroll: { timer: ReturnType<typeof setInterval> | undefined; direction: number; x: number; y: number } = {
		timer: undefined,
		direction: 0,
		x: 0,
		y: 0,
	};

	constructor(private readonly host: SelectionHost) {}

	get clickCount(): number {
		return this.lastClick?.count ?? 1;
	}

	clear(): void {
		this.stopAutoScroll();
		this.pressed = false;
		this.anchor = undefined;
		this.focus = undefined;
		this.granularity = "character";
		this.initial = undefined;
		this.dragged = false;
	}

	forgetClicks(): void {
		this.lastClick = undefined;
	}

	/** A left press at (x, y): starts a selection; returns the press point. */
	press(report: RawMouseReport): TrackedPoint {
		this.stopAutoScroll();
		this.pressed = true;
		const frame = this.host.layout();
		const view = !this.host.hasOverlay() && frame ? getScrollViewsAt(frame, report.x, report.y)[0] : undefined;
		const point = this.pointAt(report.x, report.y, view);
		const word = wordSelection(this.sourceLine(point), point);
		const count = this.countClick(point, word);
		const range = count === 2 ? word : count === 3 ? lineSelection(this.sourceLine(point), point) : undefined;
		this.granularity = range ? (count === 2 ? "word" : "line") : "character";
		this.initial = range;
		this.anchor = range?.start ?? point;
		this.focus = range?.end ?? point;
		this.dragged = false;
		return point;
	}

	drag(report: RawMouseReport): void {
		if (!this.pressed || !this.anchor) return;
		this.dragged = true;
		this.lastClick = undefined;
		this.extendTo(this.pointAt(report.x, report.y, this.anchor.scrollView));
		this.updateAutoScroll(report.x, report.y);
	}

	/** Ends the gesture; true when it was a click (no movement) rather than a selection. */
	release(report: RawMouseReport): boolean {
		this.pressed = false;
		this.stopAutoScroll();
		if (!this.anchor) return false;
		const point = this.pointAt(report.x, report.y, this.anchor.scrollView);
		this.extendTo(point);
		return (
			!this.dragged &&
			this.anchor.scrollView === point.scrollView &&
			this.anchor.row === point.row &&
			this.anchor.col === point.col
		);
	}

	bounds(): SelectionRange<TrackedPoint> | undefined {
		if (!this.anchor || !this.focus || this.anchor.scrollView !== this.focus.scrollView) return undefined;
		return orderSelection(this.anchor, this.focus);
	}

	/** The selected text, styles removed, or undefined when nothing is selected. */
	text(): string | undefined {
		const range = this.bounds();
		if (!range) return undefined;
		const lines = this.sourceLines(range.start.scrollView);
		if (!lines) return undefined;
		const text = selectedText(lines, range);
		return text.length === 0 ? undefined : text;
	}

	sourceLines(view: ScrollView | undefined): readonly string[] | undefined {
		if (!view) return this.host.screen();
		const frame = this.host.layout();
		return frame ? getScrollViewBox(frame, view)?.scrollContentLines : undefined;
	}

	private sourceLine(point: TrackedPoint): string {
		return this.sourceLines(point.scrollView)?.[point.row] ?? "";
	}

	private visibleRows(
		view: ScrollView,
	): { top: number; bottom: number; x: number; width: number; y: number } | undefined {
		const frame = this.host.layout();
		const box = frame ? getScrollViewBox(frame, view) : undefined;
		if (!box || box.rect.height <= 0 || box.clip.height <= 0) return undefined;
		const top = Math.max(0, box.rect.y, box.clip.y);
		const bottom = Math.min(
			this.host.size().rows - 1,
			box.rect.y + box.rect.height - 1,
			box.clip.y + box.clip.height - 1,
		);
		return bottom < top ? undefined : { top, bottom, x: box.rect.x, width: box.rect.width, y: box.rect.y };
	}

	/** The cell under (x, y) in `view`'s content (clamped to its visible rows), else on the screen. */
	private pointAt(x: number, y: number, view: ScrollView | undefined): TrackedPoint {
		if (view) {
			const rows = this.visibleRows(view);
			if (rows) {
				const lines = this.sourceLines(view) ?? [];
				const row = Math.max(rows.top, Math.min(rows.bottom, y));
				return {
					row: Math.max(0, Math.min(Math.max(0, lines.length - 1), view.scrollTop + row - rows.y)),
					col: Math.max(0, Math.min(rows.width - 1, x - rows.x)),
					scrollView: view,
				};
			}
		}
		const { columns, rows } = this.host.size();
		return { row: Math.max(0, Math.min(rows - 1, y)), col: Math.max(0, Math.min(columns - 1, x)) };
	}

	private countClick(point: TrackedPoint, word: SelectionRange<TrackedPoint> | undefined): number {
		const at = Date.now();
		const last = this.lastClick;
		const count =
			word &&
			last &&
			at - last.at <= MULTI_CLICK_MS &&
			last.row === point.row &&
			last.view === point.scrollView &&
			last.start === word.start.col &&
			last.end === word.end.col
				? (last.count % 3) + 1
				: 1;
		this.lastClick = word
			? { at, count, row: point.row, view: point.scrollView, start: word.start.col, end: word.end.col }
			: undefined;
		return count;
	}

	/** Word and line selections grow by whole words/lines, keeping the first one selected. */
	private extendTo(point: TrackedPoint): void {
		if (this.granularity === "character" || !this.initial) {
			this.focus = point;
			return;
		}
		const line = this.sourceLine(point);
		const range = this.granularity === "word" ? wordSelection(line, point) : lineSelection(line, point);
		if (!range) return;
		const first = this.initial;
		const before =
			range.start.row < first.start.row || (range.start.row === first.start.row && range.start.col < first.start.col);
		this.anchor = before ? first.end : first.start;
		this.focus = before ? range.start : range.end;
	}

	private updateAutoScroll(x: number, y: number): void {
		const view = this.anchor?.scrollView;
		const rows = view ? this.visibleRows(view) : undefined;
		if (!view || !rows) {
			this.stopAutoScroll();
			return;
		}
		this.autoScroll.x = x;
		this.autoScroll.y = y;
		this.autoScroll.direction = y <= rows.top ? -1 : y >= rows.bottom ? 1 : 0;
		if (this.autoScroll.direction === 0) {
			this.stopAutoScroll();
			return;
		}
		if (this.autoScroll.timer) return;
		const timer = setInterval(() => this.autoScrollStep(), 50);
		(timer as { unref?: () => void }).unref?.();
		this.autoScroll.timer = timer;
	}

	private autoScrollStep(): void {
		const view = this.anchor?.scrollView;
		const direction = this.autoScroll.direction;
		if (!view || direction === 0 || view.scrollBy(direction) === direction) {
			this.stopAutoScroll();
			return;
		}
		this.extendTo(this.pointAt(this.autoScroll.x, this.autoScroll.y, view));
		this.host.requestRender();
	}

	stopAutoScroll(): void {
		if (this.autoScroll.timer) clearInterval(this.autoScroll.timer);
		this.autoScroll.timer = undefined;
		this.autoScroll.direction = 0;
	}
}
