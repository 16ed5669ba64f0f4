/**
 * The pieces `/settings` shares with its submenus: list themes drawn in the run's theme (read at each draw, so a
 * theme preview recolours them), and a titled select list (title in bold accent, a muted description, optional
 * fuzzy search, the list, a dim key hint) that reports the highlighted value while moving.
 */
import {
	Container,
	fuzzyFilter,
	getKeybindings,
	Input,
	type SelectItem,
	SelectList,
	type SelectListTheme,
	type SettingsListTheme,
	Spacer,
	Text,
} from "../../../tui/index.ts";
import { theme } from "../components/style.ts";

export function selectListTheme(): SelectListTheme {
	return {
		selectedPrefix: (text) => theme().fg("accent", text),
		selectedText: (text) => theme().fg("accent", text),
		description: (text) => theme().fg("muted", text),
		scrollInfo: (text) => theme().fg("muted", text),
		noMatch: (text) => theme().fg("muted", text),
	};
}

export function settingsListTheme(): SettingsListTheme {
	return {
		label: (text, selected) => (selected ? theme().fg("accent", text) : text),
		value: (text, selected) => theme().fg(selected ? "accent" : "muted", text),
		description: (text) => theme().fg("dim", text),
		get cursor() {
			return theme().fg("accent", "→ ");
		},
		hint: (text) => theme().fg("dim", text),
	};
}

const LAYOUT = { minPrimaryColumnWidth: 12, maxPrimaryColumnWidth: 32 };

export interface SelectSubmenuOptions {
	searchable?: boolean;
	/** Called with the highlighted value as the cursor moves. */
	onHighlight?: (value: string) => void;
}

export class SelectSubmenu extends Container {
	private list: SelectList;
	private readonly listIndex: number;
	private readonly search: Input | undefined;

	constructor(
		title: string,
		description: string,
		private readonly options: SelectItem[],
		current: string,
		private readonly onSelect: (value: string) => void,
		private readonly onCancel: () => void,
		private readonly opts: SelectSubmenuOptions = {},
	) {
		super();
		this.addChild(new Text(theme().bold(theme().fg("accent", title)), 0, 0));
		if (description) {
			this.addChild(new Spacer(1));
			this.addChild(new Text(theme().fg("muted", description), 0, 0));
		}
		if (opts.searchable) {
			this.addChild(new Spacer(1));
			this.search = new Input();
			this.addChild(this.search);
		}
		this.addChild(new Spacer(1));
		this.list = this.makeList(options, current);
		this.listIndex = this.children.length;
		this.addChild(this.list);
		this.addChild(new Spacer(1));
		const hint = opts.searchable
			? "  Type to filter · Enter to select · Esc to go back"
			: "  Enter to select · Esc to go back";
		this.addChild(new Text(theme().fg("dim", hint), 0, 0));
	}

	private makeList(items: SelectItem[], current: string): SelectList {
		const list = new SelectList(items, Math.min(items.length, 10), selectListTheme(), LAYOUT);
		const index = items.findIndex((item) => item.value === current);
		if (index !== -1) list.setSelectedIndex(index);
		list.onSelect = (item) => this.onSelect(item.value);
		list.onCancel = () => this.onCancel();
		const highlight = this.opts.onHighlight;
		if (highlight) list.onSelectionChange = (item) => highlight(item.value);
		return list;
	}

	handleInput(data: string): void {
		const kb = getKeybindings();
		const navigation = ["tui.select.up", "tui.select.down", "tui.select.confirm", "tui.select.cancel"].some((id) =>
			kb.matches(data, id),
		);
		if (!this.search || navigation) {
			this.list.handleInput(data);
			return;
		}
		this.search.handleInput(data);
		const query = this.search.getValue();
		const items = query
			? fuzzyFilter(this.options, query, (item) => `${item.label} ${item.description ?? ""}`)
			: this.options;
		this.list = this.makeList(items, "");
		this.children[this.listIndex] = this.list;
	}
}
