/** Input: a single-line text field with readline-style editing and horizontal scrolling. */
import { decodePrintableKey, matchesKey } from "./keys.ts";
import {
	cursorCell,
	graphemeAt,
	nextBoundary,
	PasteCollector,
	previousBoundary,
	wordEndAfter,
	wordStartBefore,
} from "./text-edit.ts";
import { type Component, CURSOR_MARKER, type Focusable } from "./types.ts";
import { padToWidth, sliceByColumn, truncateToWidth, visibleWidth } from "./width.ts";

export interface InputOptions {
	prompt?: string;
	placeholder?: string;
	placeholderStyle?: (text: string) => string;
}

interface Snapshot {
	value: string;
	cursor: number;
}

const UNDO_LIMIT = 100;

export class Input implements Component, Focusable {
	private value = "";
	/** String offset of the cursor, always on a grapheme boundary. */
	private cursor = 0;
	private readonly prompt: string;
	private readonly placeholder: string;
	private readonly placeholderStyle: (text: string) => string;
	/** First visible column of the value, kept so the view scrolls only when the cursor leaves it. */
	private renderedStartColumn = 0;
	private readonly paste = new PasteCollector();
	private killed = "";
	private undoStack: Snapshot[] = [];
	onSubmit?: (value: string) => void;
	onEscape?: () => void;
	focused = false;

	constructor(options: InputOptions = {}) {
		this.prompt = options.prompt ?? "> ";
		this.placeholder = options.placeholder ?? "";
		this.placeholderStyle = options.placeholderStyle ?? ((text) => `\x1b[2m${text}\x1b[22m`);
	}

	getValue(): string {
		return this.value;
	}

	setValue(value: string): void {
		this.value = value.replace(/[\r\n]+/g, " ");
		this.cursor = this.value.length;
	}

	/** Cursor position as a string offset (for tests and wrappers). */
	getCursor(): number {
		return this.cursor;
	}

	handleInput(data: string): void {
		const fed = this.paste.feed(data);
		if (fed === null) return;
		if ("paste" in fed) {
			this.insert(fed.paste.replace(/\n+/g, " "));
			if (fed.rest) this.handleInput(fed.rest);
			return;
		}
		this.handleKey(fed.input);
	}

	private handleKey(data: string): void {
		if (matchesKey(data, "enter")) {
			this.onSubmit?.(this.value);
		} else if (matchesKey(data, "escape")) {
			this.onEscape?.();
		} else if (matchesKey(data, "left") || matchesKey(data, "ctrl+b")) {
			this.cursor = previousBoundary(this.value, this.cursor);
		} else if (matchesKey(data, "right") || matchesKey(data, "ctrl+f")) {
			this.cursor = nextBoundary(this.value, this.cursor);
		} else if (matchesKey(data, "home") || matchesKey(data, "ctrl+a")) {
			this.cursor = 0;
		} else if (matchesKey(data, "end") || matchesKey(data, "ctrl+e")) {
			this.cursor = this.value.length;
		} else if (matchesKey(data, "ctrl+left") || matchesKey(data, "alt+left") || matchesKey(data, "alt+b")) {
			this.cursor = wordStartBefore(this.value, this.cursor);
		} else if (matchesKey(data, "ctrl+right") || matchesKey(data, "alt+right") || matchesKey(data, "alt+f")) {
			this.cursor = wordEndAfter(this.value, this.cursor);
		} else if (matchesKey(data, "backspace")) {
			this.deleteRange(previousBoundary(this.value, this.cursor), this.cursor, false);
		} else if (matchesKey(data, "delete") || matchesKey(data, "ctrl+d")) {
			this.deleteRange(this.cursor, nextBoundary(this.value, this.cursor), false);
		} else if (matchesKey(data, "ctrl+w") || matchesKey(data, "alt+backspace")) {
			this.deleteRange(wordStartBefore(this.value, this.cursor), this.cursor, true);
		} else if (matchesKey(data, "alt+d") || matchesKey(data, "alt+delete")) {
			this.deleteRange(this.cursor, wordEndAfter(this.value, this.cursor), true);
		} else if (matchesKey(data, "ctrl+u")) {
			this.deleteRange(0, this.cursor, true);
		} else if (matchesKey(data, "ctrl+k")) {
			this.deleteRange(this.cursor, this.value.length, true);
		} else if (matchesKey(data, "ctrl+y")) {
			if (this.killed) this.insert(this.killed);
		} else if (matchesKey(data, "ctrl+-")) {
			this.undo();
		} else {
			const text = decodePrintableKey(data);
			if (text !== undefined) this.insert(text);
		}
	}

	private pushUndo(): void {
		this.undoStack.push({ value: this.value, cursor: this.cursor });
		if (this.undoStack.length > UNDO_LIMIT) this.undoStack.shift();
	}

	private undo(): void {
		const snapshot = this.undoStack.pop();
		if (!snapshot) return;
		this.value = snapshot.value;
		this.cursor = snapshot.cursor;
	}

	private insert(text: string): void {
		if (!text) return;
		this.pushUndo();
		this.value = this.value.slice(0, this.cursor) + text + this.value.slice(this.cursor);
		this.cursor += text.length;
	}

	private deleteRange(from: number, to: number, kill: boolean): void {
		if (to <= from) return;
		this.pushUndo();
		if (kill) this.killed = this.value.slice(from, to);
		this.value = this.value.slice(0, from) + this.value.slice(to);
		this.cursor = from;
	}

	invalidate(): void {
		// Rendering is computed from state on every call.
	}

	render(width: number): string[] {
		const promptText = truncateToWidth(this.prompt, Math.max(0, width - 1), "");
		const available = Math.max(1, width - visibleWidth(promptText));
		const marker = this.focused ? CURSOR_MARKER : "";
		if (this.value === "" && this.placeholder) {
			const hint = truncateToWidth(this.placeholder, Math.max(0, available - 1), "");
			return [promptText + marker + cursorCell("") + (hint ? this.placeholderStyle(hint) : "")];
		}
		const cursorCol = visibleWidth(this.value.slice(0, this.cursor));
		const under = graphemeAt(this.value, this.cursor);
		const underWidth = Math.max(1, visibleWidth(under));
		// Scroll so the cursor cell is inside [start, start + available).
		if (cursorCol < this.renderedStartColumn) this.renderedStartColumn = cursorCol;
		if (cursorCol + underWidth > this.renderedStartColumn + available) {
			this.renderedStartColumn = cursorCol + underWidth - available;
		}
		const start = Math.max(0, this.renderedStartColumn);
		const before = sliceByColumn(this.value, start, cursorCol - start, true);
		const afterStart = cursorCol + (under ? underWidth : 0);
		const afterWidth = Math.max(0, available - (cursorCol - start) - underWidth);
		const after = under ? sliceByColumn(this.value, afterStart, afterWidth, true) : "";
		const line = promptText + before + marker + cursorCell(under) + after;
		return [padToWidth(line, Math.min(width, visibleWidth(promptText) + available))];
	}
}
