/**
 * The tool step of a run: calls start in source order (executing in parallel unless the run is sequential); as
 * results are staged, the ready prefix is placed on the branch in source order (message events, then the entries
 * with their usage); when every call is placed the turn ends and the run asks the model again, or stops when every
 * call asked to terminate.
 */
import type { AssistantMessage, ToolCall, ToolResultMessage, Usage } from "../../../ai/index.ts";
import { insertEntry, insertUsage } from "../session/commit.ts";
import type { PendingEntry, Write } from "../session/types.ts";
import {
	branchTip,
	deleteValue,
	operationToolArgs,
	operationToolArgsPrefix,
	pendingEntry,
	setValue,
} from "../session/values.ts";
import type { LaneCore } from "./lane-core.ts";
import { commitStep, type Drive, type RunState, scopeOf } from "./steps.ts";
import { type CallContext, cancelledOutcome, interruptedOutcome, stageOutcome, startCall } from "./tool-call.ts";
import type { HarnessEvent, HarnessTool } from "./types.ts";

export type ToolsState = Extract<RunState, { at: "tools" }>;
type ResultMessage = ToolResultMessage & { usage?: Usage };

function toolsState(lane: LaneCore): ToolsState | undefined {
	const state = lane.state.operation?.state as unknown as ToolsState | undefined;
	return state?.at === "tools" ? state : undefined;
}

/** Place the staged prefix of results; ends the turn when the whole batch is placed. */
async function placeReady(
	lane: LaneCore,
	drive: Drive,
	assistant: AssistantMessage,
	calls: ToolCall[],
	recovery: boolean,
): Promise<void> {
	const state = toolsState(lane);
	if (state === undefined) return;
	const ids = state.batch.resultEntryIds;
	const placed = state.placed ?? 0;
	let end = placed;
	while (end < calls.length && state.staged?.[end] !== undefined) end++;
	if (end === placed) return;
	const items = await Promise.all(
		ids.slice(placed, end).map(async (id, offset) => {
			const stored = await lane.session.getValue(pendingEntry(id), drive.context);
			if (stored?.value.type !== "message") throw new Error(`Tool result ${id} is missing its staged message`);
			return {
				id,
				message: (stored.value as Extract<PendingEntry, { type: "message" }>).payload as ResultMessage,
				terminate: state.staged?.[placed + offset] === true,
			};
		}),
	);
	const base = { lane: lane.name, runId: drive.operationId };
	const flag = recovery ? { recovery: true as const } : {};
	await lane.services.emit(
		items.flatMap(({ id, message }) => [
			{ type: "message_start", ...base, message, ...flag } as HarnessEvent,
			{ type: "message_end", ...base, message, entryId: id, ...flag } as HarnessEvent,
		]),
		drive.context,
	);
	const usageIds = items.map((item) =>
		item.message.usage === undefined ? undefined : lane.session.idGenerator.next(),
	);
	const complete = end === calls.length;
	const argsToDelete = complete
		? await lane.session.scanValues(operationToolArgsPrefix(drive.operationId, state.batch.turnId), drive.context)
		: [];
	await commitStep(lane, drive, (current) => {
		const writes: Write[] = [];
		const entryEvents: ((commit: { seqs: number[]; timestamp: number; stats: { usage: never } }) => HarnessEvent[])[] =
			[];
		let parentId = lane.state.tipId;
		for (const [index, item] of items.entries()) {
			const entry = {
				id: item.id,
				parentId,
				type: "message" as const,
				message: item.message,
				...(item.terminate ? { terminate: true as const } : {}),
			};
			const entryIndex = writes.length;
			writes.push(insertEntry(entry), deleteValue(pendingEntry(item.id)));
			const usageId = usageIds[index];
			const usage = item.message.usage;
			let usageIndex = -1;
			const row =
				usageId === undefined || usage === undefined
					? undefined
					: { id: usageId, usage, entryId: item.id, adjustment: false };
			if (row !== undefined) {
				usageIndex = writes.length;
				writes.push(insertUsage(row));
			}
			entryEvents.push((commit) => [
				{
					type: "entry_added",
					lane: lane.name,
					entry: { ...entry, seq: commit.seqs[entryIndex] ?? 0, timestamp: commit.timestamp },
				},
				...(row === undefined
					? []
					: [
							{
								type: "usage",
								lane: lane.name,
								row: { ...row, seq: commit.seqs[usageIndex] ?? 0 },
								totals: commit.stats.usage,
							} as HarnessEvent,
						]),
			]);
			parentId = item.id;
		}
		writes.push(setValue(branchTip(lane.name), parentId), ...argsToDelete.map(({ address }) => deleteValue(address)));
		const allTerminate = calls.every((_call, index) => state.staged?.[index] === true);
		const next: RunState = complete
			? {
					...scopeOf(current),
					at: "checkpoint",
					continuation: allTerminate
						? { kind: "may_finish", includeFinalAssistant: false }
						: { kind: "need_assistant" },
					triggerEntryId: parentId,
				}
			: { ...(current as ToolsState), placed: end };
		return {
			writes,
			state: next,
			lane: { tipId: parentId },
			events: (commit) => entryEvents.flatMap((make) => make(commit as never)),
		};
	});
	if (!complete) return;
	const toolResults = await Promise.all(
		ids.map(async (id) => {
			const entry = await lane.session.getEntry(id, drive.context);
			return (entry?.type === "message" ? entry.message : undefined) as ToolResultMessage;
		}),
	);
	await lane.services.emit(
		[{ type: "turn_end", ...base, turnId: state.batch.turnId, message: assistant, toolResults, ...flag }],
		drive.context,
	);
}

