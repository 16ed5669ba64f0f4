/**
 * `StorageBackedSession`: the session API over any `Storage`. Read-modify-write work runs one job at a time (a
 * mutation line); a mutation commits at most once; branches are named tips (`pi.branch.tip`) that appends move;
 * a pending (still streaming) assistant message is never persisted.
 */
import { uuidv7 } from "../../../util/index.ts";
import type { AgentMessage } from "../../types.ts";
import type { Context } from "../context.ts";
import { insertEntry } from "./commit.ts";
import {
	SessionBranchExistsError,
	SessionInvalidBranchError,
	SessionInvariantError,
	SessionPendingAssistantMessageError,
	SessionUnknownTargetError,
} from "./errors.ts";
import type {
	Branch,
	BranchScan,
	CommitResult,
	Entry,
	EntryQuery,
	IdGenerator,
	JsonValue,
	ListElement,
	ListReadOptions,
	Session,
	SessionMetadata,
	SessionMutation,
	SessionMutationCallback,
	SessionStats,
	Storage,
	StorageBranchScan,
	StoredValue,
	Value,
	ValueList,
	Write,
} from "./types.ts";
import {
	appendList as appendListWrite,
	branchTip,
	deleteList as deleteListWrite,
	deleteValue as deleteValueWrite,
	entryLabel,
	sessionName,
	setValue as setValueWrite,
} from "./values.ts";

const isPendingAssistant = (message: AgentMessage) =>
	(message as { role?: string }).role === "assistant" && (message as { stopReason?: string }).stopReason === "pending";

/** Runs whole read-modify-write jobs one after another; once sealed, refuses new ones. */
export class MutationLine {
	private tail: Promise<void> = Promise.resolve();
	private sealed: Error | undefined;

	run<T>(job: () => Promise<T>): Promise<T> {
		if (this.sealed) return Promise.reject(this.sealed);
		const result = this.tail.then(() => {
			if (this.sealed) throw this.sealed;
			return job();
		});
		this.tail = result.then(
			() => undefined,
			() => undefined,
		);
		return result;
	}

	seal(error: Error): Promise<void> {
		this.sealed ??= error;
		return this.tail;
	}
}

class Mutation implements SessionMutation {
	private active = true;
	private committed: Promise<CommitResult> | undefined;
	private ended: Promise<void> | undefined;

	constructor(
		private readonly storage: Storage,
		private readonly release: () => void,
	) {}

	commit(writes: Write[], context: Context): Promise<CommitResult> {
		this.check();
		if (this.committed) return Promise.reject(new Error("SessionMutator commit already attempted"));
		try {
			if (writes.some((w) => w.kind === "entry" && w.entry.type === "message" && isPendingAssistant(w.entry.message)))
				throw new SessionPendingAssistantMessageError();
			this.committed = this.storage.commit(writes, context);
		} catch (error) {
			this.committed = Promise.reject(error);
		}
		return this.committed;
	}

	end(_context: Context): Promise<void> {
		if (!this.ended) {
			this.active = false;
			const settled = this.committed?.then(
				() => undefined,
				() => undefined,
			);
			this.ended = (settled ?? Promise.resolve()).finally(this.release);
		}
		return this.ended;
	}

	getEntries(ids: string[], context: Context) {
		this.check();
		return this.storage.getEntries(ids, context);
	}
	getStats(context: Context) {
		this.check();
		return this.storage.getStats(context);
	}
	getValue<T>(address: Value<T>, context: Context) {
		this.check();
		return this.storage.getValue(address, context);
	}
	scanValues<T>(prefix: Value<T>, context: Context) {
		this.check();
		return this.storage.scanValues(prefix, context);
	}
	readList<T>(address: ValueList<T>, options: ListReadOptions | undefined, context: Context) {
		this.check();
		return this.storage.readList(address, options, context);
	}
	scanBranch(query: StorageBranchScan, context: Context) {
		this.check();
		return this.storage.scanBranch(query, context);
	}

	private check(): void {
		if (!this.active) throw new Error("SessionMutator cannot be used outside its mutation callback");
	}
}

