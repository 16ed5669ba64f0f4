/**
 * A frame's lines without concatenating them: the components' (cached) line arrays side by side, plus the rows an
 * overlay replaced and blank rows added below. A renderer that only looks at the visible rows never pays for the
 * thousands above them; `toArray()` builds the flat list for whoever needs it (once per frame at most).
 */
import { isImageLine, LINE_RESET } from "./composite.ts";
import type { FrameWriter } from "./frame-writer.ts";

/** Blocks joined together for a redraw. */
const RUN = 64;

interface JoinedRun {
	blocks: readonly (readonly string[])[];
	text: string;
	bytes: number;
}

/** CRLF-joined text of runs of processed blocks (blocks are immutable once built), keyed by the run's first block. */
const joinedRuns = new WeakMap<readonly string[], JoinedRun>();
const EMPTY_RUN: JoinedRun = { blocks: [], text: "", bytes: 0 };

function joinedRun(blocks: readonly (readonly string[])[], from: number, to: number): JoinedRun {
	const head = blocks[from] as readonly string[];
	const cached = joinedRuns.get(head);
	if (cached !== undefined && cached.blocks.length === to - from) {
		let same = true;
		for (let i = 1; i < cached.blocks.length && same; i++) same = cached.blocks[i] === blocks[from + i];
		if (same) return cached;
	}
	const lines: string[] = [];
	for (let b = from; b < to; b++) for (const line of blocks[b] as readonly string[]) lines.push(line);
	if (lines.length === 0) return EMPTY_RUN;
	const text = lines.join("\r\n");
	const run = { blocks: blocks.slice(from, to), text, bytes: Buffer.byteLength(text, "utf8") };
	joinedRuns.set(head, run);
	return run;
}

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

	/**
	 * All lines, CRLF-separated, appended to `out`. Blocks are joined in runs of `RUN` whose text and UTF-8 size are
	 * cached (keyed by the run's first block, checked block by block), so a redraw of an unchanged transcript appends
	 * a few dozen cached strings: it neither builds the whole frame as one string nor measures it again.
	 */
	writeTo(out: FrameWriter): void {
		if (this.overrides !== undefined && this.overrides.size > 0) {
			out.append(this.toArray().join("\r\n"));
			return;
		}
		let first = true;
		const blocks = this.blocks;
		for (let from = 0; from < blocks.length; from += RUN) {
			const run = joinedRun(blocks, from, Math.min(blocks.length, from + RUN));
			if (run.text.length === 0) continue;
			if (!first) out.appendSized("\r\n", 2);
			out.appendSized(run.text, run.bytes);
			first = false;
		}
		for (let row = this.baseLength; row < this.length; row++) {
			if (!first) out.appendSized("\r\n", 2);
			out.appendSized(LINE_RESET, LINE_RESET.length);
			first = false;
		}
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
