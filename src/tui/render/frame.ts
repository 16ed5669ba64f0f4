/**
 * Building one frame: render the component tree, make every line safe to write (tabs expanded, cut to the width,
 * cursor marker taken out, style reset appended), composite overlays, find the cursor.
 *
 * Work is cached per block: a leaf component that returns the same array as last frame costs one WeakMap lookup,
 * not a pass over its lines. Plain Containers are walked instead of asked to concatenate, so an unchanged transcript
 * of a thousand messages is a thousand identity checks; a component with `renderBlocks` (the chat transcript, which
 * freezes finished messages into chunks) hands over its blocks directly.
 */
import { isPrintableAscii } from "../ansi.ts";
import { Container } from "../basic.ts";
import type { Component, OverlayBounds, OverlayOptions } from "../types.ts";
import { CURSOR_MARKER } from "../types.ts";
import { sliceByColumn, visibleWidth } from "../width.ts";
import { compositeTuiLine, isImageLine, LINE_RESET } from "./composite.ts";
import { FrameView } from "./frame-view.ts";
import { resolveOverlayLayout } from "./overlay-layout.ts";

/** Where problems in components are reported (each is reported once by the TUI). */
export interface RenderProblemSink {
	/** A line `lineWidth` columns wide from `owner` did not fit `width` and was cut. */
	overwide(owner: Component, lineWidth: number, width: number): void;
	/** `owner.render` threw. */
	threw(owner: Component, error: unknown): void;
}

/** A component's lines ready to write, with the cursor markers they held (row, col pairs within the block). */
interface ProcessedBlock {
	width: number;
	lines: string[];
	markers: number[];
	images: boolean;
}

export interface FrameCursor {
	row: number;
	col: number;
}

export class Frame {
	constructor(
		/** Lines to write (each ends with LINE_RESET unless it is an image line). */
		readonly view: FrameView,
		/** Where the bottom-most cursor marker of the visible part was, if any. */
		readonly cursor: FrameCursor | null,
	) {}

	/** All lines as one array (built on first use). */
	get lines(): string[] {
		return this.view.toArray();
	}
}

/** An overlay to draw this frame, bottom-most first. */
export interface OverlayDraw {
	component: Component;
	options: OverlayOptions | undefined;
	/** Filled with where the overlay was drawn (terminal-relative). */
	setBounds(bounds: OverlayBounds): void;
}

const TAB = /\t/g;
const SPECIAL = /[\t\u0e33\u0eb3]/;
const THAI_LAO_AM_ALL = /[\u0e33\u0eb3]/g;
const plainRender = Container.prototype.render;

/** Tabs as three spaces; Thai/Lao AM split into its two parts (terminals disagree on its width otherwise). */
function expand(line: string): string {
	if (!SPECIAL.test(line)) return line;
	return line.replace(TAB, "   ").replace(THAI_LAO_AM_ALL, (ch) => (ch === "\u0e33" ? "\u0e4d\u0e32" : "\u0ecd\u0eb2"));
}

function errorText(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.split("\n")[0] ?? "";
}

function isBlank(block: string[]): boolean {
	if (block.length > 8) return false;
	for (const line of block) if (line !== "") return false;
	return true;
}

export class FrameBuilder {
	private readonly processed = new WeakMap<string[], ProcessedBlock>();
	private readonly failed = new WeakMap<Component, { width: number; lines: string[] }>();

	constructor(private readonly sink: RenderProblemSink) {}

	/** `component.render(width)`, or a one-line error in its place when it throws. */
	renderSafely(component: Component, width: number): string[] {
		try {
			const lines = component.render(width);
			return Array.isArray(lines) ? lines : [];
		} catch (error) {
			this.sink.threw(component, error);
			const cached = this.failed.get(component);
			if (cached && cached.width === width) return cached.lines;
			const name = component.constructor?.name || "component";
			const text = `\x1b[31m[${name}.render failed: ${errorText(error)}]\x1b[0m`;
			const lines = [visibleWidth(text) > width ? sliceByColumn(text, 0, width, true) : text];
			this.failed.set(component, { width, lines });
			return lines;
		}
	}

	/** `component.renderBlocks(width)`, or its `render` (one block, an error line when it throws) when that throws. */
	private renderBlocksSafely(component: Component, width: number): readonly (readonly string[])[] {
		try {
			const blocks = component.renderBlocks?.(width);
			if (Array.isArray(blocks)) return blocks;
		} catch {
			// Drawn through render below, which reports the failure.
		}
		return [this.renderSafely(component, width)];
	}

