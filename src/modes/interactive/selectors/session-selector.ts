/**
 * The `/resume` picker (and `pi -r`): this folder's sessions or all (Tab), a search line, sort / named-only / path
 * toggles, rename and delete (after a confirmation) on the `app.session.*` keys, as pi 0.87.1's session selector.
 * The first rows are read before the first frame; the rest stream in, a slice per tick, with `Loading n/total` in
 * the header. Choosing a damaged file shows why it cannot be opened and keeps the picker.
 */
import {
	type Component,
	Container,
	DynamicBorder,
	type Focusable,
	getKeybindings,
	Input,
	Spacer,
	Text,
} from "../../../tui/index.ts";
import { appKeyText } from "../chrome/keys.ts";
import { theme } from "../components/style.ts";
import { SessionListModel } from "./session-list-model.ts";
import { type HeaderState, renderHeader, renderRows, type Scope } from "./session-list-view.ts";
import { listSessionFiles, readSessionRow, type SessionRow } from "./session-scan.ts";

/** Rows read before the first frame (a screenful); the rest stream in. */
const FIRST_ROWS = 12;
const SLICE_MS = 12;
const SHOW_EVERY_MS = 150;

export interface SessionSelectorOptions {
	/** The session folders of each scope. */
	folders(scope: Scope): string[];
	/** Only rows whose cwd is this folder count in the "current" scope (a shared session dir), when given. */
	currentCwd?: string;
	currentSessionPath?: string;
	onSelect(path: string): void;
	onCancel(): void;
	requestRender(): void;
	/** Renames a session file (absent: no rename key). */
	rename?(path: string, name: string): Promise<void> | void;
	/** Removes a session file; the message says how (moved to trash / deleted). */
	remove(path: string): Promise<string>;
}

export class SessionSelector extends Container implements Focusable {
	private readonly model = new SessionListModel();
	private readonly search = new Input();
	private readonly renameInput = new Input();
	private readonly header: HeaderState;
	private scope: Scope = "current";
	private selected = 0;
	private confirmingPath: string | undefined;
	private renaming: string | undefined;
	private statusTimer: ReturnType<typeof setTimeout> | undefined;
	private loadTicket = 0;
	private readonly loaded: Record<Scope, SessionRow[] | undefined> = { current: undefined, all: undefined };
	private _focused = false;
	/** Files deleted from this picker: a load still running may have read them already. */
	private readonly removed = new Set<string>();
	readonly maxVisible = 10;

	constructor(private readonly o: SessionSelectorOptions) {
		super();
		this.header = {
			scope: "current",
			sort: "threaded",
			names: "all",
			showPath: false,
			confirmingDelete: false,
			showRenameHint: Boolean(o.rename),
		};
		this.search.onSubmit = () => this.choose();
		this.renameInput.onSubmit = (value) => void this.confirmRename(value);
		this.layout();
		// The picker's first frame waits for nothing: the folder is listed right after it, rows stream in.
		this.header.loading = { loaded: 0, total: -1 };
		const ticket = this.loadTicket;
		setImmediate(() => {
			if (ticket !== this.loadTicket) return;
			this.load("current");
			this.o.requestRender();
		});
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.search.focused = value && !this.renaming;
		this.renameInput.focused = value && this.renaming !== undefined;
	}

	/** The model (tests). */
	get list(): SessionListModel {
		return this.model;
	}

	dispose(): void {
		this.loadTicket++;
		if (this.statusTimer) clearTimeout(this.statusTimer);
	}

	private layout(): void {
		this.clear();
		const border = () => new DynamicBorder((s) => theme().fg("accent", s));
		this.addChild(new Spacer(1));
		this.addChild(border());
		this.addChild(new Spacer(1));
		if (this.renaming !== undefined) {
			const t = theme();
			this.addChild(new Text(t.bold("Rename Session"), 1, 0));
			this.addChild(new Spacer(1));
			this.addChild(this.renameInput);
			this.addChild(new Spacer(1));
			const hint = `${appKeyText("tui.select.confirm")} to save · ${appKeyText("tui.select.cancel")} to cancel`;
			this.addChild(new Text(t.fg("muted", hint), 1, 0));
		} else {
			this.addChild({ render: (w) => renderHeader(this.header, w), invalidate() {} } satisfies Component);
			this.addChild(new Spacer(1));
			this.addChild(this.search);
			this.addChild(new Spacer(1));
			this.addChild({ render: (w) => this.rows(w), invalidate() {} } satisfies Component);
		}
		this.addChild(new Spacer(1));
		this.addChild(border());
	}

