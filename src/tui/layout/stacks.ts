/**
 * VStack and HStack. Inside a fullscreen layout frame they are sized by the frame (see frame.ts); rendered on their
 * own (regular mode, or nested in a plain Container) the vertical stack takes its children's natural heights and the
 * horizontal one shares the width between its children.
 */
import { visibleWidth } from "../width.ts";
import { placeOnLine } from "./compose.ts";
import { allocateStackSizes, Stack, type StackOptions, visibleStackEntries } from "./stack.ts";

export type { StackChild, StackEntry, StackEntryOptions, StackOptions } from "./stack.ts";

/** Children one below the other, `gap` blank rows between them. */
export class VStack extends Stack {
	protected readonly layoutType = "vstack" as const;

	override render(width: number): string[] {
		const viewport = { width: Math.max(1, width), height: Number.MAX_SAFE_INTEGER };
		const entries = visibleStackEntries(this.entries, viewport);
		const rendered = entries.map((entry) => entry.component.render(viewport.width));
		const sizes = allocateStackSizes(
			entries,
			rendered.map((lines) => lines.length),
			undefined,
			this.gap,
		);
		const out: string[] = [];
		rendered.forEach((lines, i) => {
			if (i > 0) for (let g = 0; g < this.gap; g++) out.push("");
			const size = sizes[i] as number;
			for (let row = 0; row < size; row++) out.push(lines[row] ?? "");
		});
		return out;
	}
}

/** Children side by side, `gap` blank columns between them, aligned vertically by `align`. */
export class HStack extends Stack {
	protected readonly layoutType = "hstack" as const;

	override render(width: number): string[] {
		const total = Math.max(1, width);
		const entries = visibleStackEntries(this.entries, { width: total, height: Number.MAX_SAFE_INTEGER });
		if (entries.length === 0) return [];
		const natural = entries.map((entry) => widest(entry.component.render(total)));
		const widths = allocateStackSizes(entries, natural, total, this.gap);
		const columns = entries.map((entry, i) => (widths[i] === 0 ? [] : entry.component.render(widths[i] as number)));
		const height = columns.reduce((max, lines) => Math.max(max, lines.length), 0);
		const out = Array.from({ length: height }, () => "");
		let x = 0;
		columns.forEach((lines, i) => {
			const columnWidth = widths[i] as number;
			const offset = alignOffset(this.align, height, lines.length);
			lines.forEach((line, row) => {
				const target = row + offset;
				if (target >= 0 && target < height)
					out[target] = placeOnLine(out[target] as string, line, x, columnWidth, total);
			});
			x += columnWidth + this.gap;
		});
		return out;
	}
}

function widest(lines: readonly string[]): number {
	let max = 0;
	for (const line of lines) max = Math.max(max, visibleWidth(line));
	return max;
}

/** Rows a child of `childHeight` is moved down inside a row band of `height` rows. */
export function alignOffset(align: StackOptions["align"], height: number, childHeight: number): number {
	if (align === "center") return Math.floor((height - childHeight) / 2);
	if (align === "end") return height - childHeight;
	return 0;
}
