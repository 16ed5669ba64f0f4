/**
 * The durable session model of pi-agent-core's harness (storage v4): entries in a tree, usage rows, scalar values
 * and append-only lists, all committed in sequence-numbered transactions; lanes and operations keep their
 * progress in reserved `pi.*` values so a run can resume after a crash.
 */
import type { AssistantMessage, StopReason, Usage } from "../../../ai/index.ts";
import type { AgentMessage, ThinkingLevel } from "../../types.ts";
import type { Context } from "../context.ts";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type SettledAssistantMessage = AssistantMessage & { stopReason: Exclude<StopReason, "pending"> };

export type EntryType = "message" | "compaction" | "branch_summary" | "custom";
export interface EntryBase {
	id: string;
	parentId: string | null;
	seq: number;
	timestamp: number;
	type: EntryType;
	customType?: string;
}
export interface MessageEntry extends EntryBase {
	type: "message";
	message: AgentMessage;
	terminate?: true;
}
export interface CompactionEntry extends EntryBase {
	type: "compaction";
	summary: string;
	retainedTail: AgentMessage[];
	tokensBefore: number;
	details?: JsonValue;
	usage?: Usage;
	fromHook: boolean;
}
export interface BranchSummaryEntry extends EntryBase {
	type: "branch_summary";
	fromId: string | null;
	summary: string;
	details?: JsonValue;
	usage?: Usage;
	fromHook: boolean;
}
export interface CustomEntry extends EntryBase {
	type: "custom";
	customType: string;
	data?: JsonValue;
}
export type Entry = MessageEntry | CompactionEntry | BranchSummaryEntry | CustomEntry;
export type NewEntry<TEntry extends Entry = Entry> = TEntry extends Entry ? Omit<TEntry, "seq" | "timestamp"> : never;
export type EntryProjector = (
	entry: CustomEntry,
	context: Context,
) => AgentMessage[] | undefined | Promise<AgentMessage[] | undefined>;

export interface LaneConfiguration {
	model: { provider: string; modelId: string };
	thinkingLevel: ThinkingLevel;
	activeToolNames: string[];
}

export interface OperationMeta {
	operationId: string;
	lane: string;
	sourceTipId: string | null;
	startedAt: number;
	intent:
		| { kind: "run"; promptEntryIds: string[] }
		| { kind: "compaction"; customInstructions?: string }
		| { kind: "navigation"; targetId: string | null; summarize: boolean; label?: string; customInstructions?: string };
}

export type Control = { status: "running" } | { status: "cancel_requested"; requestedAt: number };
export interface OperationError {
	code: string;
	message: string;
	details?: JsonValue;
}
export type TerminalStatus = "completed" | "declined" | "aborted" | "failed";
export interface OperationResultRecord {
	operationId: string;
	kind: OperationMeta["intent"]["kind"];
	status: TerminalStatus;
	error?: OperationError;
	fromTipId: string | null;
	tipId: string | null;
	startedAt: number;
	endedAt: number;
}

export type InboxItemKind = "steer" | "followUp" | "nextRun" | "write";
export interface InboxItem {
	entryId: string;
	kind: InboxItemKind;
}

export interface RunSettings {
	compaction: { enabled: boolean; reserveTokens: number; keepRecentTokens: number } & Record<string, unknown>;
	steeringMode: "all" | "one-at-a-time";
	followUpMode: "all" | "one-at-a-time";
	toolExecution: "sequential" | "parallel";
}
export interface OperationScope {
	control: Control;
	settings: RunSettings;
	latestAssistantEntryId: string | null;
}

/**
 * Where a durable operation is: `starting`, `checkpoint`, the assistant / tools / deferred / summary / navigation
 * phases, each with the fields that phase needs to resume.
 */
export type OperationAt =
	| "starting"
	| "checkpoint"
	| "assistant.ready"
	| "assistant.effect_pending"
	| "assistant.retry_wait"
	| "tools"
	| "deferred.suspended"
	| "deferred.effect_pending"
	| "summary.deciding"
	| "summary.ready"
	| "summary.effect_pending"
	| "summary.retry_wait"
	| "navigation.ready_to_commit";
export type OperationState = OperationScope & { at: OperationAt } & Record<string, unknown>;
export interface Operation {
	meta: OperationMeta;
	state: OperationState;
}

export interface LaneState {
	currentOperationId: string | null;
	lastOperationId: string | null;
	inbox: InboxItem[];
}

export type PendingEntry =
	| { type: "message"; payload: AgentMessage }
	| { type: "custom"; customType: string; payload?: JsonValue };

export interface DurableFileOperations {
	read: string[];
	written: string[];
	edited: string[];
}
export type DurableStructuralPreparation =
	| ({ kind: "compaction"; fileOps: DurableFileOperations } & Record<string, unknown>)
	| ({ kind: "branch_summary"; fileOps: DurableFileOperations; totalTokens: number } & Record<string, unknown>);