	private rows(width: number): string[] {
		return renderRows(
			{
				items: this.model.items,
				selected: this.selected,
				maxVisible: this.maxVisible,
				showCwd: this.scope === "all",
				showPath: this.header.showPath,
				names: this.model.names,
				...(this.confirmingPath ? { confirmingPath: this.confirmingPath } : {}),
				...(this.o.currentSessionPath ? { currentPath: this.o.currentSessionPath } : {}),
			},
			width,
		);
	}

	/** Lists the scope's files, reads the newest few now and the rest a slice per tick. */
	private load(scope: Scope): void {
		const ticket = ++this.loadTicket;
		const refs = listSessionFiles(this.o.folders(scope));
		const rows: SessionRow[] = [];
		const wanted = (row: SessionRow) =>
			scope === "all" || !this.o.currentCwd || row.damaged !== undefined || row.cwd === this.o.currentCwd;
		const read = (from: number, to: number) => {
			for (let i = from; i < to; i++) {
				const row = readSessionRow(refs[i] as string);
				if (row && wanted(row)) rows.push(row);
			}
		};
		const first = Math.min(FIRST_ROWS, refs.length);
		read(0, first);
		this.show(scope, rows, first < refs.length ? { loaded: first, total: refs.length } : undefined);
		if (first >= refs.length) {
			this.loaded[scope] = rows;
			return;
		}
		let next = first;
		let shownAt = performance.now();
		// Each tick reads for at most SLICE_MS, so keys typed meanwhile are handled between ticks; the list on screen
		// is refreshed at most every SHOW_EVERY_MS (rebuilding the threaded order of thousands of rows is not free).
		const step = () => {
			if (ticket !== this.loadTicket) return;
			const started = performance.now();
			while (next < refs.length && performance.now() - started < SLICE_MS) {
				read(next, Math.min(next + 16, refs.length));
				next = Math.min(next + 16, refs.length);
			}
			const done = next >= refs.length;
			if (done) this.loaded[scope] = rows;
			if (done || performance.now() - shownAt >= SHOW_EVERY_MS) {
				this.show(scope, rows, done ? undefined : { loaded: next, total: refs.length });
				shownAt = performance.now();
				this.o.requestRender();
			}
			if (!done) setImmediate(step);
		};
		setImmediate(step);
	}

	private show(scope: Scope, rows: SessionRow[], loading: { loaded: number; total: number } | undefined): void {
		if (scope !== this.scope) return;
		const keep = this.model.items[this.selected]?.row.path;
		this.model.setRows(this.removed.size === 0 ? [...rows] : rows.filter((r) => !this.removed.has(r.path)));
		if (loading) this.header.loading = loading;
		else delete this.header.loading;
		const at = keep ? this.model.items.findIndex((item) => item.row.path === keep) : -1;
		this.selected = at >= 0 ? at : Math.min(this.selected, Math.max(0, this.model.items.length - 1));
	}

	private setStatus(type: "info" | "error", message: string, ms: number): void {
		if (this.statusTimer) clearTimeout(this.statusTimer);
		this.header.status = { type, message };
		this.statusTimer = setTimeout(() => {
			delete this.header.status;
			this.o.requestRender();
		}, ms);
		this.statusTimer.unref?.();
	}

	private selectedRow(): SessionRow | undefined {
		return this.model.items[this.selected]?.row;
	}

	private choose(): void {
		const row = this.selectedRow();
		if (!row) return;
		if (row.damaged) {
			const name = row.path.slice(row.path.lastIndexOf("/") + 1);
			this.setStatus("error", `Cannot open ${name}: ${row.damaged}`, 5000);
			return;
		}
		this.dispose();
		this.o.onSelect(row.path);
	}

