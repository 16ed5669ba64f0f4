/**
 * The whole state of a session held in memory (for the memory and JSONL backends): entries by id and in commit
 * order, current values, lists, usage rows and running totals. Commits are numbered and validated before they
 * apply; forks copy what the fork rules keep.
 */
import type { Usage } from "../../../ai/index.ts";
import { emptyUsage } from "../../../ai/index.ts";
import { prepareStorageCommit, validateCommittedWrites } from "./commit.ts";
import { projectForkCurrentStateWrite, selectBranchFork } from "./fork.ts";
import type {
	CommittedListAppendWrite,
	CommittedValueSetWrite,
	CommittedWrite,
	Entry,
	EntryScan,
	EntryStructure,
	ForkOptions,
	ListElement,
	ListReadOptions,
	PreparedCommit,
	SessionStats,
	StorageBranchScan,
	StoredValue,
	UsageRow,
	UsageScan,
	Value,
	ValueList,
	Write,
} from "./types.ts";
import { branchTip, laneConfig, laneState, list, resolveListReadOptions, value } from "./values.ts";

const slot = (namespace: string, key: string) => `${namespace}\u0000${key}`;

/** Order keys by Unicode code point (not UTF-16 unit). */
function byCodePoint(a: string, b: string): number {
	const x = Array.from(a, (c) => c.codePointAt(0) as number);
	const y = Array.from(b, (c) => c.codePointAt(0) as number);
	for (let i = 0; i < Math.min(x.length, y.length); i++) {
		const d = (x[i] as number) - (y[i] as number);
		if (d !== 0) return d;
	}
	return x.length - y.length;
}

/** Sum of two usages; the optional counters appear when either side has them. */
export function addUsage(a: Usage, b: Usage): Usage {
	const extra = (key: "cacheWrite1h" | "reasoning") => {
		const left = (a as unknown as Record<string, number | undefined>)[key];
		const right = (b as unknown as Record<string, number | undefined>)[key];
		return left === undefined && right === undefined ? {} : { [key]: (left ?? 0) + (right ?? 0) };
	};
	return {
		input: a.input + b.input,
		output: a.output + b.output,
		cacheRead: a.cacheRead + b.cacheRead,
		cacheWrite: a.cacheWrite + b.cacheWrite,
		...extra("cacheWrite1h"),
		...extra("reasoning"),
		totalTokens: a.totalTokens + b.totalTokens,
		cost: {
			input: a.cost.input + b.cost.input,
			output: a.cost.output + b.cost.output,
			cacheRead: a.cost.cacheRead + b.cost.cacheRead,
			cacheWrite: a.cost.cacheWrite + b.cost.cacheWrite,
			total: a.cost.total + b.cost.total,
		},
	} as Usage;
}

interface StoredList {
	address: ValueList<unknown>;
	elements: ListElement<unknown>[];
}

export class InMemoryStorageState {
	entries = new Map<string, Entry>();
	entriesBySeq: Entry[] = [];
	scalarValues = new Map<string, StoredValue<unknown>>();
	listValues = new Map<string, StoredList>();
	usage = new Map<string, UsageRow>();
	stats: SessionStats = { messageCount: 0, usage: emptyUsage() };
	nextSeq = 1;

	prepareCommit(writes: Write[], timestamp: number): PreparedCommit {
		const prepared = prepareStorageCommit(writes, this.nextSeq, timestamp);
		this.validateCommitted(prepared.writes);
		return prepared;
	}

	validateCommitted(writes: readonly CommittedWrite[]): void {
		validateCommittedWrites(writes, this.nextSeq, {
			hasEntryOrUsageId: (id) => this.entries.has(id) || this.usage.has(id),
			hasEntryId: (id) => this.entries.has(id),
		});
	}

	/** Apply validated writes; returns the new totals. */
	applyValidated(writes: readonly CommittedWrite[]): SessionStats {
		for (const write of writes) {
			if (write.kind === "entry") {
				const { kind: _kind, ...entry } = write;
				this.entries.set(entry.id, entry as Entry);
				this.entriesBySeq.push(entry as Entry);
				if (entry.type === "message") this.stats = { ...this.stats, messageCount: this.stats.messageCount + 1 };
			} else if (write.kind === "usage") {
				const { kind: _kind, ...row } = write;
				this.usage.set(row.id, row);
				this.stats = { ...this.stats, usage: addUsage(this.stats.usage, row.usage) };
			} else if (write.op === "delete") {
				(write.kind === "value" ? this.scalarValues : this.listValues).delete(slot(write.namespace, write.key));
			} else {
				this.applySetOrAppend(write);
			}
			this.nextSeq = write.seq + 1;
		}
		return this.stats;
	}

	applySetOrAppend(write: CommittedValueSetWrite | CommittedListAppendWrite): void {
		const key = slot(write.namespace, write.key);
		if (write.kind === "value") {
			this.scalarValues.set(key, { address: value(write.namespace, write.key), value: write.value, seq: write.seq });
			return;
		}
		const element = { seq: write.seq, value: write.value };
		const stored = this.listValues.get(key);
		if (stored) stored.elements.push(element);
		else this.listValues.set(key, { address: list(write.namespace, write.key), elements: [element] });
	}

