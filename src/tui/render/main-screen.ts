/**
 * Regular mode: the UI is drawn into the terminal's main screen, below the shell prompt, and finished lines scroll
 * into the terminal's own scrollback. Each frame rewrites only the visible lines that changed.
 *
 * Rows are counted from the first line of our output ("buffer rows"). `maxRow` is the lowest row the cursor has
 * reached; it is on screen, so every row from `maxRow - rows + 1` down is visible and can be rewritten. Rows above
 * that have scrolled away: when they change they are left as they were (redrawing the whole history and clearing
 * the scrollback, as pi-tui does, makes the view jump and costs the whole transcript in bytes).
 */
import type { TuiMode, TuiStopOptions } from "../types.ts";
import type { Frame } from "./frame.ts";
import { FrameView } from "./frame-view.ts";
import { FrameWriter } from "./frame-writer.ts";
import { DELETE_ALL_IMAGES, deleteImagesOf, kittyHeader, reservedRows } from "./image-rows.ts";
import { TuiBase } from "./tui-base.ts";

const CLEAR_LINE = "\x1b[2K";
const CLEAR_SCREEN_HOME = "\x1b[2J\x1b[H";
const CLEAR_SCROLLBACK = "\x1b[3J";

/** What a screen needs to resume drawing where another renderer left the terminal. */
export interface MainScreenRenderState {
	previousLines: string[];
	previousWidth: number;
	previousHeight: number;
	cursorRow: number;
	maxRow: number;
}

function isTermux(): boolean {
	return Boolean(process.env.TERMUX_VERSION);
}

export class TuiMainScreen extends TuiBase {
	readonly mode: TuiMode = "regular";
	private previous: FrameView = FrameView.of([]);
	/** 0 before the first frame; -1 after a forced reset (next frame clears and redraws everything). */
	private previousWidth = 0;
	private previousHeight = 0;
	private cursorRow = 0;
	private maxRow = 0;
	private cursorShown: boolean | undefined;
	private parkedAt: { row: number; col: number } | undefined;

	captureRenderState(): MainScreenRenderState {
		return {
			previousLines: this.previous.toArray(),
			previousWidth: this.previousWidth,
			previousHeight: this.previousHeight,
			cursorRow: this.cursorRow,
			maxRow: this.maxRow,
		};
	}

	restoreRenderState(state: MainScreenRenderState): void {
		this.previous = FrameView.of(state.previousLines);
		this.previousWidth = state.previousWidth;
		this.previousHeight = state.previousHeight;
		this.cursorRow = state.cursorRow;
		this.maxRow = state.maxRow;
		this.parkedAt = undefined;
		this.cursorShown = undefined;
	}

	protected override resetRenderState(): void {
		this.previous = FrameView.of([]);
		this.previousWidth = -1;
		this.previousHeight = -1;
		this.parkedAt = undefined;
	}

	protected override hideHardwareCursor(): void {
		super.hideHardwareCursor();
		this.cursorShown = false;
	}

	protected override afterTerminalStart(): void {
		this.cursorShown = false;
	}

	protected override beforeTerminalStop(options: TuiStopOptions): void {
		if (options.preserveScreen || this.previous.length === 0) return;
		const out = new FrameWriter((data) => this.terminal.write(data));
		// As pi-tui: to the row after the content when it is on screen (moving down never scrolls), then a newline.
		const bottom = this.firstVisibleRow() + this.terminal.rows - 1;
		this.moveTo(out, Math.max(Math.min(this.previous.length, bottom), this.firstVisibleRow()));
		out.append("\r\n");
		out.flush();
		this.cursorRow += 1;
		this.maxRow = Math.max(this.maxRow, this.cursorRow);
		this.cursorShown = true;
	}

	/** The first row that is certainly on screen. */
	private firstVisibleRow(height = this.terminal.rows): number {
		return Math.max(0, this.maxRow - height + 1);
	}

