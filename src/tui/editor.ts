/** Editor: the bordered multi-line prompt editor with wrapping, scrolling, history, paste and autocomplete. */

import { AutocompletePopup, type AutocompleteProvider } from "./autocomplete.ts";
import { fitLine } from "./basic.ts";
import { TextBuffer } from "./editor-buffer.ts";
import { decodePrintableKey, type KeyId, matchesKey } from "./keys.ts";
import type { SelectListTheme } from "./select-list.ts";
import { cursorCell, graphemeAt, layoutLine, PasteCollector, previousBoundary } from "./text-edit.ts";
import { type Component, CURSOR_MARKER, type Focusable, type TUI } from "./types.ts";
import { graphemeWidth, truncateToWidth, visibleWidth } from "./width.ts";

export interface EditorTheme {
	borderColor: (str: string) => string;
	selectList: SelectListTheme;
}

export interface EditorOptions {
	paddingX?: number;
	autocompleteMaxVisible?: number;
}

/** One rendered row: the slice [start, end) of logical line `line`. */
interface VisualLine {
	line: number;
	start: number;
	end: number;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const HISTORY_LIMIT = 100;

export class Editor implements Component, Focusable {
	focused = false;
	protected tui: TUI;
	borderColor: (str: string) => string;
	onSubmit?: (text: string) => void;
	onChange?: (text: string) => void;
	disableSubmit = false;
	private readonly buffer = new TextBuffer();
	private readonly paste = new PasteCollector();
	private readonly autocomplete: AutocompletePopup;
	private paddingX: number;
	private autocompleteMaxVisible: number;
	private scrollOffset = 0;
	/** Content width of the last render; vertical movement follows the wrapping the user sees. */
	private contentWidth = 80;
	/** Whether the last key typed text, so a run of typing is undone as one step. */
	private typing = false;
	/** Column the cursor tries to keep while moving vertically. */
	private preferredColumn: number | undefined;
	private history: string[] = [];
	private historyIndex = -1;
	private historyDraft = "";

	constructor(
		tui: TUI,
		private theme: EditorTheme,
		options: EditorOptions = {},
	) {
		this.tui = tui;
		this.borderColor = theme.borderColor;
		this.paddingX = options.paddingX ?? 0;
		this.autocompleteMaxVisible = options.autocompleteMaxVisible ?? 5;
		this.autocomplete = new AutocompletePopup({
			getBuffer: () => this.buffer.snapshot(),
			setBuffer: (buffer) => {
				this.buffer.pushUndo();
				this.buffer.restore(buffer);
				this.onChange?.(this.getText());
			},
			requestRender: () => this.tui?.requestRender?.(),
			selectListTheme: () => this.theme.selectList,
			maxVisible: () => this.autocompleteMaxVisible,
		});
	}

	getPaddingX(): number {
		return this.paddingX;
	}

	setPaddingX(padding: number): void {
		this.paddingX = Math.max(0, padding);
	}

	getAutocompleteMaxVisible(): number {
		return this.autocompleteMaxVisible;
	}

	setAutocompleteMaxVisible(maxVisible: number): void {
		this.autocompleteMaxVisible = Math.max(1, maxVisible);
	}

	setAutocompleteProvider(provider: AutocompleteProvider): void {
		this.autocomplete.setProvider(provider);
	}

	isShowingAutocomplete(): boolean {
		return this.autocomplete.isShowing();
	}

	/** Remember a submitted prompt for Up/Down recall. */
	addToHistory(text: string): void {
		const entry = text.trim();
		if (!entry || this.history[0] === entry) return;
		this.history.unshift(entry);
		if (this.history.length > HISTORY_LIMIT) this.history.pop();
	}

	getText(): string {
		return this.buffer.getText();
	}

	getExpandedText(): string {
		return this.getText();
	}

	getLines(): string[] {
		return [...this.buffer.lines];
	}

	getCursor(): { line: number; col: number } {
		return { line: this.buffer.line, col: this.buffer.col };
	}

	setText(text: string): void {
		this.historyIndex = -1;
		this.setTextInternal(text);
	}

	/** Insert at the cursor as one undoable step. */
	insertTextAtCursor(text: string): void {
		this.buffer.pushUndo();
		this.buffer.insert(text);
		this.onChange?.(this.getText());
	}

	invalidate(): void {
		// Rendering is computed from state on every call.
	}

	private setTextInternal(text: string): void {
		const before = this.getText();
		this.buffer.setText(text);
		this.preferredColumn = undefined;
		if (this.getText() !== before) this.onChange?.(this.getText());
	}

	protected renderTopBorder(width: number, hiddenLineCount: number): string {
		return this.border(width, hiddenLineCount > 0 ? `↑ ${hiddenLineCount} more` : "");
	}