	handleInput(data: string): void {
		const kb = getKeybindings();
		if (this.renaming !== undefined) {
			if (kb.matches(data, "tui.select.cancel")) this.exitRename();
			else this.renameInput.handleInput(data);
			return;
		}
		if (this.confirmingPath !== undefined) {
			if (kb.matches(data, "tui.select.confirm")) {
				const path = this.confirmingPath;
				this.setConfirming(undefined);
				void this.remove(path);
			} else if (kb.matches(data, "tui.select.cancel")) this.setConfirming(undefined);
			return;
		}
		if (kb.matches(data, "tui.input.tab")) this.toggleScope();
		else if (kb.matches(data, "app.session.toggleSort")) {
			const sort = this.model.sortMode;
			this.model.setSort(sort === "threaded" ? "recent" : sort === "recent" ? "relevance" : "threaded");
			this.header.sort = this.model.sortMode;
		} else if (kb.matches(data, "app.session.toggleNamedFilter")) {
			this.model.setNameFilter(this.model.names === "all" ? "named" : "all");
			this.header.names = this.model.names;
			this.selected = Math.min(this.selected, Math.max(0, this.model.items.length - 1));
		} else if (kb.matches(data, "app.session.togglePath")) this.header.showPath = !this.header.showPath;
		else if (kb.matches(data, "app.session.delete")) this.startDelete();
		else if (kb.matches(data, "app.session.rename")) this.startRename();
		else if (kb.matches(data, "app.session.deleteNoninvasive") && this.search.getValue() === "") this.startDelete();
		else if (kb.matches(data, "tui.select.up")) this.selected = Math.max(0, this.selected - 1);
		else if (kb.matches(data, "tui.select.down"))
			this.selected = Math.min(this.model.items.length - 1, this.selected + 1);
		else if (kb.matches(data, "tui.select.pageUp")) this.selected = Math.max(0, this.selected - this.maxVisible);
		else if (kb.matches(data, "tui.select.pageDown"))
			this.selected = Math.max(0, Math.min(this.model.items.length - 1, this.selected + this.maxVisible));
		else if (kb.matches(data, "tui.select.confirm")) this.choose();
		else if (kb.matches(data, "tui.select.cancel")) {
			this.dispose();
			this.o.onCancel();
		} else {
			this.search.handleInput(data);
			this.model.setQuery(this.search.getValue());
			this.selected = Math.min(this.selected, Math.max(0, this.model.items.length - 1));
		}
		this.o.requestRender();
	}

	private toggleScope(): void {
		this.scope = this.scope === "current" ? "all" : "current";
		this.header.scope = this.scope;
		this.selected = 0;
		const rows = this.loaded[this.scope];
		if (rows) this.show(this.scope, rows, undefined);
		else this.load(this.scope);
	}

	private setConfirming(path: string | undefined): void {
		this.confirmingPath = path;
		this.header.confirmingDelete = path !== undefined;
		this.o.requestRender();
	}

	private startDelete(): void {
		const row = this.selectedRow();
		if (!row) return;
		if (row.path === this.o.currentSessionPath) {
			this.setStatus("error", "Cannot delete the currently active session", 3000);
			return;
		}
		this.setConfirming(row.path);
	}

	private async remove(path: string): Promise<void> {
		try {
			const how = await this.o.remove(path);
			this.removed.add(path);
			this.show(this.scope, [...this.model.allRows()], this.header.loading);
			this.setStatus("info", how, 2000);
		} catch (error) {
			this.setStatus("error", `Failed to delete: ${error instanceof Error ? error.message : String(error)}`, 3000);
		}
		this.o.requestRender();
	}

	private startRename(): void {
		const row = this.selectedRow();
		if (!row || !this.o.rename || row.damaged) return;
		this.renaming = row.path;
		this.renameInput.setValue(row.name ?? "");
		this.layout();
		this.focused = this._focused;
	}

	private exitRename(): void {
		this.renaming = undefined;
		this.layout();
		this.focused = this._focused;
		this.o.requestRender();
	}

	private async confirmRename(value: string): Promise<void> {
		const name = value.trim();
		const path = this.renaming;
		if (!name || !path || !this.o.rename) return;
		try {
			await this.o.rename(path, name);
			this.loaded.current = undefined;
			this.loaded.all = undefined;
			this.exitRename();
			this.load(this.scope);
		} catch (error) {
			this.exitRename();
			this.setStatus("error", `Failed to rename: ${error instanceof Error ? error.message : String(error)}`, 3000);
		}
		this.o.requestRender();
	}
}
