/** SelectList: a scrolling list of choices with an optional description column (pi-tui's SelectList). */
import { getKeybindings } from "./keybindings.ts";
import type { Component, TuiMouseEvent, TuiMouseEventResult } from "./types.ts";
import { truncateToWidth, visibleWidth } from "./width.ts";

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

const DEFAULT_PRIMARY_COLUMN = 32;
const COLUMN_GAP = 2;
const MIN_DESCRIPTION_WIDTH = 10;
/** Descriptions are shown only when the list is wider than this. */
const DESCRIPTION_MIN_LIST_WIDTH = 40;

const oneLine = (text: string) => text.replace(/[\r\n]+/g, " ").trim();

export class SelectList implements Component {
	private items: SelectItem[];
	private filteredItems: SelectItem[];
	private selectedIndex = 0;
	private mousePressedIndex: number | undefined;
	private maxVisible: number;
	private theme: SelectListTheme;
	private layout: SelectListLayoutOptions;
	onSelect?: (item: SelectItem) => void;
	onCancel?: () => void;
	onSelectionChange?: (item: SelectItem) => void;

	constructor(items: SelectItem[], maxVisible: number, theme: SelectListTheme, layout: SelectListLayoutOptions = {}) {
		this.items = items;
		this.filteredItems = items;
		this.maxVisible = maxVisible;
		this.theme = theme;
		this.layout = layout;
	}

