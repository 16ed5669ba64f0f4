/**
 * `MemorySessionRepo`: sessions kept in memory for tests and short-lived hosts. A session is open at most once at a
 * time; closing the handle waits for the calls it admitted, then frees it to be opened again. Forks get a new id
 * and remember their parent.
 */
import { uuidv7 } from "../../../util/index.ts";
import type { Context } from "../context.ts";
import { MemoryStorage } from "./memory-storage.ts";
import { StorageBackedSession } from "./session.ts";
import type {
	Branch,
	ForkOptions,
	Session,
	SessionCreateOptions,
	SessionMetadata,
	SessionMutation,
	SessionRepo,
} from "./types.ts";

const MEMORY_STORAGE_VERSION = 1;

interface MemoryRecord {
	metadata: SessionMetadata;
	storage: MemoryStorage;
	session: StorageBackedSession;
	open: boolean;
}

/** One opened handle: admits calls while open, refuses them after `close`. */
function openHandle(session: StorageBackedSession, onClose: () => void): Session {
	const admitted = new Set<Promise<unknown>>();
	const closedError = new Error("Session is closed");
	let state: "open" | "closing" | "closed" = "open";
	let closing: Promise<void> | undefined;
	const admit = <T>(call: () => Promise<T>): Promise<T> => {
		if (state !== "open") return Promise.reject(closedError);
		let result: Promise<T>;
		try {
			result = call();
		} catch (error) {
			result = Promise.reject(error);
		}
		admitted.add(result);
		const forget = () => admitted.delete(result);
		result.then(forget, forget);
		return result;
	};
	const wrapBranch = (branch: Branch): Branch => ({
		name: branch.name,
		getTipId: (c) => admit(() => branch.getTipId(c)),
		findEntries: (q, c) => admit(() => branch.findEntries(q, c)),
		findEntry: (q, c) => admit(() => branch.findEntry(q, c)),
		appendMessage: (m, c) => admit(() => branch.appendMessage(m, c)),
		appendCustomEntry: (t, d, c) => admit(() => branch.appendCustomEntry(t, d, c)),
	});
	const handle: Session = {
		metadata: session.metadata,
		idGenerator: session.idGenerator,
		async beginMutation(context: Context): Promise<SessionMutation> {
			let done = () => {};
			const finished = new Promise<void>((resolve) => {
				done = resolve;
			});
			admitted.add(finished);
			const finish = () => {
				admitted.delete(finished);
				done();
			};
			let source: SessionMutation;
			try {
				source = await admit(() => session.beginMutation(context));
			} catch (error) {
				finish();
				throw error;
			}
			if (state !== "open") {
				await source.end(context);
				finish();
				throw closedError;
			}
			let ended = false;
			return {
				commit: (w, c) => source.commit(w, c),
				end: async (c) => {
					try {
						await source.end(c);
					} finally {
						if (!ended) {
							ended = true;
							finish();
						}
					}
				},
				getEntries: (ids, c) => source.getEntries(ids, c),
				getStats: (c) => source.getStats(c),
				getValue: (a, c) => source.getValue(a, c),
				scanValues: (p, c) => source.scanValues(p, c),
				readList: (a, o, c) => source.readList(a, o, c),
				scanBranch: (q, c) => source.scanBranch(q, c),
			};
		},
		mutate: (mutation, context) =>
			admit(() =>
				session.mutate((mutator, c) => {
					if (state !== "open") throw closedError;
					return mutation(mutator, c);
				}, context),
			),
		getEntries: (ids, c) => admit(() => session.getEntries(ids, c)),
		getEntry: (id, c) => admit(() => session.getEntry(id, c)),
		getValue: (a, c) => admit(() => session.getValue(a, c)),
		scanValues: (p, c) => admit(() => session.scanValues(p, c)),
		readList: (a, o, c) => admit(() => session.readList(a, o, c)),
		scanBranch: (q, c) => admit(() => session.scanBranch(q, c)),
		getStats: (c) => admit(() => session.getStats(c)),
		getName: (c) => admit(() => session.getName(c)),
		getLabel: (id, c) => admit(() => session.getLabel(id, c)),
		findEntries: (q, c) => admit(() => session.findEntries(q, c)),
		findEntry: (q, c) => admit(() => session.findEntry(q, c)),
		branch: async (name, c) => {
			const branch = await admit(() => session.branch(name, c));
			return branch === undefined ? undefined : wrapBranch(branch);
		},
		createBranch: async (name, at, c) => wrapBranch(await admit(() => session.createBranch(name, at, c))),
		setValue: (a, v, c) => admit(() => session.setValue(a, v, c)),
		deleteValue: (a, c) => admit(() => session.deleteValue(a, c)),
		appendList: (a, v, c) => admit(() => session.appendList(a, v, c)),
		deleteList: (a, c) => admit(() => session.deleteList(a, c)),
		setName: (n, c) => admit(() => session.setName(n, c)),
		setLabel: (id, l, c) => admit(() => session.setLabel(id, l, c)),
		close: () => {
			if (!closing) {
				state = "closing";
				closing = Promise.allSettled([...admitted]).then(() => {
					state = "closed";
					onClose();
				});
			}
			return closing;
		},
	};
	return handle;
}