	protected renderBottomBorder(width: number, hiddenLineCount: number): string {
		return this.border(width, hiddenLineCount > 0 ? `↓ ${hiddenLineCount} more` : "");
	}

	private border(width: number, label: string): string {
		if (width <= 0) return "";
		const text = label && width > visibleWidth(label) + 6 ? `─── ${label} ` : "";
		return this.borderColor(text + "─".repeat(Math.max(0, width - visibleWidth(text))));
	}

	/** Rows for the whole buffer; the cursor's line gets an extra empty row when the cursor would not fit. */
	private layout(width: number): VisualLine[] {
		const rows: VisualLine[] = [];
		this.buffer.lines.forEach((text, line) => {
			const parts = layoutLine(text, width);
			for (const part of parts) rows.push({ line, ...part });
			const last = parts[parts.length - 1];
			const atEnd = line === this.buffer.line && this.buffer.col === text.length;
			if (last && atEnd && visibleWidth(text.slice(last.start, last.end)) >= width) {
				rows.push({ line, start: text.length, end: text.length });
			}
		});
		return rows;
	}

	/** The row holding the cursor: the one containing it, or the last row of its line that starts before it. */
	private cursorRow(rows: VisualLine[]): number {
		const { line, col } = this.buffer;
		let fallback = 0;
		for (let i = 0; i < rows.length; i++) {
			const row = rows[i] as VisualLine;
			if (row.line !== line) continue;
			if (col >= row.start && col < row.end) return i;
			if (col >= row.start) fallback = i;
		}
		return fallback;
	}

	private maxVisibleRows(): number {
		const rows = (this.tui as Partial<TUI> | undefined)?.terminal?.rows;
		return typeof rows === "number" && rows > 0 ? Math.max(5, Math.floor(rows * 0.3)) : 10;
	}

	render(width: number): string[] {
		const contentWidth = Math.max(1, width - this.paddingX * 2);
		this.contentWidth = contentWidth;
		const rows = this.layout(contentWidth);
		const cursor = this.cursorRow(rows);
		const maxRows = this.maxVisibleRows();
		if (cursor < this.scrollOffset) this.scrollOffset = cursor;
		if (cursor >= this.scrollOffset + maxRows) this.scrollOffset = cursor - maxRows + 1;
		this.scrollOffset = Math.max(0, Math.min(this.scrollOffset, Math.max(0, rows.length - maxRows)));
		const shown = rows.slice(this.scrollOffset, this.scrollOffset + maxRows);
		const margin = " ".repeat(this.paddingX);
		const out = [truncateToWidth(this.renderTopBorder(width, this.scrollOffset), width, "")];
		shown.forEach((row, n) => {
			const text = this.buffer.lines[row.line] ?? "";
			let body = text.slice(row.start, row.end);
			if (this.scrollOffset + n === cursor) {
				const col = this.buffer.col;
				const under = col < row.end ? graphemeAt(text, col) : "";
				const marker = this.focused ? CURSOR_MARKER : "";
				body = text.slice(row.start, col) + marker + cursorCell(under) + text.slice(col + under.length, row.end);
			}
			out.push(fitLine(margin + body, width));
		});
		const hiddenBelow = Math.max(0, rows.length - this.scrollOffset - shown.length);
		out.push(truncateToWidth(this.renderBottomBorder(width, hiddenBelow), width, ""));
		out.push(...this.autocomplete.render(width));
		return out;
	}

	handleInput(data: string): void {
		const fed = this.paste.feed(data);
		if (fed === null) return;
		const before = this.getText();
		if ("paste" in fed) {
			this.buffer.pushUndo();
			this.buffer.insert(fed.paste);
			this.afterEdit(before);
			if (fed.rest) this.handleInput(fed.rest);
			return;
		}
		if (this.autocomplete.handleInput(fed.input)) return;
		this.handleKey(fed.input);
		this.afterEdit(before);
	}

	private afterEdit(before: string): void {
		const after = this.getText();
		if (after === before) return;
		this.onChange?.(after);
		if (this.autocomplete.isShowing()) this.autocomplete.request(false);
	}

