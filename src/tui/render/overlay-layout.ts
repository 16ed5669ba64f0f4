/** Where an overlay goes on the terminal: width, height cap and position resolved from its OverlayOptions. */
import type { OverlayAnchor, OverlayOptions, SizeValue } from "../types.ts";

export interface OverlayLayout {
	width: number;
	row: number;
	col: number;
	maxHeight: number | undefined;
}

const PERCENT = /^(\d+(?:\.\d+)?)%$/;

/** Columns/rows for a number or an "N%" of `reference`; undefined for anything else. */
export function resolveSize(value: SizeValue | undefined, reference: number): number | undefined {
	if (value === undefined) return undefined;
	if (typeof value === "number") return value;
	const match = PERCENT.exec(value);
	return match ? Math.floor((reference * Number.parseFloat(match[1] as string)) / 100) : undefined;
}

function percentOf(value: string): number | undefined {
	const match = PERCENT.exec(value);
	return match ? Number.parseFloat(match[1] as string) / 100 : undefined;
}

type Edge = "start" | "middle" | "end";

function verticalEdge(anchor: OverlayAnchor): Edge {
	if (anchor.startsWith("top")) return "start";
	if (anchor.startsWith("bottom")) return "end";
	return "middle";
}

function horizontalEdge(anchor: OverlayAnchor): Edge {
	if (anchor === "top-left" || anchor === "left-center" || anchor === "bottom-left") return "start";
	if (anchor === "top-right" || anchor === "right-center" || anchor === "bottom-right") return "end";
	return "middle";
}

function place(edge: Edge, size: number, available: number, margin: number): number {
	if (edge === "start") return margin;
	if (edge === "end") return margin + available - size;
	return margin + Math.floor((available - size) / 2);
}

/** One axis: absolute beats percentage (of the free space), which beats the anchor. */
function position(value: SizeValue | undefined, edge: Edge, size: number, available: number, margin: number): number {
	if (typeof value === "number") return value;
	if (typeof value === "string") {
		const fraction = percentOf(value);
		if (fraction !== undefined) return margin + Math.floor(Math.max(0, available - size) * fraction);
		return place("middle", size, available, margin);
	}
	return place(edge, size, available, margin);
}

/**
 * Resolve `options` for an overlay `height` rows tall on a `termWidth`×`termHeight` terminal. Width defaults to
 * min(80, available); `minWidth` is a floor; everything is clamped inside the margins.
 */
export function resolveOverlayLayout(
	options: OverlayOptions | undefined,
	height: number,
	termWidth: number,
	termHeight: number,
): OverlayLayout {
	const opt = options ?? {};
	const m =
		typeof opt.margin === "number"
			? { top: opt.margin, right: opt.margin, bottom: opt.margin, left: opt.margin }
			: (opt.margin ?? {});
	const top = Math.max(0, m.top ?? 0);
	const right = Math.max(0, m.right ?? 0);
	const bottom = Math.max(0, m.bottom ?? 0);
	const left = Math.max(0, m.left ?? 0);
	const availWidth = Math.max(1, termWidth - left - right);
	const availHeight = Math.max(1, termHeight - top - bottom);

	let width = resolveSize(opt.width, termWidth) ?? Math.min(80, availWidth);
	if (opt.minWidth !== undefined) width = Math.max(width, opt.minWidth);
	width = Math.max(1, Math.min(width, availWidth));

	let maxHeight = resolveSize(opt.maxHeight, termHeight);
	if (maxHeight !== undefined) maxHeight = Math.max(1, Math.min(maxHeight, availHeight));
	const shownHeight = maxHeight !== undefined ? Math.min(height, maxHeight) : height;

	const anchor = opt.anchor ?? "center";
	let row = position(opt.row, verticalEdge(anchor), shownHeight, availHeight, top);
	let col = position(opt.col, horizontalEdge(anchor), width, availWidth, left);
	row += opt.offsetY ?? 0;
	col += opt.offsetX ?? 0;
	row = Math.max(top, Math.min(row, termHeight - bottom - shownHeight));
	col = Math.max(left, Math.min(col, termWidth - right - width));
	return { width, row, col, maxHeight };
}
