/**
 * Two-dimensional pieces of display math (stacked fractions, limits above/below big operators, scripts on their
 * own rows, matrices and cases). The parser emits text with markers standing for such pieces; `layOut` places the
 * text runs and the pieces side by side, aligned on a common baseline row.
 */
import { visibleWidth } from "../width.ts";

export type LayoutNode =
	| { type: "fraction"; numerator: string; denominator: string }
	| { type: "operator"; operator: string; lower?: string; upper?: string }
	| { type: "script"; lower?: string; upper?: string }
	| { type: "matrix"; lines: string[]; baseline: number };

export const MARK_OPEN = "\u{f0000}";
export const MARK_CLOSE = "\u{f0001}";
/** A space that survives whitespace collapsing (padding inside matrices and cases). */
export const HARD_SPACE = "\u{f0002}";
const MARK = /\u{f0000}(\d+)\u{f0001}/gu;
export const TRAILING_MARK = /\u{f0000}(\d+)\u{f0001}$/u;

export function marker(nodes: LayoutNode[], node: LayoutNode): string {
	return `${MARK_OPEN}${nodes.push(node) - 1}${MARK_CLOSE}`;
}

interface Box {
	lines: string[];
	width: number;
	/** Row of `lines` that lines up with the surrounding text. */
	baseline: number;
}

function pad(line: string, width: number, centred = false): string {
	const space = Math.max(0, width - visibleWidth(line));
	const left = centred ? Math.floor(space / 2) : 0;
	return " ".repeat(left) + line + " ".repeat(space - left);
}

const textBox = (text: string): Box => ({ lines: [text], width: visibleWidth(text), baseline: 0 });

function beside(boxes: Box[]): Box {
	if (boxes.length === 0) return { lines: [""], width: 0, baseline: 0 };
	const baseline = Math.max(...boxes.map((box) => box.baseline));
	const below = Math.max(...boxes.map((box) => box.lines.length - box.baseline - 1));
	const lines: string[] = [];
	for (let row = 0; row <= baseline + below; row++) {
		let line = "";
		for (const box of boxes) {
			const source = row - baseline + box.baseline;
			const text = box.lines[source];
			line += text !== undefined && source >= 0 ? pad(text, box.width) : " ".repeat(box.width);
		}
		lines.push(line.trimEnd());
	}
	return { lines, width: boxes.reduce((total, box) => total + box.width, 0), baseline };
}

function nodeBox(node: LayoutNode, nodes: LayoutNode[]): Box {
	switch (node.type) {
		case "fraction": {
			const top = layOut(node.numerator, nodes);
			const bottom = layOut(node.denominator, nodes);
			const inner = Math.max(top.width, bottom.width, 1);
			const width = inner + 2;
			return {
				lines: [
					...top.lines.map((line) => pad(line, width, true)),
					` ${"─".repeat(inner)} `,
					...bottom.lines.map((line) => pad(line, width, true)),
				],
				width,
				baseline: top.lines.length,
			};
		}
		case "operator": {
			const parts = [node.upper, node.operator, node.lower].filter((part) => part !== undefined);
			const inner = Math.max(...parts.map((part) => visibleWidth(part)));
			return {
				lines: parts.map((part) => `${pad(part, inner, true)} `),
				width: inner + 1,
				baseline: node.upper === undefined ? 0 : 1,
			};
		}
		case "script": {
			const upper = node.upper === undefined ? undefined : layOut(node.upper, nodes);
			const lower = node.lower === undefined ? undefined : layOut(node.lower, nodes);
			const width = Math.max(upper?.width ?? 0, lower?.width ?? 0);
			return {
				lines: [
					...(upper?.lines.map((line) => pad(line, width)) ?? []),
					" ".repeat(width),
					...(lower?.lines.map((line) => pad(line, width)) ?? []),
				],
				width,
				baseline: upper?.lines.length ?? 0,
			};
		}
		case "matrix": {
			const width = Math.max(0, ...node.lines.map((line) => visibleWidth(line)));
			return { lines: node.lines.map((line) => pad(line, width)), width, baseline: node.baseline };
		}
	}
}

/** Lays out marked text: each source line becomes one or more rows; the baseline is the first line's. */
export function layOut(source: string, nodes: LayoutNode[]): Box {
	const rows: string[] = [];
	let firstBaseline = 0;
	for (const line of source.split("\n")) {
		const boxes: Box[] = [];
		let at = 0;
		let previous: LayoutNode | undefined;
		for (const match of line.matchAll(MARK)) {
			const node = nodes[Number(match[1])];
			if (!node) continue;
			const index = match.index ?? 0;
			if (index > at) {
				const between = line.slice(at, index);
				const trimmed = (previous ? between.trimStart() : between).trimEnd();
				// Matrices keep one space from the text beside them.
				const spaceBefore = previous?.type === "matrix" && /^\s/.test(between);
				const spaceAfter = node.type === "matrix" && /\s$/.test(between);
				const text = trimmed
					? `${spaceBefore ? " " : ""}${trimmed}${spaceAfter ? " " : ""}`
					: spaceBefore || spaceAfter
						? " "
						: "";
				boxes.push(textBox(text));
			}
			boxes.push(nodeBox(node, nodes));
			at = index + match[0].length;
			previous = node;
		}
		if (at < line.length) {
			const rest = line.slice(at);
			const trimmed = previous ? rest.trimStart() : rest;
			boxes.push(textBox(previous?.type === "matrix" && /^\s/.test(rest) ? ` ${trimmed}` : trimmed));
		}
		const box = beside(boxes);
		if (rows.length === 0) firstBaseline = box.baseline;
		rows.push(...box.lines);
	}
	return { lines: rows, width: Math.max(0, ...rows.map((row) => visibleWidth(row))), baseline: firstBaseline };
}