	/** Leaf components of `roots` in order, looking through plain Containers, paired with their rendered lines. */
	collect(roots: readonly Component[], width: number, owners: Component[], blocks: string[][]): void {
		for (const component of roots) {
			if (component.render === plainRender && component instanceof Container) {
				this.collect(component.children, width, owners, blocks);
				continue;
			}
			if (component.renderBlocks) {
				for (const block of this.renderBlocksSafely(component, width)) {
					owners.push(component);
					blocks.push(block as string[]);
				}
				continue;
			}
			owners.push(component);
			blocks.push(this.renderSafely(component, width));
		}
	}

	/** `collect` into the reused buffers from index `n` on; returns the new count. */
	private gather(roots: readonly Component[], width: number, blocks: string[][], n: number): number {
		let count = n;
		for (const component of roots) {
			if (component.render === plainRender && component instanceof Container) {
				count = this.gather(component.children, width, blocks, count);
				continue;
			}
			if (component.renderBlocks) {
				for (const block of this.renderBlocksSafely(component, width)) {
					this.owners[count] = component;
					blocks[count] = block as string[];
					count++;
				}
				continue;
			}
			this.owners[count] = component;
			blocks[count] = this.renderSafely(component, width);
			count++;
		}
		return count;
	}

	/** One line made safe to write: tabs expanded, Thai/Lao AM decomposed, markers removed, cut to `width`. */
	prepareLine(raw: string, width: number, owner: Component): { text: string; markerCol: number } {
		let line = raw;
		let markerCol = -1;
		if (line.includes("\x1b")) {
			if (isImageLine(line)) return { text: line, markerCol: -1 };
			const marker = line.indexOf(CURSOR_MARKER);
			if (marker !== -1) {
				markerCol = visibleWidth(expand(line.slice(0, marker)));
				line = line.split(CURSOR_MARKER).join("");
			}
		}
		line = expand(line);
		const lineWidth = visibleWidth(line);
		if (lineWidth > width) {
			this.sink.overwide(owner, lineWidth, width);
			line = sliceByColumn(line, 0, width, true);
			if (markerCol > width) markerCol = width;
		}
		return { text: line, markerCol };
	}

	private readonly blanks: ProcessedBlock[] = [];
	/** Rendered blocks and their processed forms, for this frame and the previous one (`current` is the latter). */
	private readonly rawBuffers: [string[][], string[][]] = [[], []];
	private readonly processedBuffers: [ProcessedBlock[], ProcessedBlock[]] = [[], []];
	private current = 0;
	private lastWidth = -1;
	/** The component behind each block of the frame being built. */
	private readonly owners: Component[] = [];

	/** Empty lines (spacers) are shared: a Spacer returns a fresh array every frame. */
	private blank(count: number): ProcessedBlock {
		let block = this.blanks[count];
		if (!block) {
			block = { width: -1, lines: new Array<string>(count).fill(LINE_RESET), markers: [], images: false };
			if (count < 64) this.blanks[count] = block;
		}
		return block;
	}

	/**
	 * `block` made safe to write. `before`/`beforeRaw` are the processed and raw block at the same place last frame
	 * (same width): a line equal to the one there (a reply that grew by a few lines) reuses its processed form when
	 * that block held no cursor marker or image.
	 */
	private process(
		block: string[],
		width: number,
		owner: Component,
		before?: ProcessedBlock,
		beforeRaw?: string[],
	): ProcessedBlock {
		const cached = this.processed.get(block);
		if (cached && cached.width === width) return cached;
		if (isBlank(block)) return this.blank(block.length);
		const lines = new Array<string>(block.length);
		const markers: number[] = [];
		let images = false;
		const reuse =
			before !== undefined && beforeRaw !== undefined && before.markers.length === 0 && !before.images
				? Math.min(beforeRaw.length, before.lines.length)
				: 0;
		for (let i = 0; i < block.length; i++) {
			const raw = block[i] ?? "";
			if (i < reuse && raw === beforeRaw?.[i]) {
				lines[i] = before?.lines[i] as string;
				continue;
			}
			// Plain ASCII that fits (most lines of a transcript) needs no expanding, cutting or marker search.
			if (raw.length <= width && isPrintableAscii(raw)) {
				lines[i] = raw + LINE_RESET;
				continue;
			}
			const prepared = this.prepareLine(raw, width, owner);
			const image = isImageLine(prepared.text);
			images ||= image;
			lines[i] = image ? prepared.text : prepared.text + LINE_RESET;
			if (prepared.markerCol >= 0) markers.push(i, prepared.markerCol);
		}
		const result = { width, lines, markers, images };
		this.processed.set(block, result);
		return result;
	}

