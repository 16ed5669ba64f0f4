/** Input: a single-line text field with readline-style editing, kill ring, undo and horizontal scrolling. */
import { getKeybindings } from "./keybindings.ts";
import { decodeKittyPrintable } from "./keys.ts";
import {
	findWordBackward,
	findWordForward,
	firstGraphemeLength,
	graphemeSegmenter,
	isWhitespaceChar,
	KillRing,
	lastGraphemeLength,
	PasteCollector,
	UndoStack,
} from "./text-edit.ts";
import {
	type Component,
	CURSOR_MARKER,
	type Focusable,
	type TuiMouseEvent,
	type TuiMouseEventResult,
} from "./types.ts";
import { sliceByColumn, truncateToWidth, visibleWidth } from "./width.ts";

export interface InputOptions {
	prompt?: string;
	placeholder?: string;
	placeholderStyle?: (text: string) => string;
}

function firstGrapheme(text: string): string | undefined {
	for (const { segment } of graphemeSegmenter.segment(text)) return segment;
	return undefined;
}

export class Input implements Component, Focusable {
	private value = "";
	/** String offset of the cursor. */
	private cursor = 0;
	private readonly prompt: string;
	private readonly placeholder: string;
	private readonly placeholderStyle: (text: string) => string;
	/** First value column shown by the last render (for mouse clicks). */
	private renderedStartColumn = 0;
	onSubmit?: (value: string) => void;
	onEscape?: () => void;
	focused = false;
	private readonly paste = new PasteCollector();
	private killRing = new KillRing();
	private lastAction: "kill" | "yank" | "type-word" | null = null;
	private undoStack = new UndoStack<{ value: string; cursor: number }>();

	constructor(options: InputOptions = {}) {
		this.prompt = options.prompt ?? "> ";
		this.placeholder = options.placeholder ?? "";
		this.placeholderStyle = options.placeholderStyle ?? ((text) => text);
	}

	getValue(): string {
		return this.value;
	}

	setValue(value: string): void {
		this.value = value;
		this.cursor = Math.min(this.cursor, value.length);
	}

	handleInput(data: string): void {
		const fed = this.paste.feed(data);
		if (fed === null) return;
		if ("paste" in fed) {
			this.handlePaste(fed.paste);
			if (fed.rest) this.handleInput(fed.rest);
			return;
		}
		this.handleKey(fed.input);
	}

	private handleKey(data: string): void {
		const kb = getKeybindings();
		if (kb.matches(data, "tui.select.cancel")) {
			this.onEscape?.();
			return;
		}
		if (kb.matches(data, "tui.editor.undo")) {
			this.undo();
			return;
		}
		if (kb.matches(data, "tui.input.submit") || data === "\n") {
			this.onSubmit?.(this.value);
			return;
		}
		const actions: [string, () => void][] = [
			["tui.editor.deleteCharBackward", () => this.handleBackspace()],
			["tui.editor.deleteCharForward", () => this.handleForwardDelete()],
			["tui.editor.deleteWordBackward", () => this.deleteWordBackwards()],
			["tui.editor.deleteWordForward", () => this.deleteWordForward()],
			["tui.editor.deleteToLineStart", () => this.deleteToLineStart()],
			["tui.editor.deleteToLineEnd", () => this.deleteToLineEnd()],
			["tui.editor.yank", () => this.yank()],
			["tui.editor.yankPop", () => this.yankPop()],
			[
				"tui.editor.cursorLeft",
				() => this.moveTo(this.cursor - (this.cursor > 0 ? lastGraphemeLength(this.value.slice(0, this.cursor)) : 0)),
			],
			[
				"tui.editor.cursorRight",
				() =>
					this.moveTo(
						this.cursor + (this.cursor < this.value.length ? firstGraphemeLength(this.value.slice(this.cursor)) : 0),
					),
			],
			["tui.editor.cursorLineStart", () => this.moveTo(0)],
			["tui.editor.cursorLineEnd", () => this.moveTo(this.value.length)],
			["tui.editor.cursorWordLeft", () => this.moveWordBackwards()],
			["tui.editor.cursorWordRight", () => this.moveWordForwards()],
		];
		for (const [id, run] of actions) {
			if (kb.matches(data, id)) {
				run();
				return;
			}
		}
		const kitty = decodeKittyPrintable(data);
		if (kitty !== undefined) {
			this.insertCharacter(kitty);
			return;
		}
		const control = [...data].some((ch) => {
			const code = ch.charCodeAt(0);
			return code < 32 || code === 0x7f || (code >= 0x80 && code <= 0x9f);
		});
		if (!control) this.insertCharacter(data);
	}

	private moveTo(cursor: number): void {
		this.lastAction = null;
		this.cursor = cursor;
	}

