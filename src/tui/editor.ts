/**
 * Editor: the bordered multi-line prompt editor (pi-tui's Editor). Word-aware soft wrap, scrolling past 30% of the
 * terminal height, readline/Emacs keys through the keybindings manager, kill ring, undo, prompt history, large
 * pastes folded into markers, and an autocomplete list under the bottom border.
 */
import { EditorCompletion, type EditorOptions, type EditorTheme } from "./editor-completion.ts";
import { layoutText, scrollBorder } from "./editor-layout.ts";
import { getKeybindings, type KeybindingsManager } from "./keybindings.ts";
import { decodePrintableKey, matchesKey } from "./keys.ts";
import { PasteCollector } from "./text-edit.ts";
import {
	type Component,
	CURSOR_MARKER,
	type Focusable,
	type TUI,
	type TuiMouseEvent,
	type TuiMouseEventResult,
} from "./types.ts";
import { truncateToWidth, visibleWidth } from "./width.ts";

export type { EditorOptions, EditorTheme } from "./editor-completion.ts";
export { type TextChunk, wordWrapLine } from "./editor-layout.ts";

function clampPadding(value: number): number {
	return Number.isFinite(value) ? Math.max(0, Math.floor(value)) : 0;
}

export class Editor extends EditorCompletion implements Component, Focusable {
	/** Set by the TUI when focus changes; a focused editor emits CURSOR_MARKER. */
	focused = false;
	borderColor: (str: string) => string;
	disableSubmit = false;
	private paddingX: number;
	private renderedVisibleLineCount = 1;
	private renderedAutocompleteHeight = 0;
	private readonly paste = new PasteCollector();

	constructor(tui: TUI, theme: EditorTheme, options: EditorOptions = {}) {
		super(tui, theme, options);
		this.borderColor = theme.borderColor;
		this.paddingX = clampPadding(options.paddingX ?? 0);
	}

	getPaddingX(): number {
		return this.paddingX;
	}

	setPaddingX(padding: number): void {
		const next = clampPadding(padding);
		if (next === this.paddingX) return;
		this.paddingX = next;
		this.tui.requestRender();
	}

	invalidate(): void {
		// Nothing is cached between renders.
	}

	protected renderTopBorder(width: number, hiddenLineCount: number): string {
		return this.borderColor(hiddenLineCount > 0 ? scrollBorder("↑", hiddenLineCount, width) : "─".repeat(width));
	}

	protected renderBottomBorder(width: number, hiddenLineCount: number): string {
		return this.borderColor(hiddenLineCount > 0 ? scrollBorder("↓", hiddenLineCount, width) : "─".repeat(width));
	}

	private effectivePadding(width: number): number {
		return Math.min(this.paddingX, Math.max(0, Math.floor((width - 1) / 2)));
	}

	render(width: number): string[] {
		const paddingX = this.effectivePadding(width);
		const contentWidth = Math.max(1, width - paddingX * 2);
		// Without padding one column stays free for the cursor at the end of a full row.
		const layoutWidth = Math.max(1, contentWidth - (paddingX ? 0 : 1));
		this.lastWidth = layoutWidth;
		const rows = layoutText(this.state.lines, this.state.cursorLine, this.state.cursorCol, layoutWidth, (t) =>
			this.segment(t),
		);
		const maxVisible = this.pageSize();
		const cursorRow = Math.max(
			0,
			rows.findIndex((row) => row.hasCursor),
		);
		if (cursorRow < this.scrollOffset) this.scrollOffset = cursorRow;
		else if (cursorRow >= this.scrollOffset + maxVisible) this.scrollOffset = cursorRow - maxVisible + 1;
		this.scrollOffset = Math.max(0, Math.min(this.scrollOffset, Math.max(0, rows.length - maxVisible)));
		const visible = rows.slice(this.scrollOffset, this.scrollOffset + maxVisible);
		this.renderedVisibleLineCount = visible.length;
		const pad = " ".repeat(paddingX);
		const out = [this.renderTopBorder(width, this.scrollOffset)];
		for (const row of visible) {
			let text = row.text;
			let used = visibleWidth(row.text);
			let cursorInPadding = false;
			if (row.hasCursor && row.cursorPos !== undefined) {
				const before = text.slice(0, row.cursorPos);
				const after = text.slice(row.cursorPos);
				const marker = this.focused ? CURSOR_MARKER : "";
				if (after.length > 0) {
					let first = "";
					for (const { segment } of this.segment(after)) {
						first = segment;
						break;
					}
					text = `${before}${marker}\x1b[7m${first}\x1b[0m${after.slice(first.length)}`;
				} else {
					text = `${before}${marker}\x1b[7m \x1b[0m`;
					used++;
					cursorInPadding = used > contentWidth && paddingX > 0;
				}
			}
			const fill = " ".repeat(Math.max(0, contentWidth - used));
			const line = `${pad}${text}${fill}${cursorInPadding ? pad.slice(1) : pad}`;
			// Only a one-column editor overflows (the cursor cell); cut it rather than break the terminal.
			out.push(used > width ? truncateToWidth(line, width, "") : line);
		}
		out.push(this.renderBottomBorder(width, rows.length - (this.scrollOffset + visible.length)));
		this.renderedAutocompleteHeight = 0;
		if (this.autocompleteState && this.autocompleteList) {
			const listLines = this.autocompleteList.render(contentWidth);
			this.renderedAutocompleteHeight = listLines.length;
			for (const line of listLines) {
				out.push(`${pad}${line}${" ".repeat(Math.max(0, contentWidth - visibleWidth(line)))}${pad}`);
			}
		}
		return out;
	}

