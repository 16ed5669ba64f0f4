import { compositeTuiLine } from "../render/composite.ts";
/** Placing one rendered line over another at a column, as stacks, scrollbars and fullscreen overlays need. */
import { tokenize } from "../width.ts";

/** Reset styles and close any hyperlink, so neither leaks across a seam between two pieces of line. */
export const SEAM_RESET = "\x1b[0m\x1b]8;;\x07";

/** True for a line carrying an inline image (Kitty graphics or iTerm2 file protocol): never cut or overdrawn. */

/**
 * `base` with the columns [column, column + width) replaced by `top` (cut or padded to `width`), the whole result
 * padded to `totalWidth` and never wider. Styles of `base` resume after the inserted piece.
 */
export function placeOnLine(base: string, top: string, column: number, width: number, totalWidth: number): string {
	return compositeTuiLine(base, top, column, width, totalWidth);
}

/** The SGR sequence that sets the background active at `column` of `line` ("" when it is the default). */
export function activeBackground(line: string, column: number): string {
	let bg = "";
	let col = 0;
	for (const token of tokenize(line)) {
		if (!token.escape) {
			if (col >= column) break;
			col += token.width;
			continue;
		}
		// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences on purpose
		const sgr = /^\x1b\[([\d;:]*)m$/.exec(token.text);
		if (!sgr) continue;
		const params = (sgr[1] ?? "").split(/[;:]/);
		for (let i = 0; i < params.length; i++) {
			const p = params[i] === "" ? 0 : Number(params[i]);
			if (p === 0 || p === 49) bg = "";
			else if ((p >= 40 && p <= 47) || (p >= 100 && p <= 107)) bg = `\x1b[${p}m`;
			else if (p === 48) {
				const mode = params[i + 1];
				const take = mode === "5" ? 2 : mode === "2" ? 4 : 1;
				bg = `\x1b[48;${params.slice(i + 1, i + 1 + take).join(";")}m`;
				i += take;
			} else if (p === 38) i += params[i + 1] === "5" ? 2 : params[i + 1] === "2" ? 4 : 1;
		}
	}
	return bg;
}
