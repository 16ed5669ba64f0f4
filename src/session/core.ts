/**
 * State and file handling behind `SessionManager`: which file, its lock, loading, the deferred first write and
 * appends. Persistence rules (pi's, plus safety):
 * - A new session writes nothing until it holds an assistant message; then the header and every buffered entry
 *   go to disk at once (atomically), and each later entry is appended immediately as one line.
 * - An existing file is locked when opened for writing (see lock.ts) and migrated (rewritten once) when old.
 * - Memory changes only after the write succeeded, so a failed append leaves memory and file in agreement.
 */

import { dirname, join, resolve } from "node:path";
import { existsSync, mkdirSync, statSync } from "../util/index.ts";
import type { ContextDefaults } from "./context.ts";
import { headerLine } from "./entries.ts";
import {
	describeFileChange,
	migrationBackupPath,
	rewriteWithBackup,
	SessionFile,
	SessionFileChangedError,
	writeNewFile,
} from "./file.ts";
import { describeWriteError, realFileOps, type SessionFileOps } from "./file-ops.ts";
import { assertValidSessionId, newEntryId, uuidv7 } from "./ids.ts";
import { type LoadedFile, loadSessionFile, type RawLine } from "./load.ts";
import { lockSessionFile, type SessionLock, SessionLockedError } from "./lock.ts";
import { sessionFileName } from "./paths.ts";
import { type EntryNode, EntryStore, nodeFor } from "./store.ts";
import {
	CURRENT_SESSION_VERSION,
	type NewSessionOptions,
	type OpenOptions,
	type SessionEntry,
	type SessionHeader,
} from "./types.ts";

/** Appending to a session this manager may not write (read-only open, lock lost). */
export class SessionReadOnlyError extends Error {
	override readonly name = "SessionReadOnlyError";
}

/** Writing to the session file failed (disk full, I/O error …); nothing of the entry is left in the file. */
export class SessionWriteError extends Error {
	override readonly name = "SessionWriteError";
	constructor(
		readonly file: string,
		readonly reason: string,
		options?: ErrorOptions,
	) {
		super(`could not write ${file}: ${reason}`, options);
	}
}

function isAssistant(entry: SessionEntry): boolean {
	return entry.type === "message" && entry.message.role === "assistant";
}

export abstract class SessionCore {
	protected header!: SessionHeader;
	protected store!: EntryStore;
	protected leafId: string | null = null;
	protected sessionFile: string | undefined;
	protected file: SessionFile | undefined;
	protected lock: SessionLock | undefined;
	/** The header is on disk (appends go straight to the file). */
	protected flushed = false;
	protected hasAssistant = false;
	protected readOnlyReason: string | undefined;
	protected diagnostics: string[] = [];
	protected defaults: ContextDefaults = {};
	/** How the file is written (tests pass one that fails on demand). */
	protected ops: SessionFileOps = realFileOps;

	protected constructor(
		protected cwd: string,
		protected sessionDir: string,
		protected readonly persist: boolean,
		protected readonly defaultDir: boolean,
	) {}

	// ---- switching files -----------------------------------------------------------------------------------

	/** Closes the current file and releases its lock (nothing in memory changes). */
	protected releaseFile(): void {
		this.file?.close();
		this.file = undefined;
		this.lock?.release();
		this.lock = undefined;
	}

	protected newHeader(options: NewSessionOptions = {}, now = new Date()): SessionHeader {
		if (options.id !== undefined) assertValidSessionId(options.id);
		const header: SessionHeader = {
			type: "session",
			version: CURRENT_SESSION_VERSION,
			id: options.id ?? uuidv7(now.getTime()),
			timestamp: now.toISOString(),
			cwd: this.cwd,
		};
		if (options.parentSession) header.parentSession = options.parentSession;
		return header;
	}

	/** Starts an empty session; `path` defaults to a new file in the session dir. */
	protected startNew(options: NewSessionOptions = {}, path?: string): void {
		this.releaseFile();
		const now = new Date();
		this.header = this.newHeader(options, now);
		this.store = new EntryStore(undefined, this.diagnostics);
		this.leafId = null;
		this.flushed = false;
		this.hasAssistant = false;
		this.readOnlyReason = undefined;
		this.defaults = {};
		this.sessionFile = this.persist ? (path ?? join(this.sessionDir, sessionFileName(this.header.id, now))) : undefined;
	}

