/**
 * Shared step plumbing of a run: the operation-state and terminal commits every step ends with, the durable shapes of
 * each step, and the inbox placement used at run boundaries.
 */
import type { Context } from "../context.ts";
import { insertEntry } from "../session/commit.ts";
import type {
	CommitResult,
	InboxItem,
	LaneConfiguration,
	NewEntry,
	OperationError,
	OperationMeta,
	OperationResultRecord,
	OperationScope,
	OperationState,
	SessionMutator,
	Write,
} from "../session/types.ts";
import {
	branchTip,
	deleteValue,
	operationMeta,
	operationResult,
	operationState as operationStateValue,
	pendingEntry,
	setValue,
} from "../session/values.ts";
import type { LaneCore, LiveLaneState, Planned } from "./lane-core.ts";
import { chainEntries, committedEntryEvents, pendingToEntry, readLaneQueues, readPending } from "./transcript.ts";
import type { HarnessEvent, LaneQueuedItem } from "./types.ts";

export type Continuation = { kind: "need_assistant" } | { kind: "may_finish"; includeFinalAssistant: boolean };
/** The durable progress of a run, one shape per step (stored as the operation state). */
export type RunState = OperationScope &
	(
		| { at: "starting" }
		| { at: "checkpoint"; continuation: Continuation; triggerEntryId: string | null }
		| {
				at: "assistant.ready";
				stepId: string;
				configuration: LaneConfiguration;
				triggerEntryId: string;
				nextAttempt: number;
		  }
		| {
				at: "assistant.retry_wait";
				stepId: string;
				configuration: LaneConfiguration;
				nextAttempt: number;
				notBefore: number;
				errorMessage: string;
		  }
		| {
				at: "assistant.effect_pending";
				stepId: string;
				configuration: LaneConfiguration;
				attempt: number;
				responseEntryId: string;
				usageId: string;
		  }
		| {
				at: "tools";
				batch: { assistantEntryId: string; configuration: LaneConfiguration; turnId: string; resultEntryIds: string[] };
				/** Calls whose result is staged, by source index: whether it asked to terminate. */
				staged?: Record<number, boolean>;
				/** How many calls (a source-order prefix) are placed on the branch. */
				placed?: number;
		  }
	);

export interface Drive {
	operationId: string;
	/** Sleep through a retry delay (`prompt`, `resume`) rather than return a `waiting` outcome. */
	waitForRetry: boolean;
	signal: AbortSignal;
	context: Context;
}

export function runState(lane: LaneCore): RunState {
	const operation = lane.state.operation;
	if (operation === null) throw new Error(`Lane ${JSON.stringify(lane.name)} has no current operation`);
	return operation.state as unknown as RunState;
}

export function runMeta(lane: LaneCore): OperationMeta {
	const operation = lane.state.operation;
	if (operation === null) throw new Error(`Lane ${JSON.stringify(lane.name)} has no current operation`);
	return operation.meta;
}

export function cancelRequested(lane: LaneCore): boolean {
	return lane.state.operation?.state.control.status === "cancel_requested";
}

export function scopeOf(state: OperationState | RunState): OperationScope {
	return { control: state.control, settings: state.settings, latestAssistantEntryId: state.latestAssistantEntryId };
}

interface StepCommit {
	writes: Write[];
	state: RunState;
	lane?: Partial<Pick<LiveLaneState, "tipId" | "inbox">>;
	events?: (commit: CommitResult) => HarnessEvent[];
}

/** Commit one step: its writes plus the new operation state (and lane state when the inbox changed). */
export function commitStep(
	lane: LaneCore,
	drive: Drive,
	plan: (current: RunState) => StepCommit | Promise<StepCommit>,
) {
	return lane.command(async (state) => {
		const operation = state.operation;
		if (operation === null) throw new Error("Run step has no current operation");
		const step = await plan({ ...(operation.state as unknown as RunState), control: operation.state.control });
		// Only an abort request changes control; a step never undoes it.
		const opState = { ...step.state, control: operation.state.control } as unknown as OperationState;
		const inbox = step.lane?.inbox;
		return {
			kind: "commit",
			writes: [
				...step.writes,
				setValue(operationStateValue(drive.operationId), opState),
				...(inbox === undefined ? [] : [lane.laneStateWrite(drive.operationId, inbox)]),
			],
			next: { ...state, ...step.lane, operation: { meta: operation.meta, state: opState } },
			result: () => undefined,
			...(step.events === undefined ? {} : { events: step.events }),
		};
	}, drive.context);
}

export function resultRecord(
	meta: OperationMeta,
	status: OperationResultRecord["status"],
	tipId: string | null,
	error?: OperationError,
): OperationResultRecord {
	return {
		operationId: meta.operationId,
		kind: meta.intent.kind,
		status,
		...(error === undefined ? {} : { error }),
		fromTipId: meta.sourceTipId,
		tipId,
		startedAt: meta.startedAt,
		endedAt: Date.now(),
	};
}

interface FinishCommit {
	writes: Write[];
	status: OperationResultRecord["status"];
	error?: OperationError;
	tipId?: string | null;
	inbox?: InboxItem[];
	events?: (commit: CommitResult, record: OperationResultRecord) => HarnessEvent[];
}

