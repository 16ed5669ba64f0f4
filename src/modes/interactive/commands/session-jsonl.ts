/**
 * The active branch of a session as a JSONL file of its own (`/export <file>.jsonl`, the bug report's transcript):
 * a fresh v3 header with the session's id and cwd, then root → leaf, each entry's parent the one before it (so
 * a branch that came out of a tree reads as a straight line), as pi 0.87.1 writes it.
 */
import { dirname, isAbsolute, resolve } from "node:path";
import type { SessionManager } from "../../../session/index.ts";
import { expandHome, mkdirSync, writeFileSync } from "../../../util/index.ts";

const SESSION_VERSION = 3;

/** `transform` rewrites each line's value before it is written (the bug report redacts them). */
export function branchJsonl(manager: SessionManager, transform: (line: unknown) => unknown = (line) => line): string {
	const lines: unknown[] = [
		{
			type: "session",
			version: SESSION_VERSION,
			id: manager.getSessionId(),
			timestamp: new Date().toISOString(),
			cwd: manager.getCwd(),
		},
	];
	let parentId: string | null = null;
	for (const entry of manager.getBranch()) {
		lines.push({ ...entry, parentId });
		parentId = entry.id;
	}
	return `${lines.map((line) => JSON.stringify(transform(line))).join("\n")}\n`;
}

/** A user-given path: `~` expanded, relative to cwd. */
export function resolveUserPath(path: string, cwd: string): string {
	const expanded = expandHome(path);
	return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}

/** Writes the branch to `path` (folders made as needed); returns the absolute path written. */
export function exportBranchJsonl(manager: SessionManager, path: string, cwd: string): string {
	const file = resolveUserPath(path, cwd);
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, branchJsonl(manager), "utf8");
	return file;
}
