/**
 * Where session files live: `<sessionDir>/<timestamp>_<sessionId>.jsonl`, where the default session dir for a
 * working directory is `<agentDir>/sessions/--<encoded cwd>--/` and a caller-supplied session dir is used as is.
 */
import { join, resolve } from "node:path";
import { expandHome, homeDir } from "../util/index.ts";

/**
 * The agent dir when the caller does not pass one: `PI_CODING_AGENT_DIR` or `~/.pi/agent`. Same rule as
 * config/paths.ts (which this layer may not import); the CLI passes the resolved dir explicitly.
 */
export function defaultAgentDir(env: NodeJS.ProcessEnv = process.env): string {
	const override = env.PI_CODING_AGENT_DIR?.trim();
	if (override) return resolve(expandHome(override, env));
	return join(homeDir(env), ".pi", "agent");
}

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