/** Settle the operation: its result record, the lane back to idle, the operation's own values removed. */
export function finishPlan(
	lane: LaneCore,
	drive: Drive,
	state: LiveLaneState,
	finish: FinishCommit,
): Planned<OperationResultRecord> {
	const operation = state.operation;
	if (operation === null) throw new Error("Run finish has no current operation");
	const tipId = finish.tipId === undefined ? state.tipId : finish.tipId;
	const record = resultRecord(operation.meta, finish.status, tipId, finish.error);
	const inbox = finish.inbox ?? state.inbox;
	const id = drive.operationId;
	return {
		kind: "commit",
		writes: [
			...finish.writes,
			deleteValue(operationMeta(id)),
			deleteValue(operationStateValue(id)),
			setValue(operationResult(id), record),
			lane.laneStateWrite(null, inbox, id),
		],
		next: { ...state, tipId, inbox, lastOperationId: id, operation: null },
		result: () => record,
		events: (commit) => [
			...(finish.events?.(commit, record) ?? []),
			{
				type: "run_end",
				lane: lane.name,
				runId: id,
				status: finish.status,
				...(finish.error === undefined ? {} : { error: finish.error }),
				fromTipId: operation.meta.sourceTipId,
				tipId,
				endedAt: record.endedAt,
			} as HarnessEvent,
		],
	};
}

export function finishRun(lane: LaneCore, drive: Drive, plan: (state: LiveLaneState) => FinishCommit) {
	return lane.command((state) => finishPlan(lane, drive, state, plan(state)), drive.context);
}

/** Commit a step that makes the model the next thing to ask, triggered by `triggerEntryId`. */
export function readyPlan(
	lane: LaneCore,
	drive: Drive,
	state: LiveLaneState,
	step: {
		writes: Write[];
		tipId: string | null;
		inbox: InboxItem[];
		triggerEntryId: string;
		events: (commit: CommitResult) => HarnessEvent[];
	},
): Planned<undefined> {
	const operation = state.operation;
	if (operation === null) throw new Error("Run step has no current operation");
	const current = operation.state;
	const opState = {
		...scopeOf(current),
		at: "assistant.ready",
		stepId: lane.session.idGenerator.next(),
		configuration: state.configuration,
		triggerEntryId: step.triggerEntryId,
		nextAttempt: 1,
	} as unknown as OperationState;
	return {
		kind: "commit",
		writes: [
			...step.writes,
			setValue(operationStateValue(drive.operationId), opState),
			lane.laneStateWrite(drive.operationId, step.inbox),
		],
		next: { ...state, tipId: step.tipId, inbox: step.inbox, operation: { meta: operation.meta, state: opState } },
		result: () => undefined,
		events: step.events,
	};
}

export interface Placement {
	entries: NewEntry[];
	writes: Write[];
	tipId: string | null;
	inbox: InboxItem[];
	triggerEntryId?: string;
	queues?: LaneQueuedItem[];
}

/** Take the queued input a boundary consumes: writes and steering, plus follow-ups when nothing else continues. */
export async function placeInbox(
	lane: LaneCore,
	state: LiveLaneState,
	scope: OperationScope,
	reader: SessionMutator,
	withFollowUps: boolean,
	context: Context,
): Promise<Placement> {
	const projects = (pending: Awaited<ReturnType<typeof readPending>>) =>
		pending.type === "message" || lane.services.config().entryProjectors[pending.customType] !== undefined;
	const steer = state.inbox.filter((item) => item.kind === "steer");
	const takenSteer = scope.settings.steeringMode === "all" ? steer : steer.slice(0, 1);
	let selected = state.inbox.filter((item) => item.kind === "write" || takenSteer.includes(item));
	let loaded = await Promise.all(
		selected.map(async (item) => ({ item, pending: await readPending(reader, item, context) })),
	);
	if (withFollowUps && !loaded.some(({ pending }) => projects(pending))) {
		const followUps = state.inbox.filter((item) => item.kind === "followUp");
		const taken = scope.settings.followUpMode === "all" ? followUps : followUps.slice(0, 1);
		selected = state.inbox.filter((item) => selected.includes(item) || taken.includes(item));
		loaded = await Promise.all(
			selected.map(async (item) => ({ item, pending: await readPending(reader, item, context) })),
		);
	}
	const entries = chainEntries(
		state.tipId,
		loaded.map(({ item, pending }) => pendingToEntry(item.entryId, pending)),
	);
	let triggerEntryId: string | undefined;
	for (const { item, pending } of loaded) if (projects(pending)) triggerEntryId = item.entryId;
	const inbox = state.inbox.filter((item) => !selected.includes(item));
	const tipId = entries.at(-1)?.id ?? state.tipId;
	return {
		entries,
		writes: [
			...entries.map((entry) => insertEntry(entry)),
			...selected.map((item) => deleteValue(pendingEntry(item.entryId))),
			...(entries.length === 0 ? [] : [setValue(branchTip(lane.name), tipId)]),
		],
		tipId,
		inbox,
		...(triggerEntryId === undefined ? {} : { triggerEntryId }),
		...(selected.length === 0 ? {} : { queues: await readLaneQueues(reader, inbox, context) }),
	};
}

export function placementEvents(
	placement: Placement,
	commit: CommitResult,
	lane: string,
	runId: string,
): HarnessEvent[] {
	return [
		...committedEntryEvents(placement.entries, commit, lane, runId),
		...(placement.queues === undefined
			? []
			: [{ type: "queue_update", lane, queues: placement.queues } as HarnessEvent]),
	];
}