	/** Keep the items whose value starts with `filter` (case-insensitive); the first is selected. */
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
		// Nothing is cached between renders.
	}

	render(width: number): string[] {
		// pi-tui's layout, cut to the width where it would overflow (very narrow lists).
		return this.layoutLines(width).map((line) =>
			visibleWidth(line) > width ? truncateToWidth(line, width, "") : line,
		);
	}

	private layoutLines(width: number): string[] {
		if (this.filteredItems.length === 0) return [this.theme.noMatch("  No matching commands")];
		const columnWidth = this.primaryColumnWidth();
		const { startIndex, endIndex } = this.visibleRange();
		const lines: string[] = [];
		for (let i = startIndex; i < endIndex; i++) {
			const item = this.filteredItems[i];
			if (!item) continue;
			const description = item.description ? oneLine(item.description) : undefined;
			lines.push(this.renderItem(item, i === this.selectedIndex, width, description, columnWidth));
		}
		if (startIndex > 0 || endIndex < this.filteredItems.length) {
			const info = `  (${this.selectedIndex + 1}/${this.filteredItems.length})`;
			lines.push(this.theme.scrollInfo(truncateToWidth(info, width - 2, "")));
		}
		return lines;
	}

	handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
		if (this.filteredItems.length === 0) return undefined;
		if (event.type === "wheel" && event.wheelDelta) {
			const before = this.selectedIndex;
			const step = event.wheelDelta < 0 ? -1 : 1;
			this.selectedIndex = Math.max(0, Math.min(this.filteredItems.length - 1, this.selectedIndex + step));
			if (this.selectedIndex !== before) this.notifySelectionChange();
			return { handled: true, render: this.selectedIndex !== before };
		}
		if (event.button !== "left" || (event.type !== "press" && event.type !== "click")) return undefined;
		const { startIndex, endIndex } = this.visibleRange();
		const index = startIndex + event.y;
		if (index < startIndex || index >= endIndex) return undefined;
		if (event.type === "press") {
			this.mousePressedIndex = index;
			if (this.selectedIndex !== index) {
				this.selectedIndex = index;
				this.notifySelectionChange();
			}
			return { handled: true, focus: true };
		}
		const clicked = this.mousePressedIndex ?? index;
		this.mousePressedIndex = undefined;
		const changed = this.selectedIndex !== clicked;
		this.selectedIndex = clicked;
		if (changed) this.notifySelectionChange();
		const item = this.filteredItems[this.selectedIndex];
		if (item) this.onSelect?.(item);
		return { handled: true };
	}

	/** Up/Down wrap around at the ends; Enter selects; Escape cancels. */
	handleInput(keyData: string): void {
		const kb = getKeybindings();
		const count = this.filteredItems.length;
		if (kb.matches(keyData, "tui.select.up")) {
			this.selectedIndex = this.selectedIndex === 0 ? count - 1 : this.selectedIndex - 1;
			this.notifySelectionChange();
		} else if (kb.matches(keyData, "tui.select.down")) {
			this.selectedIndex = this.selectedIndex === count - 1 ? 0 : this.selectedIndex + 1;
			this.notifySelectionChange();
		} else if (kb.matches(keyData, "tui.select.confirm")) {
			const item = this.filteredItems[this.selectedIndex];
			if (item) this.onSelect?.(item);
		} else if (kb.matches(keyData, "tui.select.cancel")) {
			this.onCancel?.();
		}
	}

	/** The window of items shown, keeping the selection near the middle. */
	private visibleRange(): { startIndex: number; endIndex: number } {
		const count = this.filteredItems.length;
		const startIndex = Math.max(
			0,
			Math.min(this.selectedIndex - Math.floor(this.maxVisible / 2), count - this.maxVisible),
		);
		return { startIndex, endIndex: Math.min(startIndex + this.maxVisible, count) };
	}

	private renderItem(
		item: SelectItem,
		selected: boolean,
		width: number,
		description: string | undefined,
		columnWidth: number,
	): string {
		const prefix = selected ? "→ " : "  ";
		const prefixWidth = visibleWidth(prefix);
		if (description && width > DESCRIPTION_MIN_LIST_WIDTH) {
			const column = Math.max(1, Math.min(columnWidth, width - prefixWidth - 4));
			const primary = this.truncatePrimary(item, selected, Math.max(1, column - COLUMN_GAP), column);
			const primaryWidth = visibleWidth(primary);
			const spacing = " ".repeat(Math.max(1, column - primaryWidth));
			const remaining = width - (prefixWidth + primaryWidth + spacing.length) - 2;
			if (remaining > MIN_DESCRIPTION_WIDTH) {
				const desc = truncateToWidth(description, remaining, "");
				if (selected) return this.theme.selectedText(`${prefix}${primary}${spacing}${desc}`);
				return prefix + primary + this.theme.description(spacing + desc);
			}
		}
		const maxWidth = width - prefixWidth - 2;
		const primary = this.truncatePrimary(item, selected, maxWidth, maxWidth);
		return selected ? this.theme.selectedText(`${prefix}${primary}`) : prefix + primary;
	}

	private primaryColumnWidth(): number {
		const rawMin = this.layout.minPrimaryColumnWidth ?? this.layout.maxPrimaryColumnWidth ?? DEFAULT_PRIMARY_COLUMN;
		const rawMax = this.layout.maxPrimaryColumnWidth ?? this.layout.minPrimaryColumnWidth ?? DEFAULT_PRIMARY_COLUMN;
		const min = Math.max(1, Math.min(rawMin, rawMax));
		const max = Math.max(1, Math.max(rawMin, rawMax));
		let widest = 0;
		for (const item of this.filteredItems) widest = Math.max(widest, visibleWidth(displayText(item)) + COLUMN_GAP);
		return Math.max(min, Math.min(widest, max));
	}

	private truncatePrimary(item: SelectItem, isSelected: boolean, maxWidth: number, columnWidth: number): string {
		const text = displayText(item);
		const custom = this.layout.truncatePrimary;
		const cut = custom
			? custom({ text, maxWidth, columnWidth, item, isSelected })
			: truncateToWidth(text, maxWidth, "");
		return truncateToWidth(cut, maxWidth, "");
	}

	private notifySelectionChange(): void {
		const item = this.filteredItems[this.selectedIndex];
		if (item) this.onSelectionChange?.(item);
	}
}

function displayText(item: SelectItem): string {
	return item.label || item.value;
}
