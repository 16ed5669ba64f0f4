/**
 * A frame's lines without concatenating them: the components' (cached) line arrays side by side, plus the rows an
 * overlay replaced and blank rows added below. A renderer that only looks at the visible rows never pays for the
 * thousands above them; `toArray()` builds the flat list for whoever needs it (once per frame at most).
 */
import { isImageLine, LINE_RESET } from "./composite.ts";

/** CRLF-joined text of processed blocks (they are immutable once built). */
const joinedBlocks = new WeakMap<readonly string[], string>();

export class FrameView {
	private flat: string[] | undefined;
	/** Index of the block the last lookup hit (rows are mostly read in order). */
	private hint = 0;

	private constructor(
		private readonly blocks: readonly (readonly string[])[],
		/** First row of each block. */
		private readonly starts: readonly number[],
		/** Rows covered by the blocks. */
		private readonly baseLength: number,
		/** Total rows, ≥ baseLength (rows below the blocks are empty). */
		readonly length: number,
		private readonly overrides: ReadonlyMap<number, string> | undefined,
		/** Some line places an inline image (the renderer then takes the slower, image-aware path). */
		readonly hasImages: boolean,
	) {}

	static of(lines: readonly string[]): FrameView {
		return new FrameView([lines], [0], lines.length, lines.length, undefined, lines.some(isImageLine));
	}

	static fromBlocks(
		blocks: readonly (readonly string[])[],
		starts: readonly number[],
		total: number,
		hasImages: boolean,
	): FrameView {
		return new FrameView(blocks, starts, total, total, undefined, hasImages);
	}

	/** The same frame with rows replaced and `length` rows in all. */
	withRows(overrides: ReadonlyMap<number, string>, length: number): FrameView {
		const merged = new Map(this.overrides ?? []);
		for (const [row, line] of overrides) merged.set(row, line);
		return new FrameView(
			this.blocks,
			this.starts,
			this.baseLength,
			Math.max(length, this.length),
			merged,
			this.hasImages,
		);
	}

	line(row: number): string {
		if (this.overrides !== undefined) {
			const replaced = this.overrides.get(row);
			if (replaced !== undefined) return replaced;
		}
		if (row < 0 || row >= this.baseLength) return LINE_RESET;
		const blocks = this.blocks;
		const starts = this.starts;
		let b = this.hint;
		const start = starts[b] as number;
		if (row < start || row >= start + (blocks[b] as readonly string[]).length) {
			const next = b + 1;
			if (
				next < blocks.length &&
				row >= (starts[next] as number) &&
				row < (starts[next] as number) + (blocks[next] as readonly string[]).length
			) {
				b = next;
			} else {
				// The last block starting at or before `row` (empty blocks share their successor's start).
				let lo = 0;
				let hi = blocks.length - 1;
				while (lo < hi) {
					const mid = (lo + hi + 1) >> 1;
					if ((starts[mid] as number) <= row) lo = mid;
					else hi = mid - 1;
				}
				b = lo;
			}
			this.hint = b;
		}
		return (blocks[b] as readonly string[])[row - (starts[b] as number)] as string;
	}

	/** All lines joined with CRLF; each block's part is cached, so a redraw joins blocks, not lines. */
	joined(): string {
		if (this.overrides !== undefined && this.overrides.size > 0) return this.toArray().join("\r\n");
		const parts: string[] = [];
		for (const block of this.blocks) {
			if (block.length === 0) continue;
			let text = joinedBlocks.get(block);
			if (text === undefined) {
				text = block.join("\r\n");
				joinedBlocks.set(block, text);
			}
			parts.push(text);
		}
		for (let row = this.baseLength; row < this.length; row++) parts.push(LINE_RESET);
		return parts.join("\r\n");
	}

	toArray(): string[] {
		if (this.flat) return this.flat;
		const flat = new Array<string>(this.length);
		let row = 0;
		for (const block of this.blocks) for (let i = 0; i < block.length; i++) flat[row++] = block[i] as string;
		for (; row < this.length; row++) flat[row] = LINE_RESET;
		if (this.overrides) for (const [r, line] of this.overrides) if (r >= 0 && r < this.length) flat[r] = line;
		this.flat = flat;
		return flat;
	}
}