	/** A click on a text row places the cursor there; clicks on the autocomplete list go to the list. */
	handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
		const paddingX = this.effectivePadding(event.width);
		const listTop = this.renderedVisibleLineCount + 2;
		if (
			this.autocompleteState &&
			this.autocompleteList &&
			event.y >= listTop &&
			event.y < listTop + this.renderedAutocompleteHeight
		) {
			const result = this.autocompleteList.handleMouse({
				...event,
				x: event.x - paddingX,
				y: event.y - listTop,
				width: Math.max(1, event.width - paddingX * 2),
				height: this.renderedAutocompleteHeight,
			});
			return result ? { ...result, focus: true } : undefined;
		}
		if (event.type !== "click" || event.button !== "left") return undefined;
		if (event.y <= 0 || event.y > this.renderedVisibleLineCount) return { handled: true, focus: true };
		const rows = this.visualLines();
		const index = this.scrollOffset + event.y - 1;
		const row = rows[index];
		if (!row) return { handled: true, focus: true };
		const chunk = (this.state.lines[row.logicalLine] ?? "").slice(row.startCol, row.startCol + row.length);
		const target = Math.max(0, event.x - paddingX);
		let column = 0;
		let offset = chunk.length;
		let lastStart = 0;
		for (const g of this.segment(chunk)) {
			const next = column + visibleWidth(g.segment);
			lastStart = g.index;
			if (target < next) {
				offset = g.index;
				break;
			}
			column = next;
		}
		const lastRow = index === rows.length - 1 || rows[index + 1]?.logicalLine !== row.logicalLine;
		if (!lastRow && offset === chunk.length && chunk.length > 0) offset = lastStart;
		this.state.cursorLine = row.logicalLine;
		this.setCursorCol(row.startCol + offset);
		this.lastAction = null;
		this.exitHistoryBrowsing();
		this.afterCursorMoved();
		return { handled: true, focus: true };
	}

	handleInput(data: string): void {
		const kb = getKeybindings();
		if (this.jumpMode !== null) {
			if (kb.matches(data, "tui.editor.jumpForward") || kb.matches(data, "tui.editor.jumpBackward")) {
				this.jumpMode = null;
				return;
			}
			const printable = decodePrintableKey(data) ?? (data.charCodeAt(0) >= 32 ? data : undefined);
			const direction = this.jumpMode;
			this.jumpMode = null;
			if (printable !== undefined) {
				this.jumpToChar(printable, direction);
				return;
			}
		}
		const fed = this.paste.feed(data);
		if (fed === null) return;
		if ("paste" in fed) {
			if (fed.paste.length > 0) this.handlePaste(fed.paste);
			if (fed.rest.length > 0) this.handleInput(fed.rest);
			return;
		}
		this.handleKey(fed.input, kb);
	}

	/** Keys while the autocomplete list is open; returns true when the key was used up. */
	private handleAutocompleteKey(data: string, kb: KeybindingsManager): boolean {
		const list = this.autocompleteList;
		if (!(this.autocompleteState && list)) return false;
		if (kb.matches(data, "tui.select.cancel")) {
			this.cancelAutocomplete();
			return true;
		}
		if (kb.matches(data, "tui.select.up") || kb.matches(data, "tui.select.down")) {
			list.handleInput(data);
			return true;
		}
		const tab = kb.matches(data, "tui.input.tab");
		if (!tab && !kb.matches(data, "tui.select.confirm")) return false;
		const selected = list.getSelectedItem();
		if (!(selected && this.autocompleteProvider)) return tab;
		this.applyCompletionItem(selected, this.autocompletePrefix);
		// Enter on a slash command completes it and then submits; otherwise the key only completes.
		const submitAfter = !tab && this.autocompletePrefix.startsWith("/");
		this.cancelAutocomplete();
		if (submitAfter) return false;
		this.emitChange();
		return true;
	}

	private handleKey(data: string, kb: KeybindingsManager): void {
		if (kb.matches(data, "tui.input.copy")) return;
		if (kb.matches(data, "tui.editor.undo")) {
			this.undo();
			return;
		}
		if (this.handleAutocompleteKey(data, kb)) return;
		if (kb.matches(data, "tui.input.tab") && !this.autocompleteState) {
			this.handleTabCompletion();
			return;
		}
		const actions: [string, () => void][] = [
			["tui.editor.deleteToLineEnd", () => this.deleteToEndOfLine()],
			["tui.editor.deleteToLineStart", () => this.deleteToStartOfLine()],
			["tui.editor.deleteWordBackward", () => this.deleteWordBackwards()],
			["tui.editor.deleteWordForward", () => this.deleteWordForward()],
		];
		for (const [id, run] of actions) {
			if (kb.matches(data, id)) {
				run();
				return;
			}
		}
		if (kb.matches(data, "tui.editor.deleteCharBackward") || matchesKey(data, "shift+backspace")) {
			this.handleBackspace();
			return;
		}
		if (kb.matches(data, "tui.editor.deleteCharForward") || matchesKey(data, "shift+delete")) {
			this.handleForwardDelete();
			return;
		}
		const more: [string, () => void][] = [
			["tui.editor.yank", () => this.yank()],
			["tui.editor.yankPop", () => this.yankPop()],
			["tui.editor.historyPrevious", () => this.historyKey(-1)],
			["tui.editor.historyNext", () => this.historyKey(1)],
			["tui.editor.cursorLineStart", () => this.moveToLineStart()],
			["tui.editor.cursorLineEnd", () => this.moveToLineEnd()],
			["tui.editor.cursorWordLeft", () => this.moveWordBackwards()],
			["tui.editor.cursorWordRight", () => this.moveWordForwards()],
		];
		for (const [id, run] of more) {
			if (kb.matches(data, id)) {
				run();
				return;
			}
		}
		if (this.isNewLineKey(data, kb)) {
			if (this.shouldSubmitOnBackslashEnter(data, kb)) {
				this.handleBackspace();
				this.submitValue();
			} else this.addNewLine();
			return;
		}
		if (kb.matches(data, "tui.input.submit")) {
			if (this.disableSubmit) return;
			// Terminals without Shift+Enter: a backslash before the cursor turns Enter into a new line.
			if (this.state.cursorCol > 0 && this.currentLine[this.state.cursorCol - 1] === "\\") {
				this.handleBackspace();
				this.addNewLine();
				return;
			}
			this.submitValue();
			return;
		}
		this.handleNavigationOrText(data, kb);
	}

	private historyKey(direction: 1 | -1): void {
		this.cancelAutocomplete();
		this.navigateHistory(direction);
	}

	private isNewLineKey(data: string, kb: KeybindingsManager): boolean {
		return (
			kb.matches(data, "tui.input.newLine") ||
			(data.charCodeAt(0) === 10 && data.length > 1) ||
			data === "\x1b\r" ||
			data === "\x1b[13;2~" ||
			(data.length > 1 && data.includes("\x1b") && data.includes("\r")) ||
			data === "\n"
		);
	}

	/** When Shift+Enter is bound to submit, a plain Enter after a backslash submits (dropping the backslash). */
	private shouldSubmitOnBackslashEnter(data: string, kb: KeybindingsManager): boolean {
		if (this.disableSubmit || !matchesKey(data, "enter")) return false;
		const keys = kb.getKeys("tui.input.submit") as string[];
		if (!(keys.includes("shift+enter") || keys.includes("shift+return"))) return false;
		return this.state.cursorCol > 0 && this.currentLine[this.state.cursorCol - 1] === "\\";
	}

	private handleNavigationOrText(data: string, kb: KeybindingsManager): void {
		if (kb.matches(data, "tui.editor.cursorUp")) {
			const first = this.isOnFirstVisualLine();
			if (first && (this.isEditorEmpty() || this.historyIndex > -1 || this.state.cursorCol === 0)) {
				this.navigateHistory(-1);
			} else if (first) this.moveToLineStart();
			else this.moveCursor(-1, 0);
			return;
		}
		if (kb.matches(data, "tui.editor.cursorDown")) {
			const last = this.isOnLastVisualLine();
			if (this.historyIndex > -1 && last) this.navigateHistory(1);
			else if (last) this.moveToLineEnd();
			else this.moveCursor(1, 0);
			return;
		}
		if (kb.matches(data, "tui.editor.cursorRight")) {
			this.moveCursor(0, 1);
			return;
		}
		if (kb.matches(data, "tui.editor.cursorLeft")) {
			this.moveCursor(0, -1);
			return;
		}
		if (kb.matches(data, "tui.editor.pageUp")) {
			this.pageScroll(-1);
			return;
		}
		if (kb.matches(data, "tui.editor.pageDown")) {
			this.pageScroll(1);
			return;
		}
		if (kb.matches(data, "tui.editor.jumpForward")) {
			this.jumpMode = "forward";
			return;
		}
		if (kb.matches(data, "tui.editor.jumpBackward")) {
			this.jumpMode = "backward";
			return;
		}
		if (matchesKey(data, "shift+space")) {
			this.insertCharacter(" ");
			return;
		}
		const printable = decodePrintableKey(data);
		if (printable !== undefined) {
			this.insertCharacter(printable);
			return;
		}
		if (data.charCodeAt(0) >= 32) this.insertCharacter(data);
	}
}
