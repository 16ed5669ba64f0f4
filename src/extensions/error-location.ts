/**
 * Where in an extension something happened, as `<file>:<line>:<column>`, read from a stack.
 *
 * `thrownAt`: where an extension's error was thrown: the first frame in the extension's own folder (its node_modules
 * excepted), else the first frame outside pi (a library the extension imported). Frames of the compiled binary
 * (`/$bunfs/`), `node:` and native code never count. Undefined when the stack names no such file (a string thrown,
 * a stack cut short).
 */
import { dirname } from "node:path";

const FRAME = /(?:\(|at )((?:\/|[A-Za-z]:[\\/]|file:\/\/)[^()\s]*?):(\d+):(\d+)\)?\s*$/;

/** Every frame of `stack` that names a file, in order, as `<file>:<line>:<column>` (the binary's own included). */
export function stackFrames(stack: string): string[] {
	const found: string[] = [];
	for (const line of stack.split("\n")) {
		const match = FRAME.exec(line.trim());
		if (match) found.push(`${(match[1] as string).replace(/^file:\/\//, "")}:${match[2]}:${match[3]}`);
	}
	return found;
}

/** A frame of the compiled binary itself. */
export const isBinaryFrame = (frame: string) => frame.startsWith("/$bunfs/") || frame.startsWith("B:/~BUN/");

export function thrownAt(error: unknown, extensionPath: string): string | undefined {
	const stack = (error as { stack?: unknown } | null)?.stack;
	if (typeof stack !== "string") return undefined;
	const all = stackFrames(stack).filter((frame) => !isBinaryFrame(frame));
	const folder = /\.[cm]?[jt]sx?$/.test(extensionPath) ? dirname(extensionPath) : extensionPath;
	const own = (frame: string) =>
		frame.startsWith(`${folder}/`) && !frame.slice(folder.length).includes("/node_modules/");
	return all.find(own) ?? all[0];
}
