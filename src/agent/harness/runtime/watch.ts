/**
 * Watching a lane: a snapshot taken on the session's mutation line together with a subscription installed at the
 * same point, so the events that follow apply exactly to that snapshot. Events wait in a buffer until `start`.
 */
import { reduceAssistantMessageFrames } from "../../../ai/index.ts";
import type { AgentToolResult } from "../../types.ts";
import type { Context } from "../context.ts";
import { HarnessFault } from "../result.ts";
import type { SessionReader } from "../session/types.ts";
import {
	operationResult,
	operationToolArgs,
	pendingAssistantFrames,
	pendingEntry,
	pendingToolOutput,
} from "../session/values.ts";
import type { LaneCore, LiveLaneState } from "./lane-core.ts";
import type { LaneSnapshot, LaneSnapshotTool } from "./reducer.ts";
import type { RunState } from "./steps.ts";
import { readLaneQueues } from "./transcript.ts";
import type { HarnessEvent } from "./types.ts";

type Listener = (event: HarnessEvent, context: Context) => void | Promise<void>;

export interface WatchHandle<T> {
	snapshot: T;
	start(listener: Listener): void;
	resnapshot(context: Context): Promise<T>;
	unsubscribe(): void;
}

/** Buffers events until started, then delivers them in order; a throwing listener is reported, not fatal. */
export class BufferedWatcher<T> implements WatchHandle<T> {
	private buffer: { event: HarnessEvent; context: Context }[] = [];
	private listener: Listener | undefined;
	private state: "buffering" | "started" | "unsubscribed" = "buffering";
	private tail: Promise<void> = Promise.resolve();
	private dropping = false;
	onUnsubscribe: () => void = () => {};

	constructor(
		public snapshot: T,
		private readonly capture: (context: Context) => Promise<T>,
		private readonly onError: (error: unknown, event: HarnessEvent, context: Context) => Promise<void>,
	) {}

	start(listener: Listener): void {
		if (this.state !== "buffering") throw new Error("WatchHandle.start() may be called only once");
		this.state = "started";
		this.listener = listener;
		const buffered = this.buffer;
		this.buffer = [];
		for (const { event, context } of buffered) this.enqueue(event, context);
	}

	/** Take a fresh snapshot; events up to it are dropped, later ones delivered. */
	async resnapshot(context: Context): Promise<T> {
		if (this.state === "unsubscribed") throw new Error("WatchHandle is unsubscribed");
		if (this.dropping) throw new Error("WatchHandle resnapshot is already in progress");
		this.dropping = true;
		try {
			this.snapshot = await this.capture(context);
			return this.snapshot;
		} finally {
			this.dropping = false;
		}
	}

	unsubscribe(): void {
		if (this.state === "unsubscribed") return;
		this.state = "unsubscribed";
		this.buffer = [];
		this.listener = undefined;
		this.onUnsubscribe();
	}

	push(event: HarnessEvent, context: Context): void {
		if (this.state === "unsubscribed" || this.dropping) return;
		if (this.state === "buffering") this.buffer.push({ event, context });
		else this.enqueue(event, context);
	}

	private enqueue(event: HarnessEvent, context: Context): void {
		const listener = this.listener;
		if (listener === undefined) return;
		this.tail = this.tail
			.then(async () => {
				if (this.state === "started") await listener(event, context);
			})
			.catch(async (error: unknown) => {
				try {
					await this.onError(error, event, context);
				} catch {}
			});
	}
}

async function runningTools(
	reader: SessionReader,
	state: LiveLaneState,
	step: Extract<RunState, { at: "tools" }>,
	context: Context,
) {
	const operationId = state.operation?.meta.operationId ?? "";
	const assistant = (await reader.getEntries([step.batch.assistantEntryId], context)).get(step.batch.assistantEntryId);
	if (assistant?.type !== "message" || assistant.message.role !== "assistant") return [];
	const calls = assistant.message.content.flatMap((block) => (block.type === "toolCall" ? [block] : []));
	const tools: LaneSnapshotTool[] = [];
	for (const [index, call] of calls.entries()) {
		if (index < (step.placed ?? 0)) continue;
		const resultEntryId = step.batch.resultEntryIds[index] ?? "";
		const args = await reader.getValue(operationToolArgs(operationId, step.batch.turnId, index), context);
		const terminate = step.staged?.[index];
		if (terminate === undefined) {
			if (args === undefined) continue;
			const checkpoint = await reader.getValue(pendingToolOutput(operationId, resultEntryId), context);
			const result = checkpoint === undefined ? {} : { result: checkpoint.value };
			tools.push({ status: "running", toolCallId: call.id, toolName: call.name, args: args.value, ...result });
			continue;
		}
		const staged = await reader.getValue(pendingEntry(resultEntryId), context);
		if (staged?.value.type !== "message" || staged.value.payload.role !== "toolResult") continue;
		const message = staged.value.payload;
		const result: AgentToolResult<unknown> = {
			content: message.content,
			details: message.details,
			...((message as { usage?: unknown }).usage === undefined
				? {}
				: { usage: (message as { usage?: unknown }).usage }),
			...(terminate ? { terminate: true } : {}),
		} as AgentToolResult<unknown>;
		const argsValue = args?.value ?? call.arguments;
		tools.push({
			status: "settled",
			toolCallId: call.id,
			toolName: call.name,
			args: argsValue,
			result,
			isError: message.isError,
		});
	}
	return tools;
}

