/**
 * Where session files live: `<sessionDir>/<timestamp>_<sessionId>.jsonl`, where the default session dir for a
 * working directory is `<agentDir>/sessions/--<encoded cwd>--/` and a caller-supplied session dir is used as is.
 */
import { join, resolve } from "node:path";
import { getAgentDir } from "../config/index.ts";

/** The agent dir when the caller does not pass one (config owns the rule). */
export const defaultAgentDir = getAgentDir;

/** `/Users/a/proj` → `--Users-a-proj--`: leading separator dropped, every `/`, `\` and `:` becomes `-`. */
export function encodeCwd(cwd: string): string {
	return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** `<agentDir>/sessions` — the root that holds one folder per working directory. */
export function getSessionsRoot(agentDir: string = defaultAgentDir()): string {
	return join(agentDir, "sessions");
}

/** `<agentDir>/sessions/--<encoded cwd>--`. */
export function getDefaultSessionDir(cwd: string, agentDir?: string): string {
	return join(getSessionsRoot(agentDir), encodeCwd(resolve(cwd)));
}

/** `2025-12-09T00-52-54-397Z_<id>.jsonl`: the ISO time with `:` and `.` replaced by `-`. */
export function sessionFileName(sessionId: string, created: Date = new Date()): string {
	return `${created.toISOString().replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}