/** Run every unfinished call of the batch and place the results. */
export async function runTools(lane: LaneCore, drive: Drive, state: ToolsState): Promise<void> {
	const entry = await lane.session.getEntry(state.batch.assistantEntryId, drive.context);
	if (entry?.type !== "message" || entry.message.role !== "assistant") {
		throw new Error(`Tool batch assistant entry ${state.batch.assistantEntryId} is missing`);
	}
	const assistant = entry.message as AssistantMessage;
	const calls = assistant.content.filter((block): block is ToolCall => block.type === "toolCall");
	const config = lane.services.config();
	const active = new Set(state.batch.configuration.activeToolNames);
	const tools = config.tools.filter((tool) => active.has(tool.name)) as HarnessTool[];
	const cancelled = lane.state.operation?.state.control.status === "cancel_requested";
	const source = config.toolContext;
	const toolContext =
		cancelled || typeof source !== "function"
			? source
			: await (source as (c: typeof drive.context) => unknown)(drive.context);
	// Calls an earlier process started (their arguments are recorded) but did not finish, or finished but did not place.
	const startedBefore = await Promise.all(
		calls.map(async (_call, index) =>
			state.staged?.[index] === undefined
				? (await lane.session.getValue(
						operationToolArgs(drive.operationId, state.batch.turnId, index),
						drive.context,
					)) !== undefined
				: false,
		),
	);
	const recovering = startedBefore.some(Boolean) || calls.some((_c, index) => state.staged?.[index] !== undefined);
	if (recovering) {
		await lane.services.emit(
			[{ type: "turn_start", lane: lane.name, runId: drive.operationId, turnId: state.batch.turnId, recovery: true }],
			drive.context,
		);
	}
	let placement: Promise<void> = Promise.resolve();
	const place = () => {
		placement = placement.then(() => placeReady(lane, drive, assistant, calls, recovering));
		return placement;
	};
	await place();
	const jobs: Promise<void>[] = [];
	for (const [index, call] of calls.entries()) {
		if (toolsState(lane)?.staged?.[index] !== undefined) continue;
		const context: CallContext = {
			lane,
			drive,
			turnId: state.batch.turnId,
			call,
			sourceIndex: index,
			resultEntryId: state.batch.resultEntryIds[index] ?? "",
			tools,
			toolContext,
			truncated: assistant.stopReason === "length",
		};
		const nowCancelled = lane.state.operation?.state.control.status === "cancel_requested";
		const replaySafe =
			(tools.find((tool) => tool.name === call.name) as { replay?: string } | undefined)?.replay === "safe";
		const started = startedBefore[index]
			? !nowCancelled && replaySafe
				? await startCall(context)
				: { completion: interruptedOutcome(context).then((staged) => stageOutcome(context, staged, true, true)) }
			: nowCancelled
				? { completion: stageOutcome(context, cancelledOutcome(call), false) }
				: await startCall(context);
		const job = started.completion.then(place);
		job.catch(() => {});
		if (state.settings.toolExecution === "sequential") await job;
		jobs.push(job);
	}
	await Promise.all(jobs);
	await place();
}
