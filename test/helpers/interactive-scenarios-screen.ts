/**
 * Reading the parts of pi's interactive screen a scenario compares: the editor box (or the dialog that replaces
 * it, both drawn between two full-width rules), what sits above and below it, and lines picked by pattern.
 * Incidental details are normalised away: spinner frames, timing digits, the version number.
 */

/** Full-width horizontal rules: the editor's borders, a dialog's borders. */
/** A full-width rule, or the editor's top border with the working indicator in it (`── ⠇ Working ───…`). */
const RULE = /^(─{10,}|── \S+ .*─{10,})$/;

export function ruleRows(lines: string[]): number[] {
	return lines.map((line, i) => (RULE.test(line) ? i : -1)).filter((i) => i >= 0);
}

/** The rows between the last two rules: the editor's text, or the dialog shown in its place. */
export function editorBox(lines: string[]): string[] {
	const rules = ruleRows(lines);
	if (rules.length < 2) return [];
	return trimBlankEnds(lines.slice((rules.at(-2) as number) + 1, rules.at(-1)));
}

/** The rows between the first and last rule of the bottom block (a dialog with inner rules, e.g. a select). */
export function boxBetweenRules(lines: string[], from: number, to = -1): string[] {
	const rules = ruleRows(lines);
	const start = rules.at(from);
	const end = rules.at(to);
	if (start === undefined || end === undefined || end <= start) return [];
	return trimBlankEnds(lines.slice(start + 1, end));
}

/** Everything below the last rule (widgets below the editor, the footer). */
export function belowEditor(lines: string[]): string[] {
	const rules = ruleRows(lines);
	if (rules.length === 0) return [];
	return trimBlankEnds(lines.slice((rules.at(-1) as number) + 1));
}

/** The `count` non-blank rows right above the editor's top rule (widgets above, status, the last messages). */
export function aboveEditor(lines: string[], count: number): string[] {
	const rules = ruleRows(lines);
	if (rules.length < 2) return [];
	return lines
		.slice(0, rules.at(-2))
		.filter((line) => line.trim() !== "")
		.slice(-count);
}

/** Rows matching `pattern`, in screen order. */
export function rowsMatching(lines: string[], pattern: RegExp): string[] {
	return lines.filter((line) => pattern.test(line));
}

/** The rows from the first one matching `start` to the first later one matching `end` (inclusive). */
export function rowsFrom(lines: string[], start: RegExp, end?: RegExp): string[] {
	const first = lines.findIndex((line) => start.test(line));
	if (first < 0) return [];
	if (!end) return trimBlankEnds(lines.slice(first));
	const last = lines.findIndex((line, i) => i > first && end.test(line));
	return trimBlankEnds(lines.slice(first, last < 0 ? undefined : last + 1));
}

export function trimBlankEnds(lines: string[]): string[] {
	let start = 0;
	let end = lines.length;
	while (start < end && (lines[start] as string).trim() === "") start++;
	while (end > start && (lines[end - 1] as string).trim() === "") end--;
	return lines.slice(start, end);
}

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/g;

/** Spinner frames become `*`, timing digits `N`, version numbers `vX`, session ids `<id>`. */
export function normalise(lines: string[]): string[] {
	return lines.map((line) =>
		line
			.replace(SPINNER, "*")
			.replace(/\bv\d+\.\d+\.\d+\b/g, "vX")
			.replace(/\b\d+(\.\d+)?(ms|s)\b/g, "Ns")
			.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>"),
	);
}
