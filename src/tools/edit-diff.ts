/**
 * Line diff for `edit` results: common head and tail lines are set aside, the middle is diffed with Myers'
 * O(ND) algorithm (bounded; past the bound the middle is shown as removed-then-added), and the result is rendered
 * with line numbers and 4 lines of context around each change:
 *
 *     " 12 unchanged"   context line, new-file line number
 *     "-13 old text"    removed line, old-file line number
 *     "+13 new text"    added line, new-file line number
 *     "    ..."         unchanged lines left out
 */

type Kind = " " | "-" | "+";

interface Run {
	kind: Kind;
	/** Start in the old (" " and "-") or new ("+") line list, and the number of lines. */
	oldStart: number;
	newStart: number;
	count: number;
}

const MAX_EDIT_DISTANCE = 1000;

function splitLines(text: string): string[] {
	return text.split("\n");
}

function pushRun(runs: Run[], kind: Kind, oldStart: number, newStart: number): void {
	const last = runs[runs.length - 1];
	if (last && last.kind === kind) last.count++;
	else runs.push({ kind, oldStart, newStart, count: 1 });
}

/** Myers diff of two id sequences; undefined when more than `maxD` insertions + deletions are needed. */
function myers(a: Int32Array, b: Int32Array, maxD: number): Run[] | undefined {
	const n = a.length;
	const m = b.length;
	const limit = Math.min(n + m, maxD);
	const offset = limit + 1;
	const v = new Int32Array(2 * limit + 3);
	const trace: Int32Array[] = [];
	for (let d = 0; d <= limit; d++) {
		for (let k = -d; k <= d; k += 2) {
			const down = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number));
			let x = down ? (v[offset + k + 1] as number) : (v[offset + k - 1] as number) + 1;
			let y = x - k;
			while (x < n && y < m && a[x] === b[y]) {
				x++;
				y++;
			}
			v[offset + k] = x;
			if (x >= n && y >= m) {
				trace.push(v.slice(offset - d, offset + d + 1));
				return backtrack(trace, n, m);
			}
		}
		trace.push(v.slice(offset - d, offset + d + 1));
	}
	return undefined;
}

/** Walks the saved frontiers back from (n, m); trace[d][k + d] is the furthest x on diagonal k after step d. */
function backtrack(trace: Int32Array[], n: number, m: number): Run[] {
	const steps: [Kind, number, number][] = [];
	let x = n;
	let y = m;
	for (let d = trace.length - 1; d > 0; d--) {
		const previous = trace[d - 1] as Int32Array;
		const at = (k: number) => previous[k + d - 1] as number;
		const k = x - y;
		const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
		const previousK = down ? k + 1 : k - 1;
		const previousX = at(previousK);
		const previousY = previousX - previousK;
		while (x > previousX && y > previousY) {
			x--;
			y--;
			steps.push([" ", x, y]);
		}
		if (down) steps.push(["+", x, previousY]);
		else steps.push(["-", previousX, y]);
		x = previousX;
		y = previousY;
	}
	while (x > 0 && y > 0) {
		x--;
		y--;
		steps.push([" ", x, y]);
	}
	const runs: Run[] = [];
	for (let i = steps.length - 1; i >= 0; i--) {
		const [kind, oldAt, newAt] = steps[i] as [Kind, number, number];
		pushRun(runs, kind, oldAt, newAt);
	}
	return runs;
}

/** Runs describing how `oldLines` became `newLines`. */
export function diffLineRuns(oldLines: string[], newLines: string[], maxD = MAX_EDIT_DISTANCE): Run[] {
	let head = 0;
	while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
	let tail = 0;
	while (
		tail < oldLines.length - head &&
		tail < newLines.length - head &&
		oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
	)
		tail++;
	const ids = new Map<string, number>();
	const idsOf = (lines: string[]) =>
		Int32Array.from(lines.slice(head, lines.length - tail), (line) => {
			const known = ids.get(line);
			if (known !== undefined) return known;
			ids.set(line, ids.size);
			return ids.size - 1;
		});
	const a = idsOf(oldLines);
	const b = idsOf(newLines);
	const middle = myers(a, b, maxD) ?? [
		{ kind: "-" as const, oldStart: 0, newStart: 0, count: a.length },
		{ kind: "+" as const, oldStart: a.length, newStart: 0, count: b.length },
	];
	const runs: Run[] = head > 0 ? [{ kind: " ", oldStart: 0, newStart: 0, count: head }] : [];
	for (const run of middle) {
		if (run.count > 0) runs.push({ ...run, oldStart: run.oldStart + head, newStart: run.newStart + head });
	}
	if (tail > 0) {
		runs.push({ kind: " ", oldStart: oldLines.length - tail, newStart: newLines.length - tail, count: tail });
	}
	return runs;
}

export interface RenderedDiff {
	diff: string;
	/** 1-based line in the new text where the first change is (undefined when nothing changed). */
	firstChangedLine: number | undefined;
}

export function renderDiff(oldText: string, newText: string, context = 4): RenderedDiff {
	const oldLines = splitLines(oldText);
	const newLines = splitLines(newText);
	const runs = diffLineRuns(oldLines, newLines);
	if (runs.every((run) => run.kind === " ")) return { diff: "", firstChangedLine: undefined };
	const width = String(Math.max(oldLines.length, newLines.length)).length;
	const out: string[] = [];
	const line = (kind: Kind, number: number, text: string) =>
		out.push(`${kind}${String(number + 1).padStart(width)} ${text}`);
	const skipped = () => out.push(`${" ".repeat(width + 1)} ...`);
	let firstChangedLine: number | undefined;
	runs.forEach((run, i) => {
		if (run.kind === "-") {
			firstChangedLine ??= run.newStart + 1;
			for (let k = 0; k < run.count; k++) line("-", run.oldStart + k, oldLines[run.oldStart + k] as string);
			return;
		}
		if (run.kind === "+") {
			firstChangedLine ??= run.newStart + 1;
			for (let k = 0; k < run.count; k++) line("+", run.newStart + k, newLines[run.newStart + k] as string);
			return;
		}
		const afterChange = i > 0;
		const beforeChange = i < runs.length - 1;
		const show = (k: number) => line(" ", run.newStart + k, newLines[run.newStart + k] as string);
		if (afterChange && beforeChange && run.count <= 2 * context) {
			for (let k = 0; k < run.count; k++) show(k);
			return;
		}
		const lead = afterChange ? Math.min(context, run.count) : 0;
		const trail = beforeChange ? Math.min(context, run.count - lead) : 0;
		for (let k = 0; k < lead; k++) show(k);
		if (lead + trail < run.count) skipped();
		for (let k = run.count - trail; k < run.count; k++) show(k);
	});
	return { diff: out.join("\n"), firstChangedLine };
}
