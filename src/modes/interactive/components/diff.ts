/**
 * pi's `renderDiff(diffText, options?)`: the edit tool's diff (lines like `+12 text`, `-12 text`, ` 12 text`,
 * `    ...`) coloured with the current theme: added lines in `toolDiffAdded`, removed in `toolDiffRemoved`, the
 * rest in `toolDiffContext`. When exactly one line is replaced by one line, the words that changed are shown in
 * inverse (leading indentation excepted). Tabs become three spaces.
 */
import { currentTheme } from "../../../resources/index.ts";
import { diffWords } from "./word-diff.ts";

export interface RenderDiffOptions {
	/** Accepted for pi compatibility; not used (as in pi 0.87.1). */
	filePath?: string;
}

interface DiffLine {
	sign: string;
	number: string;
	text: string;
}

const LINE = /^([+-\s])(\s*\d*)\s(.*)$/;

function parseLine(line: string): DiffLine | undefined {
	const match = LINE.exec(line);
	return match ? { sign: match[1] as string, number: match[2] as string, text: match[3] as string } : undefined;
}

const untab = (text: string) => text.replace(/\t/g, "   ");

/** The removed and added line with the changed words in inverse. */
function highlightChange(before: string, after: string): { removed: string; added: string } {
	const theme = currentTheme();
	let removed = "";
	let added = "";
	let firstRemoved = true;
	let firstAdded = true;
	// The first changed run on each side keeps its indentation out of the highlight.
	const mark = (value: string, first: boolean): string => {
		const indent = first ? (/^\s*/.exec(value)?.[0] ?? "") : "";
		const rest = value.slice(indent.length);
		return indent + (rest ? theme.inverse(rest) : "");
	};
	for (const change of diffWords(before, after)) {
		if (change.removed) {
			removed += mark(change.value, firstRemoved);
			firstRemoved = false;
		} else if (change.added) {
			added += mark(change.value, firstAdded);
			firstAdded = false;
		} else {
			removed += change.value;
			added += change.value;
		}
	}
	return { removed, added };
}

export function renderDiff(diffText: string, _options: RenderDiffOptions = {}): string {
	const theme = currentTheme();
	const lines = diffText.split("\n");
	const out: string[] = [];
	const runOf = (sign: string, from: number): DiffLine[] => {
		const run: DiffLine[] = [];
		for (let line = parseLine(lines[from] ?? ""); from < lines.length && line?.sign === sign; ) {
			run.push(line);
			from++;
			line = parseLine(lines[from] ?? "");
		}
		return run;
	};
	let i = 0;
	while (i < lines.length) {
		const raw = lines[i] as string;
		const line = parseLine(raw);
		if (!line) {
			out.push(theme.fg("toolDiffContext", raw));
			i++;
		} else if (line.sign === "-") {
			const removed = runOf("-", i);
			i += removed.length;
			const added = runOf("+", i);
			i += added.length;
			const [only, replacement] = [removed[0] as DiffLine, added[0] as DiffLine];
			if (removed.length === 1 && added.length === 1) {
				const marked = highlightChange(untab(only.text), untab(replacement.text));
				out.push(theme.fg("toolDiffRemoved", `-${only.number} ${marked.removed}`));
				out.push(theme.fg("toolDiffAdded", `+${replacement.number} ${marked.added}`));
			} else {
				for (const r of removed) out.push(theme.fg("toolDiffRemoved", `-${r.number} ${untab(r.text)}`));
				for (const a of added) out.push(theme.fg("toolDiffAdded", `+${a.number} ${untab(a.text)}`));
			}
		} else {
			out.push(
				theme.fg(
					line.sign === "+" ? "toolDiffAdded" : "toolDiffContext",
					`${line.sign === "+" ? "+" : " "}${line.number} ${untab(line.text)}`,
				),
			);
			i++;
		}
	}
	return out.join("\n");
}