	/** Move the cursor to buffer row `row` (≥ firstVisibleRow); rows below `maxRow` are reached by scrolling. */
	private moveTo(out: FrameWriter, row: number): void {
		if (row > this.maxRow) {
			if (this.cursorRow < this.maxRow) out.append(`\x1b[${this.maxRow - this.cursorRow}B`);
			out.append("\r\n".repeat(row - this.maxRow));
			this.maxRow = row;
		} else if (row > this.cursorRow) out.append(`\x1b[${row - this.cursorRow}B`);
		else if (row < this.cursorRow) out.append(`\x1b[${this.cursorRow - row}A`);
		this.cursorRow = row;
	}

	private writeLine(out: FrameWriter, row: number, line: string): void {
		this.moveTo(out, row);
		out.append("\r");
		out.append(CLEAR_LINE);
		out.append(line);
	}

	protected doRender(): void {
		if (this.stopped) return;
		const width = this.terminal.columns;
		const height = this.terminal.rows;
		const frame = this.buildFrame(width, height);
		const out = new FrameWriter((data) => this.terminal.write(data));
		const first = this.previousWidth === 0;
		const forced = this.previousWidth === -1;
		const why = (reason: string) =>
			this.logRedraw(`${reason} (prev=${this.previous.length}, new=${frame.view.length}, height=${height})`);
		if (forced) {
			why("forced");
			this.redraw(out, frame, height, "all");
		} else if (!first && width !== this.previousWidth) {
			why(`terminal width changed (${this.previousWidth} -> ${width})`);
			this.redraw(out, frame, height, "all");
		} else if (first) this.redraw(out, frame, height, "here");
		else if (height !== this.previousHeight && !isTermux()) {
			why(`terminal height changed (${this.previousHeight} -> ${height}), visible rows only`);
			this.redraw(out, frame, height, "visible");
		} else if (this.getClearOnShrink() && frame.view.length < this.maxRow + 1 && !this.hasOverlayEntries) {
			why(`clearOnShrink (rows used=${this.maxRow + 1}), visible rows only`);
			this.redraw(out, frame, height, "visible");
		} else if (!this.update(out, frame, height)) {
			why("content now ends above the screen, visible rows only");
			this.redraw(out, frame, height, "visible");
		}
		this.placeCursor(out, frame, height);
		out.flush();
		this.previous = frame.view;
		this.previousWidth = width;
		this.previousHeight = height;
	}

	/**
	 * Write a whole frame: `here` from the cursor's line (first frame, nothing cleared), `visible` the last screenful
	 * after clearing the screen (scrollback kept), `all` every line after clearing screen and scrollback (width
	 * change, forced redraw: lines rewrap, so the old scrollback no longer matches).
	 */
	private redraw(out: FrameWriter, frame: Frame, height: number, scope: "here" | "visible" | "all"): void {
		const lines = frame.view;
		if (scope !== "here") {
			this.fullRedrawCount += 1;
			if (this.previous.hasImages) out.append(DELETE_ALL_IMAGES);
			out.append(CLEAR_SCREEN_HOME);
			if (scope === "all") out.append(CLEAR_SCROLLBACK);
		} else out.append("\r");
		const start = scope === "visible" ? Math.max(0, lines.length - height) : 0;
		if (start === 0 && !lines.hasImages) lines.writeTo(out);
		else
			for (let i = start; i < lines.length; i++) {
				if (i > start) out.append("\r\n");
				const reserved = lines.hasImages ? reservedRows((r) => lines.line(r), i, lines.length) : 1;
				if (reserved > 1 && reserved <= height) {
					// Make room first so placing the image cannot scroll the screen, then place it on its first row.
					out.append(`${"\r\n".repeat(reserved - 1)}\x1b[${reserved - 1}A${lines.line(i)}\x1b[${reserved - 1}B`);
					i += reserved - 1;
				} else out.append(lines.line(i));
			}
		this.cursorRow = Math.max(start, lines.length - 1);
		this.maxRow = this.cursorRow;
		this.parkedAt = undefined;
	}

