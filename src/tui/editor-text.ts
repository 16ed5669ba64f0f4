/**
 * The Editor's text model: lines and cursor, large pastes folded into markers, prompt history, undo, and the
 * insertion operations. Subclasses add motions and deletions (editor-motion.ts), autocomplete
 * (editor-completion.ts) and rendering/keys (editor.ts).
 */
import {
	buildVisualLines,
	findVisualLine,
	PASTE_MARKER_PATTERN,
	segmentWithMarkers,
	type VisualLine,
} from "./editor-layout.ts";
import {
	decodePastedControls,
	graphemeSegmenter,
	isWhitespaceChar,
	KillRing,
	UndoStack,
	wordSegmenter,
} from "./text-edit.ts";
import type { TUI } from "./types.ts";

export interface EditorState {
	lines: string[];
	cursorLine: number;
	cursorCol: number;
}

interface UndoSnapshot {
	state: EditorState;
	pastes: Map<number, string>;
	pasteCounter: number;
}

const HISTORY_LIMIT = 100;
/** A paste with more lines or characters than this is folded into a marker. */
const LARGE_PASTE_LINES = 10;
const LARGE_PASTE_CHARS = 1000;

export abstract class EditorText {
	protected state: EditorState = { lines: [""], cursorLine: 0, cursorCol: 0 };
	protected tui: TUI;
	/** Width the text was last wrapped at; vertical motion follows it. */
	protected lastWidth = 80;
	protected scrollOffset = 0;
	protected pastes = new Map<number, string>();
	protected pasteCounter = 0;
	protected history: string[] = [];
	/** -1 while not browsing; 0 is the newest entry. */
	protected historyIndex = -1;
	protected historyDraft: EditorState | null = null;
	protected killRing = new KillRing();
	protected lastAction: "kill" | "yank" | "type-word" | null = null;
	/** Column vertical motion tries to return to after passing shorter rows. */
	protected preferredVisualCol: number | null = null;
	/** Where the cursor was before it snapped to the start of a paste marker. */
	protected snappedFromCursorCol: number | null = null;
	protected undoStack = new UndoStack<UndoSnapshot>();
	onSubmit?: (text: string) => void;
	onChange?: (text: string) => void;

	constructor(tui: TUI) {
		this.tui = tui;
	}

	/** Hook: a character was typed. */
	protected abstract afterCharacterTyped(char: string): void;
	/** Hook: text was deleted at the cursor (autocomplete refreshes). */
	protected abstract afterDeletion(): void;
	protected abstract cancelAutocomplete(): void;

	protected emitChange(): void {
		this.onChange?.(this.getText());
	}

	protected segment(text: string, mode: "grapheme" | "word" = "grapheme"): Iterable<Intl.SegmentData> {
		return segmentWithMarkers(text, mode === "word" ? wordSegmenter : graphemeSegmenter, new Set(this.pastes.keys()));
	}

	protected get currentLine(): string {
		return this.state.lines[this.state.cursorLine] || "";
	}

	protected set currentLine(text: string) {
		this.state.lines[this.state.cursorLine] = text;
	}

	/** Remember a submitted prompt for Up/Down recall (consecutive duplicates and blanks are skipped). */
	addToHistory(text: string): void {
		const trimmed = text.trim();
		if (!trimmed || this.history[0] === trimmed) return;
		this.history.unshift(trimmed);
		if (this.history.length > HISTORY_LIMIT) this.history.pop();
	}

	protected isEditorEmpty(): boolean {
		return this.state.lines.length === 1 && this.state.lines[0] === "";
	}

	protected visualLines(): VisualLine[] {
		return buildVisualLines(this.state.lines, this.lastWidth, (text) => this.segment(text));
	}

	protected currentVisualLine(rows: VisualLine[]): number {
		return findVisualLine(rows, this.state.cursorLine, this.state.cursorCol);
	}

	protected isOnFirstVisualLine(): boolean {
		return this.currentVisualLine(this.visualLines()) === 0;
	}

	protected isOnLastVisualLine(): boolean {
		const rows = this.visualLines();
		return this.currentVisualLine(rows) === rows.length - 1;
	}

