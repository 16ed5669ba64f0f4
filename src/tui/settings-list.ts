/** SettingsList: label/value rows whose values cycle (Enter/Space) or open a submenu component. */
import { fuzzyFilter } from "./fuzzy.ts";
import { Input } from "./input.ts";
import { decodePrintableKey, matchesKey } from "./keys.ts";
import type { Component } from "./types.ts";
import { padToWidth, truncateToWidth, visibleWidth } from "./width.ts";
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

const MAX_LABEL_COLUMN = 30;

export class SettingsList implements Component {
	private filteredItems: SettingItem[];
	private selectedIndex = 0;
	private readonly searchInput: Input | undefined;
	private submenu: { component: Component; itemId: string } | undefined;

	constructor(
		private items: SettingItem[],
		private maxVisible: number,
		private theme: SettingsListTheme,
		private onChange: (id: string, newValue: string) => void,
		private onCancel: () => void,
		options: SettingsListOptions = {},
	) {
		this.filteredItems = items;
		if (options.enableSearch) this.searchInput = new Input({ prompt: "Search: " });
	}

	/** Update an item's value (e.g. after the change was applied elsewhere). */
	updateValue(id: string, newValue: string): void {
		const item = this.items.find((candidate) => candidate.id === id);
		if (item) item.currentValue = newValue;
	}

	/** Move the selection to the item with this id; no-op when it is not shown. */
	selectItem(id: string): void {
		const index = this.filteredItems.findIndex((item) => item.id === id);
		if (index !== -1) this.selectedIndex = index;
	}

	invalidate(): void {
		this.submenu?.component.invalidate();
	}

	render(width: number): string[] {
		if (this.submenu) return this.submenu.component.render(width);
		const lines: string[] = [];
		if (this.searchInput) lines.push(...this.searchInput.render(width), "");
		if (this.filteredItems.length === 0) {
			lines.push(truncateToWidth(this.theme.hint("  No matching settings"), width));
		} else {
			lines.push(...this.renderRows(width));
		}
		const selected = this.filteredItems[this.selectedIndex];
		if (selected?.description) {
			lines.push("");
			for (const line of wrapTextWithAnsi(selected.description, Math.max(1, width - 2))) {
				lines.push(truncateToWidth(this.theme.description(`  ${line}`), width));
			}
		}
		const hint = this.searchInput
			? "  Type to search · Enter/Space to change · Esc to cancel"
			: "  Enter/Space to change · Esc to cancel";
		lines.push("", truncateToWidth(this.theme.hint(hint), width));
		return lines;
	}

	private renderRows(width: number): string[] {
		const visible = Math.max(1, this.maxVisible);
		const count = this.filteredItems.length;
		const start = Math.max(0, Math.min(this.selectedIndex - Math.floor(visible / 2), count - visible));
		const end = Math.min(count, start + visible);
		const cursorWidth = visibleWidth(this.theme.cursor);
		const widest = Math.max(...this.filteredItems.map((item) => visibleWidth(item.label)));
		const labelColumn = Math.min(MAX_LABEL_COLUMN, widest, Math.max(1, Math.floor((width - cursorWidth) / 2)));
		const lines: string[] = [];
		for (let i = start; i < end; i++) {
			const item = this.filteredItems[i];
			if (!item) continue;
			const selected = i === this.selectedIndex;
			const cursor = selected ? this.theme.cursor : " ".repeat(cursorWidth);
			const label = this.theme.label(padToWidth(truncateToWidth(item.label, labelColumn), labelColumn), selected);
			const valueWidth = Math.max(1, width - cursorWidth - labelColumn - 2);
			const value = this.theme.value(truncateToWidth(item.currentValue, valueWidth), selected);
			lines.push(truncateToWidth(`${cursor}${label}  ${value}`, width, ""));
		}
		if (count > visible) lines.push(truncateToWidth(this.theme.hint(`  (${this.selectedIndex + 1}/${count})`), width));
		return lines;
	}

	handleInput(data: string): void {
		if (this.submenu) {
			this.submenu.component.handleInput?.(data);
			return;
		}
		const count = this.filteredItems.length;
		if (matchesKey(data, "up")) {
			if (count > 0) this.selectedIndex = this.selectedIndex === 0 ? count - 1 : this.selectedIndex - 1;
		} else if (matchesKey(data, "down")) {
			if (count > 0) this.selectedIndex = this.selectedIndex === count - 1 ? 0 : this.selectedIndex + 1;
		} else if (matchesKey(data, "enter") || (matchesKey(data, "space") && !this.searchInput)) {
			this.activate();
		} else if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
			this.onCancel();
		} else if (this.searchInput && (decodePrintableKey(data) !== undefined || matchesKey(data, "backspace"))) {
			this.searchInput.handleInput(data);
			this.applyFilter(this.searchInput.getValue());
		}
	}

	private activate(): void {
		const item = this.filteredItems[this.selectedIndex];
		if (!item) return;
		if (item.submenu) {
			const itemId = item.id;
			const done = (selectedValue?: string, options?: { navigateTo?: string }) => {
				if (this.submenu?.itemId !== itemId) return;
				this.submenu = undefined;
				if (selectedValue !== undefined) {
					this.updateValue(itemId, selectedValue);
					this.onChange(itemId, selectedValue);
				}
				if (options?.navigateTo) this.selectItem(options.navigateTo);
			};
			this.submenu = { component: item.submenu(item.currentValue, done), itemId };
			return;
		}
		if (item.values && item.values.length > 0) {
			const next = item.values[(item.values.indexOf(item.currentValue) + 1) % item.values.length] as string;
			item.currentValue = next;
			this.onChange(item.id, next);
		}
	}

	private applyFilter(query: string): void {
		this.filteredItems = fuzzyFilter(this.items, query, (item) => item.label);
		this.selectedIndex = 0;
	}
}
