/**
 * Transcript search state for the fullscreen renderer: the panel overlay, the matches over the primary scroll view's
 * content, which one is current, scrolling it into view, and highlighting the visible matches.
 */
import { getScrollbarGeometry, getScrollViewBox, type LayoutFrame } from "../layout/frame.ts";
import type { ScrollView } from "../layout/scroll-view.ts";
import type { OverlayHandle } from "../types.ts";
import { sliceByColumn, tokenize, visibleWidth } from "../width.ts";
import {
	AltScreenSearchIndex,
	type AltScreenSearchMatch,
	firstMatchFrom,
	getAltScreenSearchMatchKey,
	stepMatch,
} from "./search.ts";
import { AltScreenSearchComponent } from "./search-panel.ts";

export interface SearchStyles {
	match: (text: string) => string;
	current: (text: string) => string;
	button: (text: string, hovered: boolean) => string;
}

export class SearchController {
	readonly panel: AltScreenSearchComponent;
	overlay: OverlayHandle | undefined;
	private readonly index = new AltScreenSearchIndex();
	private query = "";
	private matches: AltScreenSearchMatch[] = [];
	private selected = -1;
	private selectedKey: string | undefined;
	private pending: "query" | "next" | "previous" | "retain" = "query";
	private anchorRow: number;

	constructor(
		private readonly styles: SearchStyles,
		anchorRow: number,
		private readonly requestRender: () => void,
		private readonly primary: () => ScrollView,
	) {
		this.anchorRow = anchorRow;
		this.panel = new AltScreenSearchComponent((query) => this.setQuery(query), styles.button);
	}

	private setQuery(query: string): void {
		if (query === this.query) return;
		this.anchorRow = this.matches[this.selected]?.segments[0]?.row ?? this.primary().scrollTop;
		this.query = query;
		this.pending = "query";
		this.panel.setResult(-1, 0);
		this.requestRender();
	}

	navigate(direction: 1 | -1): void {
		if (!this.query) return;
		this.pending = direction > 0 ? "next" : "previous";
		this.requestRender();
	}

	/** Re-run the search for this frame; true when the current match was scrolled into view (lay out again). */
	refresh(frame: LayoutFrame, view: ScrollView): boolean {
		const box = getScrollViewBox(frame, view);
		const lines = box?.scrollContentLines;
		if (!lines || !this.query.trim()) {
			this.matches = [];
			this.selected = -1;
			this.selectedKey = undefined;
			this.pending = "retain";
			this.panel.setResult(-1, 0);
			return false;
		}
		const reveal = this.pending !== "retain";
		const result = this.index.search(lines, this.query);
		this.matches = result.matches;
		if (!result.changed && this.pending === "retain") return false;
		const found = this.matches;
		const exact = result.changed
			? this.selectedKey
				? found.findIndex((m) => getAltScreenSearchMatchKey(m) === this.selectedKey)
				: -1
			: this.selected;
		let next = -1;
		if (found.length > 0) {
			const base = exact >= 0 ? exact : Math.min(this.selected, found.length - 1);
			if (this.pending === "query") next = firstMatchFrom(found, this.anchorRow);
			else if (this.pending === "next") next = stepMatch(found.length, base, 1);
			else if (this.pending === "previous") next = stepMatch(found.length, base, -1);
			else next = exact >= 0 ? exact : Math.min(Math.max(0, this.selected), found.length - 1);
		}
		this.selected = next;
		this.selectedKey = next >= 0 ? getAltScreenSearchMatchKey(found[next] as AltScreenSearchMatch) : undefined;
		this.pending = "retain";
		this.panel.setResult(next, found.length);
		const match = found[next];
		const first = match?.segments[0];
		const last = match?.segments[match.segments.length - 1];
		if (!reveal || !first || !last || view.viewportHeight <= 0) return false;
		const before = view.scrollTop;
		if (first.row < before || last.row > before + view.viewportHeight - 1) {
			view.scrollTo(first.row - Math.floor(view.viewportHeight / 3), { disableFollow: true });
		}
		return view.scrollTop !== before;
	}

	/** The screen with visible matches styled (the current one differently). */
	highlight(screen: string[], frame: LayoutFrame, view: ScrollView, columns: number): string[] {
		if (this.selected < 0 || this.matches.length === 0) return screen;
		const box = getScrollViewBox(frame, view);
		if (!box) return screen;
		const barColumn = getScrollbarGeometry(box)?.column ?? Number.POSITIVE_INFINITY;
		const minRow = Math.max(0, box.rect.y, box.clip.y);
		const maxRow = Math.min(screen.length, box.rect.y + box.rect.height, box.clip.y + box.clip.height);
		const minCol = Math.max(0, box.rect.x, box.clip.x);
		const maxCol = Math.min(columns, box.rect.x + box.rect.width, box.clip.x + box.clip.width, barColumn);
		const byRow = new Map<number, { start: number; end: number; current: boolean }[]>();
		this.matches.forEach((match, i) => {
			for (const segment of match.segments) {
				const row = box.rect.y + segment.row - view.scrollTop;
				if (row < minRow || row >= maxRow) continue;
				const start = Math.max(minCol, box.rect.x + segment.startCol);
				const end = Math.min(maxCol, box.rect.x + segment.endCol);
				if (end <= start) continue;
				const list = byRow.get(row) ?? [];
				list.push({ start, end, current: i === this.selected });
				byRow.set(row, list);
			}
		});
		const out = [...screen];
		for (const [row, ranges] of byRow) {
			let line = out[row] ?? "";
			const width = visibleWidth(line);
			for (const range of ranges.sort((a, b) => b.start - a.start)) {
				const start = Math.min(range.start, width);
				const end = Math.min(range.end, width);
				if (end <= start) continue;
				const style = range.current ? this.styles.current : this.styles.match;
				const middle = styleText(sliceByColumn(line, start, end - start, true), style);
				line = `${sliceByColumn(line, 0, start, true)}${middle}${sliceByColumn(line, end, width - end, true)}`;
			}
			out[row] = line;
		}
		return out;
	}
}

/** Apply `style` to the visible runs of `text`, leaving its escape sequences between them. */
function styleText(text: string, style: (text: string) => string): string {
	let out = "";
	let run = "";
	for (const token of tokenize(text)) {
		if (!token.escape) {
			run += token.text;
			continue;
		}
		if (run) out += style(run);
		run = "";
		out += token.text;
	}
	return run ? out + style(run) : out;
}