	/** Up (-1) goes to older entries, Down (1) to newer ones and finally back to the draft. */
	protected navigateHistory(direction: 1 | -1): void {
		this.lastAction = null;
		if (this.history.length === 0) return;
		const next = this.historyIndex - direction;
		if (next < -1 || next >= this.history.length) return;
		if (this.historyIndex === -1 && next >= 0) {
			this.pushUndoSnapshot();
			this.historyDraft = structuredClone(this.state);
		}
		this.historyIndex = next;
		if (next >= 0) {
			this.setTextInternal(this.history[next] || "", direction === -1 ? "start" : "end");
			return;
		}
		const draft = this.historyDraft;
		this.historyDraft = null;
		if (!draft) {
			this.setTextInternal("");
			return;
		}
		this.state = draft;
		this.preferredVisualCol = null;
		this.snappedFromCursorCol = null;
		this.scrollOffset = 0;
		this.emitChange();
	}

	protected exitHistoryBrowsing(): void {
		this.historyIndex = -1;
		this.historyDraft = null;
	}

	protected setTextInternal(text: string, placement: "start" | "end" = "end"): void {
		this.state.lines = text.split("\n");
		this.state.cursorLine = placement === "start" ? 0 : this.state.lines.length - 1;
		this.setCursorCol(placement === "start" ? 0 : this.currentLine.length);
		this.scrollOffset = 0;
		this.emitChange();
	}

	getText(): string {
		return this.state.lines.join("\n");
	}

	protected expandPasteMarkers(text: string): string {
		let out = text;
		for (const [id, content] of this.pastes) {
			out = out.replace(new RegExp(`\\[paste #${id}( (\\+\\d+ lines|\\d+ chars))?\\]`, "g"), () => content);
		}
		return out;
	}

	/** The text with every paste marker replaced by what was pasted. */
	getExpandedText(): string {
		return this.expandPasteMarkers(this.getText());
	}

	getLines(): string[] {
		return [...this.state.lines];
	}

	getCursor(): { line: number; col: number } {
		return { line: this.state.cursorLine, col: this.state.cursorCol };
	}

	/** Replace the text (undoable when it differs); the cursor goes to the end. */
	setText(text: string): void {
		this.cancelAutocomplete();
		this.lastAction = null;
		this.exitHistoryBrowsing();
		const normalized = normalizeText(text);
		if (this.getText() !== normalized) this.pushUndoSnapshot();
		this.pastes.clear();
		this.pasteCounter = 0;
		this.setTextInternal(normalized);
	}

	/** Insert at the cursor as one undo step. */
	insertTextAtCursor(text: string): void {
		if (!text) return;
		this.cancelAutocomplete();
		this.pushUndoSnapshot();
		this.lastAction = null;
		this.exitHistoryBrowsing();
		this.insertTextAtCursorInternal(text);
	}

	protected insertTextAtCursorInternal(text: string): void {
		if (!text) return;
		const normalized = normalizeText(text);
		const parts = normalized.split("\n");
		const line = this.currentLine;
		const before = line.slice(0, this.state.cursorCol);
		const after = line.slice(this.state.cursorCol);
		if (parts.length === 1) {
			this.currentLine = before + normalized + after;
			this.setCursorCol(this.state.cursorCol + normalized.length);
		} else {
			const last = parts[parts.length - 1] || "";
			this.state.lines.splice(this.state.cursorLine, 1, before + parts[0], ...parts.slice(1, -1), last + after);
			this.state.cursorLine += parts.length - 1;
			this.setCursorCol(last.length);
		}
		this.emitChange();
	}

	/**
	 * Type one character. A run of word characters is one undo step; whitespace starts a new one (so undo removes a
	 * space together with the word typed after it).
	 */
	protected insertCharacter(char: string, skipUndoCoalescing = false): void {
		this.exitHistoryBrowsing();
		if (!skipUndoCoalescing) {
			if (isWhitespaceChar(char) || this.lastAction !== "type-word") this.pushUndoSnapshot();
			this.lastAction = "type-word";
		}
		const line = this.currentLine;
		this.currentLine = line.slice(0, this.state.cursorCol) + char + line.slice(this.state.cursorCol);
		this.setCursorCol(this.state.cursorCol + char.length);
		this.emitChange();
		this.afterCharacterTyped(char);
	}

