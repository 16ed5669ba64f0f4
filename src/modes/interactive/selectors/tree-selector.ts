/**
 * `/tree`: the session tree in the editor's place (pi 0.87.1's layout): a rule, "Session Tree", the key help, the
 * search line, a rule, the rows around the selection (`› ` on the selected one, `• ` on the active path, `[label]`
 * in the warning colour, `├─`/`└─` connectors with `⊟`/`⊞` on foldable/folded branches), `(i/n)` with the filter
 * in force, and a rule. Rows too deep to read are shifted left, keeping the two-column gutter. Typing searches,
 * the `app.tree.*` keys fold, filter and label, `app.message.copy` copies the selected entry.
 *
 * A frame draws only the visible rows; entries not read yet are read between frames (`resolveSome`), a slice at a
 * time, so the tree opens at once on a long session and keys stay responsive while it fills in.
 */
import {
	Container,
	type Focusable,
	getKeybindings,
	Input,
	type KeybindingsManager,
	Spacer,
	Text,
	truncateToWidth,
} from "../../../tui/index.ts";
import { keyHint } from "../chrome/keys.ts";
import { theme } from "../components/style.ts";
import { dialogBorder } from "../dialogs/common.ts";
import { TREE_FILTER_MODES, type TreeFilterMode, TreeModel, type TreeSource } from "./tree-model.ts";
import { renderTreeRows, treeHelpLines } from "./tree-rows.ts";

export interface TreeSelectorOptions {
	source: TreeSource;
	terminalRows: number;
	initialFilterMode?: TreeFilterMode;
	initialSelectedId?: string | null;
	keybindings?: KeybindingsManager;
	onSelect(entryId: string): void;
	onCancel(): void;
	onLabel(entryId: string, label: string | undefined): void;
	onCopy(entryId: string | undefined): void;
	/** Asks for a redraw (after entries were read between frames). */
	requestRender(): void;
}

const STATUS: Record<TreeFilterMode, string> = {
	default: "",
	"no-tools": " [no-tools]",
	"user-only": " [user]",
	"labeled-only": " [labeled]",
	all: " [all]",
};

/** Reading budget per slice between frames (ms). */
const SLICE_MS = 6;

export class TreeSelector extends Container implements Focusable {
	readonly model: TreeModel;
	showLabelTimes = false;
	private label: { entryId: string; input: Input } | undefined;
	private timer: ReturnType<typeof setTimeout> | undefined;
	private disposed = false;
	private _focused = false;

	constructor(private readonly options: TreeSelectorOptions) {
		super();
		const visible = Math.max(5, Math.floor(options.terminalRows / 2));
		this.model = new TreeModel(
			options.source,
			visible,
			options.initialFilterMode ?? "default",
			options.initialSelectedId,
		);
		this.addChild(new Spacer(1));
		this.addChild(dialogBorder());
		this.addChild(new Text(theme().bold("  Session Tree"), 1, 0));
		this.addChild({ render: (width) => treeHelpLines(width), invalidate() {} });
		this.addChild({ render: (width) => this.searchLine(width), invalidate() {} });
		this.addChild(dialogBorder());
		this.addChild(new Spacer(1));
		this.addChild({ render: (width) => this.body(width), invalidate() {} });
		this.addChild(new Spacer(1));
		this.addChild(dialogBorder());
		this.schedule();
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		if (this.label) this.label.input.focused = value;
	}

	private get kb(): KeybindingsManager {
		return this.options.keybindings ?? getKeybindings();
	}

	/** Reads unread entries a slice at a time between frames until the list is final. */
	private schedule(): void {
		if (this.disposed || this.timer || this.model.complete) return;
		this.timer = setTimeout(() => {
			this.timer = undefined;
			if (this.disposed) return;
			if (this.model.resolveSome(SLICE_MS)) this.options.requestRender();
			this.schedule();
		}, 0);
	}

	dispose(): void {
		this.disposed = true;
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
	}

	private searchLine(width: number): string[] {
		const t = theme();
		const query = this.model.searchQuery;
		const text = `  ${t.fg("muted", "Type to search:")}${query ? ` ${t.fg("accent", query)}` : ""}`;
		return [truncateToWidth(text, width)];
	}

	private status(): string {
		return `${STATUS[this.model.filterMode]}${this.showLabelTimes ? " [+label time]" : ""}`;
	}

