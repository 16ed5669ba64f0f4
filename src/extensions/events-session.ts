import type { Usage } from "../ai/index.ts";
import type {
	BranchSummaryEntry,
	CompactionEntry,
	CompactionPreparation,
	CompactionResult,
	SessionEntry,
} from "./types.ts";

export interface ProjectTrustEvent {
	type: "project_trust";
	cwd: string;
}
export interface ProjectTrustEventResult {
	trusted: "yes" | "no" | "undecided";
	remember?: boolean;
}
export interface ResourcesDiscoverEvent {
	type: "resources_discover";
	cwd: string;
	reason: "startup" | "reload";
}
export interface ResourcesDiscoverResult {
	skillPaths?: string[];
	promptPaths?: string[];
	themePaths?: string[];
}
export interface TaggedPath {
	path: string;
	/** The extension whose handler returned the path. */
	extensionPath: string;
}
export interface DiscoveredResources {
	skillPaths: TaggedPath[];
	promptPaths: TaggedPath[];
	themePaths: TaggedPath[];
}
export interface SessionStartEvent {
	type: "session_start";
	/** Added in pi 0.65 (0.58-era handlers ignore it). */
	reason: "startup" | "reload" | "new" | "resume" | "fork";
	previousSessionFile?: string;
}
export interface SessionInfoChangedEvent {
	type: "session_info_changed";
	name: string | undefined;
}
export interface SessionBeforeSwitchEvent {
	type: "session_before_switch";
	reason: "new" | "resume";
	targetSessionFile?: string;
}
/** Legacy (≤ 0.64): after a switch; newer pi sends `session_start` with reason new/resume instead. */
export interface SessionSwitchEvent {
	type: "session_switch";
	reason: "new" | "resume";
	previousSessionFile: string | undefined;
}
export interface SessionBeforeForkEvent {
	type: "session_before_fork";
	entryId: string;
	position: "before" | "at";
}
/** Legacy (≤ 0.64): after a fork; newer pi sends `session_start` with reason fork instead. */
export interface SessionForkEvent {
	type: "session_fork";
	previousSessionFile: string | undefined;
}
export type CompactionReason = "manual" | "threshold" | "overflow";
export interface SessionBeforeCompactEvent {
	type: "session_before_compact";
	preparation: CompactionPreparation;
	branchEntries: SessionEntry[];
	customInstructions?: string;
	reason: CompactionReason;
	willRetry: boolean;
	signal: AbortSignal;
}
export interface SessionCompactEvent {
	type: "session_compact";
	compactionEntry: CompactionEntry;
	fromExtension: boolean;
	reason: CompactionReason;
	willRetry: boolean;
}
export interface SessionCompactFailedEvent {
	type: "session_compact_failed";
	reason: CompactionReason;
	errorMessage?: string;
	aborted: boolean;
	willRetry: boolean;
	fromExtension: boolean;
}
export interface SessionShutdownEvent {
	type: "session_shutdown";
	reason: "quit" | "reload" | "new" | "resume" | "fork";
	targetSessionFile?: string;
}
export interface TreePreparation {
	targetId: string;
	oldLeafId: string | null;
	commonAncestorId: string | null;
	entriesToSummarize: SessionEntry[];
	userWantsSummary: boolean;
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}
export interface SessionBeforeTreeEvent {
	type: "session_before_tree";
	preparation: TreePreparation;
	signal: AbortSignal;
}
export interface SessionTreeEvent {
	type: "session_tree";
	newLeafId: string | null;
	oldLeafId: string | null;
	summaryEntry?: BranchSummaryEntry;
	fromExtension?: boolean;
}
export interface SessionBeforeSwitchResult {
	cancel?: boolean;
}
export interface SessionBeforeForkResult {
	cancel?: boolean;
	skipConversationRestore?: boolean;
}
export interface SessionBeforeCompactResult {
	cancel?: boolean;
	compaction?: CompactionResult;
}
export interface SessionBeforeTreeResult {
	cancel?: boolean;
	summary?: { summary: string; details?: unknown; usage?: Usage };
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}
