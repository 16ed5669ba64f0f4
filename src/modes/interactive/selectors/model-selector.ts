/**
 * The `/model` selector (Ctrl+L): a search line over the models that can be used now, the current one marked `✓`
 * and listed first, the saved default marked `· default`, ten rows around the highlighted one with a `(n/total)`
 * line when they do not all fit, and the highlighted model's name. With a model scope (`--models` / enabledModels)
 * it opens on the scoped models and Tab switches between `all` and `scoped`. Up/Down wrap, Enter picks,
 * `app.models.save` (Ctrl+S) picks and saves as the default, Escape cancels; other keys edit the search.
 */
import type { Model } from "../../../ai/index.ts";
import { Container, Input, Spacer, Text } from "../../../tui/index.ts";
import { dialogBorder } from "../dialogs/common.ts";
import { keyDisplay, keyPlain, matches, theme, visibleWindow, wrapMove } from "./model-common.ts";
import { filterModels, type ModelRef, orderModels, sameModel } from "./model-list.ts";

export interface ModelSelectorOptions {
	/** Models that can be used now (`all`). */
	available: readonly Model[];
	/** The model scope in cycling order (`scoped`); empty = no scope. */
	scoped: readonly Model[];
	current?: ModelRef;
	defaultModel?: ModelRef;
	initialSearch?: string;
	onSelect(model: Model): void;
	onSelectAsDefault(model: Model): void;
	onCancel(): void;
}

const MAX_VISIBLE = 10;

export class ModelSelector extends Container {
	private readonly search = new Input();
	private readonly list = new Container();
	private readonly all: Model[];
	private readonly scoped: Model[];
	private scope: "all" | "scoped";
	private readonly scopeText: Text | undefined;
	private filtered: Model[] = [];
	private selected = 0;
	private _focused = false;

	constructor(private readonly o: ModelSelectorOptions) {
		super();
		this.all = orderModels(o.available, o.current, o.defaultModel);
		this.scoped = [...o.scoped];
		this.scope = this.scoped.length > 0 ? "scoped" : "all";
		this.addChild(dialogBorder());
		this.addChild(new Spacer(1));
		if (this.scoped.length > 0) {
			this.scopeText = new Text(this.scopeLine(), 0, 0);
			this.addChild(this.scopeText);
			const t = theme();
			this.addChild(
				new Text(
					`${t.fg("dim", keyPlain("tui.input.tab"))}${t.fg("muted", " scope")}${t.fg("muted", " (all/scoped)")}`,
					0,
					0,
				),
			);
		} else {
			const hint = "Only showing models from configured providers. Use /login to add providers.";
			this.addChild(new Text(theme().fg("warning", hint), 0, 0));
		}
		this.addChild(new Spacer(1));
		if (o.initialSearch) this.search.setValue(o.initialSearch);
		this.search.onSubmit = () => this.pick(false);
		this.addChild(this.search);
		this.addChild(new Spacer(1));
		this.addChild(this.list);
		this.addChild(new Spacer(1));
		const hint = `  ${keyDisplay("tui.select.confirm")} to select · ${keyDisplay("app.models.save")} to set as default · ${keyDisplay("tui.select.cancel")} to cancel`;
		this.addChild(new Text(theme().fg("dim", hint), 0, 0));
		this.addChild(dialogBorder());
		const active = this.active();
		const at = active.findIndex((m) => sameModel(m, o.current));
		this.selected = at >= 0 ? at : 0;
		this.applyFilter(o.initialSearch ?? "");
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.search.focused = value;
	}

	/** The rows shown now (for tests): the filtered models in order. */
	get shown(): readonly Model[] {
		return this.filtered;
	}

	private active(): Model[] {
		return this.scope === "scoped" ? this.scoped : this.all;
	}

	private scopeLine(): string {
		const t = theme();
		const part = (name: "all" | "scoped") => t.fg(this.scope === name ? "accent" : "muted", name);
		return `${t.fg("muted", "Scope: ")}${part("all")}${t.fg("muted", " | ")}${part("scoped")}`;
	}

	private applyFilter(query: string): void {
		this.filtered = filterModels(this.active(), query, this.o.defaultModel);
		this.selected = query ? 0 : Math.min(this.selected, Math.max(0, this.filtered.length - 1));
		this.renderList();
	}

	private renderList(): void {
		const t = theme();
		this.list.clear();
		const total = this.filtered.length;
		const { start, end } = visibleWindow(this.selected, total, MAX_VISIBLE);
		for (let i = start; i < end; i++) {
			const model = this.filtered[i] as Model;
			const isSelected = i === this.selected;
			const cursor = isSelected ? t.fg("accent", "→ ") : "  ";
			const mark = sameModel(model, this.o.current) ? t.fg("accent", "✓ ") : "  ";
			const id = isSelected ? t.fg("accent", model.id) : model.id;
			const badge = sameModel(model, this.o.defaultModel) ? t.fg("muted", " · default") : "";
			this.list.addChild(new Text(`${cursor}${mark}${id} ${t.fg("muted", `[${model.provider}]`)}${badge}`, 0, 0));
		}
		if (start > 0 || end < total) {
			this.list.addChild(new Text(t.fg("muted", `  (${this.selected + 1}/${total})`), 0, 0));
		}
		const current = this.filtered[this.selected];
		if (!current) {
			this.list.addChild(new Text(t.fg("muted", "  No matching models"), 0, 0));
			return;
		}
		this.list.addChild(new Spacer(1));
		this.list.addChild(new Text(t.fg("muted", `  Model Name: ${current.name || current.id}`), 0, 0));
	}

	private pick(asDefault: boolean): void {
		const model = this.filtered[this.selected];
		if (!model) return;
		if (asDefault) this.o.onSelectAsDefault(model);
		else this.o.onSelect(model);
	}

	handleInput(data: string): void {
		const count = this.filtered.length;
		if (matches(data, "tui.input.tab")) {
			if (this.scoped.length === 0) return;
			this.scope = this.scope === "all" ? "scoped" : "all";
			const at = this.active().findIndex((m) => sameModel(m, this.o.current));
			this.selected = at >= 0 ? at : 0;
			this.scopeText?.setText(this.scopeLine());
			this.applyFilter(this.search.getValue());
		} else if (matches(data, "tui.select.up")) {
			if (count === 0) return;
			this.selected = wrapMove(this.selected, count, -1);
			this.renderList();
		} else if (matches(data, "tui.select.down")) {
			if (count === 0) return;
			this.selected = wrapMove(this.selected, count, 1);
			this.renderList();
		} else if (matches(data, "tui.select.confirm")) {
			this.pick(false);
		} else if (matches(data, "tui.select.cancel")) {
			this.o.onCancel();
		} else if (matches(data, "app.models.save")) {
			this.pick(true);
		} else {
			this.search.handleInput(data);
			this.applyFilter(this.search.getValue());
		}
	}
}