	private body(width: number): string[] {
		if (this.label) return this.labelLines(width);
		const t = theme();
		const model = this.model;
		if (model.rowCount === 0) {
			return [
				truncateToWidth(t.fg("muted", "  No entries found"), width),
				truncateToWidth(t.fg("muted", `  (0/0)${this.status()}`), width),
			];
		}
		const lines = renderTreeRows(model, width, this.showLabelTimes);
		lines.push(truncateToWidth(t.fg("muted", `  (${model.selected + 1}/${model.rowCount})${this.status()}`), width));
		return lines;
	}

	private labelLines(width: number): string[] {
		const label = this.label as { entryId: string; input: Input };
		const indent = "  ";
		const lines = [truncateToWidth(`${indent}${theme().fg("muted", "Label (empty to remove):")}`, width)];
		for (const line of label.input.render(width - indent.length)) lines.push(truncateToWidth(indent + line, width));
		const hints = `${keyHint("tui.select.confirm", "save")}  ${keyHint("tui.select.cancel", "cancel")}`;
		lines.push(truncateToWidth(indent + hints, width));
		return lines;
	}

	handleInput(data: string): void {
		if (this.label) {
			this.labelInput(data);
			return;
		}
		const kb = this.kb;
		const model = this.model;
		const match = (action: string) => kb.matches(data, action);
		if (match("tui.select.up")) model.move(-1, true);
		else if (match("tui.select.down")) model.move(1, true);
		else if (match("app.tree.foldOrUp")) model.foldOrUp();
		else if (match("app.tree.unfoldOrDown")) model.unfoldOrDown();
		else if (match("tui.editor.cursorLeft") || match("tui.select.pageUp")) model.move(-model.windowSize, false);
		else if (match("tui.editor.cursorRight") || match("tui.select.pageDown")) model.move(model.windowSize, false);
		else if (match("tui.select.confirm")) {
			const id = model.selectedEntryId();
			if (id) this.options.onSelect(id);
		} else if (match("app.message.copy")) this.options.onCopy(model.selectedEntryId());
		else if (match("tui.select.cancel")) {
			if (model.searchQuery) model.setSearch("");
			else this.options.onCancel();
		} else if (match("app.tree.filter.default")) model.setFilter("default");
		else if (match("app.tree.filter.noTools")) this.toggle("no-tools");
		else if (match("app.tree.filter.userOnly")) this.toggle("user-only");
		else if (match("app.tree.filter.labeledOnly")) this.toggle("labeled-only");
		else if (match("app.tree.filter.all")) this.toggle("all");
		else if (match("app.tree.filter.cycleBackward")) this.cycle(-1);
		else if (match("app.tree.filter.cycleForward")) this.cycle(1);
		else if (match("tui.editor.deleteCharBackward")) {
			if (model.searchQuery) model.setSearch(model.searchQuery.slice(0, -1));
		} else if (match("app.tree.editLabel")) this.editLabel();
		else if (match("app.tree.toggleLabelTimestamp")) this.showLabelTimes = !this.showLabelTimes;
		else if (data.length > 0 && ![...data].some((ch) => isControl(ch.charCodeAt(0)))) {
			model.setSearch(model.searchQuery + data);
		}
		this.schedule();
	}

	private toggle(mode: TreeFilterMode): void {
		this.model.setFilter(this.model.filterMode === mode ? "default" : mode);
	}

	private cycle(step: number): void {
		const modes = TREE_FILTER_MODES;
		const at = modes.indexOf(this.model.filterMode);
		this.model.setFilter(modes[(at + step + modes.length) % modes.length] as TreeFilterMode);
	}

	private editLabel(): void {
		const entryId = this.model.selectedEntryId();
		if (!entryId) return;
		const input = new Input();
		const current = this.options.source.labels.get(entryId)?.label;
		if (current) input.setValue(current);
		input.focused = this._focused;
		this.label = { entryId, input };
	}

	private labelInput(data: string): void {
		const label = this.label as { entryId: string; input: Input };
		if (this.kb.matches(data, "tui.select.confirm")) {
			const value = label.input.getValue().trim();
			this.label = undefined;
			this.options.onLabel(label.entryId, value || undefined);
			this.model.refresh(false);
		} else if (this.kb.matches(data, "tui.select.cancel")) this.label = undefined;
		else label.input.handleInput(data);
	}
}

function isControl(code: number): boolean {
	return code < 32 || code === 0x7f || (code >= 0x80 && code <= 0x9f);
}
