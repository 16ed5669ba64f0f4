/** Finding the processes a test's child started, to end them all (see test/helpers/pty-app.ts `close`). */
import { readdirSync, readFileSync } from "node:fs";

/** Every process below `root`, from /proc (Linux); none where /proc cannot be read. */
export function descendants(root: number): number[] {
	const children = new Map<number, number[]>();
	let entries: string[];
	try {
		entries = readdirSync("/proc");
	} catch {
		return [];
	}
	for (const entry of entries) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			// The command name (2nd field) is in parentheses and may hold spaces; the parent pid follows it.
			const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
			const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
			const list = children.get(parent) ?? [];
			list.push(Number(entry));
			children.set(parent, list);
		} catch {
			// The process ended while we looked.
		}
	}
	const found: number[] = [];
	const queue = [root];
	while (queue.length > 0) {
		for (const child of children.get(queue.shift() as number) ?? []) {
			found.push(child);
			queue.push(child);
		}
	}
	return found;
}
