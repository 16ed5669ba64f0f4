/** The built-in tools' renderers, keyed by tool name, and how they fill in a tool definition that has none. */
import type { ToolRenderers } from "../tool-types.ts";
import { editRenderers } from "./edit.ts";
import { findRenderers, grepRenderers, lsRenderers } from "./listing.ts";
import { readRenderers } from "./read.ts";
import { createShellRenderers } from "./shell.ts";
import { writeRenderers } from "./write.ts";

export {
	createShellRenderers,
	editRenderers,
	findRenderers,
	grepRenderers,
	lsRenderers,
	readRenderers,
	writeRenderers,
};

export function createAllToolRenderers(): Record<string, ToolRenderers> {
	return {
		read: readRenderers,
		bash: createShellRenderers("$"),
		powershell: createShellRenderers("PS>"),
		edit: editRenderers,
		write: writeRenderers,
		grep: grepRenderers,
		find: findRenderers,
		ls: lsRenderers,
	};
}

/** A tool definition with the built-in renderers of its name filling in the ones it does not define. */
export function withBuiltInRenderers<T extends ToolRenderers>(
	toolName: string,
	definition?: T,
): T | ToolRenderers | undefined {
	const builtIn = createAllToolRenderers()[toolName];
	if (!definition) return builtIn;
	if (!builtIn) return definition;
	return {
		...definition,
		renderCall: definition.renderCall ?? builtIn.renderCall,
		renderResult: definition.renderResult ?? builtIn.renderResult,
	};
}
