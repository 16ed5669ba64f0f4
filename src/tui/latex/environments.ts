/** `\begin{…}…\end{…}`: equations, aligned rows, cases and matrices. */
import { visibleWidth } from "../width.ts";
import { HARD_SPACE, marker } from "./layout.ts";
import type { MathReader } from "./reader.ts";

const ALIGNED = new Set([
	"aligned",
	"align",
	"align*",
	"alignedat",
	"alignat",
	"alignat*",
	"gather",
	"gathered",
	"multline",
	"multline*",
	"split",
]);
const ALIGNED_AT = new Set(["alignedat", "alignat", "alignat*"]);

/** Brackets of a matrix: top-left, top-right, middle-left, middle-right, bottom-left, bottom-right. */
const MATRIX_BRACKETS: Record<string, string> = {
	pmatrix: "⎛⎞⎜⎟⎝⎠",
	bmatrix: "⎡⎤⎢⎥⎣⎦",
	Bmatrix: "⎧⎫⎨⎬⎩⎭",
	vmatrix: "││││││",
	Vmatrix: "║║║║║║",
};
const MATRICES = new Set(["array", "matrix", "smallmatrix", ...Object.keys(MATRIX_BRACKETS)]);

/** Rows split at `\\` (with an optional spacing argument like `\\[2pt]`). */
const rowsOf = (body: string) => body.split(/\\\\(?:\[[^\]\n]*\])?/);

/** The raw text of a `{…}` group (nested braces and escapes kept), or undefined (and failure) without one. */
function rawGroup(reader: MathReader): string | undefined {
	reader.skip(/[ \t]/);
	if (reader.peek() !== "{") {
		reader.ok = false;
		return undefined;
	}
	const start = ++reader.pos;
	let depth = 1;
	while (reader.pos < reader.src.length) {
		const char = reader.peek();
		if (char === "\\") {
			reader.pos += 2;
			continue;
		}
		if (char === "{") depth++;
		if (char === "}") depth--;
		if (depth === 0) return reader.src.slice(start, reader.pos++);
		reader.pos++;
	}
	reader.ok = false;
	return undefined;
}

/** Reads the environment after `\begin`, leaving the reader after its `\end{…}`. */
export function environment(reader: MathReader): string {
	const name = rawGroup(reader);
	if (!name) return "";
	const endMark = `\\end{${name}}`;
	const end = reader.src.indexOf(endMark, reader.pos);
	if (end < 0) {
		reader.ok = false;
		return "";
	}
	const body = reader.src.slice(reader.pos, end);
	reader.pos = end + endMark.length;
	if (name === "equation" || name === "equation*" || name === "displaymath") return reader.nested(body).trim();
	if (ALIGNED.has(name)) return aligned(reader, name, body);
	if (name === "cases" || name === "cases*") return cases(reader, body);
	if (MATRICES.has(name)) return matrix(reader, name, name === "array" ? body.replace(/^\s*\{[^}]*\}/, "") : body);
	reader.ok = false;
	return body;
}

/** Aligned rows become lines; `alignat` pairs its columns. */
function aligned(reader: MathReader, name: string, body: string): string {
	const pairs = ALIGNED_AT.has(name);
	return rowsOf(pairs ? body.replace(/^\s*\{[^}]*\}/, "") : body)
		.map((row) => {
			const cells = row.split("&");
			const source = pairs
				? Array.from({ length: Math.ceil(cells.length / 2) }, (_, n) => cells.slice(n * 2, n * 2 + 2).join("")).join(
						" ",
					)
				: cells.join("");
			return reader.nested(source).trim();
		})
		.filter(Boolean)
		.join("\n");
}

function cells(reader: MathReader, body: string): string[][] {
	return rowsOf(body)
		.map((row) => row.split("&").map((cell) => reader.nested(cell, false).trim()))
		.filter((row) => row.some(Boolean));
}

/** Cases behind a tall brace; the brace's middle piece sits on the middle row (an empty row is added if even). */
function cases(reader: MathReader, body: string): string {
	const rows = cells(reader, body);
	const valueText = (row: string[]) => (row[0] ?? "").replace(/,\s*$/, "");
	const valueWidth = Math.max(0, ...rows.map((row) => visibleWidth(valueText(row))));
	const lines = rows.map((row) => {
		const value = valueText(row);
		const condition = row[1] ?? "";
		if (!condition) return value;
		const joiner = /^(?:if|when|for|otherwise)\b/i.test(condition) ? " " : " if ";
		return `${value}${HARD_SPACE.repeat(valueWidth - visibleWidth(value))}${joiner}${condition}`;
	});
	if (lines.length <= 1) return lines.length === 0 ? "" : `⎧ ${lines[0]}`;
	const middle = Math.floor(lines.length / 2);
	const visual: (string | undefined)[] = [...lines];
	if (lines.length % 2 === 0) visual.splice(middle, 0, undefined);
	const drawn = visual.map((line, n) => {
		const brace = n === 0 ? "⎧" : n === visual.length - 1 ? "⎩" : "⎨";
		return line === undefined ? brace : `${brace} ${line}`;
	});
	return marker(reader.nodes, { type: "matrix", lines: drawn, baseline: middle });
}

/** Matrix cells padded into columns separated by " │ ", inside the environment's brackets. */
function matrix(reader: MathReader, name: string, body: string): string {
	const table = cells(reader, body);
	const columns = Math.max(0, ...table.map((row) => row.length));
	const widths = Array.from({ length: columns }, (_, c) =>
		Math.max(0, ...table.map((row) => visibleWidth(row[c] ?? ""))),
	);
	const rows = table.map((row) =>
		widths
			.map((width, c) => {
				const cell = row[c] ?? "";
				return cell + HARD_SPACE.repeat(Math.max(0, width - visibleWidth(cell)));
			})
			.join(" │ "),
	);
	let lines = rows;
	const brackets = MATRIX_BRACKETS[name];
	if (brackets) {
		const [tl, tr, ml, mr, bl, br] = [...brackets];
		lines = rows.map((row, n) => {
			const last = n === rows.length - 1;
			const left = n === 0 ? tl : last ? bl : ml;
			const right = n === 0 ? tr : last ? br : mr;
			return `${left} ${row} ${right}`;
		});
	}
	if (lines.length <= 1) return lines[0] ?? "";
	return marker(reader.nodes, { type: "matrix", lines, baseline: 0 });
}