	createFork(options: ForkOptions): InMemoryStorageState {
		let keep: (id: string) => boolean = () => true;
		let plan: Parameters<typeof projectForkCurrentStateWrite>[1] = { scope: "tree" };
		if (options.scope === "branch") {
			const ids = new Set<string>();
			plan = selectBranchFork(options, {
				tip: this.getValue(branchTip(options.branch))?.value,
				getParent: (id) => this.entries.get(id)?.parentId,
				selectEntry: (id) => ids.add(id),
			});
			if (!this.getValue(laneConfig(options.branch)) || !this.getValue(laneState(options.branch)))
				throw new Error(`Source branch ${JSON.stringify(options.branch)} is not a configured AgentLane`);
			keep = (id) => ids.has(id);
		}
		const fork = new InMemoryStorageState();
		let messageCount = 0;
		for (const entry of this.entriesBySeq) {
			if (!keep(entry.id)) continue;
			fork.entries.set(entry.id, entry);
			fork.entriesBySeq.push(entry);
			if (entry.type === "message") messageCount++;
		}
		fork.stats = { ...fork.stats, messageCount };
		for (const stored of this.scalarValues.values()) {
			const { namespace, key } = stored.address;
			const write = { kind: "value", op: "set", seq: stored.seq, namespace, key, value: stored.value } as const;
			const projected = projectForkCurrentStateWrite(write, plan, keep);
			if (projected) fork.applySetOrAppend(projected);
		}
		for (const stored of this.listValues.values()) {
			const { namespace, key } = stored.address;
			for (const element of stored.elements) {
				const write = { kind: "list", op: "append", seq: element.seq, namespace, key, value: element.value } as const;
				const projected = projectForkCurrentStateWrite(write, plan, keep);
				if (projected) fork.applySetOrAppend(projected);
			}
		}
		fork.nextSeq = this.nextSeq;
		return fork;
	}

	advanceNextSeq(nextSeq: number): void {
		if (!Number.isSafeInteger(nextSeq) || nextSeq < 1)
			throw new Error(`Invalid storage sequence high-water mark: ${nextSeq}`);
		this.nextSeq = Math.max(this.nextSeq, nextSeq);
	}

	getEntries(ids: string[]): Map<string, Entry> {
		const found = new Map<string, Entry>();
		for (const id of ids) {
			const entry = this.entries.get(id);
			if (entry) found.set(id, entry);
		}
		return found;
	}

	getValue<T>(address: Value<T>): StoredValue<T> | undefined {
		return this.scalarValues.get(slot(address.namespace, address.key)) as StoredValue<T> | undefined;
	}

	scanValues<T>(prefix: Value<T>): StoredValue<T>[] {
		return ([...this.scalarValues.values()] as StoredValue<T>[])
			.filter((s) => s.address.namespace === prefix.namespace && s.address.key.startsWith(prefix.key))
			.sort((a, b) => byCodePoint(a.address.key, b.address.key));
	}

	readList<T>(address: ValueList<T>, options?: ListReadOptions): ListElement<T>[] {
		const { cursor, order, limit } = resolveListReadOptions(options);
		const elements = (this.listValues.get(slot(address.namespace, address.key))?.elements ?? []) as ListElement<T>[];
		const after =
			cursor === undefined
				? elements
				: elements.filter((e) => (order === "asc" ? e.seq > cursor.seq : e.seq < cursor.seq));
		return (order === "asc" ? after : [...after].reverse()).slice(0, limit);
	}

	scanBranch(query: StorageBranchScan): Entry[] {
		let entry = this.entries.get(query.start);
		if (!entry) throw new Error(`Unknown branch start: ${query.start}`);
		const path: Entry[] = [];
		while (entry) {
			path.push(entry);
			if (entry.parentId === null) break;
			entry = this.entries.get(entry.parentId);
			if (!entry) throw new Error("Corrupt branch: missing parent");
		}
		if (query.order === "oldestFirst") path.reverse();
		const until: Entry[] = [];
		for (const candidate of path) {
			until.push(candidate);
			if (candidate.id === query.stopAtId || candidate.type === query.stopAtType) break;
		}
		const oldestFirst = query.order === "oldestFirst";
		const cursor = query.cursor;
		const matching = until.filter(
			(c) =>
				(query.type === undefined || c.type === query.type) &&
				(query.customType === undefined || c.customType === query.customType) &&
				(cursor === undefined || (oldestFirst ? c.seq > cursor.seq : c.seq < cursor.seq)),
		);
		return query.limit === undefined ? matching : matching.slice(0, Math.max(0, query.limit));
	}

	scanBranchStructure(query: StorageBranchScan): EntryStructure[] {
		return this.scanBranch(query).map((e) => ({
			id: e.id,
			parentId: e.parentId,
			seq: e.seq,
			timestamp: e.timestamp,
			type: e.type,
			...(e.customType === undefined ? {} : { customType: e.customType }),
		}));
	}

	scanEntries(query: EntryScan): Entry[] {
		const limit = query.limit === undefined ? Number.POSITIVE_INFINITY : Math.max(0, Math.trunc(query.limit));
		const ordered = query.order === "desc" ? [...this.entriesBySeq].reverse() : this.entriesBySeq;
		const out: Entry[] = [];
		for (const e of ordered) {
			if (out.length >= limit) break;
			if (query.type !== undefined && e.type !== query.type) continue;
			if (query.customType !== undefined && e.customType !== query.customType) continue;
			if (query.fromSeq !== undefined && e.seq < query.fromSeq) continue;
			if (query.toSeq !== undefined && e.seq > query.toSeq) continue;
			out.push(e);
		}
		return out;
	}

	scanUsage(query: UsageScan): UsageRow[] {
		const rows = [...this.usage.values()]
			.filter(
				(r) =>
					(query.fromSeq === undefined || r.seq >= query.fromSeq) &&
					(query.toSeq === undefined || r.seq <= query.toSeq),
			)
			.sort((a, b) => (query.order === "desc" ? b.seq - a.seq : a.seq - b.seq));
		return query.limit === undefined ? rows : rows.slice(0, Math.max(0, query.limit));
	}

	getStats(): SessionStats {
		return this.stats;
	}

	getNextSeq(): number {
		return this.nextSeq;
	}
}
