/**
 * Steps of a run that wait or recover: the retry wait before another attempt, and settling a request an earlier
 * process left in flight from its committed frames (an interrupted response, never a second provider call).
 */
import { type AssistantMessage, reduceAssistantMessageFrames } from "../../../ai/index.ts";
import type { OperationResultRecord } from "../session/types.ts";
import { pendingAssistantFrames } from "../session/values.ts";
import { type Pending, publishResponse } from "./generation.ts";
import type { LaneCore } from "./lane-core.ts";
import { commitStep, type Drive, type RunState, runMeta, scopeOf } from "./steps.ts";

const ZERO_USAGE = {
	input: 0,
	output: 0,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 0,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const INTERRUPTED =
	"Assistant request was interrupted. The preceding content is the latest committed partial; newer live output may be missing and the external outcome is unknown.";

/**
 * Settle a request a previous process left in flight, without asking the provider again: the committed frame prefix
 * becomes an interrupted (error) response, which may then be retried like any failed attempt.
 */
export async function recoverGeneration(
	lane: LaneCore,
	drive: Drive,
	pending: Pending,
): Promise<OperationResultRecord | undefined> {
	const address = pendingAssistantFrames(drive.operationId, pending.responseEntryId);
	const frames = (await lane.session.readList(address, { order: "asc", limit: 10_000 }, drive.context)).map(
		({ value }) => value,
	);
	const partial = reduceAssistantMessageFrames(frames as never);
	const { provider, modelId } = pending.configuration.model;
	const message: AssistantMessage =
		partial === undefined
			? {
					role: "assistant",
					content: [],
					api: "unknown",
					provider,
					model: modelId,
					usage: ZERO_USAGE,
					stopReason: "error",
					errorMessage: INTERRUPTED,
					timestamp: Date.now(),
				}
			: { ...partial, usage: ZERO_USAGE, stopReason: "error", errorMessage: INTERRUPTED };
	const base = { lane: lane.name, runId: drive.operationId };
	await lane.services.emit(
		[
			{ type: "message_start", ...base, message, recovery: true },
			{ type: "message_end", ...base, message, entryId: pending.responseEntryId, recovery: true },
		],
		drive.context,
	);
	return publishResponse(lane, drive, pending, message, Number.POSITIVE_INFINITY, true);
}

/** Wait out a scheduled retry (abortable), then make the step ready again. */
export async function runRetryWait(
	lane: LaneCore,
	drive: Drive,
	wait: Extract<RunState, { at: "assistant.retry_wait" }>,
) {
	const remaining = wait.notBefore - Date.now();
	if (remaining > 0 && !drive.waitForRetry) {
		return {
			kind: "waiting" as const,
			operationId: drive.operationId,
			reason: "retry" as const,
			notBefore: wait.notBefore,
		};
	}
	if (remaining > 0) {
		await new Promise<void>((resolve) => {
			const timer = setTimeout(done, remaining);
			function done() {
				clearTimeout(timer);
				drive.signal.removeEventListener("abort", done);
				resolve();
			}
			drive.signal.addEventListener("abort", done, { once: true });
		});
	}
	if (drive.signal.aborted) return undefined;
	const meta = runMeta(lane);
	const trigger = lane.state.tipId ?? meta.sourceTipId ?? "";
	await commitStep(lane, drive, (current) => ({
		writes: [],
		state: {
			...scopeOf(current),
			at: "assistant.ready",
			stepId: wait.stepId,
			configuration: wait.configuration,
			triggerEntryId: trigger,
			nextAttempt: wait.nextAttempt,
		},
		events: () => [
			{ type: "retry_start", lane: lane.name, runId: drive.operationId, step: wait.stepId, attempt: wait.nextAttempt },
		],
	}));
	return undefined;
}
