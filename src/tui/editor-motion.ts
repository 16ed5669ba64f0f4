/** Editor cursor motions (with a sticky column for vertical moves), deletions, the kill ring and character jumps. */
import { findVisualLine, isLastRowOfLine, isPasteMarker, pasteMarkerId, type VisualLine } from "./editor-layout.ts";
import { EditorText } from "./editor-text.ts";
import { findWordBackward, findWordForward } from "./text-edit.ts";

export abstract class EditorMotion extends EditorText {
	protected jumpMode: "forward" | "backward" | null = null;

	/** Hook: the cursor moved (an open autocomplete list refreshes). */
	protected abstract afterCursorMoved(): void;

	private firstSegment(text: string): string {
		for (const { segment } of this.segment(text)) return segment;
		return "";
	}

	private lastSegment(text: string): string {
		let last = "";
		for (const { segment } of this.segment(text)) last = segment;
		return last;
	}

	/** Join the current line onto the previous one (Backspace at column 0). */
	private joinWithPrevious(): void {
		const line = this.currentLine;
		const previous = this.state.lines[this.state.cursorLine - 1] || "";
		this.state.lines[this.state.cursorLine - 1] = previous + line;
		this.state.lines.splice(this.state.cursorLine, 1);
		this.state.cursorLine--;
		this.setCursorCol(previous.length);
	}

	private joinWithNext(): void {
		const next = this.state.lines[this.state.cursorLine + 1] || "";
		this.currentLine = this.currentLine + next;
		this.state.lines.splice(this.state.cursorLine + 1, 1);
	}

	protected handleBackspace(): void {
		this.exitHistoryBrowsing();
		this.lastAction = null;
		if (this.state.cursorCol > 0) {
			this.pushUndoSnapshot();
			const last = this.lastSegment(this.currentLine.slice(0, this.state.cursorCol));
			const length = last.length || 1;
			const id = pasteMarkerId(last);
			if (id !== undefined) this.removePaste(id);
			const line = this.currentLine;
			this.currentLine = line.slice(0, this.state.cursorCol - length) + line.slice(this.state.cursorCol);
			this.setCursorCol(this.state.cursorCol - length);
		} else if (this.state.cursorLine > 0) {
			this.pushUndoSnapshot();
			this.joinWithPrevious();
		}
		this.emitChange();
		this.afterDeletion();
	}

	protected handleForwardDelete(): void {
		this.exitHistoryBrowsing();
		this.lastAction = null;
		const line = this.currentLine;
		if (this.state.cursorCol < line.length) {
			this.pushUndoSnapshot();
			const length = this.firstSegment(line.slice(this.state.cursorCol)).length || 1;
			this.currentLine = line.slice(0, this.state.cursorCol) + line.slice(this.state.cursorCol + length);
		} else if (this.state.cursorLine < this.state.lines.length - 1) {
			this.pushUndoSnapshot();
			this.joinWithNext();
		}
		this.emitChange();
		this.afterDeletion();
	}

	/** Record killed text; consecutive kills join one kill-ring entry. */
	private kill(text: string, backward: boolean, accumulate = this.lastAction === "kill"): void {
		this.killRing.push(text, { prepend: backward, accumulate });
		this.lastAction = "kill";
	}

	protected deleteToStartOfLine(): void {
		this.exitHistoryBrowsing();
		const line = this.currentLine;
		if (this.state.cursorCol > 0) {
			this.pushUndoSnapshot();
			this.kill(line.slice(0, this.state.cursorCol), true);
			this.currentLine = line.slice(this.state.cursorCol);
			this.setCursorCol(0);
		} else if (this.state.cursorLine > 0) {
			this.pushUndoSnapshot();
			this.kill("\n", true);
			this.joinWithPrevious();
		}
		this.emitChange();
	}

	protected deleteToEndOfLine(): void {
		this.exitHistoryBrowsing();
		const line = this.currentLine;
		if (this.state.cursorCol < line.length) {
			this.pushUndoSnapshot();
			this.kill(line.slice(this.state.cursorCol), false);
			this.currentLine = line.slice(0, this.state.cursorCol);
		} else if (this.state.cursorLine < this.state.lines.length - 1) {
			this.pushUndoSnapshot();
			this.kill("\n", false);
			this.joinWithNext();
		}
		this.emitChange();
	}

	protected deleteWordBackwards(): void {
		this.exitHistoryBrowsing();
		const line = this.currentLine;
		if (this.state.cursorCol === 0) {
			if (this.state.cursorLine > 0) {
				this.pushUndoSnapshot();
				this.kill("\n", true);
				this.joinWithPrevious();
			}
		} else {
			this.pushUndoSnapshot();
			const wasKill = this.lastAction === "kill";
			const end = this.state.cursorCol;
			const from = this.wordStartBefore(line, end);
			this.kill(line.slice(from, end), true, wasKill);
			this.currentLine = line.slice(0, from) + line.slice(end);
			this.setCursorCol(from);
		}
		this.emitChange();
	}