	/** Makes `entries` (already valid, in order) the whole session under `header`; writes it when due. */
	protected adopt(header: SessionHeader, entries: SessionEntry[], path: string | undefined, leafId?: string | null) {
		this.releaseFile();
		this.header = header;
		this.store = new EntryStore(undefined, this.diagnostics);
		for (const entry of entries) this.store.add(nodeFor(entry));
		this.leafId = leafId !== undefined && leafId !== null && this.store.has(leafId) ? leafId : this.store.lastId();
		this.hasAssistant = entries.some(isAssistant);
		this.flushed = false;
		this.readOnlyReason = undefined;
		this.sessionFile = this.persist ? path : undefined;
		if (this.hasAssistant) this.flush([]);
	}

	/**
	 * Loads `path` (or starts a new session there when it is missing or empty). On failure (not a session,
	 * locked) the manager keeps the session it had.
	 */
	protected loadFile(path: string, options: OpenOptions = {}): void {
		const file = resolve(path);
		if (file === this.sessionFile) this.releaseFile();
		if (!existsSync(file) || statSync(file).size === 0) {
			this.startNew({}, file);
			return;
		}
		let readOnly = options.readOnly === true ? "opened read-only" : undefined;
		let lock: SessionLock | undefined;
		if (!readOnly) {
			try {
				lock = lockSessionFile(file);
			} catch (error) {
				if (!(error instanceof SessionLockedError) || options.onLocked !== "readOnly") throw error;
				readOnly = error.message;
			}
		}
		let handle: SessionFile | undefined;
		const diagnostics: string[] = [];
		let loaded: LoadedFile;
		try {
			handle = SessionFile.open(file, lock !== undefined, this.ops);
			loaded = loadSessionFile(handle.descriptor, file, (set) => newEntryId((id) => set.has(id)));
			diagnostics.push(...loaded.diagnostics);
			handle.setLoaded(loaded.size, loaded.validEnd, loaded.tail, loaded.bytes);
			if (loaded.migratedFrom !== undefined && lock) {
				handle = this.rewriteMigrated(file, loaded, handle);
				const backup = migrationBackupPath(file, loaded.migratedFrom);
				diagnostics.push(
					`${file}: migrated from format ${loaded.migratedFrom} to ${CURRENT_SESSION_VERSION}; the original is kept as ${backup}`,
				);
			}
		} catch (error) {
			handle?.close();
			lock?.release();
			throw error;
		}
		this.releaseFile();
		this.diagnostics.push(...diagnostics);
		this.store = new EntryStore(handle, this.diagnostics);
		this.store.adoptLoaded(loaded.nodes, loaded.byId);
		this.header = loaded.header;
		this.file = handle;
		this.lock = lock;
		this.sessionFile = file;
		this.readOnlyReason = readOnly;
		this.flushed = true;
		this.hasAssistant = true;
		this.leafId = this.store.lastId();
		if (this.header.cwd !== "") this.cwd = this.header.cwd;
		this.defaults = legacyDefaults(this.header);
	}

	/** Writes a migrated v1/v2 file back as v3 (see `rewriteWithBackup`); returns the handle on the new file. */
	private rewriteMigrated(file: string, loaded: LoadedFile, handle: SessionFile): SessionFile {
		const order = loaded.rewriteOrder ?? [];
		const lines = function* () {
			yield headerLine(loaded.header);
			for (const item of order) {
				yield isNode(item) ? JSON.stringify(item.entry) : handle.read(item.offset, item.length).toString("utf8");
			}
		};
		try {
			rewriteWithBackup(file, lines(), loaded.migratedFrom ?? 1, this.ops);
		} catch (error) {
			// The original is still there, whole: say why it could not be migrated.
			const reason = `${describeWriteError(error)} while migrating it from format ${loaded.migratedFrom}`;
			throw new SessionWriteError(file, reason, { cause: error });
		}
		handle.close();
		const fresh = SessionFile.open(file, true, this.ops);
		const size = statSync(file).size;
		fresh.setLoaded(size, size, "ok");
		return fresh;
	}

	// ---- writing -------------------------------------------------------------------------------------------

	protected assertWritable(): void {
		const lost = this.lock?.lost;
		if (lost && !this.readOnlyReason) {
			this.readOnlyReason = lost;
			this.diagnostics.push(`${this.sessionFile}: ${lost}; further appends are refused`);
		}
		if (this.readOnlyReason) {
			throw new SessionReadOnlyError(
				`session is read-only (${this.readOnlyReason}); use forkToNewFile() to continue in a new file`,
			);
		}
	}

