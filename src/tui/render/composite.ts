/** Placing one line over another at a column (overlays), and the marker that tells a viewport-capable TUI apart. */
import { isImageLine } from "../image-line.ts";
import type { Component, TUI } from "../types.ts";
import { osc8Uri, tokenize, visibleWidth } from "../width.ts";

/** SGR reset plus "close hyperlink": appended after every line and around composited overlay text. */
export const LINE_RESET = "\x1b[0m\x1b]8;;\x07";

export { isImageLine } from "../image-line.ts";

function isFullReset(sgr: string): boolean {
	return sgr === "\x1b[0m" || sgr === "\x1b[m";
}

/**
 * Put `overlayLine` over `baseLine` so it occupies columns [startCol, startCol + overlayWidth). The base text left
 * and right of it stays (padded with spaces where it is shorter), the text after the overlay keeps the style it had,
 * and the result is never wider than `totalWidth`. Image lines are returned as they are.
 */
export function compositeTuiLine(
	baseLine: string,
	overlayLine: string,
	startCol: number,
	overlayWidth: number,
	totalWidth: number,
): string {
	if (isImageLine(baseLine)) return baseLine;
	const start = Math.max(0, Math.floor(startCol));
	const span = Math.max(0, Math.min(Math.floor(overlayWidth), totalWidth - start));
	const afterStart = start + span;

	let before = "";
	let beforeWidth = 0;
	let after = "";
	let afterCol = afterStart; // column the next "after" grapheme is written at
	let afterStarted = false;
	let style: string[] = []; // SGR sequences in effect (since the last full reset)
	let link = ""; // open OSC 8 hyperlink, if any
	let col = 0;
	for (const token of tokenize(baseLine)) {
		if (token.escape) {
			if (col < start) before += token.text;
			else if (afterStarted) after += token.text;
			const uri = osc8Uri(token.text);
			if (uri !== undefined) link = uri === "" ? "" : token.text;
			else if (token.text.endsWith("m") && token.text.startsWith("\x1b[")) {
				if (isFullReset(token.text)) style = [];
				else style.push(token.text);
			}
			continue;
		}
		const end = col + token.width;
		if (end <= start) {
			before += token.text;
			beforeWidth = end;
		} else if (col >= afterStart && end <= totalWidth) {
			if (!afterStarted) {
				afterStarted = true;
				after += style.join("") + link;
			}
			if (col > afterCol) after += " ".repeat(col - afterCol);
			after += token.text;
			afterCol = end;
		}
		col = end;
		if (col >= totalWidth) break;
	}

	const overlay = fitOverlay(overlayLine, span);
	const tail = afterStarted ? afterCol - afterStart : 0;
	return (
		before +
		" ".repeat(Math.max(0, start - beforeWidth)) +
		LINE_RESET +
		overlay.text +
		" ".repeat(Math.max(0, span - overlay.width)) +
		LINE_RESET +
		after +
		(afterStarted ? LINE_RESET : "") +
		" ".repeat(Math.max(0, totalWidth - afterStart - tail))
	);
}

/** The first `width` columns of `line` (wide graphemes that would straddle the edge are dropped) and their width. */
function fitOverlay(line: string, width: number): { text: string; width: number } {
	if (visibleWidth(line) <= width) return { text: line, width: visibleWidth(line) };
	let text = "";
	let used = 0;
	for (const token of tokenize(line)) {
		if (token.escape) {
			text += token.text;
			continue;
		}
		if (used + token.width > width) break;
		text += token.text;
		used += token.width;
	}
	return { text, width: used };
}

/** Symbol a viewport-capable TUI (fullscreen renderer with a layout root) carries; shared across module copies. */
export const VIEWPORT_TUI: unique symbol = Symbol.for("@earendil-works/pi-tui/viewport");

export interface ViewportTUI extends TUI {
	readonly [VIEWPORT_TUI]: true;
	setLayoutRoot(component: Component | undefined): void;
}

/** True when `tui` sizes a layout root to the terminal (fullscreen mode) rather than stacking lines. */
export function isViewportTUI(tui: TUI): tui is ViewportTUI {
	return (tui as Partial<Record<typeof VIEWPORT_TUI, unknown>>)[VIEWPORT_TUI] === true;
}