	/**
	 * The frame for `roots` on a `width`×`height` terminal. With overlays, the frame is padded to at least the
	 * terminal height and overlays are composited over its bottom `height` rows. Costs one render call and one
	 * cache lookup per leaf component; lines are not copied.
	 */
	build(roots: readonly Component[], width: number, height: number, overlays: readonly OverlayDraw[]): Frame {
		// Two sets of buffers, used in turn: this frame's and the previous one's (which it is compared with).
		const next = this.current ^ 1;
		const blocks = this.rawBuffers[next] as string[][];
		const processedBlocks = this.processedBuffers[next] as ProcessedBlock[];
		const count = this.gather(roots, width, blocks, 0);
		if (blocks.length > count) blocks.length = count;
		if (this.owners.length > count) this.owners.length = count;
		if (processedBlocks.length > count) processedBlocks.length = count;
		const owners = this.owners;
		const processed = new Array<readonly string[]>(count);
		const starts = new Array<number>(count);
		const markerBlocks: number[] = [];
		const markerSets: number[][] = [];
		let total = 0;
		let images = false;
		// Most blocks are the very arrays of the previous frame at the same position: an index check, no lookup.
		const lastRaw = this.lastWidth === width ? (this.rawBuffers[this.current] as string[][]) : [];
		const lastProcessed = this.processedBuffers[this.current] as ProcessedBlock[];
		for (let b = 0; b < count; b++) {
			const raw = blocks[b] as string[];
			const block =
				lastRaw[b] === raw
					? (lastProcessed[b] as ProcessedBlock)
					: this.process(raw, width, owners[b] as Component, lastProcessed[b], lastRaw[b]);
			processedBlocks[b] = block;
			processed[b] = block.lines;
			images ||= block.images;
			starts[b] = total;
			if (block.markers.length > 0) {
				markerBlocks.push(b);
				markerSets.push(block.markers);
			}
			total += block.lines.length;
		}
		this.current = next;
		this.lastWidth = width;
		let cursor: FrameCursor | null = null;
		const viewportTop = Math.max(0, total - height);
		for (let k = 0; k < markerBlocks.length; k++) {
			const offset = starts[markerBlocks[k] as number] as number;
			const markers = markerSets[k] as number[];
			for (let m = 0; m < markers.length; m += 2) {
				const row = offset + (markers[m] as number);
				if (row >= viewportTop && (cursor === null || row >= cursor.row))
					cursor = { row, col: markers[m + 1] as number };
			}
		}
		const view = FrameView.fromBlocks(processed, starts, total, images);
		if (overlays.length === 0) return new Frame(view, cursor);
		return this.overlay(view, cursor, width, height, overlays);
	}

	/** Composite `overlays` (bottom-most first) over the bottom `height` rows of `base` (padded to `height`). */
	overlay(
		base: FrameView,
		baseCursor: FrameCursor | null,
		width: number,
		height: number,
		overlays: readonly OverlayDraw[],
	): Frame {
		const drawn: { lines: string[]; row: number; col: number; width: number; component: Component }[] = [];
		let needed = base.length;
		for (const overlay of overlays) {
			const { width: w, maxHeight } = resolveOverlayLayout(overlay.options, 0, width, height);
			let lines = this.renderSafely(overlay.component, w);
			if (maxHeight !== undefined && lines.length > maxHeight) lines = lines.slice(0, maxHeight);
			const { row, col } = resolveOverlayLayout(overlay.options, lines.length, width, height);
			overlay.setBounds({ row, col, width: w, height: lines.length });
			drawn.push({ lines, row, col, width: w, component: overlay.component });
			needed = Math.max(needed, row + lines.length);
		}
		const workingHeight = Math.max(base.length, height, needed);
		const rows = new Map<number, string>();
		const lineAt = (index: number): string => rows.get(index) ?? base.line(index);
		const top = Math.max(0, workingHeight - height);
		let cursor = baseCursor && baseCursor.row >= top ? { ...baseCursor } : null;
		for (const overlay of drawn) {
			for (let i = 0; i < overlay.lines.length; i++) {
				const index = top + overlay.row + i;
				if (index < 0 || index >= workingHeight) continue;
				const prepared = this.prepareLine(overlay.lines[i] ?? "", overlay.width, overlay.component);
				const baseLine = lineAt(index);
				const composed = compositeTuiLine(
					baseLine.endsWith(LINE_RESET) ? baseLine.slice(0, -LINE_RESET.length) : baseLine,
					prepared.text,
					overlay.col,
					overlay.width,
					width,
				);
				rows.set(index, isImageLine(composed) ? composed : composed + LINE_RESET);
				const coversCursor =
					cursor !== null &&
					cursor.row === index &&
					cursor.col >= overlay.col &&
					cursor.col < overlay.col + overlay.width;
				if (coversCursor) cursor = null;
				if (prepared.markerCol >= 0 && (cursor === null || index >= cursor.row)) {
					cursor = { row: index, col: overlay.col + prepared.markerCol };
				}
			}
		}
		return new Frame(base.withRows(rows, workingHeight), cursor);
	}
}
