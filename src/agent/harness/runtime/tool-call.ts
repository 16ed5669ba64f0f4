/**
 * One tool call of a run: resolve and validate it and ask `before_tool` (a refusal is an immediate error result),
 * record its intent (`tool_start`), execute it with live `tool_update`s, let `after_tool` patch the result, and
 * stage the result message durably (`tool_end`).
 */
import { type ToolCall, type ToolResultMessage, type Usage, validateToolArguments } from "../../../ai/index.ts";
import type { AgentToolResult } from "../../types.ts";
import { withAbortSignal } from "../context.ts";
import type { JsonValue } from "../session/types.ts";
import {
	deleteValue,
	operationToolArgs,
	operationToolMemo,
	pendingEntry,
	pendingToolOutput,
	setValue,
} from "../session/values.ts";
import type { LaneCore } from "./lane-core.ts";
import { commitStep, type Drive, type RunState } from "./steps.ts";
import type { HarnessEvent, HarnessTool, HarnessToolInvocation } from "./types.ts";

type ToolResult = AgentToolResult<unknown> & { usage?: Usage };
type ToolsState = Extract<RunState, { at: "tools" }>;
export interface Staged {
	message: ToolResultMessage & { usage?: Usage };
	terminate: boolean;
}
export interface CallContext {
	lane: LaneCore;
	drive: Drive;
	turnId: string;
	call: ToolCall;
	sourceIndex: number;
	resultEntryId: string;
	tools: HarnessTool[];
	toolContext: unknown;
	truncated: boolean;
}

const text = (value: string) => [{ type: "text" as const, text: value }];
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

function resultMessage(call: ToolCall, result: ToolResult, isError: boolean): Staged["message"] {
	return {
		role: "toolResult",
		toolCallId: call.id,
		toolName: call.name,
		content: result.content ?? [],
		...(result.details === undefined ? {} : { details: result.details }),
		...(result.usage === undefined ? {} : { usage: result.usage }),
		isError,
		timestamp: Date.now(),
	} as ToolResultMessage;
}
const errorOutcome = (call: ToolCall, message: string, terminate = false): Staged => ({
	message: resultMessage(call, { content: text(message), details: undefined }, true),
	terminate,
});
export const cancelledOutcome = (call: ToolCall): Staged =>
	errorOutcome(call, "Tool execution was cancelled before completion.");

const INTERRUPTION_MARKER =
	"[Tool execution was interrupted. The preceding output is the latest durable progress snapshot; newer live output may be missing, and the external outcome is unknown.]";

/** The outcome of a call an earlier process started and never finished: its last checkpoint, marked interrupted. */
export async function interruptedOutcome(c: CallContext): Promise<Staged> {
	const saved = await c.lane.session.getValue(pendingToolOutput(c.drive.operationId, c.resultEntryId), c.drive.context);
	const checkpoint = saved?.value as ToolResult | undefined;
	const result: ToolResult = {
		content: [...(checkpoint?.content ?? []), ...text(INTERRUPTION_MARKER)],
		details: checkpoint?.details,
		...(checkpoint?.usage === undefined ? {} : { usage: checkpoint.usage }),
	};
	return { message: resultMessage(c.call, result, true), terminate: false };
}

/** Keep the latest progress a tool marked as its recovery checkpoint (durable while the call runs). */
function saveCheckpoint(c: CallContext, partial: AgentToolResult<unknown>): Promise<void> {
	const saved = c.lane.command((state) => {
		if (state.operation?.state.at !== "tools") return { kind: "return", result: undefined };
		const address = pendingToolOutput(c.drive.operationId, c.resultEntryId);
		return { kind: "commit", writes: [setValue(address, partial)], next: state, result: () => undefined };
	}, c.drive.context);
	saved.catch(() => {});
	return saved;
}

/** Stage the call's result message and announce its end (with its start, when it never started). */
export function stageOutcome(c: CallContext, staged: Staged, started: boolean, recovery = false): Promise<void> {
	const base = {
		...(recovery ? { recovery: true as const } : {}),
		lane: c.lane.name,
		runId: c.drive.operationId,
		turnId: c.turnId,
		toolCallId: c.call.id,
		toolName: c.call.name,
	};
	const terminate = c.lane.state.operation?.state.control.status === "running" && staged.terminate;
	const { message } = staged;
	const result: ToolResult = {
		content: message.content,
		details: message.details,
		...(message.usage === undefined ? {} : { usage: message.usage }),
		...(terminate ? { terminate: true } : {}),
	};
	const { recovery: flag, ...ids } = base;
	const events: HarnessEvent[] = [
		...(started
			? []
			: [{ type: "tool_start", ...ids, args: c.call.arguments, ...(flag ? { recovery: flag } : {}) } as HarnessEvent]),
		{ type: "tool_end", ...ids, result, isError: message.isError, terminate, ...(flag ? { recovery: flag } : {}) },
	];
	return commitStep(c.lane, c.drive, (current) => ({
		writes: [
			setValue(pendingEntry(c.resultEntryId), { type: "message", payload: message }),
			deleteValue(pendingToolOutput(c.drive.operationId, c.resultEntryId)),
		],
		state: { ...(current as ToolsState), staged: { ...(current as ToolsState).staged, [c.sourceIndex]: terminate } },
		events: () => events,
	}));
}

