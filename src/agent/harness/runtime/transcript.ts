/**
 * Transcript helpers of the harness runtime: chaining new entries onto a tip, the message/entry events a committed
 * entry produces, queued inbox items as the public queue view, and the model context of a branch.
 */
import type { AgentMessage } from "../../types.ts";
import type { Context } from "../context.ts";
import { materializeCommittedEntry } from "../session/commit.ts";
import type {
	CommitResult,
	Entry,
	EntryProjector,
	InboxItem,
	NewEntry,
	PendingEntry,
	SessionReader,
} from "../session/types.ts";
import { pendingEntry } from "../session/values.ts";
import type { HarnessEvent, LaneQueuedItem } from "./types.ts";

/** Give each new entry the previous one (or `parentId`) as its parent. */
export function chainEntries(parentId: string | null, items: NewEntry[]): NewEntry[] {
	let parent = parentId;
	return items.map((item) => {
		const entry = { ...item, parentId: parent } as NewEntry;
		parent = item.id;
		return entry;
	});
}

export function entryEvents(entry: Entry, lane: string, runId: string | undefined): HarnessEvent[] {
	const run = runId === undefined ? {} : { runId };
	if (entry.type !== "message") return [{ type: "entry_added", lane, entry }];
	return [
		{ type: "message_start", lane, ...run, message: entry.message },
		{ type: "message_end", lane, ...run, message: entry.message, entryId: entry.id },
		{ type: "entry_added", lane, entry },
	];
}

/** Events for entries committed as writes `first..` of `commit`. */
export function committedEntryEvents(
	entries: NewEntry[],
	commit: CommitResult,
	lane: string,
	runId: string | undefined,
	first = 0,
): HarnessEvent[] {
	return entries.flatMap((entry, index) =>
		entryEvents(materializeCommittedEntry(entry, commit.seqs[first + index] ?? 0, commit.timestamp), lane, runId),
	);
}

export function pendingToEntry(entryId: string, pending: PendingEntry): NewEntry {
	return pending.type === "message"
		? { id: entryId, parentId: null, type: "message", message: pending.payload }
		: {
				id: entryId,
				parentId: null,
				type: "custom",
				customType: pending.customType,
				...(pending.payload === undefined ? {} : { data: pending.payload }),
			};
}

export async function readPending(reader: SessionReader, item: InboxItem, context: Context): Promise<PendingEntry> {
	const stored = await reader.getValue(pendingEntry(item.entryId), context);
	if (stored === undefined) throw new Error(`Pending ${item.kind} entry ${item.entryId} is missing its payload`);
	return stored.value;
}

export async function readLaneQueues(
	reader: SessionReader,
	inbox: InboxItem[],
	context: Context,
): Promise<LaneQueuedItem[]> {
	return Promise.all(
		inbox.map(async (item): Promise<LaneQueuedItem> => {
			const pending = await readPending(reader, item, context);
			if (pending.type === "message") {
				return { entryId: item.entryId, kind: item.kind, type: "message", message: pending.payload };
			}
			return {
				entryId: item.entryId,
				kind: "write",
				type: "custom",
				customType: pending.customType,
				...(pending.payload === undefined ? {} : { data: pending.payload }),
			};
		}),
	);
}

function inContext(message: AgentMessage): boolean {
	if (message.role !== "assistant") return true;
	return (
		message.stopReason !== "error" && message.stopReason !== "aborted" && (message.stopReason as string) !== "deferred"
	);
}

/** The messages a branch (oldest first) contributes to the model: from the last compaction on. */
export async function branchMessages(
	path: Entry[],
	projectors: Record<string, EntryProjector>,
	context: Context,
): Promise<AgentMessage[]> {
	let start = 0;
	for (let index = path.length - 1; index >= 0; index--) {
		if (path[index]?.type === "compaction") {
			start = index;
			break;
		}
	}
	const messages: AgentMessage[] = [];
	for (const entry of path.slice(start)) {
		switch (entry.type) {
			case "message":
				if (inContext(entry.message)) messages.push(entry.message);
				break;
			case "compaction":
				messages.push({
					role: "compactionSummary",
					summary: entry.summary,
					tokensBefore: entry.tokensBefore,
					timestamp: entry.timestamp,
				} as AgentMessage);
				messages.push(...entry.retainedTail.filter(inContext));
				break;
			case "branch_summary":
				if (entry.summary) {
					messages.push({
						role: "branchSummary",
						summary: entry.summary,
						fromId: entry.fromId,
						timestamp: entry.timestamp,
					} as AgentMessage);
				}
				break;
			case "custom": {
				const projector = projectors[entry.customType];
				if (projector !== undefined) messages.push(...((await projector(entry, context)) ?? []));
				break;
			}
		}
	}
	return messages;
}
