/**
 * Which session file a run uses: `--no-session` (memory only), `--session <path|id prefix>`, `--continue` (the
 * newest of this folder), `--fork <path|id prefix>` (a new session recording its parent), or a new one. The store
 * is `--session-dir`, else `PI_CODING_AGENT_SESSION_DIR`, else settings `sessionDir`, else
 * `<agentDir>/sessions/--<cwd>--`. Every refusal is a one-line `UserError`. A session file another live pi holds
 * is never written by a second one: the second continues in a fork of it (the session's diagnostics say so).
 */

import { isAbsolute, resolve } from "node:path";
import { ENV_SESSION_DIR } from "../config/index.ts";
import { findSessionsByIdPrefix, getDefaultSessionDir, SessionManager } from "../session/index.ts";
import { errorMessage, existsSync, expandHome, UserError } from "../util/index.ts";
import type { FlagValue } from "./args.ts";

export interface SessionChoiceOptions {
	cwd: string;
	agentDir: string;
	flags: Map<string, FlagValue>;
	settingsSessionDir?: string;
}

export function sessionDirFor(options: SessionChoiceOptions): string {
	const raw =
		(options.flags.get("session-dir") as string | undefined) ??
		process.env[ENV_SESSION_DIR] ??
		options.settingsSessionDir;
	if (!raw) return getDefaultSessionDir(options.cwd, options.agentDir);
	const expanded = expandHome(raw);
	return isAbsolute(expanded) ? expanded : resolve(options.cwd, expanded);
}

export function chooseSession(options: SessionChoiceOptions): SessionManager {
	const { flags, cwd } = options;
	const session = flags.get("session") as string | undefined;
	const fork = flags.get("fork") as string | undefined;
	const cont = flags.get("continue") === true;
	const none = flags.get("no-session") === true;
	if (fork !== undefined && (session !== undefined || cont || none || flags.get("resume") === true)) {
		throw new UserError("Error: --fork cannot be combined with --session, --continue, --resume or --no-session");
	}
	const dir = sessionDirFor(options);
	try {
		if (none) return SessionManager.inMemory(cwd);
		if (session !== undefined)
			return SessionManager.open(locate(session, options, dir), dir, undefined, { onLocked: "fork" });
		if (fork !== undefined) return SessionManager.forkFrom(locate(fork, options, dir), cwd, dir);
		if (cont) return SessionManager.continueRecent(cwd, dir, { onLocked: "fork" });
		return SessionManager.create(cwd, dir);
	} catch (error) {
		if (error instanceof UserError) throw error;
		throw new UserError(`Error: ${errorMessage(error)}`);
	}
}

/** A path to an existing file, or a session id (or a unique prefix of one) in this folder's sessions. */
function locate(value: string, options: SessionChoiceOptions, dir: string): string {
	const asPath = resolve(options.cwd, expandHome(value));
	if (existsSync(asPath)) return asPath;
	const found = SessionManager.findById(options.cwd, value, dir);
	if (found) return found;
	const matches = findSessionsByIdPrefix(dir, value);
	if (matches.length === 1) return matches[0] as string;
	if (matches.length > 1) {
		throw new UserError(`Error: "${value}" matches ${matches.length} sessions; give more of the id`);
	}
	throw new UserError(`Error: no session file or id matches "${value}" (looked in ${dir})`);
}

/** `--resume` without a terminal UI: the sessions of this folder, newest first. */
export async function renderSessionList(options: SessionChoiceOptions): Promise<string> {
	const sessions = await SessionManager.list(options.cwd, sessionDirFor(options));
	if (sessions.length === 0) return "No sessions for this folder.\n";
	const rows = sessions
		.sort((a, b) => b.modified.getTime() - a.modified.getTime())
		.map((s) => {
			const first = s.firstMessage.replace(/\s+/g, " ").slice(0, 60);
			return `${s.id.slice(0, 8)}  ${s.modified.toISOString().slice(0, 16).replace("T", " ")}  ${String(s.messageCount).padStart(4)}  ${s.name ?? first}`;
		});
	return `${["id        modified          msgs  name / first message", ...rows].join("\n")}\nResume one with: pi --session <id>\n`;
}
