/**
 * Building one frame: render the component tree, make every line safe to write (tabs expanded, cut to the width,
 * cursor marker taken out, style reset appended), composite overlays, find the cursor.
 *
 * Work is cached per block: a leaf component that returns the same array as last frame costs one WeakMap lookup,
 * not a pass over its lines. Plain Containers are walked instead of asked to concatenate, so an unchanged transcript
 * of a thousand messages is a thousand identity checks.
 */
import { Container } from "../basic.ts";
import type { Component, OverlayBounds, OverlayOptions } from "../types.ts";
import { CURSOR_MARKER } from "../types.ts";
import { sliceByColumn, visibleWidth } from "../width.ts";
import { compositeTuiLine, isImageLine, LINE_RESET } from "./composite.ts";
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
}

export interface FrameCursor {
	row: number;
	col: number;
}

export interface Frame {
	/** Lines to write (each ends with LINE_RESET unless it is an image line). */
	lines: string[];
	/** Where the bottom-most cursor marker of the visible part was, if any. */
	cursor: FrameCursor | null;
}

/** An overlay to draw this frame, bottom-most first. */
export interface OverlayDraw {
	component: Component;
	options: OverlayOptions | undefined;
	/** Filled with where the overlay was drawn (terminal-relative). */
	setBounds(bounds: OverlayBounds): void;
}

const TAB = /\t/g;
const THAI_LAO_AM = /[\u0e33\u0eb3]/;
const THAI_LAO_AM_ALL = /[\u0e33\u0eb3]/g;
const plainRender = Container.prototype.render;

function errorText(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.split("\n")[0] ?? "";
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

	/** Leaf components of `roots` in order, looking through plain Containers, paired with their rendered lines. */
	collect(roots: readonly Component[], width: number, owners: Component[], blocks: string[][]): void {
		for (const component of roots) {
			if (component.render === plainRender && component instanceof Container) {
				this.collect(component.children, width, owners, blocks);
				continue;
			}
			owners.push(component);
			blocks.push(this.renderSafely(component, width));
		}
	}

	/** One line made safe to write: tabs expanded, Thai/Lao AM decomposed, markers removed, cut to `width`. */
	prepareLine(raw: string, width: number, owner: Component): { text: string; markerCol: number } {
		if (isImageLine(raw)) return { text: raw, markerCol: -1 };
		let line = raw;
		if (line.includes("\t")) line = line.replace(TAB, "   ");
		if (THAI_LAO_AM.test(line))
			line = line.replace(THAI_LAO_AM_ALL, (ch) => (ch === "\u0e33" ? "\u0e4d\u0e32" : "\u0ecd\u0eb2"));
		let markerCol = -1;
		const marker = line.indexOf(CURSOR_MARKER);
		if (marker !== -1) {
			markerCol = visibleWidth(line.slice(0, marker));
			line = line.split(CURSOR_MARKER).join("");
		}
		const lineWidth = visibleWidth(line);
		if (lineWidth > width) {
			this.sink.overwide(owner, lineWidth, width);
			line = sliceByColumn(line, 0, width, true);
			if (markerCol > width) markerCol = width;
		}
		return { text: line, markerCol };
	}

	private process(block: string[], width: number, owner: Component): ProcessedBlock {
		const cached = this.processed.get(block);
		if (cached && cached.width === width) return cached;
		const lines = new Array<string>(block.length);
		const markers: number[] = [];
		for (let i = 0; i < block.length; i++) {
			const prepared = this.prepareLine(block[i] ?? "", width, owner);
			lines[i] = isImageLine(prepared.text) ? prepared.text : prepared.text + LINE_RESET;
			if (prepared.markerCol >= 0) markers.push(i, prepared.markerCol);
		}
		const result = { width, lines, markers };
		this.processed.set(block, result);
		return result;
	}

	/**
	 * The frame for `roots` on a `width`×`height` terminal. With overlays, the frame is padded to at least the
	 * terminal height (`padForOverlays`) and overlays are composited over its bottom `height` rows.
	 */
	build(roots: readonly Component[], width: number, height: number, overlays: readonly OverlayDraw[]): Frame {
		const owners: Component[] = [];
		const blocks: string[][] = [];
		this.collect(roots, width, owners, blocks);
		let total = 0;
		const processed = new Array<ProcessedBlock>(blocks.length);
		for (let b = 0; b < blocks.length; b++) {
			const block = this.process(blocks[b] as string[], width, owners[b] as Component);
			processed[b] = block;
			total += block.lines.length;
		}
		const lines = new Array<string>(total);
		let offset = 0;
		let cursor: FrameCursor | null = null;
		const viewportTop = Math.max(0, total - height);
		for (const block of processed) {
			const src = block.lines;
			for (let i = 0; i < src.length; i++) lines[offset + i] = src[i] as string;
			for (let m = 0; m < block.markers.length; m += 2) {
				const row = offset + (block.markers[m] as number);
				if (row >= viewportTop && (cursor === null || row >= cursor.row)) {
					cursor = { row, col: block.markers[m + 1] as number };
				}
			}
			offset += src.length;
		}
		if (overlays.length === 0) return { lines, cursor };
		return this.overlay(lines, cursor, width, height, overlays);
	}

	/** Composite `overlays` (bottom-most first) over the bottom `height` rows of `base` (padded to `height`). */
	overlay(
		base: string[],
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
		const lines = base.slice();
		while (lines.length < workingHeight) lines.push(LINE_RESET);
		const top = Math.max(0, workingHeight - height);
		let cursor = baseCursor && baseCursor.row >= top ? { ...baseCursor } : null;
		for (const overlay of drawn) {
			for (let i = 0; i < overlay.lines.length; i++) {
				const index = top + overlay.row + i;
				if (index < 0 || index >= lines.length) continue;
				const prepared = this.prepareLine(overlay.lines[i] ?? "", overlay.width, overlay.component);
				const baseLine = lines[index] as string;
				const composed = compositeTuiLine(
					baseLine.endsWith(LINE_RESET) ? baseLine.slice(0, -LINE_RESET.length) : baseLine,
					prepared.text,
					overlay.col,
					overlay.width,
					width,
				);
				lines[index] = isImageLine(composed) ? composed : composed + LINE_RESET;
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
		return { lines, cursor };
	}
}