	/** Rewrite the changed visible lines; false when the new content ends above the screen (needs a redraw). */
	private update(out: FrameWriter, frame: Frame, height: number): boolean {
		const next = frame.view;
		const prev = this.previous;
		if (next === prev) return true;
		const top = this.firstVisibleRow(height);
		// The new content ends above the screen: nothing of it could be shown by rewriting visible rows.
		if (next.length < prev.length && next.length - 1 < top) return false;
		if (next.hasImages || prev.hasImages) {
			this.updateWithImages(out, next, prev, top, height);
			return true;
		}
		const common = Math.min(next.length, prev.length);
		for (let i = top; i < common; i++) {
			const line = next.line(i);
			if (line !== prev.line(i)) {
				this.writeLine(out, i, line);
				this.parkedAt = undefined;
			}
		}
		for (let i = Math.max(prev.length, top); i < next.length; i++) {
			this.writeLine(out, i, next.line(i));
			this.parkedAt = undefined;
		}
		for (let i = Math.max(next.length, top); i < prev.length; i++) {
			this.moveTo(out, i);
			out.append("\r");
			out.append(CLEAR_LINE);
			this.parkedAt = undefined;
		}
		return true;
	}

	/**
	 * The same rewrite when images are involved: a changed row inside an image's rows rewrites the whole group, the
	 * images on rewritten or cleared rows are deleted, and an image is placed after its rows were cleared.
	 */
	private updateWithImages(out: FrameWriter, next: FrameView, prev: FrameView, top: number, height: number): void {
		const end = Math.max(next.length, prev.length);
		const changed = new Uint8Array(Math.max(0, end - top));
		for (let i = top; i < end; i++)
			if (i >= next.length || i >= prev.length || next.line(i) !== prev.line(i)) changed[i - top] = 1;
		for (const view of [prev, next]) {
			const line = (r: number) => view.line(r);
			for (let i = top; i < view.length; i++) {
				if (!kittyHeader(view.line(i))) continue;
				const rows = reservedRows(line, i, view.length);
				if (changed.subarray(i - top, i - top + rows).some((c) => c === 1)) changed.fill(1, i - top, i - top + rows);
				i += rows - 1;
			}
		}
		for (let i = top; i < Math.min(end, prev.length); i++)
			if (changed[i - top]) out.append(deleteImagesOf(prev.line(i)));
		for (let i = top; i < end; i++) {
			if (!changed[i - top]) continue;
			this.parkedAt = undefined;
			if (i >= next.length) {
				this.moveTo(out, i);
				out.append(`\r${CLEAR_LINE}`);
				continue;
			}
			const line = next.line(i);
			const rows = kittyHeader(line) ? reservedRows((r) => next.line(r), i, next.length) : 1;
			if (rows > 1 && rows <= height) {
				for (let r = 1; r < rows; r++) this.writeLine(out, i + r, next.line(i + r));
				this.writeLine(out, i, line);
				i += rows - 1;
			} else this.writeLine(out, i, line);
		}
	}

	/** Park the hardware cursor at the cursor marker (shown only with the hardware cursor on), else hide it. */
	private placeCursor(out: FrameWriter, frame: Frame, height: number): void {
		const cursor = frame.cursor;
		const visible = cursor !== null && cursor.row < frame.view.length && cursor.row >= this.firstVisibleRow(height);
		if (visible && cursor) {
			const parked = this.parkedAt;
			if (!parked || parked.row !== cursor.row || parked.col !== cursor.col) {
				this.moveTo(out, cursor.row);
				out.append(`\x1b[${cursor.col + 1}G`);
				this.parkedAt = { row: cursor.row, col: cursor.col };
			}
		}
		const show = visible && this.getShowHardwareCursor();
		if (show !== this.cursorShown) {
			out.append(show ? "\x1b[?25h" : "\x1b[?25l");
			this.cursorShown = show;
		}
	}
}
