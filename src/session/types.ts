/**
 * The session layer's contract: pi's JSONL tree session format (version 3), read and written the way pi 0.87.1
 * does, plus the entries and the `system` role newer pi versions write.
 *
 * File contract (what is on disk):
 * - Line 1 is a `SessionHeader`; every later line is one `SessionEntry` serialized as a single JSON object and
 *   terminated by "\n". Keys are written in the order `type, id, parentId, timestamp, …` (pi's order).
 * - Entries form a tree through `id`/`parentId`; the file order is the append order. Nothing is ever rewritten in
 *   place except a torn last line (cut back to the last "\n") and a one-time migration of v1/v2 files.
 * - Entry `timestamp`s are ISO 8601 strings; the nested message `timestamp` is Unix milliseconds.
 *
 * Reader contract (what loading promises):
 * - Entry types this version does not know (written by a newer pi) are kept, passed through and written back
 *   unchanged; they never reach the LLM. Code that switches on `entry.type` must ignore types it does not know.
 * - A corrupt line is skipped and reported by `getDiagnostics()`; problems are never printed.
 */
import type { AgentMessage, ThinkingLevel } from "../agent/index.ts";
import type { AssistantMessage, ImageContent, SystemMessage, TextContent, Usage } from "../ai/index.ts";
import type { SessionFileOps } from "./file-ops.ts";

/** The format version this layer writes. Older files are migrated on load. */
export const CURRENT_SESSION_VERSION = 3;

// ---- coding-agent message roles ----------------------------------------------------------------------------

/** A shell command the user ran directly (`!cmd`, RPC `bash`); becomes user-role text unless excluded. */
export interface BashExecutionMessage {
	role: "bashExecution";
	command: string;
	output: string;
	exitCode: number | undefined;
	cancelled: boolean;
	truncated: boolean;
	fullOutputPath?: string;
	excludeFromContext?: boolean;
	timestamp: number;
}

/** A message an extension put into the context (stored as a `custom_message` entry or a `custom` message). */
export interface CustomMessage<T = unknown> {
	role: "custom";
	customType: string;
	content: string | (TextContent | ImageContent)[];
	/** true: shown in the TUI with distinct styling; false: hidden. */
	display: boolean;
	/** Extension metadata; never sent to the model. */
	details?: T;
	timestamp: number;
}

/** Context message built from a `branch_summary` entry (never stored as a message entry). */
export interface BranchSummaryMessage {
	role: "branchSummary";
	summary: string;
	fromId: string | null;
	timestamp: number;
}

/** Context message built from a `compaction` entry (never stored as a message entry). */
export interface CompactionSummaryMessage {
	role: "compactionSummary";
	summary: string;
	tokensBefore: number;
	timestamp: number;
}

declare module "../agent/index.ts" {
	interface CustomAgentMessages {
		bashExecution: BashExecutionMessage;
		custom: CustomMessage;
		branchSummary: BranchSummaryMessage;
		compactionSummary: CompactionSummaryMessage;
	}
}

/**
 * Prompt and tool state (pi 0.86+) as `message` entries with `role: "system"`: the first holds every prompt section
 * and tool declaration, later ones patch `sections` by name (`null` removes one) and add or remove tools. They
 * stay in the context's messages; replaying them gives a request's prompt and tools (see `ai/transcript.ts`).
 */
export type { SystemMessage };

/** What a `message` entry may hold: any agent message (incl. the roles above) or a system message. */
export type StoredMessage = AgentMessage | SystemMessage;

/** Thinking levels as stored: the agent's levels, or anything a newer pi wrote. */
export type StoredThinkingLevel = ThinkingLevel | (string & {});

// ---- header and entries ------------------------------------------------------------------------------------

/** Line 1 of a session file. Not part of the tree. v1 headers also carry provider/modelId/thinkingLevel. */
export interface SessionHeader {
	type: "session";
	/** Missing in v1 files. */
	version?: number;
	id: string;
	timestamp: string;
	/** Working directory the session was started in ("" for very old files). */
	cwd: string;
	/** Path of the session this one was forked or cloned from. */
	parentSession?: string;
	[legacy: string]: unknown;
}

export interface SessionEntryBase {
	type: string;
	/** Usually 8 hex chars; may be a full UUID. Unique within the file. */
	id: string;
	/** null for a root entry. */
	parentId: string | null;
	/** ISO 8601. */
	timestamp: string;
}

export interface SessionMessageEntry extends SessionEntryBase {
	type: "message";
	message: StoredMessage;
}

export interface ThinkingLevelChangeEntry extends SessionEntryBase {
	type: "thinking_level_change";
	thinkingLevel: StoredThinkingLevel;
}

export interface ModelChangeEntry extends SessionEntryBase {
	type: "model_change";
	provider: string;
	modelId: string;
}

/** Model usage outside assistant messages (e.g. `kind: "cache_warm"`); counts toward cost, never in context. */
export interface UsageEntry extends SessionEntryBase {
	type: "usage";
	kind: string;
	provider: string;
	model: string;
	usage: Usage;
	note?: string;
}

/**
 * Summary of the entries before `firstKeptEntryId`. A retain-none compaction stores its own id there.
 * `systemMessage` (newer pi) is the complete prompt/tool checkpoint at the boundary.
 */
