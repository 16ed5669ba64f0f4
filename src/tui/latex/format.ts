/** Text forms of math pieces in one line: scripts, fractions, roots, and the final whitespace tidy-up. */
import { SUBSCRIPTS, SUPERSCRIPTS } from "./symbols.ts";

/** Brackets an upright operator name so spacing around it can be decided once the neighbours are known. */
export const OPERATOR_OPEN = "\u{f0004}";
export const OPERATOR_CLOSE = "\u{f0005}";
/** Stands for "remove the space before" (`\!`). */
export const UNSPACE = "\u0000";

export type ScriptKind = "sub" | "sup";

function mapEach(value: string, table: Record<string, string>): string | undefined {
	let out = "";
	for (const char of value) {
		const mapped = table[char];
		if (mapped === undefined) return undefined;
		out += mapped;
	}
	return out;
}

function tightenScript(value: string): string {
	return value.trim().replace(/\s*([=+-])\s*/g, "$1");
}

/** The script in Unicode sub/superscript characters, if every character has one. */
export function unicodeScript(value: string, kind: ScriptKind): string | undefined {
	return mapEach(tightenScript(value), kind === "sub" ? SUBSCRIPTS : SUPERSCRIPTS);
}

/** A script as Unicode characters, else `_x`, `^x`, `_abc` (letters), or `^(…)`. */
export function script(value: string, kind: ScriptKind): string {
	const tight = tightenScript(value);
	const unicode = unicodeScript(tight, kind);
	if (unicode !== undefined) return unicode;
	const mark = kind === "sub" ? "_" : "^";
	if ([...tight].length === 1 || (kind === "sub" && /^[A-Za-z]+$/.test(tight))) return mark + tight;
	return `${mark}(${tight})`;
}

/** `a/b` with brackets around a part that is not a single simple term. */
export function fraction(top: string, bottom: string): string {
	const t = top.trim();
	const b = bottom.trim();
	const simpleTop = /^[\p{L}\p{N}.]+$/u.test(t);
	const simpleBottom = /^[\p{N}.]+$/u.test(b) || [...b].length === 1;
	return `${simpleTop ? t : `(${t})`}/${simpleBottom ? b : `(${b})`}`;
}

export function root(value: string, sign = "√"): string {
	const v = value.trim();
	return /^[\p{L}\p{N}.]+$/u.test(v) ? sign + v : `${sign}(${v})`;
}

const SPACE_BEFORE_OPERATOR = /(?<=[\p{L}\p{N})\]}\u{f0001}])\u{f0004}/gu;
const SPACE_AFTER_OPERATOR = /\u{f0005}(?=[\p{L}\p{N}√\u{f0000}])/gu;

/**
 * Final text: operator names spaced from adjacent terms, runs of blanks collapsed, lines trimmed, and empty lines
 * dropped at the ends.
 */
export function tidy(value: string): string {
	const lines = value
		.replace(SPACE_BEFORE_OPERATOR, " ")
		.replaceAll(OPERATOR_OPEN, "")
		.replace(SPACE_AFTER_OPERATOR, " ")
		.replaceAll(OPERATOR_CLOSE, "")
		.split("\n")
		.map((line) => line.replace(/[ \t]+/g, " ").trim());
	return lines
		.filter((line, n) => line.length > 0 || (n > 0 && n < lines.length - 1))
		.join("\n")
		.trim();
}
