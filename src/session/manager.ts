/**
 * `SessionManager`: pi's session API over an append-only entry tree. Appending creates a child of the current
 * leaf and moves the leaf to it; `branch()` moves the leaf back without touching history. Read methods return the
 * stored entry objects (treat them as read-only). See core.ts for when and how things reach the disk.
 */
import { dirname, join, resolve } from "node:path";
import type { Usage } from "../ai/index.ts";
import { SessionAppender } from "./appender.ts";
import { projectPath, selectContextNodes } from "./context.ts";
import { fromFileEntries, labelsForBranch } from "./entries.ts";
import { findMostRecentSession, findSessionById, listSessions, sessionDirsUnder } from "./list.ts";
import { getDefaultSessionDir, getSessionsRoot, sessionFileName } from "./paths.ts";
import type { EntryNode } from "./store.ts";
import type {
	FileEntry,
	NewSessionOptions,
	OpenOptions,
	SessionContext,
	SessionEntry,
	SessionHeader,
	SessionInfo,
	SessionListProgress,
	SessionProjection,
	SessionTreeNode,
} from "./types.ts";

export type { AppendableMessage } from "./appender.ts";

/** One entry as a tree layout sees it before the entry is read. */
export interface TreeNodeInfo {
	readonly id: string;
	readonly parentId: string | null;
	readonly type: string;
	readonly role: string | undefined;
}

export class SessionManager extends SessionAppender {
	private constructor(cwd: string, sessionDir: string | undefined, persist: boolean) {
		const dir = resolve(sessionDir ?? getDefaultSessionDir(cwd));
		super(resolve(cwd), dir, persist, sessionDir === undefined);
	}

	// ---- constructors --------------------------------------------------------------------------------------

	/** A new session; the file `<sessionDir>/<time>_<id>.jsonl` appears with the first assistant message. */
	static create(cwd: string, sessionDir?: string, options?: NewSessionOptions): SessionManager {
		const manager = new SessionManager(cwd, sessionDir, true);
		if (options?.fileOps) manager.ops = options.fileOps;
		manager.startNew(options);
		return manager;
	}

	/**
	 * Opens a session file for appending (locked; migrated when old). A missing or empty file starts a new session
	 * at that path. Throws `SessionFormatError` for a file that is not a session and `SessionLockedError` when
	 * another process holds it (unless `options.onLocked` is "readOnly" or "fork").
	 */
	static open(path: string, sessionDir?: string, cwdOverride?: string, options?: OpenOptions): SessionManager {
		const file = resolve(path);
		const manager = new SessionManager(cwdOverride ?? process.cwd(), sessionDir ?? dirname(file), true);
		if (options?.fileOps) manager.ops = options.fileOps;
		const fork = options?.onLocked === "fork";
		manager.loadFile(file, fork ? { ...options, onLocked: "readOnly" } : options);
		if (cwdOverride !== undefined) manager.cwd = resolve(cwdOverride);
		if (fork && manager.readOnlyReason !== undefined) {
			// Another pi writes this file: never interleave with it, continue in a fork of what it holds now.
			const held = manager.readOnlyReason;
			const forked = manager.forkToNewFile();
			manager.diagnostics.push(`${held}; continuing in a fork: ${forked}`);
		}
		return manager;
	}

	/** Opens the most recently modified session in the session dir, or creates one. */
	static continueRecent(cwd: string, sessionDir?: string, options?: OpenOptions): SessionManager {
		const dir = sessionDir ?? getDefaultSessionDir(cwd);
		const recent = findMostRecentSession(dir, cwd);
		return recent
			? SessionManager.open(recent, sessionDir, undefined, options)
			: SessionManager.create(cwd, sessionDir);
	}

	/** A session that never touches the disk, optionally holding `entries` (a header first, then entries). */
	static inMemory(cwd: string = process.cwd(), options?: NewSessionOptions, entries?: FileEntry[]): SessionManager {
		const manager = new SessionManager(cwd, undefined, false);
		manager.startNew(options);
		if (entries && entries.length > 0) manager.loadEntries(entries);
		return manager;
	}

	/** A new session in `targetCwd` holding all of `sourcePath`'s entries, with `parentSession` = the source. */
	static forkFrom(sourcePath: string, targetCwd: string, sessionDir?: string, options?: NewSessionOptions) {
		const source = SessionManager.open(sourcePath, undefined, undefined, { readOnly: true });
		const entries = source.getEntries();
		const leaf = source.getLeafId();
		source.close();
		const manager = new SessionManager(targetCwd, sessionDir, true);
		manager.startNew({ ...options, parentSession: resolve(sourcePath) });
		manager.adopt(manager.header, entries, manager.sessionFile, leaf);
		return manager;
	}