/** Prepare one call; its `completion` (already running when the call executes) stages the outcome. */
export async function startCall(c: CallContext): Promise<{ completion: Promise<void> }> {
	const { lane, drive, call } = c;
	if (c.truncated) {
		const name = JSON.stringify(call.name);
		const message = `Tool call ${name} was not executed because the assistant response hit the output token limit, so its arguments may be truncated. Re-issue the tool call with complete arguments.`;
		return { completion: stageOutcome(c, errorOutcome(call, message), false) };
	}
	const tool = c.tools.find((candidate) => candidate.name === call.name);
	if (tool === undefined)
		return {
			completion: stageOutcome(c, errorOutcome(call, `Tool ${JSON.stringify(call.name)} is unavailable`), false),
		};
	let args: Record<string, JsonValue>;
	try {
		const prepared = tool.prepareArguments ? tool.prepareArguments(call.arguments) : call.arguments;
		args = validateToolArguments(tool, { ...call, arguments: prepared as Record<string, unknown> });
	} catch (error) {
		return { completion: stageOutcome(c, errorOutcome(call, errorText(error)), false) };
	}
	const base = {
		lane: lane.name,
		runId: drive.operationId,
		turnId: c.turnId,
		toolCallId: call.id,
		toolName: call.name,
	};
	const decision = await lane.services.hooks.run("before_tool", { ...base, args }, drive.context);
	if (decision?.block !== undefined) {
		return {
			completion: stageOutcome(c, errorOutcome(call, decision.block.reason, decision.block.terminate === true), false),
		};
	}
	if (decision?.args !== undefined) {
		try {
			args = validateToolArguments(tool, { ...call, arguments: decision.args });
		} catch (error) {
			return { completion: stageOutcome(c, errorOutcome(call, errorText(error)), false) };
		}
	}
	if (lane.state.operation?.state.control.status === "cancel_requested")
		return { completion: stageOutcome(c, cancelledOutcome(call), false) };
	const cleared = args;
	await commitStep(lane, drive, (current) => ({
		writes: [setValue(operationToolArgs(drive.operationId, c.turnId, c.sourceIndex), cleared)],
		state: current,
		events: () => [{ type: "tool_start", ...base, args: cleared }],
	}));
	return { completion: execute(c, tool, cleared, base).then((staged) => stageOutcome(c, staged, true)) };
}

async function execute(
	c: CallContext,
	tool: HarnessTool,
	args: Record<string, JsonValue>,
	base: { lane: string; runId: string; turnId: string; toolCallId: string; toolName: string },
): Promise<Staged> {
	const { lane, drive, call } = c;
	let active = true;
	const memo = (name: string) => {
		if (name.length === 0) throw new TypeError("Tool invocation memo name must not be empty");
		if (name.includes(":")) throw new TypeError("Tool invocation memo name must not contain ':'");
		if (!active) throw new Error("Tool invocation no longer owns its durable effect");
		return operationToolMemo(drive.operationId, c.resultEntryId, name);
	};
	const invocation: HarnessToolInvocation = {
		invocationId: c.resultEntryId,
		operationId: drive.operationId,
		turnId: c.turnId,
		getMemo: async (name) => (await lane.session.getValue(memo(name), drive.context))?.value,
		setMemo: async (name, value) => {
			const address = memo(name);
			await lane.command(
				(state) => ({
					kind: "commit",
					writes: [value === undefined ? deleteValue(address) : setValue(address, value)],
					next: state,
					result: () => undefined,
				}),
				drive.context,
			);
		},
	};
	let lastUpdate: Promise<void> = Promise.resolve();
	let checkpoint: Promise<void> = Promise.resolve();
	let result: ToolResult;
	let isError = false;
	try {
		const admitted = withAbortSignal(drive.signal, drive.context);
		admitted.abortSignal?.throwIfAborted();
		result = await tool.execute(
			call.id,
			args as never,
			(partialResult, options) => {
				if (!active) return;
				if (options?.checkpoint === true) checkpoint = saveCheckpoint(c, partialResult);
				lastUpdate = lane.services.emit([{ type: "tool_update", ...base, partialResult }], drive.context);
				lastUpdate.catch(() => {});
			},
			c.toolContext,
			invocation,
			admitted,
		);
	} catch (error) {
		result = { content: text(errorText(error)), details: undefined };
		isError = true;
	} finally {
		active = false;
	}
	await lastUpdate;
	await checkpoint;
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
	return { message: resultMessage(call, result, patch?.isError ?? isError), terminate: result.terminate === true };
}
