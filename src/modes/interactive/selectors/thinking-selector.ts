/**
 * The `/thinking` selector: the levels the current model supports, each with what it means, the current one marked
 * `✓` and highlighted, the saved default marked `· default`; typing filters them. Enter picks for this session,
 * `app.thinking.save` (Ctrl+S) picks and saves as the default, Escape cancels.
 */
import type { ThinkingLevel } from "../../../agent/index.ts";
import { Container, fuzzyFilter, Input, type SelectItem, SelectList, Spacer, Text } from "../../../tui/index.ts";
import { dialogBorder } from "../dialogs/common.ts";
import { keyDisplay, matches, theme } from "./model-common.ts";

export const LEVEL_DESCRIPTIONS: Record<ThinkingLevel, string> = {
	off: "No reasoning",
	minimal: "Very brief reasoning (~1k tokens)",
	low: "Light reasoning (~2k tokens)",
	medium: "Moderate reasoning (~8k tokens)",
	high: "Deep reasoning (~16k tokens)",
	xhigh: "Extra-high reasoning (~32k tokens)",
	max: "Maximum reasoning",
};

export interface ThinkingSelectorOptions {
	current: ThinkingLevel;
	levels: readonly ThinkingLevel[];
	defaultLevel?: ThinkingLevel;
	onSelect(level: ThinkingLevel): void;
	/** Without it, the save key is typed into the search field instead (as in pi). */
	onSelectAsDefault?(level: ThinkingLevel): void;
	onCancel(): void;
}

/** pi's select-list colours: the highlighted row in accent, descriptions and scroll info muted. */
export const listTheme = () => {
	const t = theme();
	const fg = (token: "accent" | "muted") => (text: string) => t.fg(token, text);
	return {
		selectedPrefix: fg("accent"),
		selectedText: fg("accent"),
		description: fg("muted"),
		scrollInfo: fg("muted"),
		noMatch: fg("muted"),
	};
};

export class ThinkingSelector extends Container {
	private readonly search = new Input();
	private readonly items: SelectItem[];
	private list: SelectList;
	private readonly listIndex: number;
	private _focused = false;

	constructor(private readonly o: ThinkingSelectorOptions) {
		super();
		this.items = o.levels.map((level) => ({
			value: level,
			label: `${level === o.current ? "✓ " : "  "}${level}`,
			description: level === o.defaultLevel ? `${LEVEL_DESCRIPTIONS[level]} · default` : LEVEL_DESCRIPTIONS[level],
		}));
		this.addChild(dialogBorder());
		this.addChild(new Spacer(1));
		this.addChild(new Text("Thinking Level", 0, 0));
		this.addChild(new Spacer(1));
		this.addChild(new Text(`${keyDisplay("app.thinking.cycle")} cycles thinking levels in-session`, 0, 0));
		this.addChild(new Spacer(1));
		this.search.onSubmit = () => this.list.handleInput("\r");
		this.addChild(this.search);
		this.addChild(new Spacer(1));
		this.list = this.buildList(this.items, o.current);
		this.listIndex = this.children.length;
		this.addChild(this.list);
		this.addChild(new Spacer(1));
		const hint = `  ${keyDisplay("tui.select.confirm")} to select · ${keyDisplay("app.thinking.save")} to set as default · ${keyDisplay("tui.select.cancel")} to cancel`;
		this.addChild(new Text(theme().fg("dim", hint), 0, 0));
		this.addChild(dialogBorder());
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.search.focused = value;
	}

	private buildList(items: SelectItem[], preselect: string | undefined): SelectList {
		const list = new SelectList(items, Math.max(1, items.length), listTheme(), {
			minPrimaryColumnWidth: 12,
			maxPrimaryColumnWidth: 32,
		});
		const at = items.findIndex((item) => item.value === preselect);
		if (at !== -1) list.setSelectedIndex(at);
		list.onSelect = (item) => this.o.onSelect(item.value as ThinkingLevel);
		list.onCancel = () => this.o.onCancel();
		return list;
	}

	/** The list shown now (a new one after each change of the search text). */
	getSelectList(): SelectList {
		return this.list;
	}

	handleInput(data: string): void {
		if (matches(data, "app.thinking.save") && this.o.onSelectAsDefault) {
			const item = this.list.getSelectedItem();
			if (item) this.o.onSelectAsDefault(item.value as ThinkingLevel);
			return;
		}
		const nav = ["tui.select.up", "tui.select.down", "tui.select.confirm", "tui.select.cancel"];
		if (nav.some((action) => matches(data, action))) {
			this.list.handleInput(data);
			return;
		}
		this.search.handleInput(data);
		const query = this.search.getValue();
		const filtered = query
			? fuzzyFilter(this.items, query, (item) => `${item.value} ${item.description ?? ""}`)
			: this.items;
		this.list = this.buildList(filtered, this.list.getSelectedItem()?.value);
		this.children[this.listIndex] = this.list;
	}
}