	/** Insert pasted text; more than 10 lines or 1000 characters become a `[paste #N …]` marker. */
	protected handlePaste(pasted: string): void {
		this.cancelAutocomplete();
		this.exitHistoryBrowsing();
		this.lastAction = null;
		this.pushUndoSnapshot();
		let text = [...normalizeText(decodePastedControls(pasted))]
			.filter((ch) => ch === "\n" || ch.charCodeAt(0) >= 32)
			.join("");
		// A pasted path right after a word gets a separating space.
		if (/^[/~.]/.test(text)) {
			const before = this.state.cursorCol > 0 ? this.currentLine[this.state.cursorCol - 1] : "";
			if (before && /\w/.test(before)) text = ` ${text}`;
		}
		const lineCount = text.split("\n").length;
		if (lineCount > LARGE_PASTE_LINES || text.length > LARGE_PASTE_CHARS) {
			const id = ++this.pasteCounter;
			this.pastes.set(id, text);
			const marker =
				lineCount > LARGE_PASTE_LINES ? `[paste #${id} +${lineCount} lines]` : `[paste #${id} ${text.length} chars]`;
			this.insertTextAtCursorInternal(marker);
			return;
		}
		this.insertTextAtCursorInternal(text);
	}

	protected addNewLine(): void {
		this.cancelAutocomplete();
		this.exitHistoryBrowsing();
		this.lastAction = null;
		this.pushUndoSnapshot();
		const line = this.currentLine;
		this.currentLine = line.slice(0, this.state.cursorCol);
		this.state.lines.splice(this.state.cursorLine + 1, 0, line.slice(this.state.cursorCol));
		this.state.cursorLine++;
		this.setCursorCol(0);
		this.emitChange();
	}

	/** Clear the editor and hand the text (paste markers expanded, trimmed) to onSubmit. */
	protected submitValue(): void {
		this.cancelAutocomplete();
		const result = this.getExpandedText().trim();
		this.state = { lines: [""], cursorLine: 0, cursorCol: 0 };
		this.pastes.clear();
		this.pasteCounter = 0;
		this.exitHistoryBrowsing();
		this.scrollOffset = 0;
		this.undoStack.clear();
		this.lastAction = null;
		this.onChange?.("");
		this.onSubmit?.(result);
	}

	/** Forget a deleted paste marker: later markers and their stored text move down one number. */
	protected removePaste(id: number): void {
		this.pastes.delete(id);
		this.pasteCounter--;
		const higher = [...this.pastes.keys()].filter((k) => k > id).sort((a, b) => a - b);
		for (const k of higher) {
			this.pastes.set(k - 1, this.pastes.get(k) as string);
			this.pastes.delete(k);
		}
		this.state.lines = this.state.lines.map((line) =>
			line.replace(PASTE_MARKER_PATTERN, (whole, n: string, suffix: string | undefined) =>
				Number(n) <= id ? whole : `[paste #${Number(n) - 1}${suffix ?? ""}]`,
			),
		);
	}

	/** Set the column for any non-vertical motion (forgets the sticky column). */
	protected setCursorCol(col: number): void {
		this.state.cursorCol = col;
		this.preferredVisualCol = null;
		this.snappedFromCursorCol = null;
	}

	protected pushUndoSnapshot(): void {
		this.undoStack.push({ state: this.state, pastes: this.pastes, pasteCounter: this.pasteCounter });
	}

	protected undo(): void {
		this.exitHistoryBrowsing();
		const snapshot = this.undoStack.pop();
		if (!snapshot) return;
		Object.assign(this.state, snapshot.state);
		this.pastes = snapshot.pastes;
		this.pasteCounter = snapshot.pasteCounter;
		this.lastAction = null;
		this.preferredVisualCol = null;
		this.emitChange();
	}
}

/** Line endings become \n and tabs four spaces. */
export function normalizeText(text: string): string {
	return text.replace(/\r\n/g, "\n").replace(/\r/g, "\n").replace(/\t/g, "    ");
}
