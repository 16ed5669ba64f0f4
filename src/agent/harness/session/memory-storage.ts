/** `MemoryStorage`: a `Storage` kept entirely in memory, commits serialised, forks taken between commits. */
import type { Context } from "../context.ts";
import { StateBackedStorage } from "./state-storage.ts";
import type { CommitResult, ForkOptions, Storage, Write } from "./types.ts";

export class MemoryStorage extends StateBackedStorage implements Storage {
	protected readonly kind = "MemoryStorage";
	private readonly now: () => number;

	constructor(options: { now?: () => number } = {}) {
		super();
		this.now = options.now ?? Date.now;
	}

	async commit(writes: Write[], _context: Context): Promise<CommitResult> {
		if (this.status !== "open") throw new Error("MemoryStorage is closed");
		return this.enqueue(() => {
			const prepared = this.state.prepareCommit(writes, this.now());
			const stats = this.state.applyValidated(prepared.writes);
			return { ...prepared.result, stats };
		});
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