	/** The file of session `id` in the session dir (file names first, then headers), or undefined. */
	static findById(cwd: string, id: string, sessionDir?: string): string | undefined {
		return findSessionById(sessionDir ?? getDefaultSessionDir(cwd), id);
	}

	/** Sessions in the session dir for `cwd`, newest first. */
	static list(
		cwd: string,
		sessionDir?: string,
		onProgress?: SessionListProgress,
		signal?: AbortSignal,
	): Promise<SessionInfo[]> {
		return listSessions([sessionDir ?? getDefaultSessionDir(cwd)], onProgress, signal);
	}

	/** Sessions of every working directory under `sessionDir` (default `<agentDir>/sessions`), newest first. */
	static listAll(onProgress?: SessionListProgress, signal?: AbortSignal): Promise<SessionInfo[]>;
	static listAll(sessionDir?: string, onProgress?: SessionListProgress, signal?: AbortSignal): Promise<SessionInfo[]>;
	static listAll(
		first?: string | SessionListProgress,
		second?: SessionListProgress | AbortSignal,
		third?: AbortSignal,
	): Promise<SessionInfo[]> {
		if (typeof first === "function")
			return listSessions(sessionDirsUnder(getSessionsRoot()), first, second as AbortSignal);
		return listSessions(sessionDirsUnder(first ?? getSessionsRoot()), second as SessionListProgress, third);
	}

	private loadEntries(fileEntries: FileEntry[]): void {
		const { header, entries } = fromFileEntries(fileEntries, this.diagnostics);
		this.adopt(header ?? this.header, entries, undefined);
	}

	// ---- which session -------------------------------------------------------------------------------------

	/** Switches to `path` (resume): loads it like `open`. */
	setSessionFile(path: string, options?: OpenOptions): void {
		this.loadFile(path, options);
	}

	/** Switches to a new empty session in the same session dir; returns its file path (undefined in memory). */
	newSession(options?: NewSessionOptions): string | undefined {
		this.startNew(options);
		return this.sessionFile;
	}

	isPersisted(): boolean {
		return this.persist;
	}

	getCwd(): string {
		return this.cwd;
	}

	getSessionDir(): string {
		return this.sessionDir;
	}

	usesDefaultSessionDir(): boolean {
		return this.defaultDir;
	}

	getSessionId(): string {
		return this.header.id;
	}

	/** The session's file (it may not exist yet); undefined for in-memory sessions. */
	getSessionFile(): string | undefined {
		return this.sessionFile;
	}

	getHeader(): SessionHeader | null {
		return { ...this.header };
	}

	// ---- reading -------------------------------------------------------------------------------------------

	getSessionName(): string | undefined {
		return this.store.getName();
	}

	getLeafId(): string | null {
		return this.leafId;
	}

	getLeafEntry(): SessionEntry | undefined {
		return this.leafId === null ? undefined : this.store.entry(this.leafId);
	}

	getEntry(id: string): SessionEntry | undefined {
		return this.store.entry(id);
	}

	getChildren(parentId: string): SessionEntry[] {
		return this.materializeAll(this.store.childNodes(parentId));
	}

	getLabel(id: string): string | undefined {
		return this.store.getLabel(id);
	}

	/** Entries from the root to `fromId` (default: the leaf), all types. */
	getBranch(fromId?: string): SessionEntry[] {
		const path = this.store.path(fromId ?? this.leafId);
		this.store.prefetch(path);
		return this.materializeAll(path);
	}

	/** The ids of `getBranch(fromId)`, without reading any entry. */
	getBranchIds(fromId?: string): string[] {
		return this.store
			.path(fromId ?? this.leafId)
			.filter((node) => !node.broken)
			.map((node) => node.id);
	}

	/** The compaction-aware entry list of the active branch (see context.ts). */
	buildContextEntries(): SessionEntry[] {
		const get = (node: EntryNode) => this.store.materialize(node);
		const selected = selectContextNodes(this.store.path(this.leafId), get);
		this.store.prefetch(selected);
		return this.materializeAll(selected);
	}

