/**
 * Driving one run to its end: `before_drive`, then the durable steps in turn (start, checkpoint, assistant, retry
 * wait, tools) until the run settles; a requested abort settles it as `aborted` at the next step boundary.
 */
import type { AgentMessage } from "../../types.ts";
import { insertEntry } from "../session/commit.ts";
import type { CommitResult, NewEntry, OperationResultRecord } from "../session/types.ts";
import { branchTip, setValue } from "../session/values.ts";
import { runGeneration } from "./generation.ts";
import type { LaneCore } from "./lane-core.ts";
import { recoverGeneration, runRetryWait } from "./recovery.ts";
import {
	type Continuation,
	cancelRequested,
	commitStep,
	type Drive,
	finishPlan,
	finishRun,
	placeInbox,
	placementEvents,
	readyPlan,
	runMeta,
	runState,
	scopeOf,
} from "./steps.ts";
import { runTools } from "./tools-step.ts";
import { branchMessages, chainEntries, committedEntryEvents, entryEvents } from "./transcript.ts";
import type { DriveOutcome } from "./types.ts";

/** `before_run` may add messages after the prompt; then the run asks the model. */
async function startRun(lane: LaneCore, drive: Drive): Promise<void> {
	const meta = runMeta(lane);
	if (meta.intent.kind !== "run") throw new Error("Run operation has non-run intent");
	const ids = meta.intent.promptEntryIds;
	const stored = await lane.session.getEntries(ids, drive.context);
	const prompt = ids.map((id) => {
		const entry = stored.get(id);
		if (entry?.type !== "message") throw new Error(`Run prompt entry ${id} is missing its message`);
		return entry.message;
	});
	const hook = await lane.services.hooks.run(
		"before_run",
		{ lane: lane.name, runId: drive.operationId, prompt, resources: lane.services.config().resources },
		drive.context,
	);
	const injected = (hook?.messages ?? []).map((message) => ({ id: lane.session.idGenerator.next(), message }));
	if (cancelRequested(lane)) return;
	const entries = chainEntries(
		lane.state.tipId,
		injected.map(({ id, message }) => ({ id, type: "message" as const, message }) as NewEntry),
	);
	const trigger = entries.at(-1)?.id ?? lane.state.tipId;
	if (trigger === null) throw new Error("Run start has no trigger entry");
	await commitStep(lane, drive, (current) => ({
		writes: [
			...entries.map((entry) => insertEntry(entry)),
			...(entries.length === 0 ? [] : [setValue(branchTip(lane.name), trigger)]),
		],
		state: { ...scopeOf(current), at: "checkpoint", continuation: { kind: "need_assistant" }, triggerEntryId: trigger },
		lane: { tipId: trigger },
		events: (commit) => committedEntryEvents(entries, commit, lane.name, drive.operationId),
	}));
}

/** A boundary between steps: place queued input, then ask the model again or try to finish. */
async function runCheckpoint(lane: LaneCore, drive: Drive, continuation: Continuation, trigger: string | null) {
	const mayFinish = continuation.kind === "may_finish";
	const finishPending = await lane.command<boolean>(async (state, reader) => {
		const operation = state.operation;
		if (operation === null) throw new Error("Checkpoint has no operation");
		const placement = await placeInbox(lane, state, operation.state, reader, mayFinish, drive.context);
		const next = placement.triggerEntryId ?? (mayFinish ? undefined : trigger);
		if (next === undefined || next === null) return { kind: "return", result: true };
		const plan = readyPlan(lane, drive, state, {
			...placement,
			triggerEntryId: next,
			events: (commit) => placementEvents(placement, commit, lane.name, drive.operationId),
		});
		return plan.kind === "commit" ? { ...plan, result: () => false } : { kind: "return", result: false };
	}, drive.context);
	return finishPending ? finishBoundary(lane, drive) : undefined;
}

