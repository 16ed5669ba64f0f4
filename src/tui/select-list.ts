/** SelectList: a scrolling list of choices with an optional description column. */
import { matchesKey } from "./keys.ts";
import type { Component } from "./types.ts";
import { padToWidth, truncateToWidth, visibleWidth } from "./width.ts";

export interface SelectItem {
	value: string;
	label: string;
	description?: string;
}

export interface SelectListTheme {
	selectedPrefix: (text: string) => string;
	selectedText: (text: string) => string;
	description: (text: string) => string;
	scrollInfo: (text: string) => string;
	noMatch: (text: string) => string;
}

export interface SelectListTruncatePrimaryContext {
	text: string;
	maxWidth: number;
	columnWidth: number;
	item: SelectItem;
	isSelected: boolean;
}

export interface SelectListLayoutOptions {
	minPrimaryColumnWidth?: number;
	maxPrimaryColumnWidth?: number;
	truncatePrimary?: (context: SelectListTruncatePrimaryContext) => string;
}

const PREFIX_WIDTH = 2;
const DEFAULT_MIN_PRIMARY = 12;
const DEFAULT_MAX_PRIMARY = 32;
/** Below this width descriptions are dropped: the label gets the whole line. */
const MIN_WIDTH_FOR_DESCRIPTION = 40;

export class SelectList implements Component {
	private filteredItems: SelectItem[];
	private selectedIndex = 0;
	onSelect?: (item: SelectItem) => void;
	onCancel?: () => void;
	onSelectionChange?: (item: SelectItem) => void;

	constructor(
		private items: SelectItem[],
		private maxVisible: number,
		private theme: SelectListTheme,
		private layout: SelectListLayoutOptions = {},
	) {
		this.filteredItems = items;
	}

	/** Keep the items whose value starts with `filter` (case-insensitive) and select the first. */
	setFilter(filter: string): void {
		const needle = filter.toLowerCase();
		this.filteredItems = this.items.filter((item) => item.value.toLowerCase().startsWith(needle));
		this.selectedIndex = 0;
	}

	setSelectedIndex(index: number): void {
		this.selectedIndex = Math.max(0, Math.min(index, this.filteredItems.length - 1));
	}

	getSelectedItem(): SelectItem | null {
		return this.filteredItems[this.selectedIndex] ?? null;
	}

	invalidate(): void {
		// Rendering is computed from state on every call.
	}

	render(width: number): string[] {
		if (this.filteredItems.length === 0) return [truncateToWidth(this.theme.noMatch("  No matching items"), width)];
		const { start, end } = this.visibleRange();
		const columnWidth = this.primaryColumnWidth(width);
		const lines: string[] = [];
		for (let i = start; i < end; i++) {
			const item = this.filteredItems[i];
			if (item) lines.push(this.renderItem(item, i === this.selectedIndex, width, columnWidth));
		}
		if (this.filteredItems.length > this.maxVisible) {
			const info = `  (${this.selectedIndex + 1}/${this.filteredItems.length})`;
			lines.push(truncateToWidth(this.theme.scrollInfo(info), width));
		}
		return lines;
	}

	handleInput(keyData: string): void {
		const count = this.filteredItems.length;
		if (matchesKey(keyData, "up")) {
			if (count > 0) this.moveTo(this.selectedIndex === 0 ? count - 1 : this.selectedIndex - 1);
		} else if (matchesKey(keyData, "down")) {
			if (count > 0) this.moveTo(this.selectedIndex === count - 1 ? 0 : this.selectedIndex + 1);
		} else if (matchesKey(keyData, "pageUp")) {
			this.moveTo(Math.max(0, this.selectedIndex - Math.max(1, this.maxVisible)));
		} else if (matchesKey(keyData, "pageDown")) {
			this.moveTo(Math.min(count - 1, this.selectedIndex + Math.max(1, this.maxVisible)));
		} else if (matchesKey(keyData, "enter")) {
			const item = this.getSelectedItem();
			if (item) this.onSelect?.(item);
		} else if (matchesKey(keyData, "escape") || matchesKey(keyData, "ctrl+c")) {
			this.onCancel?.();
		}
	}

	private moveTo(index: number): void {
		if (index < 0 || index === this.selectedIndex) return;
		this.selectedIndex = index;
		const item = this.getSelectedItem();
		if (item) this.onSelectionChange?.(item);
	}

	/** The window of items to show, keeping the selection roughly centred. */
	private visibleRange(): { start: number; end: number } {
		const visible = Math.max(1, this.maxVisible);
		const count = this.filteredItems.length;
		const start = Math.max(0, Math.min(this.selectedIndex - Math.floor(visible / 2), count - visible));
		return { start, end: Math.min(count, start + visible) };
	}

	private primaryColumnWidth(width: number): number {
		const min = this.layout.minPrimaryColumnWidth ?? DEFAULT_MIN_PRIMARY;
		const max = this.layout.maxPrimaryColumnWidth ?? DEFAULT_MAX_PRIMARY;
		const widest = Math.max(0, ...this.filteredItems.map((item) => visibleWidth(this.displayText(item))));
		const wanted = Math.max(min, Math.min(max, widest + 2));
		return Math.min(wanted, Math.max(1, width - PREFIX_WIDTH));
	}

	private displayText(item: SelectItem): string {
		return item.label || item.value;
	}

	private renderItem(item: SelectItem, isSelected: boolean, width: number, columnWidth: number): string {
		const prefix = isSelected ? this.theme.selectedPrefix("→ ") : "  ";
		const available = Math.max(1, width - PREFIX_WIDTH);
		const showDescription = Boolean(item.description) && width >= MIN_WIDTH_FOR_DESCRIPTION;
		const maxWidth = showDescription ? Math.max(1, columnWidth - 1) : available;
		const text = this.displayText(item);
		const primary = this.layout.truncatePrimary
			? truncateToWidth(this.layout.truncatePrimary({ text, maxWidth, columnWidth, item, isSelected }), maxWidth, "")
			: truncateToWidth(text, maxWidth);
		let line = isSelected ? this.theme.selectedText(primary) : primary;
		if (showDescription && item.description) {
			const descWidth = available - columnWidth;
			if (descWidth > 3) {
				const description = truncateToWidth(item.description.replace(/\s+/g, " "), descWidth);
				line = padToWidth(line, columnWidth) + this.theme.description(description);
			}
		}
		return truncateToWidth(prefix + line, width, "");
	}
}