export interface UsageRow {
	id: string;
	seq: number;
	usage: Usage;
	entryId?: string;
	adjustment: boolean;
	details?: JsonValue;
}

export interface EntryWrite {
	kind: "entry";
	entry: NewEntry;
}
export interface UsageWrite {
	kind: "usage";
	row: Omit<UsageRow, "seq">;
}

declare const storedValueType: unique symbol;
export interface StoredAddressBase {
	readonly namespace: string;
	readonly key: string;
	readonly kind: "value" | "list";
}
/** Address of one scalar value. */
export interface Value<T> extends StoredAddressBase {
	readonly kind: "value";
	readonly [storedValueType]?: (value: T) => T;
}
/** Address of one append-only list. */
export interface ValueList<T> extends StoredAddressBase {
	readonly kind: "list";
	readonly [storedValueType]?: (value: T) => T;
}
export interface StoredValue<T> {
	address: Value<T>;
	value: T;
	seq: number;
}
export interface ListElement<T> {
	seq: number;
	value: T;
}
export interface ListCursor {
	seq: number;
}
export interface ListReadOptions {
	cursor?: ListCursor;
	order?: "asc" | "desc";
	limit?: number;
}
export interface ResolvedListReadOptions {
	cursor?: ListCursor;
	order: "asc" | "desc";
	limit: number;
}
export interface ValueSetWrite {
	kind: "value";
	op: "set";
	namespace: string;
	key: string;
	value: unknown;
}
export interface ValueDeleteWrite {
	kind: "value";
	op: "delete";
	namespace: string;
	key: string;
}
export interface ListAppendWrite {
	kind: "list";
	op: "append";
	namespace: string;
	key: string;
	value: unknown;
}
export interface ListDeleteWrite {
	kind: "list";
	op: "delete";
	namespace: string;
	key: string;
}
export type ValueWrite = ValueSetWrite | ValueDeleteWrite;
export type ListWrite = ListAppendWrite | ListDeleteWrite;
export type Write = EntryWrite | UsageWrite | ValueWrite | ListWrite;

export interface SessionStats {
	messageCount: number;
	usage: Usage;
}
export interface CommitResult {
	firstSeq: number;
	seqs: number[];
	timestamp: number;
	stats: SessionStats;
}

export type CommittedEntryWrite = Entry & { kind: "entry" };
export type CommittedUsageWrite = UsageRow & { kind: "usage" };
export type CommittedValueSetWrite = ValueSetWrite & { seq: number };
export type CommittedValueDeleteWrite = ValueDeleteWrite & { seq: number };
export type CommittedListAppendWrite = ListAppendWrite & { seq: number };
export type CommittedListDeleteWrite = ListDeleteWrite & { seq: number };
export type CommittedWrite =
	| CommittedEntryWrite
	| CommittedUsageWrite
	| CommittedValueSetWrite
	| CommittedValueDeleteWrite
	| CommittedListAppendWrite
	| CommittedListDeleteWrite;
export interface PreparedCommit {
	writes: CommittedWrite[];
	result: Omit<CommitResult, "stats">;
}
export interface CommitValidationState {
	hasEntryOrUsageId(id: string): boolean;
	hasEntryId(id: string): boolean;
}

export type ForkOptions =
	| { scope: "branch"; branch: string; entryId?: string; position?: "before" | "at"; id?: string }
	| { scope: "tree"; id?: string };
export type ForkCurrentStatePlan =
	| { scope: "branch"; branch: string; destinationTip: string | null }
	| { scope: "tree" };
export interface ForkSourceSnapshot {
	entries: Entry[];
	scalarValues: StoredValue<unknown>[];
	/** False when the backend supplied only the requested branch, not the whole tree. */
	entriesComplete?: boolean;
}
export interface ForkDestinationSnapshot {
	entries: Map<string, Entry>;
	scalarValues: StoredValue<unknown>[];
	nextSeq: number;
}

export interface EntryStructure {
	id: string;
	parentId: string | null;
	seq: number;
	timestamp: number;
	type: EntryType;
	customType?: string;
}
export interface EntryCursor {
	seq: number;
}
export interface BranchScan {
	start?: string;
	stopAtType?: EntryType;
	stopAtId?: string;
	type?: EntryType;
	customType?: string;
	order?: "newestFirst" | "oldestFirst";
	limit?: number;
	cursor?: EntryCursor;
}
export type StorageBranchScan = BranchScan & { start: string };
export interface EntryScan {
	type?: EntryType;
	customType?: string;
	fromSeq?: number;
	toSeq?: number;
	order?: "asc" | "desc";
	limit?: number;
}
export interface UsageScan {
	fromSeq?: number;
	toSeq?: number;
	order?: "asc" | "desc";
	limit?: number;
}

