/**
 * Admitting a run on a lane: the prompt (text and images, messages, a skill or a prompt template) becomes entries
 * together with the queued input the run consumes (next-run messages, writes, and steering/follow-ups per queue
 * mode); a busy lane, an empty prompt, or an unknown skill or template is refused as a result.
 */
import type { AgentMessage } from "../../types.ts";
import type { Context } from "../context.ts";
import { formatPromptTemplateInvocation, formatSkillInvocation } from "../prompt-format.ts";
import { InvalidMessage, LaneBusy, Result, UnknownSkill, UnknownTemplate } from "../result.ts";
import { insertEntry } from "../session/commit.ts";
import type { OperationMeta } from "../session/types.ts";
import { branchTip, deleteValue, operationMeta, operationState, pendingEntry, setValue } from "../session/values.ts";
import type { LaneCore } from "./lane-core.ts";
import { chainEntries, committedEntryEvents, pendingToEntry, readLaneQueues, readPending } from "./transcript.ts";
import type { HarnessEvent, OperationAdmissionResult, OperationRequest } from "./types.ts";

/** Admit a run: its prompt (and consumed next-run/queued input) is committed and the lane becomes busy. */
export async function acceptRun(
	lane: LaneCore,
	request: OperationRequest,
	context: Context,
): Promise<OperationAdmissionResult> {
	const closed = lane.closedResult();
	if (closed !== undefined) return Result.err(closed);
	const startedAt = Date.now();
	const operationId = request.operationId ?? lane.session.idGenerator.next(startedAt);
	const config = lane.services.config();
	let messages: AgentMessage[];
	const user = (text: string): AgentMessage => ({
		role: "user",
		content: [{ type: "text", text }],
		timestamp: startedAt,
	});
	if (request.kind === "skill") {
		const skill = config.resources.skills?.find((candidate) => candidate.name === request.name);
		if (skill === undefined)
			return Result.err(new UnknownSkill({ name: request.name, message: `Unknown skill: ${request.name}` }));
		messages = [user(formatSkillInvocation(skill, request.additionalInstructions))];
	} else if (request.kind === "prompt_template") {
		const template = config.resources.promptTemplates?.find((candidate) => candidate.name === request.name);
		if (template === undefined) {
			return Result.err(
				new UnknownTemplate({ name: request.name, message: `Unknown prompt template: ${request.name}` }),
			);
		}
		const content = formatPromptTemplateInvocation(template, request.args);
		messages = content.length === 0 ? [] : [user(content)];
	} else if (typeof request.prompt !== "string") {
		messages = Array.isArray(request.prompt) ? request.prompt : [request.prompt];
	} else {
		const images = request.images ?? [];
		const text = request.prompt.length === 0 ? [] : [{ type: "text" as const, text: request.prompt }];
		messages =
			text.length === 0 && images.length === 0
				? []
				: [{ role: "user", content: [...text, ...images], timestamp: startedAt }];
	}
	if (messages.some((message) => message.role === "assistant" && message.stopReason === "pending")) {
		return Result.err(
			new InvalidMessage({
				lane: lane.name,
				reason: "pending_assistant",
				message: "Cannot accept a pending assistant message",
			}),
		);
	}
	const prompt = messages.map((message) => ({ id: lane.session.idGenerator.next(startedAt), message }));
	return lane.command<OperationAdmissionResult>(async (state, reader) => {
		if (state.operation !== null) {
			const { operationId: busyId, intent } = state.operation.meta;
			return {
				kind: "return",
				result: Result.err(
					new LaneBusy({
						lane: lane.name,
						operationId: busyId,
						operationKind: intent.kind,
						message: `Lane ${JSON.stringify(lane.name)} already has an active operation`,
					}),
				),
			};
		}
		let steerTaken = false;
		let followUpTaken = false;
		const selected = state.inbox.filter((item) => {
			if (item.kind === "write" || item.kind === "nextRun") return true;
			if (item.kind === "steer" && (config.steeringMode === "all" || !steerTaken)) {
				steerTaken = true;
				return true;
			}
			if (item.kind === "followUp" && (config.followUpMode === "all" || !followUpTaken)) {
				followUpTaken = true;
				return true;
			}
			return false;
		});
		const remaining = state.inbox.filter((item) => !selected.includes(item));
		const captured = await Promise.all(
			selected.map(async (item) => pendingToEntry(item.entryId, await readPending(reader, item, context))),
		);
		if (prompt.length === 0 && !selected.some((item) => item.kind !== "write")) {
			return {
				kind: "return",
				result: Result.err(
					new InvalidMessage({
						lane: lane.name,
						reason: "empty",
						message: "Acceptance must append at least one message",
					}),
				),
			};
		}
		const entries = chainEntries(state.tipId, [
			...captured,
			...prompt.map(({ id, message }) => ({ id, parentId: null, type: "message" as const, message })),
		]);
		const tipId = entries.at(-1)?.id ?? state.tipId;
		const meta: OperationMeta = {
			operationId,
			lane: lane.name,
			sourceTipId: state.tipId,
			startedAt,
			intent: { kind: "run", promptEntryIds: prompt.map(({ id }) => id) },
		};
		const opState = {
			at: "starting" as const,
			control: { status: "running" as const },
			settings: {
				compaction: { ...config.compaction },
				steeringMode: config.steeringMode,
				followUpMode: config.followUpMode,
				toolExecution: config.toolExecution,
			},
			latestAssistantEntryId: null,
		};
		const queues = selected.length > 0 ? await readLaneQueues(reader, remaining, context) : undefined;
		return {
			kind: "commit",
			writes: [
				...entries.map((entry) => insertEntry(entry)),
				...selected.map((item) => deleteValue(pendingEntry(item.entryId))),
				setValue(branchTip(lane.name), tipId),
				setValue(operationMeta(operationId), meta),
				setValue(operationState(operationId), opState),
				lane.laneStateWrite(operationId, remaining),
			],
			next: { ...state, tipId, inbox: remaining, operation: { meta, state: opState } },
			result: () => Result.ok({ operationId, kind: "run" as const, startedAt }),
			events: (commit) => [
				{ type: "run_start", runId: operationId, startedAt, lane: lane.name } as HarnessEvent,
				...committedEntryEvents(entries, commit, lane.name, operationId),
				...(queues === undefined ? [] : [{ type: "queue_update", queues, lane: lane.name } as HarnessEvent]),
			],
		};
	}, context);
}
