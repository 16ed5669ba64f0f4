/**
 * Turning writes into committed rows: each write of a transaction gets the next sequence number (entries also the
 * commit timestamp), and a committed batch is checked for increasing sequence numbers, unique entry and usage
 * ids, and parents that exist.
 */
import type {
	CommittedWrite,
	CommitValidationState,
	Entry,
	EntryWrite,
	NewEntry,
	PreparedCommit,
	UsageRow,
	UsageWrite,
	Write,
} from "./types.ts";

export function insertEntry(entry: NewEntry): EntryWrite {
	return { kind: "entry", entry };
}

export function insertUsage(row: Omit<UsageRow, "seq">): UsageWrite {
	return { kind: "usage", row };
}

export function commitWrite(write: Write, seq: number, timestamp: number): CommittedWrite {
	switch (write.kind) {
		case "entry":
			return { kind: "entry", ...write.entry, seq, timestamp } as CommittedWrite;
		case "usage":
			return { kind: "usage", ...write.row, seq };
		case "value":
			return write.op === "set"
				? { kind: "value", op: "set", seq, namespace: write.namespace, key: write.key, value: write.value }
				: { kind: "value", op: "delete", seq, namespace: write.namespace, key: write.key };
		case "list":
			return write.op === "append"
				? { kind: "list", op: "append", seq, namespace: write.namespace, key: write.key, value: write.value }
				: { kind: "list", op: "delete", seq, namespace: write.namespace, key: write.key };
	}
}

export function materializeCommittedEntry(entry: NewEntry, seq: number, timestamp: number): Entry {
	return { ...entry, seq, timestamp } as Entry;
}

/** Number the writes from `firstSeq` on, all with one timestamp. */
export function prepareStorageCommit(writes: Write[], firstSeq: number, timestamp: number): PreparedCommit {
	const committed = writes.map((write, index) => commitWrite(write, firstSeq + index, timestamp));
	return { writes: committed, result: { firstSeq, seqs: committed.map((write) => write.seq), timestamp } };
}

/** Throws on a sequence number that does not increase, a reused entry/usage id, or an entry whose parent is unknown. */
export function validateCommittedWrites(
	writes: readonly CommittedWrite[],
	firstSeq: number,
	state: CommitValidationState,
): void {
	let previous = firstSeq - 1;
	const ids = new Set<string>();
	const entryIds = new Set<string>();
	for (const write of writes) {
		if (write.seq <= previous) throw new Error(`Non-monotonic storage sequence: ${write.seq}`);
		previous = write.seq;
		if (write.kind !== "entry" && write.kind !== "usage") continue;
		if (state.hasEntryOrUsageId(write.id) || ids.has(write.id))
			throw new Error(`Duplicate entry or usage id: ${write.id}`);
		if (
			write.kind === "entry" &&
			write.parentId !== null &&
			!state.hasEntryId(write.parentId) &&
			!entryIds.has(write.parentId)
		)
			throw new Error(`Missing parent entry: ${write.parentId}`);
		ids.add(write.id);
		if (write.kind === "entry") entryIds.add(write.id);
	}
}
