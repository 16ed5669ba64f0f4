/**
 * Line diffs of whole texts as pi's SDK exposes them: `generateDiffString` (the numbered display form of `edit`
 * results) and `generateUnifiedPatch` (a standard unified patch with `---`/`+++` file headers). Lines are compared
 * with their line ending, so a last line without a newline differs from the same line with one.
 */
import { diffLineRuns } from "./edit-diff.ts";

type PartKind = " " | "-" | "+";

interface Part {
	kind: PartKind;
	/** Lines with their "\n" (the last line of a text may have none). */
	lines: string[];
}

function lineTokens(text: string): string[] {
	const tokens: string[] = [];
	let start = 0;
	for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", start)) {
		tokens.push(text.slice(start, i + 1));
		start = i + 1;
	}
	if (start < text.length) tokens.push(text.slice(start));
	return tokens;
}

/** Equal, removed and added runs; within one change the removed lines come before the added ones. */
function diffParts(oldText: string, newText: string): Part[] {
	const a = lineTokens(oldText);
	const b = lineTokens(newText);
	const parts: Part[] = [];
	let removed: string[] = [];
	let added: string[] = [];
	const flush = () => {
		if (removed.length > 0) parts.push({ kind: "-", lines: removed });
		if (added.length > 0) parts.push({ kind: "+", lines: added });
		removed = [];
		added = [];
	};
	for (const run of diffLineRuns(a, b, Number.MAX_SAFE_INTEGER)) {
		if (run.kind === "-") removed.push(...a.slice(run.oldStart, run.oldStart + run.count));
		else if (run.kind === "+") added.push(...b.slice(run.newStart, run.newStart + run.count));
		else {
			flush();
			parts.push({ kind: " ", lines: a.slice(run.oldStart, run.oldStart + run.count) });
		}
	}
	flush();
	return parts;
}

const stripNewline = (line: string): string => (line.endsWith("\n") ? line.slice(0, -1) : line);

/**
 * The numbered display diff: "+N text" for added lines (new numbering), "-N text" for removed ones (old
 * numbering), " N text" for up to `contextLines` unchanged lines around each change, and " … ..." where unchanged
 * lines are left out. `firstChangedLine` is the new-file line of the first change.
 */
export function generateDiffString(
	oldContent: string,
	newContent: string,
	contextLines = 4,
): { diff: string; firstChangedLine: number | undefined } {
	const parts = diffParts(oldContent, newContent);
	const width = String(Math.max(oldContent.split("\n").length, newContent.split("\n").length)).length;
	const out: string[] = [];
	const num = (n: number) => String(n).padStart(width, " ");
	const gap = () => out.push(` ${" ".repeat(width)} ...`);
	let oldLine = 1;
	let newLine = 1;
	let firstChangedLine: number | undefined;
	const context = (lines: string[]) => {
		for (const line of lines) {
			out.push(` ${num(oldLine)} ${stripNewline(line)}`);
			oldLine++;
			newLine++;
		}
	};
	const skip = (count: number) => {
		if (count <= 0) return;
		gap();
		oldLine += count;
		newLine += count;
	};
	parts.forEach((part, i) => {
		if (part.kind !== " ") {
			firstChangedLine ??= newLine;
			for (const line of part.lines) {
				if (part.kind === "+") out.push(`+${num(newLine++)} ${stripNewline(line)}`);
				else out.push(`-${num(oldLine++)} ${stripNewline(line)}`);
			}
			return;
		}
		const lines = part.lines;
		const afterChange = i > 0;
		const beforeChange = i < parts.length - 1;
		if (afterChange && beforeChange) {
			if (lines.length <= contextLines * 2) context(lines);
			else {
				context(lines.slice(0, contextLines));
				skip(lines.length - 2 * contextLines);
				context(lines.slice(lines.length - contextLines));
			}
		} else if (afterChange) {
			context(lines.slice(0, contextLines));
			skip(lines.length - Math.min(contextLines, lines.length));
		} else if (beforeChange) {
			const skipped = Math.max(0, lines.length - contextLines);
			skip(skipped);
			context(lines.slice(skipped));
		} else {
			oldLine += lines.length;
			newLine += lines.length;
		}
	});
	return { diff: out.join("\n"), firstChangedLine };
}

interface Hunk {
	oldStart: number;
	newStart: number;
	oldCount: number;
	newCount: number;
	lines: string[];
}

function patchLines(prefix: string, lines: string[]): string[] {
	const out: string[] = [];
	for (const line of lines) {
		out.push(prefix + stripNewline(line));
		if (!line.endsWith("\n")) out.push("\\ No newline at end of file");
	}
	return out;
}

/**
 * A unified patch of `path` from `oldContent` to `newContent` with `contextLines` of context: the `--- path` and
 * `+++ path` headers, then `@@ -a,b +c,d @@` hunks; changes closer than twice the context share a hunk.
 */
export function generateUnifiedPatch(path: string, oldContent: string, newContent: string, contextLines = 4): string {
	const parts = diffParts(oldContent, newContent);
	const hunks: Hunk[] = [];
	let hunk: Hunk | undefined;
	let oldLine = 0;
	let newLine = 0;
	let previousContext: string[] = [];
	parts.forEach((part, i) => {
		if (part.kind !== " ") {
			if (!hunk) {
				const lead = previousContext.slice(Math.max(0, previousContext.length - contextLines));
				hunk = {
					oldStart: oldLine - lead.length + 1,
					newStart: newLine - lead.length + 1,
					oldCount: lead.length,
					newCount: lead.length,
					lines: patchLines(" ", lead),
				};
			}
			hunk.lines.push(...patchLines(part.kind, part.lines));
			if (part.kind === "-") {
				hunk.oldCount += part.lines.length;
				oldLine += part.lines.length;
			} else {
				hunk.newCount += part.lines.length;
				newLine += part.lines.length;
			}
			return;
		}
		const lines = part.lines;
		if (hunk) {
			const last = i === parts.length - 1;
			if (lines.length <= contextLines * 2 && !last) {
				hunk.lines.push(...patchLines(" ", lines));
				hunk.oldCount += lines.length;
				hunk.newCount += lines.length;
			} else {
				const trail = lines.slice(0, Math.min(contextLines, lines.length));
				hunk.lines.push(...patchLines(" ", trail));
				hunk.oldCount += trail.length;
				hunk.newCount += trail.length;
				hunks.push(hunk);
				hunk = undefined;
			}
		}
		previousContext = lines;
		oldLine += lines.length;
		newLine += lines.length;
	});
	if (hunk) hunks.push(hunk);
	const out = [`--- ${path}`, `+++ ${path}`];
	for (const h of hunks) {
		const oldStart = h.oldCount === 0 ? h.oldStart - 1 : h.oldStart;
		const newStart = h.newCount === 0 ? h.newStart - 1 : h.newStart;
		out.push(`@@ -${oldStart},${h.oldCount} +${newStart},${h.newCount} @@`, ...h.lines);
	}
	return `${out.join("\n")}\n`;
}
