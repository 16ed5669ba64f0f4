/** The Editor's multi-line text buffer: lines, a cursor, readline-style edits, a kill buffer and undo. */
import type { EditorBuffer } from "./autocomplete.ts";
import { nextBoundary, previousBoundary, wordEndAfter, wordStartBefore } from "./text-edit.ts";

const UNDO_LIMIT = 200;

/** Line endings become \n and tabs four spaces, so columns are predictable. */
export function normalizeEditorText(text: string): string {
	return text.replace(/\r\n?/g, "\n").replace(/\t/g, "    ");
}

export class TextBuffer {
	lines: string[] = [""];
	/** Cursor line index. */
	line = 0;
	/** Cursor column as a string offset into the line, on a grapheme boundary. */
	col = 0;
	private undoStack: EditorBuffer[] = [];
	private killed = "";

	get current(): string {
		return this.lines[this.line] ?? "";
	}

	private set current(text: string) {
		this.lines[this.line] = text;
	}

	getText(): string {
		return this.lines.join("\n");
	}

	isEmpty(): boolean {
		return this.lines.length === 1 && this.lines[0] === "";
	}

	snapshot(): EditorBuffer {
		return { lines: [...this.lines], cursorLine: this.line, cursorCol: this.col };
	}

	restore(buffer: EditorBuffer): void {
		this.lines = buffer.lines.length > 0 ? [...buffer.lines] : [""];
		this.line = Math.max(0, Math.min(buffer.cursorLine, this.lines.length - 1));
		this.col = Math.max(0, Math.min(buffer.cursorCol, this.current.length));
	}

	/** Replace everything; the cursor goes to the end. */
	setText(text: string): void {
		this.lines = normalizeEditorText(text).split("\n");
		this.line = this.lines.length - 1;
		this.col = this.current.length;
	}

	pushUndo(): void {
		const last = this.undoStack[this.undoStack.length - 1];
		const now = this.snapshot();
		if (last && last.lines.join("\n") === now.lines.join("\n") && last.cursorCol === now.cursorCol) return;
		this.undoStack.push(now);
		if (this.undoStack.length > UNDO_LIMIT) this.undoStack.shift();
	}

	undo(): boolean {
		const snapshot = this.undoStack.pop();
		if (!snapshot) return false;
		this.restore(snapshot);
		return true;
	}

	/** Insert text (possibly several lines) at the cursor. */
	insert(text: string): void {
		const parts = normalizeEditorText(text).split("\n");
		const before = this.current.slice(0, this.col);
		const after = this.current.slice(this.col);
		const first = parts[0] ?? "";
		if (parts.length === 1) {
			this.current = before + first + after;
			this.col += first.length;
			return;
		}
		const last = parts[parts.length - 1] ?? "";
		const middle = parts.slice(1, -1);
		this.lines.splice(this.line, 1, before + first, ...middle, last + after);
		this.line += parts.length - 1;
		this.col = last.length;
	}

	newline(): void {
		this.insert("\n");
	}

	backspace(): void {
		if (this.col > 0) {
			const from = previousBoundary(this.current, this.col);
			this.current = this.current.slice(0, from) + this.current.slice(this.col);
			this.col = from;
		} else if (this.line > 0) {
			const text = this.current;
			this.lines.splice(this.line, 1);
			this.line--;
			this.col = this.current.length;
			this.current += text;
		}
	}

	deleteForward(): void {
		if (this.col < this.current.length) {
			const to = nextBoundary(this.current, this.col);
			this.current = this.current.slice(0, this.col) + this.current.slice(to);
		} else if (this.line < this.lines.length - 1) {
			const next = this.lines[this.line + 1] ?? "";
			this.lines.splice(this.line + 1, 1);
			this.current += next;
		}
	}

	moveLeft(): void {
		if (this.col > 0) this.col = previousBoundary(this.current, this.col);
		else if (this.line > 0) {
			this.line--;
			this.col = this.current.length;
		}
	}

	moveRight(): void {
		if (this.col < this.current.length) this.col = nextBoundary(this.current, this.col);
		else if (this.line < this.lines.length - 1) {
			this.line++;
			this.col = 0;
		}
	}

	lineStart(): void {
		this.col = 0;
	}

	lineEnd(): void {
		this.col = this.current.length;
	}

	wordLeft(): void {
		if (this.col === 0) this.moveLeft();
		else this.col = wordStartBefore(this.current, this.col);
	}

	wordRight(): void {
		if (this.col === this.current.length) this.moveRight();
		else this.col = wordEndAfter(this.current, this.col);
	}

	/** Delete `[from, to)` of the current line into the kill buffer. */
	private kill(from: number, to: number): void {
		if (to <= from) return;
		this.killed = this.current.slice(from, to);
		this.current = this.current.slice(0, from) + this.current.slice(to);
		this.col = from;
	}

	deleteWordBackward(): void {
		if (this.col === 0) this.backspace();
		else this.kill(wordStartBefore(this.current, this.col), this.col);
	}

	deleteWordForward(): void {
		if (this.col === this.current.length) this.deleteForward();
		else this.kill(this.col, wordEndAfter(this.current, this.col));
	}

	deleteToLineStart(): void {
		if (this.col === 0) this.backspace();
		else this.kill(0, this.col);
	}

	deleteToLineEnd(): void {
		if (this.col === this.current.length) this.deleteForward();
		else this.kill(this.col, this.current.length);
	}

	yank(): void {
		if (this.killed) this.insert(this.killed);
	}
}