/** The lane as a watcher first sees it: branch since the last compaction, queues, stats, the operation in flight. */
export async function captureLaneSnapshot(
	lane: LaneCore,
	reader: SessionReader,
	context: Context,
): Promise<LaneSnapshot> {
	const state = structuredClone(lane.state);
	const transcript =
		state.tipId === null
			? []
			: (
					await reader.scanBranch({ start: state.tipId, stopAtType: "compaction", order: "newestFirst" }, context)
				).reverse();
	const queues = await readLaneQueues(reader, state.inbox, context);
	const lastResult =
		state.lastOperationId === null
			? undefined
			: (await reader.getValue(operationResult(state.lastOperationId), context))?.value;
	const stats = await reader.getStats(context);
	let operation: LaneSnapshot["operation"] = null;
	if (state.operation !== null) {
		const step = state.operation.state as unknown as RunState;
		const id = state.operation.meta.operationId;
		let extra: Partial<NonNullable<LaneSnapshot["operation"]>> = {};
		let tools: LaneSnapshotTool[] = [];
		if (step.at === "assistant.retry_wait") {
			const retry = lane.services.config().retryPolicy;
			extra = {
				retry: {
					attempt: step.nextAttempt,
					maxAttempts: retry.enabled ? retry.maxRetries + 1 : 1,
					nextAttemptAt: step.notBefore,
				},
			};
		} else if (step.at === "assistant.effect_pending") {
			const frames = (
				await reader.readList(
					pendingAssistantFrames(id, step.responseEntryId),
					{ order: "asc", limit: 10_000 },
					context,
				)
			).map(({ value }) => value);
			const streamingMessage = reduceAssistantMessageFrames(frames as never);
			if (streamingMessage !== undefined) extra = { streamingMessage };
		} else if (step.at === "tools") {
			tools = await runningTools(reader, state, step, context);
		}
		operation = {
			id,
			kind: state.operation.meta.intent.kind,
			startedAt: state.operation.meta.startedAt,
			fromTipId: state.operation.meta.sourceTipId,
			status: state.operation.state.control.status === "cancel_requested" ? "aborting" : "open",
			...extra,
			runningTools: tools,
		};
	}
	return structuredClone({
		lane: lane.name,
		transcript,
		tipId: state.tipId,
		...(lastResult === undefined ? {} : { lastResult }),
		configuration: state.configuration,
		stats,
		operation,
		queues,
		faulted: lane.closedError instanceof HarnessFault,
	});
}

/** A snapshot of the lane plus the lane's events from exactly that point on (buffered until `start`). */
export async function watchLane(lane: LaneCore, context: Context): Promise<WatchHandle<LaneSnapshot>> {
	lane.assertOpen();
	const capture = (c: Context) => lane.session.mutate((reader) => captureLaneSnapshot(lane, reader, c), c);
	return lane.session.mutate(async (reader) => {
		lane.assertOpen();
		const watcher = new BufferedWatcher<LaneSnapshot>(undefined as never, capture, async (error, event, c) => {
			if (event.type === "handler_error") return;
			const normalized = error instanceof Error ? error : new Error(String(error));
			await lane.services.emit(
				[
					{
						type: "handler_error",
						kind: "event",
						event: event.type,
						error: normalized.message,
						...(normalized.stack === undefined ? {} : { stack: normalized.stack }),
						lane: lane.name,
					},
				],
				c,
			);
		});
		watcher.onUnsubscribe = lane.services.watch((event, c) => {
			if (event.type === "usage" || event.lane === undefined || event.lane === lane.name) watcher.push(event, c);
		});
		try {
			watcher.snapshot = await captureLaneSnapshot(lane, reader, context);
		} catch (error) {
			watcher.unsubscribe();
			throw error;
		}
		return watcher;
	}, context);
}