	/** A click on the field moves the cursor to the clicked column. */
	handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
		if (event.type !== "press" || event.button !== "left" || event.y !== 0) return undefined;
		const target = this.renderedStartColumn + Math.max(0, event.x - 2);
		let column = 0;
		this.cursor = this.value.length;
		for (const g of graphemeSegmenter.segment(this.value)) {
			const next = column + visibleWidth(g.segment);
			if (target < next) {
				this.cursor = g.index;
				break;
			}
			column = next;
		}
		this.lastAction = null;
		return { handled: true, focus: true };
	}

	private splice(from: number, to: number, text = ""): void {
		this.value = this.value.slice(0, from) + text + this.value.slice(to);
	}

	private insertCharacter(char: string): void {
		if (isWhitespaceChar(char) || this.lastAction !== "type-word") this.pushUndo();
		this.lastAction = "type-word";
		this.splice(this.cursor, this.cursor, char);
		this.cursor += char.length;
	}

	private handleBackspace(): void {
		this.lastAction = null;
		if (this.cursor === 0) return;
		this.pushUndo();
		const length = lastGraphemeLength(this.value.slice(0, this.cursor));
		this.splice(this.cursor - length, this.cursor);
		this.cursor -= length;
	}

	private handleForwardDelete(): void {
		this.lastAction = null;
		if (this.cursor >= this.value.length) return;
		this.pushUndo();
		this.splice(this.cursor, this.cursor + firstGraphemeLength(this.value.slice(this.cursor)));
	}

	private kill(text: string, backward: boolean, accumulate: boolean): void {
		this.killRing.push(text, { prepend: backward, accumulate });
		this.lastAction = "kill";
	}

	private deleteToLineStart(): void {
		if (this.cursor === 0) return;
		this.pushUndo();
		this.kill(this.value.slice(0, this.cursor), true, this.lastAction === "kill");
		this.splice(0, this.cursor);
		this.cursor = 0;
	}

	private deleteToLineEnd(): void {
		if (this.cursor >= this.value.length) return;
		this.pushUndo();
		this.kill(this.value.slice(this.cursor), false, this.lastAction === "kill");
		this.splice(this.cursor, this.value.length);
	}

	private deleteWordBackwards(): void {
		if (this.cursor === 0) return;
		const wasKill = this.lastAction === "kill";
		this.pushUndo();
		const from = findWordBackward(this.value, this.cursor);
		this.kill(this.value.slice(from, this.cursor), true, wasKill);
		this.splice(from, this.cursor);
		this.cursor = from;
	}

	private deleteWordForward(): void {
		if (this.cursor >= this.value.length) return;
		const wasKill = this.lastAction === "kill";
		this.pushUndo();
		const to = findWordForward(this.value, this.cursor);
		this.kill(this.value.slice(this.cursor, to), false, wasKill);
		this.splice(this.cursor, to);
	}

	private yank(): void {
		const text = this.killRing.peek();
		if (!text) return;
		this.pushUndo();
		this.splice(this.cursor, this.cursor, text);
		this.cursor += text.length;
		this.lastAction = "yank";
	}

	private yankPop(): void {
		if (this.lastAction !== "yank" || this.killRing.length <= 1) return;
		this.pushUndo();
		const previous = this.killRing.peek() || "";
		this.splice(this.cursor - previous.length, this.cursor);
		this.cursor -= previous.length;
		this.killRing.rotate();
		const text = this.killRing.peek() || "";
		this.splice(this.cursor, this.cursor, text);
		this.cursor += text.length;
		this.lastAction = "yank";
	}

	private pushUndo(): void {
		this.undoStack.push({ value: this.value, cursor: this.cursor });
	}

	private undo(): void {
		const snapshot = this.undoStack.pop();
		if (!snapshot) return;
		this.value = snapshot.value;
		this.cursor = snapshot.cursor;
		this.lastAction = null;
	}

	private moveWordBackwards(): void {
		if (this.cursor === 0) return;
		this.moveTo(findWordBackward(this.value, this.cursor));
	}

	private moveWordForwards(): void {
		if (this.cursor >= this.value.length) return;
		this.moveTo(findWordForward(this.value, this.cursor));
	}

	/** Pasted text loses its line breaks (one line field); tabs become four spaces. */
	private handlePaste(pasted: string): void {
		this.lastAction = null;
		this.pushUndo();
		const clean = pasted.replace(/\r\n|\r|\n/g, "").replace(/\t/g, "    ");
		this.splice(this.cursor, this.cursor, clean);
		this.cursor += clean.length;
	}

	invalidate(): void {
		// Nothing is cached between renders.
	}

	render(width: number): string[] {
		const available = width - visibleWidth(this.prompt);
		if (available <= 0) return [truncateToWidth(this.prompt, width, "")];
		const marker = this.focused ? CURSOR_MARKER : "";
		if (this.value.length === 0 && this.placeholder) {
			const shown = truncateToWidth(this.placeholder, available, "");
			const at = firstGrapheme(shown) ?? " ";
			const text = `${marker}\x1b[7m${this.placeholderStyle(at)}\x1b[27m${this.placeholderStyle(shown.slice(at.length))}`;
			return [this.prompt + text + " ".repeat(Math.max(0, available - visibleWidth(text)))];
		}
		let visible = this.value;
		let cursorAt = this.cursor;
		this.renderedStartColumn = 0;
		const total = visibleWidth(this.value);
		if (total >= available) {
			// Scroll so the cursor stays visible, centred when it is away from both ends.
			const scrollWidth = this.cursor === this.value.length ? available - 1 : available;
			const cursorCol = visibleWidth(this.value.slice(0, this.cursor));
			if (scrollWidth > 0) {
				const half = Math.floor(scrollWidth / 2);
				let start = 0;
				if (cursorCol < half) start = 0;
				else if (cursorCol > total - half) start = Math.max(0, total - scrollWidth);
				else start = Math.max(0, cursorCol - half);
				this.renderedStartColumn = start;
				visible = sliceByColumn(this.value, start, scrollWidth, true);
				cursorAt = sliceByColumn(this.value, start, Math.max(0, cursorCol - start), true).length;
			} else {
				visible = "";
				cursorAt = 0;
			}
		}
		const at = firstGrapheme(visible.slice(cursorAt)) ?? " ";
		const text = `${visible.slice(0, cursorAt)}${marker}\x1b[7m${at}\x1b[27m${visible.slice(cursorAt + at.length)}`;
		return [this.prompt + text + " ".repeat(Math.max(0, available - visibleWidth(text)))];
	}
}
