/**
 * Processes a command left running in the background (`cmd &`): the members of its shell's process group that
 * are still alive once the shell has exited. Read from /proc, so only on Linux; elsewhere the list is empty.
 */
import { readdirSync, readFileSync } from "../util/index.ts";

export interface BackgroundProcess {
	pid: number;
	/** The command line, shortened (empty when it could not be read). */
	command: string;
}

const MAX_COMMAND = 80;

/** Live (not zombie) processes whose process group is `pgid`, in pid order. */
export function processGroupMembers(pgid: number): BackgroundProcess[] {
	if (process.platform !== "linux") return [];
	let names: string[];
	try {
		names = readdirSync("/proc");
	} catch {
		return [];
	}
	const found: BackgroundProcess[] = [];
	for (const name of names) {
		const first = name.charCodeAt(0);
		if (first < 48 || first > 57) continue;
		try {
			const stat = readFileSync(`/proc/${name}/stat`, "utf8");
			// "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so read after the last ")".
			const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
			if (Number(fields[2]) !== pgid || fields[0] === "Z") continue;
			const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
			const command = cmdline.length > MAX_COMMAND ? `${cmdline.slice(0, MAX_COMMAND - 1)}…` : cmdline;
			found.push({ pid: Number(name), command });
		} catch {
			// The process ended while we looked: not running any more.
		}
	}
	return found.sort((a, b) => a.pid - b.pid);
}

/** The line a command's result gets when it left processes running, or undefined when it left none. */
export function backgroundNote(processes: readonly BackgroundProcess[]): string | undefined {
	if (processes.length === 0) return undefined;
	const list = processes.map((p) => (p.command ? `PID ${p.pid} (${p.command})` : `PID ${p.pid}`)).join(", ");
	return `Still running in the background: ${list}`;
}

/** `{ background }` when a command that may have put something in the background (a lone `&`) left processes. */
export function leftRunning(command: string, pgid: number | undefined): { background?: BackgroundProcess[] } {
	if (pgid === undefined || !/(^|[^&])&($|[^&>])/.test(command)) return {};
	const background = processGroupMembers(pgid);
	return background.length > 0 ? { background } : {};
}
