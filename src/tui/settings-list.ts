/** SettingsList: label/value rows whose values cycle (Enter/Space) or open a submenu component. */
import { fuzzyFilter } from "./fuzzy.ts";
import { Input } from "./input.ts";
import { getKeybindings } from "./keybindings.ts";
import type { Component, TuiMouseEvent, TuiMouseEventResult } from "./types.ts";
import { truncateToWidth, visibleWidth } from "./width.ts";
import { wrapTextWithAnsi } from "./wrap.ts";

export interface SettingItem {
	/** Unique identifier, passed to `onChange`. */
	id: string;
	/** Display label (left column). */
	label: string;
	/** Shown under the list while the item is selected. */
	description?: string;
	/** Current value (right column). */
	currentValue: string;
	/** Enter/Space cycles through these values. */
	values?: string[];
	/** Enter opens this component; it calls `done(value?)` to close (with `navigateTo` to move the cursor). */
	submenu?: (
		currentValue: string,
		done: (selectedValue?: string, options?: { navigateTo?: string }) => void,
	) => Component;
}

export interface SettingsListTheme {
	label: (text: string, selected: boolean) => string;
	value: (text: string, selected: boolean) => string;
	description: (text: string) => string;
	cursor: string;
	hint: (text: string) => string;
}

export interface SettingsListOptions {
	/** Typing filters the items (fuzzy, on the label). */
	enableSearch?: boolean;
}

const MAX_LABEL_COLUMN = 36;

export class SettingsList implements Component {
	private items: SettingItem[];
	private filteredItems: SettingItem[];
	private theme: SettingsListTheme;
	private selectedIndex = 0;
	private mousePressedIndex: number | undefined;
	private maxVisible: number;
	private onChange: (id: string, newValue: string) => void;
	private onCancel: () => void;
	private searchInput: Input | undefined;
	private searchEnabled: boolean;
	private submenuComponent: Component | null = null;
	/** Row to return to when the submenu closes. */
	private submenuItemIndex: number | null = null;
	/** Item to open after the submenu closes (its `navigateTo`). */
	private navigateAfterClose: string | null = null;

	constructor(
		items: SettingItem[],
		maxVisible: number,
		theme: SettingsListTheme,
		onChange: (id: string, newValue: string) => void,
		onCancel: () => void,
		options: SettingsListOptions = {},
	) {
		this.items = items;
		this.filteredItems = items;
		this.maxVisible = maxVisible;
		this.theme = theme;
		this.onChange = onChange;
		this.onCancel = onCancel;
		this.searchEnabled = options.enableSearch ?? false;
		if (this.searchEnabled) this.searchInput = new Input();
	}

	/** Update an item's value (e.g. after the change was applied elsewhere). */
	updateValue(id: string, newValue: string): void {
		const item = this.items.find((candidate) => candidate.id === id);
		if (item) item.currentValue = newValue;
	}

	/** Move the selection to the item with this id; no-op when it is not shown. */
	selectItem(id: string): void {
		const index = this.displayItems().findIndex((item) => item.id === id);
		if (index !== -1) this.selectedIndex = index;
	}

	invalidate(): void {
		this.submenuComponent?.invalidate?.();
	}

	private displayItems(): SettingItem[] {
		return this.searchEnabled ? this.filteredItems : this.items;
	}

	private visibleRange(count: number): { startIndex: number; endIndex: number } {
		const startIndex = Math.max(
			0,
			Math.min(this.selectedIndex - Math.floor(this.maxVisible / 2), count - this.maxVisible),
		);
		return { startIndex, endIndex: Math.min(startIndex + this.maxVisible, count) };
	}

	render(width: number): string[] {
		if (this.submenuComponent) return this.submenuComponent.render(width);
		// pi-tui's layout, cut to the width where it would overflow (very narrow lists).
		return this.mainList(width).map((line) => (visibleWidth(line) > width ? truncateToWidth(line, width, "") : line));
	}

	private mainList(width: number): string[] {
		const lines: string[] = [];
		if (this.searchEnabled && this.searchInput) lines.push(...this.searchInput.render(width), "");
		if (this.items.length === 0) {
			lines.push(this.theme.hint("  No settings available"));
			if (this.searchEnabled) this.addHintLine(lines, width);
			return lines;
		}
		const shown = this.displayItems();
		if (shown.length === 0) {
			lines.push(truncateToWidth(this.theme.hint("  No matching settings"), width));
			this.addHintLine(lines, width);
			return lines;
		}
		const { startIndex, endIndex } = this.visibleRange(shown.length);
		// The label column fits the widest label of all items (not just the filtered ones), up to a limit.
		const labelWidth = Math.min(MAX_LABEL_COLUMN, Math.max(...this.items.map((item) => visibleWidth(item.label))));
		for (let i = startIndex; i < endIndex; i++) {
			const item = shown[i];
			if (!item) continue;
			const selected = i === this.selectedIndex;
			const prefix = selected ? this.theme.cursor : "  ";
			const padded = item.label + " ".repeat(Math.max(0, labelWidth - visibleWidth(item.label)));
			const valueWidth = width - (visibleWidth(prefix) + labelWidth + 2) - 2;
			const value = this.theme.value(truncateToWidth(item.currentValue, valueWidth, ""), selected);
			lines.push(truncateToWidth(`${prefix}${this.theme.label(padded, selected)}  ${value}`, width));
		}
		if (startIndex > 0 || endIndex < shown.length) {
			lines.push(this.theme.hint(truncateToWidth(`  (${this.selectedIndex + 1}/${shown.length})`, width - 2, "")));
		}
		const selectedItem = shown[this.selectedIndex];
		if (selectedItem?.description) {
			lines.push("");
			for (const line of wrapTextWithAnsi(selectedItem.description, width - 4)) {
				lines.push(this.theme.description(`  ${line}`));
			}
		}
		this.addHintLine(lines, width);
		return lines;
	}