export interface CompactionEntry<T = unknown> extends SessionEntryBase {
	type: "compaction";
	summary: string;
	firstKeptEntryId: string;
	tokensBefore: number;
	details?: T;
	usage?: Usage;
	/** true when an extension produced it (legacy name). */
	fromHook?: boolean;
	systemMessage?: SystemMessage;
}

/** Summary of an abandoned branch; `parentId` is where the new branch continues, `fromId` the old leaf. */
export interface BranchSummaryEntry<T = unknown> extends SessionEntryBase {
	type: "branch_summary";
	fromId: string;
	summary: string;
	details?: T;
	usage?: Usage;
	fromHook?: boolean;
}

/** Extension state; never in context. */
export interface CustomEntry<T = unknown> extends SessionEntryBase {
	type: "custom";
	customType: string;
	data?: T;
}

/** Extension message that is in context (as a `custom` message). */
export interface CustomMessageEntry<T = unknown> extends SessionEntryBase {
	type: "custom_message";
	customType: string;
	content: string | (TextContent | ImageContent)[];
	details?: T;
	display: boolean;
}

/** Content a `context_edit` may put in place of a target's content. */
export type ContextEditableContent = string | (TextContent | ImageContent)[] | AssistantMessage["content"];

/**
 * Branch-relative edit of an earlier user/assistant/toolResult/custom-message entry's contribution to the model
 * context. `replacement: null` omits the target; otherwise only its content is replaced. Latest edit wins.
 */
export interface ContextEditEntry extends SessionEntryBase {
	type: "context_edit";
	targetId: string;
	replacement: { content: ContextEditableContent } | null;
}

/** Bookmark on an entry; a missing/undefined `label` clears it. Labels are global, latest wins. */
export interface LabelEntry extends SessionEntryBase {
	type: "label";
	targetId: string;
	label: string | undefined;
}

/** Session metadata (display name); latest wins. */
export interface SessionInfoEntry extends SessionEntryBase {
	type: "session_info";
	name?: string;
}

/** The entry union, discriminated on `type`. */
export type SessionEntry =
	| SessionMessageEntry
	| ThinkingLevelChangeEntry
	| ModelChangeEntry
	| UsageEntry
	| CompactionEntry
	| BranchSummaryEntry
	| CustomEntry
	| CustomMessageEntry
	| ContextEditEntry
	| LabelEntry
	| SessionInfoEntry;

export type SessionEntryType = SessionEntry["type"];

/**
 * An entry of a type this version does not know. It is kept in the tree and the file, but the read API types it
 * as `SessionEntry` (as pi does): check `isKnownEntry()` or ignore unknown `type`s in switches.
 */
export interface ForeignEntry extends SessionEntryBase {
	[key: string]: unknown;
}

/** Any line of a session file. */
export type FileEntry = SessionHeader | SessionEntry;

// ---- read API results --------------------------------------------------------------------------------------

export interface SessionTreeNode {
	entry: SessionEntry;
	children: SessionTreeNode[];
	label?: string;
	labelTimestamp?: string;
}

export interface SessionModelRef {
	provider: string;
	modelId: string;
}

/** What the LLM sees for the active branch, plus the settings in effect there. */
export interface SessionContext {
	messages: AgentMessage[];
	/** "off" when the branch never set one. */
	thinkingLevel: StoredThinkingLevel;
	model: SessionModelRef | null;
}

export interface ProjectedSessionEntry {
	sourceEntry: SessionEntry;
	/** Model-visible messages after context edits; empty for state-only entries and omissions. */
	messages: AgentMessage[];
}

export interface SessionProjection extends SessionContext {
	entries: ProjectedSessionEntry[];
}

/** One row of `SessionManager.list()` / `listAll()`. */
export interface SessionInfo {
	path: string;
	id: string;
	/** "" for old sessions without one. */
	cwd: string;
	name?: string;
	/** From the header's `parentSession` (or a v1 `branchedFrom`). */
	parentSessionPath?: string;
	/** Header timestamp. */
	created: Date;
	/** File modification time. */
	modified: Date;
	/** Number of `message` entries. */
	messageCount: number;
	/** Text of the first user message, or "(no messages)". */
	firstMessage: string;
}

export interface NewSessionOptions {
	/** Custom session id (1–128 chars of letters, digits, `.`, `_`, `-`; not starting with `.`). Default: UUID v7. */
	id?: string;
	parentSession?: string;
	/** How the manager writes its files (`create` only; default: the real file system). */
	fileOps?: SessionFileOps;
}

/** How `open` behaves when another process holds the session's lock. */
export interface OpenOptions {
	/** Never lock or write; appends throw. Torn lines are not cut and old versions are not rewritten on disk. */
	readOnly?: boolean;
	/**
	 * "throw" (default): `SessionLockedError`; "readOnly": return a read-only manager (see `forkToNewFile`);
	 * "fork": continue in a new file of the session dir (all entries, same leaf, `parentSession` = the held file),
	 * with a diagnostic naming the held file and the fork.
	 */
	onLocked?: "throw" | "readOnly" | "fork";
	/** How the manager writes its files (default: the real file system). */
	fileOps?: SessionFileOps;
}

export type SessionListProgress = (loaded: number, total: number) => void;
