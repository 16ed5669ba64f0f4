/**
 * Lane input that is not a run of its own: queued steering, follow-ups and next-run messages, entries appended
 * directly (or queued as writes while an operation runs), usage adjustments, and the lane's configuration.
 */
import type { ImageContent, Usage } from "../../../ai/index.ts";
import type { AgentMessage } from "../../types.ts";
import type { Context } from "../context.ts";
import { InvalidMessage, Result } from "../result.ts";
import { insertEntry, insertUsage } from "../session/commit.ts";
import { SessionPendingAssistantMessageError } from "../session/errors.ts";
import type { InboxItemKind, JsonValue, LaneConfiguration, PendingEntry } from "../session/types.ts";
import { branchTip, deleteValue, laneConfig, pendingEntry, setValue } from "../session/values.ts";
import type { LaneCore } from "./lane-core.ts";
import { chainEntries, committedEntryEvents, pendingToEntry, readLaneQueues, readPending } from "./transcript.ts";
import type { CancelQueuedResult, HarnessEvent, LaneQueuedItem, QueueResult, RecordUsageResult } from "./types.ts";

type Built = { value: AgentMessage } | { reason: string; message: string };

function queuedMessage(input: string | AgentMessage, images: ImageContent[] | undefined, at: number): Built {
	if (typeof input === "string") {
		if (input.length === 0 && (images === undefined || images.length === 0)) {
			return { reason: "empty", message: "Queued input must contain text or an image" } as const;
		}
		const content = [...(input.length === 0 ? [] : [{ type: "text" as const, text: input }]), ...(images ?? [])];
		return { value: { role: "user", content, timestamp: at } as AgentMessage };
	}
	if (input.role === "assistant" && input.stopReason === "pending") {
		return { reason: "pending_assistant", message: "Cannot queue a pending assistant message" } as const;
	}
	if (images === undefined || images.length === 0) return { value: structuredClone(input) };
	if (input.role !== "user") {
		return { reason: "images_with_non_user", message: "Images can be added only to queued user messages" } as const;
	}
	const copy = structuredClone(input);
	const text =
		typeof copy.content === "string"
			? copy.content.length === 0
				? []
				: [{ type: "text" as const, text: copy.content }]
			: copy.content;
	return { value: { ...copy, content: [...text, ...images] } as AgentMessage };
}

export async function enqueue(
	lane: LaneCore,
	kind: "steer" | "followUp" | "nextRun",
	input: string | AgentMessage,
	images: ImageContent[] | undefined,
	context: Context,
): Promise<QueueResult> {
	const closed = lane.closedResult();
	if (closed !== undefined) return Result.err(closed);
	const at = Date.now();
	const built = queuedMessage(input, images, at);
	if (!("value" in built))
		return Result.err(new InvalidMessage({ lane: lane.name, reason: built.reason, message: built.message }));
	const message = built.value;
	const entryId = lane.session.idGenerator.next(at);
	return lane.command<QueueResult>(async (state, reader) => {
		const inbox = [...state.inbox, { entryId, kind }];
		const queues: LaneQueuedItem[] = [
			...(await readLaneQueues(reader, state.inbox, context)),
			{ entryId, kind, type: "message", message },
		];
		return {
			kind: "commit",
			writes: [
				setValue(pendingEntry(entryId), { type: "message", payload: message }),
				lane.laneStateWrite(state.operation?.meta.operationId ?? null, inbox),
			],
			next: { ...state, inbox },
			result: () => Result.ok({ entryId }),
			events: () => [{ type: "queue_update", queues, lane: lane.name }],
		};
	}, context);
}

export async function cancelQueued(lane: LaneCore, entryId: string, context: Context): Promise<CancelQueuedResult> {
	const closed = lane.closedResult();
	if (closed !== undefined) return Result.err(closed);
	return lane.command<CancelQueuedResult>(async (state, reader) => {
		const queued = state.inbox.find((item) => item.entryId === entryId);
		if (queued === undefined) {
			const consumed = (await reader.getEntries([entryId], context)).has(entryId);
			return { kind: "return", result: Result.ok({ kind: consumed ? "already_consumed" : "not_found" }) };
		}
		await readPending(reader, queued, context);
		const inbox = state.inbox.filter((item) => item.entryId !== entryId);
		const queues = await readLaneQueues(reader, inbox, context);
		return {
			kind: "commit",
			writes: [
				deleteValue(pendingEntry(entryId)),
				lane.laneStateWrite(state.operation?.meta.operationId ?? null, inbox),
			],
			next: { ...state, inbox },
			result: () => Result.ok({ kind: "cancelled" }),
			events: () => [{ type: "queue_update", queues, lane: lane.name }],
		};
	}, context);
}