	private handleKey(data: string): void {
		const b = this.buffer;
		this.typing = false;
		const vertical = matchesKey(data, "up") || matchesKey(data, "down");
		if (!vertical) this.preferredColumn = undefined;
		if (matchesKey(data, "shift+enter") || matchesKey(data, "alt+enter") || matchesKey(data, "ctrl+j")) {
			b.pushUndo();
			b.newline();
		} else if (matchesKey(data, "enter")) {
			if (b.col > 0 && b.current[b.col - 1] === "\\") {
				b.pushUndo();
				b.backspace();
				b.newline();
			} else if (!this.disableSubmit) {
				this.submit();
			}
		} else if (matchesKey(data, "tab")) {
			if (this.autocomplete.hasProvider()) this.autocomplete.request(true);
		} else if (matchesKey(data, "up")) this.moveVertically(-1);
		else if (matchesKey(data, "down")) this.moveVertically(1);
		else if (matchesKey(data, "pageUp")) for (let i = 0; i < this.maxVisibleRows(); i++) this.moveVertically(-1, false);
		else if (matchesKey(data, "pageDown"))
			for (let i = 0; i < this.maxVisibleRows(); i++) this.moveVertically(1, false);
		else if (matchesKey(data, "left") || matchesKey(data, "ctrl+b")) b.moveLeft();
		else if (matchesKey(data, "right") || matchesKey(data, "ctrl+f")) b.moveRight();
		else if (matchesKey(data, "home") || matchesKey(data, "ctrl+a")) b.lineStart();
		else if (matchesKey(data, "end") || matchesKey(data, "ctrl+e")) b.lineEnd();
		else if (matchesKey(data, "ctrl+left") || matchesKey(data, "alt+left") || matchesKey(data, "alt+b")) b.wordLeft();
		else if (matchesKey(data, "ctrl+right") || matchesKey(data, "alt+right") || matchesKey(data, "alt+f"))
			b.wordRight();
		else if (matchesKey(data, "ctrl+-")) b.undo();
		else this.edit(data);
	}

	/** Keys that change the text. */
	private edit(data: string): void {
		const b = this.buffer;
		const actions: [KeyId[], () => void][] = [
			[["backspace"], () => b.backspace()],
			[["delete", "ctrl+d"], () => b.deleteForward()],
			[["ctrl+w", "alt+backspace"], () => b.deleteWordBackward()],
			[["alt+d", "alt+delete"], () => b.deleteWordForward()],
			[["ctrl+u"], () => b.deleteToLineStart()],
			[["ctrl+k"], () => b.deleteToLineEnd()],
			[["ctrl+y"], () => b.yank()],
		];
		for (const [keys, action] of actions) {
			if (keys.some((key) => matchesKey(data, key))) {
				b.pushUndo();
				action();
				return;
			}
		}
		const text = decodePrintableKey(data);
		if (text === undefined) return;
		if (!this.typing || /\s/.test(text)) b.pushUndo();
		b.insert(text);
		this.typing = true;
		if (this.autocomplete.isTrigger(text)) {
			const prev = b.current[b.col - text.length - 1];
			if (prev === undefined || prev === " ") this.autocomplete.request(false);
		}
	}

	private submit(): void {
		const text = this.getText().trim();
		this.autocomplete.cancel();
		this.historyIndex = -1;
		this.buffer.setText("");
		this.scrollOffset = 0;
		if (text !== "" || this.getText() !== "") this.onChange?.("");
		this.onSubmit?.(text);
	}

	/** Move one visual row up (-1) or down (1); at the top/bottom, browse history instead. */
	private moveVertically(direction: 1 | -1, allowHistory = true): void {
		const rows = this.layout(this.contentWidth);
		const current = this.cursorRow(rows);
		const target = current + direction;
		const row = rows[current];
		if (!row) return;
		if (target < 0 || target >= rows.length) {
			if (allowHistory && this.browseHistory(direction)) return;
			if (direction < 0) this.buffer.lineStart();
			else this.buffer.lineEnd();
			return;
		}
		const text = this.buffer.lines[row.line] ?? "";
		const column = this.preferredColumn ?? visibleWidth(text.slice(row.start, this.buffer.col));
		this.preferredColumn = column;
		const next = rows[target] as VisualLine;
		const nextText = this.buffer.lines[next.line] ?? "";
		let col = next.start;
		let used = 0;
		for (const { segment } of segmenter.segment(nextText.slice(next.start, next.end))) {
			const w = graphemeWidth(segment);
			if (used + w > column) break;
			used += w;
			col += segment.length;
		}
		// A wrapped row's end is the next row's start; stop before it so the cursor stays on this row.
		if (rows[target + 1]?.line === next.line && col >= next.end && next.end > next.start) {
			col = previousBoundary(nextText, next.end);
		}
		this.buffer.line = next.line;
		this.buffer.col = col;
	}

	private browseHistory(direction: 1 | -1): boolean {
		if (this.history.length === 0) return false;
		const browsing = this.historyIndex >= 0;
		if (direction < 0) {
			if (!browsing && !this.buffer.isEmpty()) return false;
			if (this.historyIndex >= this.history.length - 1) return true;
			if (!browsing) this.historyDraft = this.getText();
			this.historyIndex++;
			this.setTextInternal(this.history[this.historyIndex] ?? "");
			return true;
		}
		if (!browsing) return false;
		this.historyIndex--;
		this.setTextInternal(this.historyIndex >= 0 ? (this.history[this.historyIndex] ?? "") : this.historyDraft);
		return true;
	}
}