	private addHintLine(lines: string[], width: number): void {
		const hint = this.searchEnabled
			? "  Type to search · Enter/Space to change · Esc to cancel"
			: "  Enter/Space to change · Esc to cancel";
		lines.push("", truncateToWidth(this.theme.hint(hint), width));
	}

	handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
		if (this.submenuComponent) {
			const result = this.submenuComponent.handleMouse?.(event);
			return result ? { ...result, focus: true } : undefined;
		}
		if (this.searchEnabled && this.searchInput) {
			if (event.y === 0) {
				const result = this.searchInput.handleMouse(event);
				return result ? { ...result, focus: true } : undefined;
			}
			if (event.y === 1) return undefined;
		}
		const shown = this.displayItems();
		if (shown.length === 0) return undefined;
		if (event.type === "wheel" && event.wheelDelta) {
			const before = this.selectedIndex;
			const step = event.wheelDelta < 0 ? -1 : 1;
			this.selectedIndex = Math.max(0, Math.min(shown.length - 1, this.selectedIndex + step));
			return { handled: true, render: this.selectedIndex !== before };
		}
		if (event.button !== "left" || (event.type !== "press" && event.type !== "click")) return undefined;
		const { startIndex, endIndex } = this.visibleRange(shown.length);
		const index = startIndex + event.y - (this.searchEnabled ? 2 : 0);
		if (index < startIndex || index >= endIndex) return undefined;
		if (event.type === "press") {
			this.mousePressedIndex = index;
			this.selectedIndex = index;
			return { handled: true, focus: true };
		}
		this.selectedIndex = this.mousePressedIndex ?? index;
		this.mousePressedIndex = undefined;
		this.activateItem();
		return { handled: true };
	}

	handleInput(data: string): void {
		if (this.submenuComponent) {
			this.submenuComponent.handleInput?.(data);
			return;
		}
		const kb = getKeybindings();
		const count = this.displayItems().length;
		if (kb.matches(data, "tui.select.up")) {
			if (count > 0) this.selectedIndex = this.selectedIndex === 0 ? count - 1 : this.selectedIndex - 1;
		} else if (kb.matches(data, "tui.select.down")) {
			if (count > 0) this.selectedIndex = this.selectedIndex === count - 1 ? 0 : this.selectedIndex + 1;
		} else if (
			kb.matches(data, "tui.select.confirm") ||
			(data === " " && (!this.searchEnabled || this.searchInput?.getValue().length === 0))
		) {
			this.activateItem();
		} else if (kb.matches(data, "tui.select.cancel")) {
			this.onCancel();
		} else if (this.searchEnabled && this.searchInput) {
			this.searchInput.handleInput(data);
			this.applyFilter(this.searchInput.getValue());
		}
	}

	/** Enter/Space: open the item's submenu, or step to its next value. */
	private activateItem(): void {
		const item = this.displayItems()[this.selectedIndex];
		if (!item) return;
		if (item.submenu) {
			this.submenuItemIndex = this.selectedIndex;
			this.submenuComponent = item.submenu(item.currentValue, (selectedValue, options) => {
				if (selectedValue !== undefined) {
					item.currentValue = selectedValue;
					this.onChange(item.id, selectedValue);
				}
				if (options?.navigateTo) this.navigateAfterClose = options.navigateTo;
				this.closeSubmenu();
			});
		} else if (item.values && item.values.length > 0) {
			const next = item.values[(item.values.indexOf(item.currentValue) + 1) % item.values.length] as string;
			item.currentValue = next;
			this.onChange(item.id, next);
		}
	}

	private closeSubmenu(): void {
		this.submenuComponent = null;
		if (this.navigateAfterClose !== null) {
			const id = this.navigateAfterClose;
			this.navigateAfterClose = null;
			this.submenuItemIndex = null;
			this.selectItem(id);
			this.activateItem();
		} else if (this.submenuItemIndex !== null) {
			this.selectedIndex = this.submenuItemIndex;
			this.submenuItemIndex = null;
		}
	}

	private applyFilter(query: string): void {
		this.filteredItems = fuzzyFilter(this.items, query, (item) => item.label);
		this.selectedIndex = 0;
	}
}