/** A storage backend: transactional commits plus the reads sessions need. */
export interface Storage {
	commit(writes: Write[], context: Context): Promise<CommitResult>;
	getEntries(ids: string[], context: Context): Promise<Map<string, Entry>>;
	getValue<T>(address: Value<T>, context: Context): Promise<StoredValue<T> | undefined>;
	scanValues<T>(prefix: Value<T>, context: Context): Promise<StoredValue<T>[]>;
	readList<T>(address: ValueList<T>, options: ListReadOptions | undefined, context: Context): Promise<ListElement<T>[]>;
	scanBranch(query: StorageBranchScan, context: Context): Promise<Entry[]>;
	scanBranchStructure(query: StorageBranchScan, context: Context): Promise<EntryStructure[]>;
	scanEntries(query: EntryScan, context: Context): Promise<Entry[]>;
	scanUsage(query: UsageScan, context: Context): Promise<UsageRow[]>;
	getStats(context: Context): Promise<SessionStats>;
	close(context: Context): Promise<void>;
}

export interface SessionMetadata {
	id: string;
	createdAt: number;
	storageVersion: number;
	cwd?: string;
	parentSessionId?: string;
	legacyParentSessionPath?: string;
}
export interface IdGenerator {
	next(timestampMs?: number): string;
}
export interface EntryQuery {
	type?: EntryType;
	customType?: string;
	order?: "asc" | "desc";
	limit?: number;
	cursor?: EntryCursor;
}
export interface SessionReader {
	getEntries(ids: string[], context: Context): Promise<Map<string, Entry>>;
	getStats(context: Context): Promise<SessionStats>;
	getValue<T>(address: Value<T>, context: Context): Promise<StoredValue<T> | undefined>;
	scanValues<T>(prefix: Value<T>, context: Context): Promise<StoredValue<T>[]>;
	readList<T>(address: ValueList<T>, options: ListReadOptions | undefined, context: Context): Promise<ListElement<T>[]>;
	scanBranch(query: StorageBranchScan, context: Context): Promise<Entry[]>;
}
export interface SessionMutation extends SessionReader {
	commit(writes: Write[], context: Context): Promise<CommitResult>;
	end(context: Context): Promise<void>;
}
export type SessionMutator = Omit<SessionMutation, "end">;
export type SessionMutationCallback<T> = (mutator: SessionMutator, context: Context) => T | Promise<T>;
export interface Branch {
	readonly name: string;
	getTipId(context: Context): Promise<string | null>;
	findEntries(query: BranchScan | undefined, context: Context): Promise<Entry[]>;
	findEntry(query: BranchScan | undefined, context: Context): Promise<Entry | undefined>;
	appendMessage(message: AgentMessage, context: Context): Promise<string>;
	appendCustomEntry(customType: string, data: JsonValue | undefined, context: Context): Promise<string>;
}
export interface Session<TMetadata extends SessionMetadata = SessionMetadata> extends SessionReader {
	readonly metadata: TMetadata;
	readonly idGenerator: IdGenerator;
	getEntry(id: string, context: Context): Promise<Entry | undefined>;
	getName(context: Context): Promise<string | undefined>;
	getLabel(targetId: string, context: Context): Promise<string | undefined>;
	findEntries(query: EntryQuery | undefined, context: Context): Promise<Entry[]>;
	findEntry(query: EntryQuery | undefined, context: Context): Promise<Entry | undefined>;
	branch(name: string, context: Context): Promise<Branch | undefined>;
	createBranch(name: string, at: string | null, context: Context): Promise<Branch>;
	beginMutation(context: Context): Promise<SessionMutation>;
	mutate<T>(mutation: SessionMutationCallback<T>, context: Context): Promise<T>;
	setValue<T>(address: Value<T>, next: NoInfer<T>, context: Context): Promise<void>;
	deleteValue<T>(address: Value<T>, context: Context): Promise<void>;
	appendList<T>(address: ValueList<T>, element: NoInfer<T>, context: Context): Promise<void>;
	deleteList<T>(address: ValueList<T>, context: Context): Promise<void>;
	setName(name: string | undefined, context: Context): Promise<void>;
	setLabel(targetId: string, label: string | undefined, context: Context): Promise<void>;
	close(context: Context): Promise<void>;
}
export interface SessionCreateOptions {
	id?: string;
	parentSessionId?: string;
}
export interface SessionRepo<
	TMetadata extends SessionMetadata = SessionMetadata,
	TCreateOptions extends { id?: string; parentSessionId?: string } = SessionCreateOptions,
	TListOptions = void,
> {
	create(options: TCreateOptions, context: Context): Promise<Session<TMetadata>>;
	open(metadata: TMetadata, context: Context): Promise<Session<TMetadata>>;
	list(options: TListOptions | undefined, context: Context): Promise<TMetadata[]>;
	delete(metadata: TMetadata, context: Context): Promise<void>;
	fork(source: TMetadata, options: ForkOptions, context: Context): Promise<Session<TMetadata>>;
}
