/** `MemoryStorage`: a `Storage` kept entirely in memory, commits serialised, forks taken between commits. */
import type { Context } from "../context.ts";
import { InMemoryStorageState } from "./state.ts";
import type {
	CommitResult,
	Entry,
	EntryScan,
	EntryStructure,
	ForkOptions,
	ListElement,
	ListReadOptions,
	SessionStats,
	Storage,
	StorageBranchScan,
	StoredValue,
	UsageRow,
	UsageScan,
	Value,
	ValueList,
	Write,
} from "./types.ts";

export class MemoryStorage implements Storage {
	private readonly now: () => number;
	state = new InMemoryStorageState();
	private queue: Promise<void> = Promise.resolve();
	private status: "open" | "closing" | "closed" = "open";
	private closing: Promise<void> | undefined;

	constructor(options: { now?: () => number } = {}) {
		this.now = options.now ?? Date.now;
	}

	private read<T>(fn: () => T): Promise<T> {
		if (this.status !== "open") return Promise.reject(new Error("MemoryStorage is closed"));
		try {
			return Promise.resolve(fn());
		} catch (error) {
			return Promise.reject(error);
		}
	}

	private enqueue<T>(job: () => T): Promise<T> {
		const result = this.queue.then(job);
		this.queue = result.then(
			() => undefined,
			() => undefined,
		);
		return result;
	}

	async commit(writes: Write[], _context: Context): Promise<CommitResult> {
		if (this.status !== "open") throw new Error("MemoryStorage is closed");
		return this.enqueue(() => {
			const prepared = this.state.prepareCommit(writes, this.now());
			const stats = this.state.applyValidated(prepared.writes);
			return { ...prepared.result, stats };
		});
	}

	getEntries(ids: string[], _context: Context): Promise<Map<string, Entry>> {
		return this.read(() => this.state.getEntries(ids));
	}
	getValue<T>(address: Value<T>, _context: Context): Promise<StoredValue<T> | undefined> {
		return this.read(() => this.state.getValue(address));
	}
	scanValues<T>(prefix: Value<T>, _context: Context): Promise<StoredValue<T>[]> {
		return this.read(() => this.state.scanValues(prefix));
	}
	readList<T>(
		address: ValueList<T>,
		options: ListReadOptions | undefined,
		_context: Context,
	): Promise<ListElement<T>[]> {
		return this.read(() => this.state.readList(address, options));
	}
	scanBranch(query: StorageBranchScan, _context: Context): Promise<Entry[]> {
		return this.read(() => this.state.scanBranch(query));
	}
	scanBranchStructure(query: StorageBranchScan, _context: Context): Promise<EntryStructure[]> {
		return this.read(() => this.state.scanBranchStructure(query));
	}
	scanEntries(query: EntryScan, _context: Context): Promise<Entry[]> {
		return this.read(() => this.state.scanEntries(query));
	}
	scanUsage(query: UsageScan, _context: Context): Promise<UsageRow[]> {
		return this.read(() => this.state.scanUsage(query));
	}
	getStats(_context: Context): Promise<SessionStats> {
		return this.read(() => this.state.getStats());
	}

	/** A new storage holding what the fork keeps, taken between two commits. */
	fork(options: ForkOptions): Promise<MemoryStorage> {
		if (this.status !== "open") return Promise.reject(new Error("MemoryStorage is closed"));
		return this.enqueue(() => {
			const destination = new MemoryStorage({ now: this.now });
			destination.state = this.state.createFork(options);
			return destination;
		});
	}

	close(_context: Context): Promise<void> {
		if (!this.closing) {
			this.status = "closing";
			this.closing = this.queue.then(() => {
				this.status = "closed";
			});
		}
		return this.closing;
	}
}