/** `before_run_end` may ask for one more user turn; queued follow-ups also keep the run going. */
async function finishBoundary(lane: LaneCore, drive: Drive): Promise<OperationResultRecord | undefined> {
	const tip = lane.state.tipId;
	const path =
		tip === null
			? []
			: (
					await lane.session.scanBranch({ start: tip, stopAtType: "compaction", order: "newestFirst" }, drive.context)
				).reverse();
	const messages = await branchMessages(path, lane.services.config().entryProjectors, drive.context);
	const hook = await lane.services.hooks.run(
		"before_run_end",
		{ lane: lane.name, runId: drive.operationId, messages },
		drive.context,
	);
	if (cancelRequested(lane)) return undefined;
	const followUp =
		hook?.followUp === undefined
			? undefined
			: ({ role: "user", content: hook.followUp, timestamp: Date.now() } as AgentMessage);
	const followUpId = followUp === undefined ? undefined : lane.session.idGenerator.next();
	return lane.command<OperationResultRecord | undefined>(async (state, reader) => {
		const operation = state.operation;
		if (operation === null) throw new Error("Finish has no operation");
		const placement = await placeInbox(lane, state, operation.state, reader, true, drive.context);
		const events = (commit: CommitResult) => placementEvents(placement, commit, lane.name, drive.operationId);
		if (placement.triggerEntryId !== undefined) {
			return readyPlan(lane, drive, state, { ...placement, triggerEntryId: placement.triggerEntryId, events });
		}
		if (followUp !== undefined && followUpId !== undefined && placement.entries.length === 0) {
			const entry = { id: followUpId, parentId: placement.tipId, type: "message" as const, message: followUp };
			const index = placement.writes.length;
			return readyPlan(lane, drive, state, {
				writes: [...placement.writes, insertEntry(entry), setValue(branchTip(lane.name), followUpId)],
				tipId: followUpId,
				inbox: placement.inbox,
				triggerEntryId: followUpId,
				events: (commit) => [
					...events(commit),
					...entryEvents(
						{ ...entry, seq: commit.seqs[index] ?? 0, timestamp: commit.timestamp },
						lane.name,
						drive.operationId,
					),
				],
			});
		}
		return finishPlan(lane, drive, state, {
			writes: placement.writes,
			status: "completed",
			tipId: placement.tipId,
			inbox: placement.inbox,
			events,
		});
	}, drive.context);
}

/** Drive the lane's current run until it settles. */
export async function driveRun(lane: LaneCore, drive: Drive): Promise<DriveOutcome> {
	if (!cancelRequested(lane)) {
		await lane.services.hooks.run(
			"before_drive",
			{ lane: lane.name, runId: drive.operationId, operation: "run" },
			drive.context,
		);
	}
	for (;;) {
		lane.assertOpen();
		const state = runState(lane);
		let settled: OperationResultRecord | undefined;
		if (cancelRequested(lane)) {
			if (state.at === "tools") await runTools(lane, drive, state);
			if (state.at === "assistant.effect_pending") {
				settled = await recoverGeneration(lane, drive, state);
				if (settled !== undefined) return { kind: "settled", outcome: settled };
			}
			return { kind: "settled", outcome: await finishRun(lane, drive, () => ({ writes: [], status: "aborted" })) };
		}
		switch (state.at) {
			case "starting":
				await startRun(lane, drive);
				break;
			case "checkpoint":
				settled = await runCheckpoint(lane, drive, state.continuation, state.triggerEntryId);
				break;
			case "assistant.ready":
				settled = await runGeneration(lane, drive, state);
				break;
			case "assistant.effect_pending":
				// Left in flight by an earlier process: settle it from its committed frames.
				settled = await recoverGeneration(lane, drive, state);
				break;
			case "assistant.retry_wait": {
				const waiting = await runRetryWait(lane, drive, state);
				if (waiting !== undefined) return waiting;
				break;
			}
			case "tools":
				await runTools(lane, drive, state);
				break;
		}
		if (settled !== undefined) return { kind: "settled", outcome: settled };
	}
}
