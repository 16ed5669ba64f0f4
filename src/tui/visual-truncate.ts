/** The last lines of a text as the terminal shows it (after wrapping), for tool output previews. */
import { Text } from "./basic.ts";

export interface VisualTruncateResult {
	/** The rendered lines kept (the last `maxVisualLines`). */
	visualLines: string[];
	/** How many rendered lines were left out above them. */
	skippedCount: number;
}

/**
 * Wraps `text` to `width` (with `paddingX` columns of padding each side, as a `Text` component draws it) and keeps
 * the last `maxVisualLines` lines.
 */
export function truncateToVisualLines(
	text: string,
	maxVisualLines: number,
	width: number,
	paddingX = 0,
): VisualTruncateResult {
	if (!text) return { visualLines: [], skippedCount: 0 };
	const lines = new Text(text, paddingX, 0).render(width);
	if (lines.length <= maxVisualLines) return { visualLines: lines, skippedCount: 0 };
	return { visualLines: lines.slice(-maxVisualLines), skippedCount: lines.length - maxVisualLines };
}