class StorageBranch implements Branch {
	constructor(
		readonly name: string,
		private readonly session: StorageBackedSession,
	) {}
	getTipId(context: Context): Promise<string | null> {
		return this.session.getBranchTip(this.name, context);
	}
	async findEntries(query: BranchScan | undefined, context: Context): Promise<Entry[]> {
		const q = query ?? {};
		const start = q.start ?? (await this.getTipId(context));
		if (start === null) return [];
		return this.session.scanBranch({ ...q, start, order: q.order ?? "newestFirst" }, context);
	}
	async findEntry(query: BranchScan | undefined, context: Context): Promise<Entry | undefined> {
		const q = query ?? {};
		return (await this.findEntries({ ...q, limit: q.limit === undefined ? 1 : Math.min(q.limit, 1) }, context))[0];
	}
	appendMessage(message: AgentMessage, context: Context): Promise<string> {
		return this.session.appendToBranch(this.name, { type: "message", message }, context);
	}
	appendCustomEntry(customType: string, data: JsonValue | undefined, context: Context): Promise<string> {
		const entry = { type: "custom" as const, customType, ...(data === undefined ? {} : { data }) };
		return this.session.appendToBranch(this.name, entry, context);
	}
}

export interface StorageBackedSessionOptions {
	idGenerator?: IdGenerator;
	mutationLine?: MutationLine;
	onClose?: () => void;
}

type BranchAppend =
	| { type: "message"; message: AgentMessage }
	| { type: "custom"; customType: string; data?: JsonValue };

export class StorageBackedSession<TMetadata extends SessionMetadata = SessionMetadata> implements Session<TMetadata> {
	readonly idGenerator: IdGenerator;
	private readonly line: MutationLine;
	private readonly onClose: (() => void) | undefined;
	private readonly branches = new Map<string, StorageBranch>();
	private readonly closedError = new Error("Session is closed");
	private state: "open" | "closing" | "closed" = "open";
	private closing: Promise<void> | undefined;

	constructor(
		readonly metadata: TMetadata,
		private readonly storage: Storage,
		options: StorageBackedSessionOptions = {},
	) {
		this.idGenerator = options.idGenerator ?? { next: uuidv7 };
		this.line = options.mutationLine ?? new MutationLine();
		this.onClose = options.onClose;
	}

	async beginMutation(_context: Context): Promise<SessionMutation> {
		this.checkOpen();
		return new Promise<SessionMutation>((grant, refuse) => {
			let release = () => {};
			const finished = new Promise<void>((resolve) => {
				release = resolve;
			});
			this.line
				.run(async () => {
					grant(new Mutation(this.storage, release));
					await finished;
				})
				.catch(refuse);
		});
	}

	async mutate<T>(mutation: SessionMutationCallback<T>, context: Context): Promise<T> {
		const mutator = await this.beginMutation(context);
		try {
			return await mutation(mutator, context);
		} finally {
			await mutator.end(context);
		}
	}

	async getEntries(ids: string[], context: Context): Promise<Map<string, Entry>> {
		this.checkOpen();
		return this.storage.getEntries(ids, context);
	}
	async getEntry(id: string, context: Context): Promise<Entry | undefined> {
		return (await this.getEntries([id], context)).get(id);
	}
	async getValue<T>(address: Value<T>, context: Context): Promise<StoredValue<T> | undefined> {
		this.checkOpen();
		return this.storage.getValue(address, context);
	}
	async scanValues<T>(prefix: Value<T>, context: Context): Promise<StoredValue<T>[]> {
		this.checkOpen();
		return this.storage.scanValues(prefix, context);
	}
	async readList<T>(
		address: ValueList<T>,
		options: ListReadOptions | undefined,
		context: Context,
	): Promise<ListElement<T>[]> {
		this.checkOpen();
		return this.storage.readList(address, options, context);
	}
	async scanBranch(query: StorageBranchScan, context: Context): Promise<Entry[]> {
		this.checkOpen();
		return this.storage.scanBranch(query, context);
	}
	async getStats(context: Context): Promise<SessionStats> {
		this.checkOpen();
		return this.storage.getStats(context);
	}
	async getName(context: Context): Promise<string | undefined> {
		return (await this.getValue(sessionName, context))?.value;
	}
	async getLabel(targetId: string, context: Context): Promise<string | undefined> {
		return (await this.getValue(entryLabel(targetId), context))?.value;
	}

	async findEntries(query: EntryQuery | undefined, context: Context): Promise<Entry[]> {
		const q = query ?? {};
		this.checkOpen();
		const order = q.order ?? "desc";
		const cursor = q.cursor;
		if (
			cursor &&
			((order === "asc" && cursor.seq === Number.MAX_SAFE_INTEGER) || (order === "desc" && cursor.seq <= 1))
		)
			return [];
		const range = cursor === undefined ? {} : order === "asc" ? { fromSeq: cursor.seq + 1 } : { toSeq: cursor.seq - 1 };
		return this.storage.scanEntries(
			{ type: q.type, customType: q.customType, order, limit: q.limit, ...range },
			context,
		);
	}
	async findEntry(query: EntryQuery | undefined, context: Context): Promise<Entry | undefined> {
		const q = query ?? {};
		return (await this.findEntries({ ...q, limit: q.limit === undefined ? 1 : Math.min(q.limit, 1) }, context))[0];
	}