/** Append an entry now when the lane is idle (after any queued writes), or queue it as a write behind the run. */
export function append(lane: LaneCore, pending: PendingEntry, context: Context): Promise<string> {
	lane.assertOpen();
	if (pending.type === "message" && pending.payload.role === "assistant" && pending.payload.stopReason === "pending") {
		return Promise.reject(new SessionPendingAssistantMessageError());
	}
	const id = lane.session.idGenerator.next();
	return lane.command(async (state, reader) => {
		if (state.operation === null) {
			const queued = state.inbox.filter((item) => item.kind === "write");
			const captured = await Promise.all(
				queued.map(async (item) => pendingToEntry(item.entryId, await readPending(reader, item, context))),
			);
			const inbox = state.inbox.filter((item) => !queued.includes(item));
			const queues = queued.length === 0 ? undefined : await readLaneQueues(reader, inbox, context);
			const entries = chainEntries(state.tipId, [...captured, pendingToEntry(id, pending)]);
			return {
				kind: "commit",
				writes: [
					...entries.map((entry) => insertEntry(entry)),
					...queued.map((item) => deleteValue(pendingEntry(item.entryId))),
					setValue(branchTip(lane.name), id),
					lane.laneStateWrite(null, inbox),
				],
				next: { ...state, tipId: id, inbox },
				result: () => id,
				events: (commit) => [
					...committedEntryEvents(entries, commit, lane.name, undefined),
					...(queues === undefined ? [] : [{ type: "queue_update", queues, lane: lane.name } as HarnessEvent]),
				],
			};
		}
		const kind: InboxItemKind = "write";
		const inbox = [...state.inbox, { entryId: id, kind }];
		const item: LaneQueuedItem =
			pending.type === "message"
				? { entryId: id, kind, type: "message", message: pending.payload }
				: {
						entryId: id,
						kind,
						type: "custom",
						customType: pending.customType,
						...(pending.payload === undefined ? {} : { data: pending.payload }),
					};
		const queues = [...(await readLaneQueues(reader, state.inbox, context)), item];
		return {
			kind: "commit",
			writes: [setValue(pendingEntry(id), pending), lane.laneStateWrite(state.operation.meta.operationId, inbox)],
			next: { ...state, inbox },
			result: () => id,
			events: () => [{ type: "queue_update", queues, lane: lane.name }],
		};
	}, context);
}

export function appendCustom(lane: LaneCore, customType: string, data: JsonValue | undefined, context: Context) {
	return append(lane, { type: "custom", customType, ...(data === undefined ? {} : { payload: data }) }, context);
}

export async function recordUsage(
	lane: LaneCore,
	usage: Usage,
	options: { entryId?: string; details?: JsonValue } | undefined,
	context: Context,
): Promise<RecordUsageResult> {
	const closed = lane.closedResult();
	if (closed !== undefined) return Result.err(closed);
	return lane.command<RecordUsageResult>((state) => {
		const usageId = lane.session.idGenerator.next();
		const row = {
			id: usageId,
			usage,
			adjustment: true,
			...(options?.entryId === undefined ? {} : { entryId: options.entryId }),
			...(options?.details === undefined ? {} : { details: options.details }),
		};
		return {
			kind: "commit",
			writes: [insertUsage(row)],
			next: state,
			result: () => Result.ok({ usageId }),
			events: (commit) => [
				{ type: "usage", lane: lane.name, row: { ...row, seq: commit.seqs[0] ?? 0 }, totals: commit.stats.usage },
			],
		};
	}, context);
}

/** Change the lane's model, thinking level or active tools; stored at once, used from the next step on. */
export async function setConfiguration(
	lane: LaneCore,
	update: (configuration: LaneConfiguration) => LaneConfiguration,
	event: (previous: LaneConfiguration, next: LaneConfiguration) => HarnessEvent,
	context: Context,
): Promise<void> {
	await lane.command((state) => {
		const configuration = update(state.configuration);
		return {
			kind: "commit",
			writes: [setValue(laneConfig(lane.name), configuration)],
			next: { ...state, configuration },
			result: () => undefined,
			events: () => [{ ...event(state.configuration, configuration), lane: lane.name } as HarnessEvent],
		};
	}, context);
}
