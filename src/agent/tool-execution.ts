/**
 * Running the tool calls of one assistant message: preflight (lookup, argument shim, validation, `beforeToolCall`)
 * in source order, then execution — concurrent by default, one by one when configured or when any tool of the
 * batch asks for sequential — then `afterToolCall`. `tool_execution_end` is emitted as each call finishes; the
 * tool-result messages follow in source order.
 */
import { type AssistantMessage, invalidToolArguments, type ToolCall, type ToolResultMessage } from "../ai/index.ts";
import { errorMessage } from "../util/index.ts";
import { abandonOnAbort } from "./abandon.ts";
import type { AgentContext, AgentEvent, AgentLoopConfig, AgentTool, AgentToolResult } from "./types.ts";
import { validateToolArguments } from "./validate.ts";

export type Emit = (event: AgentEvent) => Promise<void> | void;

interface Finalized {
	call: ToolCall;
	result: AgentToolResult;
	isError: boolean;
}

type Prepared = { kind: "ready"; call: ToolCall; tool: AgentTool; args: unknown } | { kind: "done"; final: Finalized };

export async function executeToolCalls(
	assistant: AssistantMessage,
	context: AgentContext,
	config: AgentLoopConfig,
	emit: Emit,
	signal?: AbortSignal,
): Promise<{ results: ToolResultMessage[]; terminate: boolean }> {
	const calls = assistant.content.filter((b): b is ToolCall => b.type === "toolCall");
	const tools = new Map((context.tools ?? []).map((t) => [t.name, t]));
	const sequential =
		config.toolExecution === "sequential" || calls.some((c) => tools.get(c.name)?.executionMode === "sequential");
	const finals = new Map<string, Finalized>();
	const finish = async (final: Finalized) => {
		finals.set(final.call.id, final);
		await emit({
			type: "tool_execution_end",
			toolCallId: final.call.id,
			toolName: final.call.name,
			result: final.result,
			isError: final.isError,
		});
	};

	const running: Promise<void>[] = [];
	for (const call of calls) {
		await emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: call.arguments });
		const prepared = await preflight(call, tools.get(call.name), assistant, context, config, signal);
		if (prepared.kind === "done") {
			await finish(prepared.final);
			continue;
		}
		const run = execute(prepared, assistant, context, config, emit, signal).then(finish);
		if (sequential) await run;
		else running.push(run);
	}
	await Promise.all(running);

	const results: ToolResultMessage[] = [];
	for (const call of calls) {
		const final = finals.get(call.id) as Finalized;
		const message: ToolResultMessage = {
			role: "toolResult",
			toolCallId: call.id,
			toolName: call.name,
			content: final.result.content,
			details: final.result.details,
			isError: final.isError,
			timestamp: Date.now(),
		};
		await emit({ type: "message_start", message });
		await emit({ type: "message_end", message });
		results.push(message);
	}
	// The follow-up request is skipped only when every result of the batch asks for it.
	const terminate = finals.size > 0 && [...finals.values()].every((f) => f.result.terminate === true);
	return { results, terminate };
}

/** A tool that has not finished this long after an abort is abandoned (its own abort result is preferred). */
const TOOL_ABORT_GRACE_MS = 250;
const ABORTED = "Operation aborted";

function errorResult(text: string, terminate?: boolean): AgentToolResult {
	return { content: [{ type: "text", text }], details: {}, ...(terminate ? { terminate } : {}) };
}

async function preflight(
	call: ToolCall,
	tool: AgentTool | undefined,
	assistant: AssistantMessage,
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
): Promise<Prepared> {
	if (!tool)
		return { kind: "done", final: { call, result: errorResult(`Tool ${call.name} not found`), isError: true } };
	const unreadable = invalidToolArguments(call);
	if (unreadable !== undefined) {
		const text = `Tool call ${JSON.stringify(call.name)} was not run: its arguments are not valid JSON (${unreadable}). Send the call again with the arguments as one JSON object.`;
		return { kind: "done", final: { call, result: errorResult(text), isError: true } };
	}
	let raw: unknown = call.arguments;
	try {
		if (tool.prepareArguments) raw = tool.prepareArguments(raw);
	} catch (error) {
		return { kind: "done", final: { call, result: errorResult(errorMessage(error)), isError: true } };
	}
	const validated = validateToolArguments(tool.name, tool.parameters, raw);
	if (!validated.ok) return { kind: "done", final: { call, result: errorResult(validated.error), isError: true } };
	const aborted = { kind: "done", final: { call, result: errorResult(ABORTED), isError: true } } as const;
	if (signal?.aborted) return aborted;
	if (config.beforeToolCall) {
		try {
			// A hook that never settles (an extension's tool_call handler) must not hold an aborted run.
			const step = await abandonOnAbort(
				config.beforeToolCall({ assistantMessage: assistant, toolCall: call, args: validated.value, context }, signal),
				signal,
			);
			if (!step.settled || signal?.aborted) return aborted;
			const decision = step.value;
			if (decision?.block) {
				const result = errorResult(decision.reason ?? "Tool execution was blocked", decision.terminate);
				return { kind: "done", final: { call, result, isError: true } };
			}
		} catch (error) {
			// Fails closed: a hook that cannot decide blocks the call.
			return { kind: "done", final: { call, result: errorResult(errorMessage(error)), isError: true } };
		}
	}
	return { kind: "ready", call, tool, args: validated.value };
}

async function execute(
	prepared: Extract<Prepared, { kind: "ready" }>,
	assistant: AssistantMessage,
	context: AgentContext,
	config: AgentLoopConfig,
	emit: Emit,
	signal?: AbortSignal,
): Promise<Finalized> {
	const { call, tool, args } = prepared;
	let result: AgentToolResult;
	let isError = false;
	try {
		const step = await abandonOnAbort(
			tool.execute(call.id, args, signal, (partialResult) => {
				void emit({ type: "tool_execution_update", toolCallId: call.id, toolName: call.name, args, partialResult });
			}),
			signal,
			TOOL_ABORT_GRACE_MS,
		);
		if (!step.settled) return { call, result: errorResult(ABORTED), isError: true };
		result = step.value;
		if (!result || !Array.isArray(result.content)) {
			throw new Error(`tool ${call.name} returned no content array`);
		}
	} catch (error) {
		result = errorResult(errorMessage(error));
		isError = true;
	}
	if (config.afterToolCall) {
		try {
			const step = await abandonOnAbort(
				config.afterToolCall({ assistantMessage: assistant, toolCall: call, args, result, isError, context }, signal),
				signal,
				TOOL_ABORT_GRACE_MS,
			);
			const patch = step.settled ? step.value : undefined;
			if (patch) {
				result = {
					content: patch.content ?? result.content,
					details: patch.details !== undefined ? patch.details : result.details,
					...((patch.terminate ?? result.terminate) ? { terminate: patch.terminate ?? result.terminate } : {}),
				};
				if (patch.isError !== undefined) isError = patch.isError;
			}
		} catch {
			// afterToolCall is advisory: a failing hook leaves the tool's own result in place.
		}
	}
	return { call, result, isError };
}