	protected deleteWordForward(): void {
		this.exitHistoryBrowsing();
		const line = this.currentLine;
		if (this.state.cursorCol >= line.length) {
			if (this.state.cursorLine < this.state.lines.length - 1) {
				this.pushUndoSnapshot();
				this.kill("\n", false);
				this.joinWithNext();
			}
		} else {
			this.pushUndoSnapshot();
			const wasKill = this.lastAction === "kill";
			const start = this.state.cursorCol;
			const to = this.wordEndAfter(line, start);
			this.kill(line.slice(start, to), false, wasKill);
			this.currentLine = line.slice(0, start) + line.slice(to);
			this.setCursorCol(start);
		}
		this.emitChange();
	}

	private wordStartBefore(line: string, col: number): number {
		return findWordBackward(line, col, { segment: (t) => this.segment(t, "word"), isAtomicSegment: isPasteMarker });
	}

	private wordEndAfter(line: string, col: number): number {
		return findWordForward(line, col, { segment: (t) => this.segment(t, "word"), isAtomicSegment: isPasteMarker });
	}

	protected moveWordBackwards(): void {
		this.lastAction = null;
		if (this.state.cursorCol === 0) {
			if (this.state.cursorLine > 0) {
				this.state.cursorLine--;
				this.setCursorCol(this.currentLine.length);
			}
			return;
		}
		this.setCursorCol(this.wordStartBefore(this.currentLine, this.state.cursorCol));
	}

	protected moveWordForwards(): void {
		this.lastAction = null;
		if (this.state.cursorCol >= this.currentLine.length) {
			if (this.state.cursorLine < this.state.lines.length - 1) {
				this.state.cursorLine++;
				this.setCursorCol(0);
			}
			return;
		}
		this.setCursorCol(this.wordEndAfter(this.currentLine, this.state.cursorCol));
	}

	protected moveToLineStart(): void {
		this.lastAction = null;
		this.setCursorCol(0);
	}

	protected moveToLineEnd(): void {
		this.lastAction = null;
		this.setCursorCol(this.currentLine.length);
	}

	/** Move by rows (deltaLine) or graphemes (deltaCol); left/right cross line ends. */
	protected moveCursor(deltaLine: number, deltaCol: number): void {
		this.lastAction = null;
		const rows = this.visualLines();
		const current = this.currentVisualLine(rows);
		if (deltaLine !== 0) {
			const target = current + deltaLine;
			if (target >= 0 && target < rows.length) this.moveToVisualLine(rows, current, target);
		}
		const line = this.currentLine;
		if (deltaCol > 0) {
			if (this.state.cursorCol < line.length) {
				this.setCursorCol(this.state.cursorCol + (this.firstSegment(line.slice(this.state.cursorCol)).length || 1));
			} else if (this.state.cursorLine < this.state.lines.length - 1) {
				this.state.cursorLine++;
				this.setCursorCol(0);
			} else {
				const row = rows[current];
				if (row) this.preferredVisualCol = this.state.cursorCol - row.startCol;
			}
		} else if (deltaCol < 0) {
			if (this.state.cursorCol > 0) {
				this.setCursorCol(this.state.cursorCol - (this.lastSegment(line.slice(0, this.state.cursorCol)).length || 1));
			} else if (this.state.cursorLine > 0) {
				this.state.cursorLine--;
				this.setCursorCol(this.currentLine.length);
			}
		}
		this.afterCursorMoved();
	}

	protected pageSize(): number {
		return Math.max(5, Math.floor(this.tui.terminal.rows * 0.3));
	}

	protected pageScroll(direction: 1 | -1): void {
		this.lastAction = null;
		const rows = this.visualLines();
		const current = this.currentVisualLine(rows);
		const target = Math.max(0, Math.min(rows.length - 1, current + direction * this.pageSize()));
		this.moveToVisualLine(rows, current, target);
	}