	async branch(name: string, context: Context): Promise<Branch | undefined> {
		this.checkBranchName(name);
		if ((await this.getValue(branchTip(name), context)) === undefined) return undefined;
		return this.branchObject(name);
	}

	async createBranch(name: string, at: string | null, context: Context): Promise<Branch> {
		this.checkOpen();
		this.checkBranchName(name);
		await this.mutate(async (mutator) => {
			if ((await mutator.getValue(branchTip(name), context)) !== undefined) throw new SessionBranchExistsError(name);
			if (at !== null && !(await mutator.getEntries([at], context)).has(at)) throw new SessionUnknownTargetError(at);
			await mutator.commit([setValueWrite(branchTip(name), at)], context);
		}, context);
		return this.branchObject(name);
	}

	private commitOne(write: Write, context: Context): Promise<void> {
		return this.mutate(async (mutator) => {
			await mutator.commit([write], context);
		}, context);
	}
	setValue<T>(address: Value<T>, next: NoInfer<T>, context: Context): Promise<void> {
		return this.commitOne(setValueWrite(address, next), context);
	}
	deleteValue<T>(address: Value<T>, context: Context): Promise<void> {
		return this.commitOne(deleteValueWrite(address), context);
	}
	appendList<T>(address: ValueList<T>, element: NoInfer<T>, context: Context): Promise<void> {
		return this.commitOne(appendListWrite(address, element), context);
	}
	deleteList<T>(address: ValueList<T>, context: Context): Promise<void> {
		return this.commitOne(deleteListWrite(address), context);
	}
	setName(name: string | undefined, context: Context): Promise<void> {
		return name === undefined ? this.deleteValue(sessionName, context) : this.setValue(sessionName, name, context);
	}
	setLabel(targetId: string, label: string | undefined, context: Context): Promise<void> {
		const address = entryLabel(targetId);
		return label === undefined ? this.deleteValue(address, context) : this.setValue(address, label, context);
	}

	close(context: Context): Promise<void> {
		if (!this.closing) {
			this.state = "closing";
			this.closing = this.line
				.seal(this.closedError)
				.then(() => this.storage.close(context))
				.finally(() => {
					this.state = "closed";
					this.onClose?.();
				});
		}
		return this.closing;
	}

	/** The tip of a branch (throws for an unknown branch). */
	async getBranchTip(name: string, context: Context): Promise<string | null> {
		const stored = await this.getValue(branchTip(name), context);
		if (stored === undefined) throw new SessionInvariantError(`Unknown branch: ${name}`);
		return stored.value;
	}

	/** Append an entry after the branch's tip and move the tip to it; returns the new entry's id. */
	async appendToBranch(name: string, entry: BranchAppend, context: Context): Promise<string> {
		this.checkOpen();
		if (entry.type === "message" && isPendingAssistant(entry.message)) throw new SessionPendingAssistantMessageError();
		const id = this.idGenerator.next();
		await this.mutate(async (mutator) => {
			const tip = await mutator.getValue(branchTip(name), context);
			if (tip === undefined) throw new SessionInvariantError(`Unknown branch: ${name}`);
			const parentId = tip.value;
			const newEntry =
				entry.type === "message"
					? { id, parentId, type: "message" as const, message: entry.message }
					: {
							id,
							parentId,
							type: "custom" as const,
							customType: entry.customType,
							...(entry.data === undefined ? {} : { data: entry.data }),
						};
			await mutator.commit([insertEntry(newEntry), setValueWrite(branchTip(name), id)], context);
		}, context);
		return id;
	}

	private branchObject(name: string): StorageBranch {
		let branch = this.branches.get(name);
		if (!branch) {
			branch = new StorageBranch(name, this);
			this.branches.set(name, branch);
		}
		return branch;
	}

	private checkBranchName(name: string): void {
		if (name.length === 0) throw new SessionInvalidBranchError(name, "branch name must not be empty");
		if (name.includes("\u0000")) throw new SessionInvalidBranchError(name, "branch name must not contain \\u0000");
	}

	private checkOpen(): void {
		if (this.state !== "open") throw this.closedError;
	}
}
