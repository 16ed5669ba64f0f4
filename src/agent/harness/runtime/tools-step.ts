/**
 * The tool step of a run: every tool call of the committed assistant message is resolved, validated, passed through
 * `before_tool`, executed (in parallel or in order) with live `tool_update`s, passed through `after_tool`, and its
 * result committed as a `toolResult` entry; then the turn ends.
 */
import { type AssistantMessage, type ToolCall, type ToolResultMessage, validateToolArguments } from "../../../ai/index.ts";
import type { AgentToolResult } from "../../types.ts";
import type { Usage } from "../../../ai/index.ts";

type ToolResult = AgentToolResult<unknown> & { usage?: Usage };
import { withAbortSignal } from "../context.ts";
import { insertEntry } from "../session/commit.ts";
import type { JsonValue, NewEntry } from "../session/types.ts";
import { branchTip, operationToolMemo, setValue } from "../session/values.ts";
import type { LaneCore } from "./lane-core.ts";
import { commitStep, type Drive, type RunState, scopeOf } from "./steps.ts";
import { chainEntries, committedEntryEvents } from "./transcript.ts";
import type { HarnessEvent, HarnessTool, HarnessToolInvocation } from "./types.ts";

type ToolsState = Extract<RunState, { at: "tools" }>;
interface Outcome {
	call: ToolCall;
	result: ToolResult;
	isError: boolean;
	terminate: boolean;
}

const errorResult = (text: string): ToolResult => ({ content: [{ type: "text", text }], details: undefined });
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function runOne(
	lane: LaneCore,
	drive: Drive,
	turnId: string,
	call: ToolCall,
	resultEntryId: string,
	toolContext: unknown,
): Promise<Outcome> {
	const base = { lane: lane.name, runId: drive.operationId, turnId, toolCallId: call.id, toolName: call.name };
	const emit = (event: HarnessEvent) => lane.services.emit([event], drive.context);
	const finish = async (outcome: Omit<Outcome, "call">): Promise<Outcome> => {
		await emit({ type: "tool_end", ...base, result: outcome.result, isError: outcome.isError, terminate: outcome.terminate });
		return { call, ...outcome };
	};
	await emit({ type: "tool_start", ...base, args: call.arguments });
	const tool = lane.services.config().tools.find((candidate) => candidate.name === call.name) as HarnessTool | undefined;
	if (tool === undefined) return finish({ result: errorResult(`Tool ${JSON.stringify(call.name)} is unavailable`), isError: true, terminate: false });
	let args: Record<string, JsonValue>;
	try {
		const prepared = tool.prepareArguments ? tool.prepareArguments(call.arguments) : call.arguments;
		args = validateToolArguments(tool, { ...call, arguments: prepared as Record<string, unknown> });
	} catch (error) {
		return finish({ result: errorResult(message(error)), isError: true, terminate: false });
	}
	const before = await lane.services.hooks.run("before_tool", { ...base, args }, drive.context);
	if (before?.block !== undefined) {
		return finish({ result: errorResult(before.block.reason), isError: true, terminate: before.block.terminate === true });
	}
	if (before?.args !== undefined) {
		try {
			args = validateToolArguments(tool, { ...call, arguments: before.args });
		} catch (error) {
			return finish({ result: errorResult(message(error)), isError: true, terminate: false });
		}
	}
	const invocation: HarnessToolInvocation = {
		invocationId: resultEntryId,
		operationId: drive.operationId,
		turnId,
		getMemo: async (name) =>
			(await lane.session.getValue(operationToolMemo(drive.operationId, resultEntryId, name), drive.context))?.value,
		setMemo: async (name, value) => {
			const address = operationToolMemo(drive.operationId, resultEntryId, name);
			if (value === undefined) await lane.session.deleteValue(address, drive.context);
			else await lane.session.setValue(address, value, drive.context);
		},
	};
	let accepting = true;
	let result: ToolResult;
	let isError = false;
	try {
		const admitted = withAbortSignal(drive.signal, drive.context);
		admitted.abortSignal?.throwIfAborted();
		result = await tool.execute(
			call.id,
			args as never,
			(partialResult) => {
				if (accepting) void emit({ type: "tool_update", ...base, partialResult });
			},
			toolContext,
			invocation,
			admitted,
		);
	} catch (error) {
		result = errorResult(message(error));
		isError = true;
	} finally {
		accepting = false;
	}
	const patch = await lane.services.hooks.run(
		"after_tool",
		{
			...base,
			args,
			content: result.content,
			...(result.details === undefined ? {} : { details: result.details as JsonValue }),
			isError,
			...(result.usage === undefined ? {} : { usage: result.usage }),
		},
		drive.context,
	);
	if (patch !== undefined) {
		result = {
			...result,
			content: patch.content ?? result.content,
			details: patch.details ?? result.details,
			usage: patch.usage ?? result.usage,
			terminate: patch.terminate ?? result.terminate,
		};
	}
	return finish({ result, isError: patch?.isError ?? isError, terminate: result.terminate === true });
}