export class MemorySessionRepo implements SessionRepo<SessionMetadata, SessionCreateOptions> {
	private readonly now: () => number;
	private readonly sessions = new Map<string, MemoryRecord>();
	private readonly pendingIds = new Set<string>();
	private closed = false;
	private closing: Promise<void> | undefined;

	constructor(options: { now?: () => number } = {}) {
		this.now = options.now ?? Date.now;
	}

	async create(options: SessionCreateOptions, context: Context): Promise<Session> {
		this.checkOpen();
		const createdAt = this.now();
		const id = options.id ?? uuidv7(createdAt);
		this.reserve(id);
		const metadata: SessionMetadata = {
			id,
			createdAt,
			storageVersion: MEMORY_STORAGE_VERSION,
			...(options.parentSessionId === undefined ? {} : { parentSessionId: options.parentSessionId }),
		};
		const storage = new MemoryStorage({ now: this.now });
		const session = new StorageBackedSession(metadata, storage);
		try {
			const record = { metadata, storage, session, open: true };
			this.sessions.set(id, record);
			return this.handle(record);
		} catch (error) {
			await session.close(context);
			throw error;
		} finally {
			this.pendingIds.delete(id);
		}
	}

	open(metadata: SessionMetadata, _context: Context): Promise<Session> {
		this.checkOpen();
		const record = this.sessions.get(metadata.id);
		if (!record) return Promise.reject(new Error(`Unknown session: ${metadata.id}`));
		if (record.open) return Promise.reject(new Error(`Session is already open: ${metadata.id}`));
		record.open = true;
		return Promise.resolve(this.handle(record));
	}

	list(_options: undefined, _context: Context): Promise<SessionMetadata[]> {
		this.checkOpen();
		return Promise.resolve([...this.sessions.values()].map((record) => record.metadata));
	}

	async delete(metadata: SessionMetadata, context: Context): Promise<void> {
		this.checkOpen();
		const record = this.sessions.get(metadata.id);
		if (!record) throw new Error(`Unknown session: ${metadata.id}`);
		if (record.open) throw new Error(`Session is open: ${metadata.id}`);
		await record.session.close(context);
		this.sessions.delete(metadata.id);
	}

	async fork(source: SessionMetadata, options: ForkOptions, _context: Context): Promise<Session> {
		this.checkOpen();
		const from = this.sessions.get(source.id);
		if (!from) throw new Error(`Unknown session: ${source.id}`);
		const createdAt = this.now();
		const id = options.id ?? uuidv7(createdAt);
		this.reserve(id);
		try {
			const storage = await from.storage.fork(options);
			const metadata: SessionMetadata = {
				id,
				createdAt,
				storageVersion: MEMORY_STORAGE_VERSION,
				parentSessionId: from.metadata.id,
			};
			const record = { metadata, storage, session: new StorageBackedSession(metadata, storage), open: true };
			this.sessions.set(id, record);
			return this.handle(record);
		} finally {
			this.pendingIds.delete(id);
		}
	}

	close(context: Context): Promise<void> {
		if (!this.closing) {
			this.closed = true;
			this.closing = Promise.all([...this.sessions.values()].map((r) => r.session.close(context))).then(
				() => undefined,
			);
		}
		return this.closing;
	}

	private handle(record: MemoryRecord): Session {
		return openHandle(record.session, () => {
			record.open = false;
		});
	}

	private reserve(id: string): void {
		if (this.sessions.has(id) || this.pendingIds.has(id)) throw new Error(`Session already exists: ${id}`);
		this.pendingIds.add(id);
	}

	private checkOpen(): void {
		if (this.closed) throw new Error("MemorySessionRepo is closed");
	}
}
