/**
 * A standard unified patch (`--- path` / `+++ path`, `@@ -a,b +c,d @@` hunks with 4 lines of context, and the
 * "\ No newline at end of file" marker), as the harness edit tool reports in `details.patch`.
 */
import { diffLineRuns } from "../edit-diff.ts";

type Op = { kind: " " | "-" | "+"; line: string; lastOld: boolean; lastNew: boolean };

function lines(text: string): string[] {
	if (text === "") return [];
	const out = text.split("\n");
	if (text.endsWith("\n")) out.pop();
	return out;
}

export function unifiedPatch(path: string, oldText: string, newText: string, context = 4): string {
	const oldLines = lines(oldText);
	const newLines = lines(newText);
	const oldEndsBare = oldText !== "" && !oldText.endsWith("\n");
	const newEndsBare = newText !== "" && !newText.endsWith("\n");
	const ops: Op[] = [];
	for (const run of diffLineRuns(oldLines, newLines)) {
		for (let i = 0; i < run.count; i++) {
			const oldAt = run.oldStart + i;
			const newAt = run.newStart + i;
			if (run.kind === "+") {
				ops.push({
					kind: "+",
					line: newLines[newAt] as string,
					lastOld: false,
					lastNew: newAt === newLines.length - 1,
				});
			} else {
				const lastOld = oldAt === oldLines.length - 1;
				const lastNew = run.kind === " " && newAt === newLines.length - 1;
				ops.push({ kind: run.kind, line: oldLines[oldAt] as string, lastOld, lastNew });
			}
		}
	}
	let out = `--- ${path}\n+++ ${path}\n`;
	let i = 0;
	let oldNo = 0;
	let newNo = 0;
	const advance = (op: Op) => {
		if (op.kind !== "+") oldNo++;
		if (op.kind !== "-") newNo++;
	};
	while (i < ops.length) {
		if ((ops[i] as Op).kind === " ") {
			advance(ops[i] as Op);
			i++;
			continue;
		}
		// A hunk: up to `context` lines before, changes merged while gaps stay within 2×context, `context` after.
		const start = Math.max(0, i - context);
		let oldStart = oldNo;
		let newStart = newNo;
		for (let k = start; k < i; k++) {
			const op = ops[k] as Op;
			if (op.kind !== "+") oldStart--;
			if (op.kind !== "-") newStart--;
		}
		let end = i;
		while (end < ops.length) {
			if ((ops[end] as Op).kind !== " ") {
				end++;
				continue;
			}
			let gap = end;
			while (gap < ops.length && (ops[gap] as Op).kind === " ") gap++;
			if (gap < ops.length && gap - end <= context * 2) end = gap;
			else {
				end = Math.min(gap, end + context);
				break;
			}
		}
		const body: string[] = [];
		let oldCount = 0;
		let newCount = 0;
		for (let k = start; k < end; k++) {
			const op = ops[k] as Op;
			body.push(`${op.kind}${op.line}`);
			if (op.kind !== "+") oldCount++;
			if (op.kind !== "-") newCount++;
			const bare =
				(op.kind === "-" && op.lastOld && oldEndsBare) ||
				(op.kind === "+" && op.lastNew && newEndsBare) ||
				(op.kind === " " && op.lastOld && oldEndsBare);
			if (bare) body.push("\\ No newline at end of file");
			if (k >= i) advance(op);
		}
		const oldHead = oldCount === 0 ? oldStart : oldStart + 1;
		const newHead = newCount === 0 ? newStart : newStart + 1;
		out += `@@ -${oldHead},${oldCount} +${newHead},${newCount} @@\n${body.join("\n")}\n`;
		i = end;
	}
	return out;
}
