/**
 * What the memory and JSONL storages share: the in-memory session state, a queue that serialises commits, the
 * open/closing/closed status, and the reads, which answer from the state at once while the storage is open.
 */
import type { Context } from "../context.ts";
import { InMemoryStorageState } from "./state.ts";
import type {
	Entry,
	EntryScan,
	EntryStructure,
	ListElement,
	ListReadOptions,
	SessionStats,
	StorageBranchScan,
	StoredValue,
	UsageRow,
	UsageScan,
	Value,
	ValueList,
} from "./types.ts";

export abstract class StateBackedStorage {
	protected state = new InMemoryStorageState();
	protected queue: Promise<void> = Promise.resolve();
	protected status: "open" | "closing" | "closed" = "open";
	protected closing: Promise<void> | undefined;

	/** The class name in "<name> is closed". */
	protected abstract readonly kind: string;

	protected closedError(): Error {
		return new Error(`${this.kind} is closed`);
	}

	protected read<T>(fn: () => T): Promise<T> {
		if (this.status !== "open") return Promise.reject(this.closedError());
		try {
			return Promise.resolve(fn());
		} catch (error) {
			return Promise.reject(error);
		}
	}

	protected enqueue<T>(job: () => Promise<T> | T): Promise<T> {
		const result = this.queue.then(job);
		this.queue = result.then(
			() => undefined,
			() => undefined,
		);
		return result;
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
}
