/**
 * Where an extension's error was thrown, as `<file>:<line>:<column>`, read from its stack: the first frame in the
 * extension's own folder (its node_modules excepted), else the first frame outside pi (a library the extension imported). Frames of pi itself
 * (the compiled binary's `/$bunfs/` files, `node:` and native code) never count. Undefined when the stack names
 * no such file (a string thrown, a stack cut short).
 */
import { dirname } from "node:path";

const FRAME = /(?:\(|at )((?:\/|[A-Za-z]:[\\/]|file:\/\/)[^()\s]*?):(\d+):(\d+)\)?\s*$/;

function frames(stack: string): string[] {
	const found: string[] = [];
	for (const line of stack.split("\n")) {
		const match = FRAME.exec(line.trim());
		if (!match) continue;
		const file = (match[1] as string).replace(/^file:\/\//, "");
		if (file.startsWith("/$bunfs/") || file.startsWith("B:/~BUN/")) continue;
		found.push(`${file}:${match[2]}:${match[3]}`);
	}
	return found;
}

export function thrownAt(error: unknown, extensionPath: string): string | undefined {
	const stack = (error as { stack?: unknown } | null)?.stack;
	if (typeof stack !== "string") return undefined;
	const all = frames(stack);
	const folder = /\.[cm]?[jt]sx?$/.test(extensionPath) ? dirname(extensionPath) : extensionPath;
	const own = (frame: string) =>
		frame.startsWith(`${folder}/`) && !frame.slice(folder.length).includes("/node_modules/");
	return all.find(own) ?? all[0];
}