function toolResultMessage(outcome: Outcome): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: outcome.call.id,
		toolName: outcome.call.name,
		content: outcome.result.content ?? [],
		...(outcome.result.details === undefined ? {} : { details: outcome.result.details }),
		...(outcome.result.usage === undefined ? {} : { usage: outcome.result.usage }),
		isError: outcome.isError,
		timestamp: Date.now(),
	} as ToolResultMessage;
}

/** Execute the batch, commit every result entry, end the turn, and continue (or stop when all calls terminate). */
export async function runTools(lane: LaneCore, drive: Drive, state: ToolsState): Promise<void> {
	const entry = await lane.session.getEntry(state.batch.assistantEntryId, drive.context);
	if (entry?.type !== "message" || entry.message.role !== "assistant") {
		throw new Error(`Tool batch assistant entry ${state.batch.assistantEntryId} is missing`);
	}
	const assistant = entry.message as AssistantMessage;
	const calls = assistant.content.filter((block): block is ToolCall => block.type === "toolCall");
	const config = lane.services.config();
	const source = config.toolContext;
	const toolContext = typeof source === "function" ? await (source as (c: typeof drive.context) => unknown)(drive.context) : source;
	const ids = calls.map(() => lane.session.idGenerator.next());
	const turnId = state.batch.turnId;
	const outcomes: Outcome[] = [];
	if (state.settings.toolExecution === "sequential") {
		for (const [index, call] of calls.entries()) outcomes.push(await runOne(lane, drive, turnId, call, ids[index] ?? "", toolContext));
	} else {
		outcomes.push(...(await Promise.all(calls.map((call, index) => runOne(lane, drive, turnId, call, ids[index] ?? "", toolContext)))));
	}
	const messages = outcomes.map(toolResultMessage);
	const entries = chainEntries(
		lane.state.tipId,
		messages.map(
			(toolMessage, index): NewEntry => ({
				id: ids[index] ?? "",
				parentId: null,
				type: "message",
				message: toolMessage,
				...(outcomes[index]?.terminate ? { terminate: true as const } : {}),
			}),
		),
	);
	const tipId = entries.at(-1)?.id ?? lane.state.tipId;
	const allTerminate = outcomes.length > 0 && outcomes.every((outcome) => outcome.terminate);
	await commitStep(lane, drive, (current) => ({
		writes: [...entries.map((e) => insertEntry(e)), setValue(branchTip(lane.name), tipId)],
		state: {
			...scopeOf(current),
			at: "checkpoint",
			continuation: allTerminate ? { kind: "may_finish", includeFinalAssistant: false } : { kind: "need_assistant" },
			triggerEntryId: tipId,
		},
		lane: { tipId },
		events: (commit) => [
			...committedEntryEvents(entries, commit, lane.name, drive.operationId),
			{ type: "turn_end", lane: lane.name, runId: drive.operationId, turnId, message: assistant, toolResults: messages },
		],
	}));
}