	buildSessionProjection(): SessionProjection {
		const get = (node: EntryNode) => this.store.materialize(node);
		return projectPath(this.store.path(this.leafId), get, this.defaults, (nodes) => this.store.prefetch(nodes));
	}

	/** What the LLM sees on the active branch, with the model and thinking level in effect. */
	buildSessionContext(): SessionContext {
		const { messages, thinkingLevel, model } = this.buildSessionProjection();
		return { messages, thinkingLevel, model };
	}

	/** Every entry in file order (a shallow copy of the list). */
	getEntries(): SessionEntry[] {
		return this.store.entries();
	}

	/** How many entries the file holds (without reading them). */
	getEntryCount(): number {
		return this.store.nodes.length;
	}

	/**
	 * Entries `start` to `end` (exclusive) in file order. A long session read in slices keeps a UI responsive
	 * where `getEntries()` would read it in one go.
	 */
	getEntriesBetween(start: number, end: number): SessionEntry[] {
		return this.store.entriesBetween(start, end);
	}

	/**
	 * Every entry's id, effective parent, type and message role in file order, without parsing message lines: what a
	 * tree view of a long session lays out before it reads any entry. The list is live (appends grow it).
	 */
	getTreeNodes(): readonly TreeNodeInfo[] {
		return this.store.nodes;
	}

	/** The position of `id` in `getTreeNodes()` (-1: no such entry), from the session's id index. */
	getTreeNodeIndex(id: string): number {
		return this.store.node(id)?.seq ?? -1;
	}

	/** The labels in force by entry id, with the time each was set (live). */
	getLabels(): ReadonlyMap<string, { label: string; timestamp: string }> {
		return this.store.labelEntries();
	}

	getTree(): SessionTreeNode[] {
		return this.store.tree();
	}

	private materializeAll(nodes: EntryNode[]): SessionEntry[] {
		const out: SessionEntry[] = [];
		for (const node of nodes) {
			const entry = this.store.materialize(node);
			if (entry) out.push(entry);
		}
		return out;
	}

	// ---- navigation ----------------------------------------------------------------------------------------

	/** Moves the leaf to `entryId`; the next append starts a branch there. */
	branch(entryId: string): void {
		if (!this.store.has(entryId)) throw new Error(`Entry ${entryId} not found`);
		this.leafId = entryId;
	}

	/** Moves the leaf before the first entry; the next append is a new root. */
	resetLeaf(): void {
		this.leafId = null;
	}

	/** `branch(branchFromId)` (null: a new root) plus a `branch_summary` of the path being left. */
	branchWithSummary(
		branchFromId: string | null,
		summary: string,
		details?: unknown,
		fromHook?: boolean,
		usage?: Usage,
	): string {
		if (branchFromId !== null && !this.store.has(branchFromId)) throw new Error(`Entry ${branchFromId} not found`);
		const previous = this.leafId;
		this.leafId = branchFromId;
		try {
			return this.appendBranchSummary(previous ?? "root", summary, details, fromHook, usage);
		} catch (error) {
			this.leafId = previous;
			throw error;
		}
	}

	/**
	 * Switches to a new session holding only the path root → `leafId` (labels of those entries included), with
	 * `parentSession` = this file. Returns the new file path, or undefined for in-memory sessions.
	 */
	createBranchedSession(leafId: string): string | undefined {
		if (!this.store.has(leafId)) throw new Error(`Entry ${leafId} not found`);
		const path = this.getBranch(leafId);
		path.push(...labelsForBranch(path, this.store.labelEntries()));
		const header = this.newHeader(this.persist ? { parentSession: this.sessionFile } : {});
		const file = this.persist ? this.newFilePath(header) : undefined;
		this.adopt(header, path, file);
		return file;
	}

	/**
	 * Continues this session in a new file of the same session dir (all entries, same leaf, `parentSession` = this
	 * file): the way out of a read-only session. Returns the new path (undefined in memory).
	 */
	forkToNewFile(options?: NewSessionOptions): string | undefined {
		const entries = this.getEntries();
		const leaf = this.leafId;
		const parentSession = this.persist ? this.sessionFile : undefined;
		const header = this.newHeader({ ...options, ...(parentSession ? { parentSession } : {}) });
		const file = this.persist ? this.newFilePath(header) : undefined;
		this.adopt(header, entries, file, leaf);
		return file;
	}

	private newFilePath(header: SessionHeader): string {
		return join(this.sessionDir, sessionFileName(header.id, new Date(header.timestamp)));
	}
}
