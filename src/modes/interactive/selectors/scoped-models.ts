/**
 * The `/scoped-models` selector: which models Ctrl+P cycles through, and in what order. Enabled models are marked
 * `✓` and listed first in cycling order; a saved pattern that matches no available model shows struck through as
 * `[unavailable]`. Enter toggles the highlighted model, `app.models.enableAll` / `clearAll` act on every model (or
 * every match of the search), `toggleProvider` on the highlighted model's provider, `reorderUp/Down` move it in the
 * order, `app.models.save` saves to settings; changes apply to this session at once. Escape closes; Ctrl+C clears
 * the search first.
 */
import type { Model } from "../../../ai/index.ts";
import { Container, fuzzyFilter, Input, Key, matchesKey, Spacer, Text } from "../../../tui/index.ts";
import { dialogBorder } from "../dialogs/common.ts";
import { keyDisplay, matches, theme, visibleWindow, wrapMove } from "./model-common.ts";
import { modelIdSearchText, modelKey } from "./model-list.ts";
import {
	clearIds,
	type EnabledIds,
	enabledCountText,
	enableIds,
	isEnabled,
	listedIds,
	moveId,
	toggleId,
} from "./scoped-models-list.ts";

export interface ScopedModelsOptions {
	models: readonly Model[];
	enabled: EnabledIds;
	/** Every change, at once (the session's scope follows it). */
	onChange(enabled: EnabledIds): void;
	onPersist(enabled: EnabledIds): void;
	onCancel(): void;
}

interface Row {
	id: string;
	model: Model | undefined;
	enabled: boolean;
}

const MAX_VISIBLE = 8;

export class ScopedModelsSelector extends Container {
	private readonly byId = new Map<string, Model>();
	private readonly allIds: string[] = [];
	private enabled: EnabledIds;
	private rows: Row[] = [];
	private selected = 0;
	private dirty = false;
	private readonly search = new Input();
	private readonly list = new Container();
	private readonly footer: Text;
	private _focused = false;

	constructor(private readonly o: ScopedModelsOptions) {
		super();
		for (const model of o.models) {
			const id = modelKey(model);
			if (this.byId.has(id)) continue;
			this.byId.set(id, model);
			this.allIds.push(id);
		}
		this.enabled = o.enabled === null ? null : [...o.enabled];
		const t = theme();
		this.addChild(dialogBorder());
		this.addChild(new Spacer(1));
		this.addChild(new Text(t.fg("accent", t.bold("Model Configuration")), 0, 0));
		this.addChild(new Text(t.fg("muted", `Session-only. ${keyDisplay("app.models.save")} to save to settings.`), 0, 0));
		this.addChild(new Spacer(1));
		this.addChild(this.search);
		this.addChild(new Spacer(1));
		this.addChild(this.list);
		this.addChild(new Spacer(1));
		this.footer = new Text("", 0, 0);
		this.addChild(this.footer);
		this.addChild(dialogBorder());
		this.refresh();
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.search.focused = value;
	}

	/** The enabled ids now (`null` = all). */
	get enabledIds(): EnabledIds {
		return this.enabled;
	}

	private footerText(): string {
		const t = theme();
		const parts = [
			`${keyDisplay("tui.select.confirm")} toggle`,
			`${keyDisplay("app.models.enableAll")} all`,
			`${keyDisplay("app.models.clearAll")} clear`,
			`${keyDisplay("app.models.toggleProvider")} provider`,
			`${keyDisplay("app.models.reorderUp")}/${keyDisplay("app.models.reorderDown")} reorder`,
			`${keyDisplay("app.models.save")} save`,
			enabledCountText(this.enabled, this.allIds),
		];
		const text = t.fg("dim", `  ${parts.join(" · ")}${this.dirty ? " " : ""}`);
		return this.dirty ? text + t.fg("warning", "(unsaved)") : text;
	}

	private refresh(): void {
		const query = this.search.getValue();
		const rows = listedIds(this.enabled, this.allIds).map((id) => ({
			id,
			model: this.byId.get(id),
			enabled: isEnabled(this.enabled, id),
		}));
		this.rows = query ? fuzzyFilter(rows, query, (r) => (r.model ? modelIdSearchText(r.model) : r.id)) : rows;
		this.selected = Math.min(this.selected, Math.max(0, this.rows.length - 1));
		this.renderList();
		this.footer.setText(this.footerText());
	}