	/** Writes `entry` as pi would (see the file comment), before it is added to memory. */
	protected persistEntry(entry: SessionEntry): { offset: number; length: number } | undefined {
		this.assertWritable();
		if (!this.persist) return;
		if (this.flushed) {
			try {
				return this.file!.append(JSON.stringify(entry));
			} catch (error) {
				if (!(error instanceof SessionFileChangedError)) throw this.writeError(error);
				// Nothing was written: appending after bytes we did not write could glue two entries together, and
				// appending to a deleted or replaced file would lose the entry when the file is closed.
				const verb = describeFileChange(error.change);
				this.readOnlyReason = `another program ${verb} the file`;
				this.diagnostics.push(error.message);
				throw new SessionReadOnlyError(
					`another program ${verb} ${error.file} (${error.detail}); this session no longer writes to it`,
					{ cause: error },
				);
			}
		}
		if (this.hasAssistant || isAssistant(entry)) {
			try {
				this.flush([entry]);
			} catch (error) {
				throw this.writeError(error);
			}
		}
	}

	/** A failed write as the user should read it: what went wrong and which file (errors without a code pass). */
	private writeError(error: unknown): unknown {
		const code = (error as { code?: unknown } | undefined)?.code;
		if (typeof code !== "string" || !this.sessionFile) return error;
		return new SessionWriteError(this.sessionFile, describeWriteError(error), { cause: error });
	}

	/** First write: header, every entry in memory and `extra`, atomically; then keeps the file open to append. */
	protected flush(extra: SessionEntry[]): void {
		const path = this.sessionFile;
		if (!this.persist || !path) return;
		mkdirSync(dirname(path), { recursive: true });
		this.lock ??= lockSessionFile(path);
		const store = this.store;
		const header = this.header;
		const lines = function* () {
			yield headerLine(header);
			for (const node of store.nodes) {
				const entry = store.materialize(node);
				if (entry) yield JSON.stringify(entry);
			}
			for (const entry of extra) yield JSON.stringify(entry);
		};
		const size = writeNewFile(path, lines(), this.ops);
		const handle = SessionFile.open(path, true, this.ops);
		handle.setLoaded(size, size, "ok");
		this.file = handle;
		this.store.setSource(handle);
		this.flushed = true;
	}

	/** Adds a new entry: id, parent (the leaf) and timestamp are filled in; written first, then kept; leaf moves. */
	protected appendEntry<T extends SessionEntry>(
		fields: Omit<T, "id" | "parentId" | "timestamp">,
		id?: string,
		at: Date = new Date(),
	): T {
		const { type, ...rest } = fields as { type: string };
		const entry = {
			type,
			id: id ?? newEntryId((candidate) => this.store.has(candidate)),
			parentId: this.leafId,
			timestamp: at.toISOString(),
			...rest,
		} as unknown as T;
		const written = this.persistEntry(entry);
		const node = nodeFor(entry);
		if (written) {
			node.offset = written.offset;
			node.length = written.length;
		}
		this.store.add(node);
		this.leafId = entry.id;
		if (isAssistant(entry)) this.hasAssistant = true;
		return entry;
	}

	/**
	 * Stops writing: closes the file and releases the lock; the manager becomes read-only. Reading still works
	 * (entries not parsed yet are read with a short-lived descriptor).
	 */
	close(): void {
		this.releaseFile();
		if (this.persist) this.readOnlyReason ??= "closed";
	}

	/** Problems found while loading or using the session (corrupt lines, migrations, lost lock). */
	getDiagnostics(): string[] {
		return [...this.diagnostics];
	}

	isReadOnly(): boolean {
		return this.readOnlyReason !== undefined || this.lock?.lost !== undefined;
	}
}

function isNode(item: EntryNode | RawLine): item is EntryNode {
	return "id" in item;
}

function legacyDefaults(header: SessionHeader): ContextDefaults {
	const defaults: ContextDefaults = {};
	if (typeof header.provider === "string" && typeof header.modelId === "string") {
		defaults.model = { provider: header.provider, modelId: header.modelId };
	}
	if (typeof header.thinkingLevel === "string") defaults.thinkingLevel = header.thinkingLevel;
	return defaults;
}