	/** Put the cursor on row `target`, keeping the visual column where the rows allow; never inside a paste marker. */
	private moveToVisualLine(rows: VisualLine[], current: number, target: number): void {
		const from = rows[current];
		const to = rows[target];
		if (!(from && to)) return;
		let column: number;
		if (this.snappedFromCursorCol !== null) {
			const owner = rows[findVisualLine(rows, from.logicalLine, this.snappedFromCursorCol)] as VisualLine;
			column = this.snappedFromCursorCol - owner.startCol;
		} else {
			column = this.state.cursorCol - from.startCol;
		}
		const sourceMax = isLastRowOfLine(rows, current) ? from.length : Math.max(0, from.length - 1);
		const targetMax = isLastRowOfLine(rows, target) ? to.length : Math.max(0, to.length - 1);
		const moveTo = this.verticalMoveColumn(column, sourceMax, targetMax);
		this.state.cursorLine = to.logicalLine;
		const line = this.state.lines[to.logicalLine] || "";
		this.state.cursorCol = Math.min(to.startCol + moveTo, line.length);
		for (const seg of this.segment(line)) {
			if (seg.index > this.state.cursorCol) break;
			if (seg.segment.length <= 1 || this.state.cursorCol >= seg.index + seg.segment.length) continue;
			if (seg.index < to.startCol && target > current) {
				// Moving down into the rest of a marker already passed: skip to the first row after it.
				const end = seg.index + seg.segment.length;
				let next = target + 1;
				while (
					next < rows.length &&
					rows[next]?.logicalLine === to.logicalLine &&
					(rows[next] as VisualLine).startCol < end
				) {
					next++;
				}
				if (next < rows.length) {
					this.moveToVisualLine(rows, current, next);
					return;
				}
			}
			this.snappedFromCursorCol = this.state.cursorCol;
			this.state.cursorCol = seg.index;
			return;
		}
		this.snappedFromCursorCol = null;
	}

	/**
	 * The sticky column: when a shorter row clamps the cursor, the column it came from is remembered and restored on
	 * the first row long enough; moving from the middle of a row starts over from the current column.
	 */
	private verticalMoveColumn(current: number, sourceMax: number, targetMax: number): number {
		const preferred = this.preferredVisualCol;
		if (preferred === null || current < sourceMax) {
			if (targetMax < current) {
				this.preferredVisualCol = current;
				return targetMax;
			}
			this.preferredVisualCol = null;
			return current;
		}
		if (targetMax < current || targetMax < preferred) return targetMax;
		this.preferredVisualCol = null;
		return preferred;
	}

	protected yank(): void {
		const text = this.killRing.peek();
		if (text === undefined) return;
		this.pushUndoSnapshot();
		this.insertYankedText(text);
		this.lastAction = "yank";
	}

	/** Right after a yank, replace the yanked text with the next older kill. */
	protected yankPop(): void {
		if (this.lastAction !== "yank" || this.killRing.length <= 1) return;
		this.pushUndoSnapshot();
		this.deleteYankedText();
		this.killRing.rotate();
		this.insertYankedText(this.killRing.peek() ?? "");
		this.lastAction = "yank";
	}

	private insertYankedText(text: string): void {
		this.exitHistoryBrowsing();
		const parts = text.split("\n");
		const line = this.currentLine;
		const before = line.slice(0, this.state.cursorCol);
		const after = line.slice(this.state.cursorCol);
		if (parts.length === 1) {
			this.currentLine = before + text + after;
			this.setCursorCol(this.state.cursorCol + text.length);
		} else {
			const last = parts[parts.length - 1] || "";
			this.state.lines.splice(this.state.cursorLine, 1, before + (parts[0] || ""), ...parts.slice(1, -1), last + after);
			this.state.cursorLine += parts.length - 1;
			this.setCursorCol(last.length);
		}
		this.emitChange();
	}

	private deleteYankedText(): void {
		const yanked = this.killRing.peek();
		if (!yanked) return;
		const parts = yanked.split("\n");
		if (parts.length === 1) {
			const line = this.currentLine;
			this.currentLine = line.slice(0, this.state.cursorCol - yanked.length) + line.slice(this.state.cursorCol);
			this.setCursorCol(this.state.cursorCol - yanked.length);
		} else {
			const startLine = this.state.cursorLine - (parts.length - 1);
			const startCol = (this.state.lines[startLine] || "").length - (parts[0] || "").length;
			const after = this.currentLine.slice(this.state.cursorCol);
			const before = (this.state.lines[startLine] || "").slice(0, startCol);
			this.state.lines.splice(startLine, parts.length, before + after);
			this.state.cursorLine = startLine;
			this.setCursorCol(startCol);
		}
		this.emitChange();
	}

	/** Move to the next (or previous) occurrence of `char`, searching across lines; no match leaves the cursor. */
	protected jumpToChar(char: string, direction: "forward" | "backward"): void {
		this.lastAction = null;
		const forward = direction === "forward";
		const lines = this.state.lines;
		for (let i = this.state.cursorLine; forward ? i < lines.length : i >= 0; i += forward ? 1 : -1) {
			const line = lines[i] || "";
			const here = i === this.state.cursorLine;
			let idx: number;
			if (forward) idx = line.indexOf(char, here ? this.state.cursorCol + 1 : undefined);
			else idx = here ? line.lastIndexOf(char, this.state.cursorCol - 1) : line.lastIndexOf(char);
			if (idx !== -1) {
				this.state.cursorLine = i;
				this.setCursorCol(idx);
				return;
			}
		}
	}
}