	private renderList(): void {
		const t = theme();
		this.list.clear();
		if (this.rows.length === 0) {
			this.list.addChild(new Text(t.fg("muted", "  No matching models"), 0, 0));
			return;
		}
		const total = this.rows.length;
		const { start, end } = visibleWindow(this.selected, total, MAX_VISIBLE);
		for (let i = start; i < end; i++) {
			const row = this.rows[i] as Row;
			const isSelected = i === this.selected;
			const id = row.model ? row.model.id : t.strikethrough(row.id);
			const badge = t.fg("muted", row.model ? ` [${row.model.provider}]` : " [unavailable]");
			const mark = row.model && row.enabled ? t.fg("accent", "✓ ") : "  ";
			const cursor = isSelected ? t.fg("accent", "→ ") : "  ";
			this.list.addChild(new Text(`${cursor}${mark}${isSelected ? t.fg("accent", id) : id}${badge}`, 0, 0));
		}
		if (start > 0 || end < total) {
			this.list.addChild(new Text(t.fg("muted", `  (${this.selected + 1}/${total})`), 0, 0));
		}
		const current = this.rows[this.selected] as Row;
		this.list.addChild(new Spacer(1));
		const name = current.model ? `Model Name: ${current.model.name || current.model.id}` : "Model unavailable";
		this.list.addChild(new Text(t.fg("muted", `  ${name}`), 0, 0));
	}

	private change(next: EnabledIds): void {
		this.enabled = next;
		this.dirty = true;
		this.refresh();
		this.o.onChange(next === null ? null : [...next]);
	}

	/** The search's matches when there is a search, else undefined (= every model). */
	private targets(): string[] | undefined {
		return this.search.getValue() ? this.rows.map((r) => r.id) : undefined;
	}

	handleInput(data: string): void {
		const count = this.rows.length;
		const row = this.rows[this.selected];
		if (matches(data, "tui.select.up")) {
			if (count === 0) return;
			this.selected = wrapMove(this.selected, count, -1);
			this.renderList();
		} else if (matches(data, "tui.select.down")) {
			if (count === 0) return;
			this.selected = wrapMove(this.selected, count, 1);
			this.renderList();
		} else if (matches(data, "app.models.reorderUp") || matches(data, "app.models.reorderDown")) {
			const delta = matches(data, "app.models.reorderUp") ? -1 : 1;
			if (!row || this.enabled === null || !this.enabled.includes(row.id)) return;
			const next = moveId(this.enabled, row.id, delta);
			if (next === this.enabled) return;
			this.selected += delta;
			this.change(next);
		} else if (matches(data, "tui.select.confirm")) {
			if (row) this.change(toggleId(this.enabled, this.allIds, row.id));
		} else if (matches(data, "app.models.enableAll")) {
			this.change(enableIds(this.enabled, this.allIds, this.targets()));
		} else if (matches(data, "app.models.clearAll")) {
			this.change(clearIds(this.enabled, this.allIds, this.targets()));
		} else if (matches(data, "app.models.toggleProvider")) {
			if (!row?.model) return;
			const provider = row.model.provider;
			const ids = this.allIds.filter((id) => this.byId.get(id)?.provider === provider);
			const allOn = ids.every((id) => isEnabled(this.enabled, id));
			this.change(allOn ? clearIds(this.enabled, this.allIds, ids) : enableIds(this.enabled, this.allIds, ids));
		} else if (matches(data, "app.models.save")) {
			this.o.onPersist(this.enabled === null ? null : [...this.enabled]);
			this.dirty = false;
			this.footer.setText(this.footerText());
		} else if (matchesKey(data, Key.ctrl("c"))) {
			if (this.search.getValue()) {
				this.search.setValue("");
				this.refresh();
			} else this.o.onCancel();
		} else if (matchesKey(data, Key.escape)) {
			this.o.onCancel();
		} else {
			this.search.handleInput(data);
			this.refresh();
		}
	}
}
