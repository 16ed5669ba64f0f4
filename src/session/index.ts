/**
 * The session layer: pi's JSONL tree session files (format v3, older files migrated on load) and the
 * `SessionManager` API extensions reach through `ctx.sessionManager`. See types.ts for the file contract.
 */
export {
	buildContextEntries,
	buildSessionContext,
	buildSessionProjection,
	getLatestCompactionEntry,
	sessionEntryToContextMessages,
} from "./context.ts";
export { SessionReadOnlyError, SessionWriteError } from "./core.ts";
export { migrateSessionEntries, parseSessionEntries } from "./entries.ts";
export { type SessionFileChange, SessionFileChangedError } from "./file.ts";
export { describeWriteError, realFileOps, type SessionFileOps } from "./file-ops.ts";
export { assertValidSessionId, uuidv7 } from "./ids.ts";
export { findMostRecentSession, findSessionsByIdPrefix, readHeader } from "./list.ts";
export { SessionFormatError } from "./load.ts";
export { SessionLockedError } from "./lock.ts";
export { type AppendableMessage, SessionManager, type TreeNodeInfo } from "./manager.ts";
export { defaultAgentDir, encodeCwd, getDefaultSessionDir, getSessionsRoot, sessionFileName } from "./paths.ts";
export { isKnownEntryType } from "./schema.ts";
export * from "./types.ts";

import type { SessionManager } from "./manager.ts";

/** The read-only view extensions get as `ctx.sessionManager`. */
export type ReadonlySessionManager = Pick<
	SessionManager,
	| "getCwd"
	| "getSessionDir"
	| "getSessionId"
	| "getSessionFile"
	| "getLeafId"
	| "getLeafEntry"
	| "getEntry"
	| "getLabel"
	| "getBranch"
	| "buildContextEntries"
	| "buildSessionProjection"
	| "getHeader"
	| "getEntries"
	| "getTree"
	| "getSessionName"
>;
