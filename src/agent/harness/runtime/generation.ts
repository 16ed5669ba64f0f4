/**
 * One assistant step of a run: resolve model and tools, build the branch context, stream the response (message
 * start/update/end with frames), then commit the response entry and its usage and decide what comes next: tools,
 * a retry wait, the finish checkpoint, or a failed run.
 */
import {
	type AssistantMessage,
	type AssistantMessageEvent,
	AssistantMessageFrameEncoder,
	DEFAULT_MAX_AGENT_RETRY_DELAY_MS,
	isContextOverflow,
	isRetryableAssistantError,
	retryDelayMs,
} from "../../../ai/index.ts";
import type { AgentMessage } from "../../types.ts";
import { withAbortSignal } from "../context.ts";
import { insertEntry, insertUsage } from "../session/commit.ts";
import type { OperationError, OperationResultRecord, SettledAssistantMessage } from "../session/types.ts";
import { appendList, branchTip, deleteList, pendingAssistantFrames, setValue } from "../session/values.ts";
import { getTelemetryContext } from "../telemetry.ts";
import type { LaneCore } from "./lane-core.ts";
import { commitStep, type Drive, finishRun, type RunState, scopeOf } from "./steps.ts";
import { branchMessages } from "./transcript.ts";
import type { HarnessEvent } from "./types.ts";

type Ready = Extract<RunState, { at: "assistant.ready" }>;
export type Pending = Extract<RunState, { at: "assistant.effect_pending" }>;

export function maxAttempts(lane: LaneCore): number {
	const retry = lane.services.config().retryPolicy;
	return retry.enabled ? retry.maxRetries + 1 : 1;
}

/**
 * Durable streaming progress: each frame is appended to the response's frame list (in order, on the mutation line)
 * while the step still waits for that response, so a reader can rebuild the partial message.
 */
function openProgress(
	lane: LaneCore,
	drive: Drive,
	address: ReturnType<typeof pendingAssistantFrames>,
	responseEntryId: string,
) {
	let sealed = false;
	let latest: Promise<void> = Promise.resolve();
	return {
		write(frame: unknown) {
			if (sealed) return;
			latest = lane.command((state) => {
				const step = state.operation?.state as unknown as RunState | undefined;
				if (step?.at !== "assistant.effect_pending" || step.responseEntryId !== responseEntryId) {
					return { kind: "return", result: undefined };
				}
				return { kind: "commit", writes: [appendList(address, frame)], next: state, result: () => undefined };
			}, drive.context);
			latest.catch(() => {});
		},
		async close() {
			sealed = true;
			await latest;
		},
	};
}

/** Run the tool-less part of one assistant step; returns the settled record when the run ended here. */
export async function runGeneration(
	lane: LaneCore,
	drive: Drive,
	ready: Ready,
): Promise<OperationResultRecord | undefined> {
	const config = lane.services.config();
	const configuration = ready.configuration;
	const identity = configuration.model;
	const model = lane.services.models.getModel(identity.provider, identity.modelId);
	const failure = (error: OperationError) => finishRun(lane, drive, () => ({ writes: [], status: "failed", error }));
	if (model === undefined) {
		return failure({
			code: "model_unavailable",
			message: "The configured model is unavailable in this process",
			details: { ...identity },
		});
	}
	const byName = new Map(config.tools.map((tool) => [tool.name, tool]));
	const missing = configuration.activeToolNames.filter((name) => !byName.has(name));
	if (missing.length > 0) {
		return failure({
			code: "configured_tools_unavailable",
			message: "One or more configured tools are unavailable in this process",
			details: { tools: missing },
		});
	}
	const tools = configuration.activeToolNames.flatMap((name) => {
		const tool = byName.get(name);
		return tool === undefined ? [] : [{ name: tool.name, description: tool.description, parameters: tool.parameters }];
	});
	const tip = lane.state.tipId;
	const path =
		tip === null
			? []
			: (
					await lane.session.scanBranch({ start: tip, stopAtType: "compaction", order: "newestFirst" }, drive.context)
				).reverse();
	const messages = await branchMessages(path, config.entryProjectors, drive.context);
	let systemPrompt = "";
	if (typeof config.systemPrompt === "string") systemPrompt = config.systemPrompt;
	else if (config.systemPrompt !== undefined) {
		const source = config.toolContext;
		const toolContext =
			typeof source === "function" ? await (source as (c: typeof drive.context) => unknown)(drive.context) : source;
		systemPrompt = await config.systemPrompt(toolContext, drive.context);
	}
	const base = { lane: lane.name, runId: drive.operationId };
	const request = await lane.services.hooks.run(
		"before_request",
		{ ...base, model, step: "assistant", attempt: ready.nextAttempt, streamOptions: config.streamOptions },
		drive.context,
	);
	const streamOptions = request?.streamOptions ?? config.streamOptions;
	const at = Date.now();
	const pending: Pending = {
		...scopeOf(ready),
		at: "assistant.effect_pending",
		stepId: ready.stepId,
		configuration,
		attempt: ready.nextAttempt,
		responseEntryId: lane.session.idGenerator.next(at),
		usageId: lane.session.idGenerator.next(at),
	};
	await commitStep(lane, drive, () => ({
		writes: [],
		state: pending,
		events: () =>
			ready.nextAttempt === 1
				? [{ type: "turn_start", lane: lane.name, runId: drive.operationId, turnId: ready.stepId }]
				: [],
	}));
	const transformed = await lane.services.hooks.run(
		"transform_context",
		{ ...base, messages, systemPrompt },
		drive.context,
	);
	const requestMessages: AgentMessage[] = transformed?.messages ?? messages;
	const providerMessages = await config.toProviderMessages(requestMessages.slice(), drive.context);
	let metadata: { status?: number; headers?: Record<string, string> } = {};
	const admitted = withAbortSignal(drive.signal, drive.context);
	const thinking = configuration.thinkingLevel;
	const stream = lane.services.models.streamSimple(
		model,
		{ systemPrompt: transformed?.systemPrompt ?? systemPrompt, messages: providerMessages, tools },
		{
			transport: streamOptions.transport,
			timeoutMs: streamOptions.timeoutMs,
			maxRetries: streamOptions.maxRetries,
			maxRetryDelayMs: streamOptions.maxRetryDelayMs,
			headers: streamOptions.headers,
			metadata: streamOptions.metadata,
			cacheRetention: streamOptions.cacheRetention,
			deferred: streamOptions.deferred,
			...(thinking === "off" ? {} : { reasoning: thinking }),
			signal: admitted.abortSignal,
			telemetryContext: getTelemetryContext(admitted),
			onPayload: async (payload: unknown, requestModel: typeof model) =>
				(await lane.services.hooks.run("before_payload", { ...base, model: requestModel, payload }, drive.context))
					?.payload,
			onResponse: (response: { status: number; headers: Record<string, string> }) => {
				metadata = { status: response.status, headers: response.headers };
			},
			sessionId: `${lane.session.metadata.id}:${lane.name}`,
		} as never,
	);
	const encoder = new AssistantMessageFrameEncoder();
	const progress = openProgress(
		lane,
		drive,
		pendingAssistantFrames(drive.operationId, pending.responseEntryId),
		pending.responseEntryId,
	);
	const emit = (event: HarnessEvent) => lane.services.emit([event], drive.context);
	let started = false;
	for await (const event of stream as AsyncIterable<AssistantMessageEvent>) {
		if (event.type === "start") {
			if (started) throw new Error("Assistant message stream emitted more than one start event");
			started = true;
			const frame = encoder.encode(event);
			if (frame !== undefined) progress.write(frame);
			await emit({ type: "message_start", ...base, message: { ...event.partial } });
		} else if (event.type !== "done" && event.type !== "error") {
			if (!started) throw new Error(`Assistant message stream emitted ${event.type} before start`);
			const frame = encoder.encode(event);
			if (frame !== undefined) progress.write(frame);
			await emit({
				type: "message_update",
				...base,
				message: { ...event.partial },
				event,
				...(frame === undefined ? {} : { frame }),
			});
		} else if (event.type === "done" && !started) {
			throw new Error("Assistant message stream emitted done before start");
		}
	}
	const settled = (await stream.result()) as SettledAssistantMessage;
	await progress.close();
	const after = await lane.services.hooks.run(
		"after_response",
		{ ...base, ...metadata, message: settled },
		drive.context,
	);
	const response = after?.message ?? settled;
	await emit({ type: "message_end", ...base, message: response, entryId: pending.responseEntryId });
	return publishResponse(lane, drive, pending, response, model.contextWindow);
}

export async function publishResponse(
	lane: LaneCore,
	drive: Drive,
	pending: Pending,
	response: AssistantMessage,
	contextWindow: number,
	recovery = false,
): Promise<OperationResultRecord | undefined> {
	const cancelled = lane.state.operation?.state.control.status === "cancel_requested";
	const responseEntryId = pending.responseEntryId;
	const scope = { ...scopeOf(pending), latestAssistantEntryId: responseEntryId };
	let committed = response;
	let next: RunState | undefined;
	let failure: OperationError | undefined;
	const failWith = (message: AssistantMessage) => ({
		code: "assistant_error",
		message: message.errorMessage ?? `Assistant request ended with ${message.stopReason}`,
	});
	if (cancelled) {
		committed = {
			...response,
			stopReason: "aborted",
			errorMessage: response.errorMessage ?? "Assistant request was cancelled",
		};
		next = {
			...scope,
			at: "checkpoint",
			continuation: { kind: "may_finish", includeFinalAssistant: true },
			triggerEntryId: responseEntryId,
		};
	} else if (response.stopReason === "aborted") {
		throw new Error("Assistant response is aborted while durable control is running");
	} else if (!recovery && isContextOverflow(response, contextWindow)) {
		committed = {
			...response,
			stopReason: "error",
			errorMessage: response.errorMessage ?? "Assistant request exceeded the context window",
		};
		failure = failWith(committed);
	} else if ((response.stopReason as string) === "deferred") {
		// pi suspends the run on a provider-deferred response; this harness cannot poll one, so it fails clearly.
		committed = {
			...response,
			stopReason: "error",
			errorMessage: "Deferred assistant responses are not supported by this harness",
		};
		failure = failWith(committed);
	} else if (response.stopReason === "error") {
		if ((recovery || isRetryableAssistantError(response)) && pending.attempt < maxAttempts(lane)) {
			const policy = lane.services.config().retryPolicy;
			const delay = retryDelayMs(
				{
					baseDelayMs: policy.baseDelayMs,
					maxAgentDelayMs: policy.maxAgentDelayMs ?? DEFAULT_MAX_AGENT_RETRY_DELAY_MS,
				},
				pending.attempt,
			);
			next = {
				...scope,
				at: "assistant.retry_wait",
				stepId: pending.stepId,
				configuration: pending.configuration,
				nextAttempt: pending.attempt + 1,
				notBefore: Math.min(Date.now() + delay, Number.MAX_SAFE_INTEGER),
				errorMessage: response.errorMessage ?? "Assistant request failed",
			};
		} else failure = failWith(response);
	} else if (response.content.some((block) => block.type === "toolCall")) {
		const resultEntryIds = response.content.flatMap((block) =>
			block.type === "toolCall" ? [lane.session.idGenerator.next()] : [],
		);
		next = {
			...scope,
			at: "tools",
			batch: {
				assistantEntryId: responseEntryId,
				configuration: pending.configuration,
				turnId: pending.stepId,
				resultEntryIds,
			},
		};
	} else if (response.stopReason === "toolUse") {
		committed = { ...response, stopReason: "error", errorMessage: "Provider reported tool use without any tool calls" };
		failure = failWith(committed);
	} else {
		next = {
			...scope,
			at: "checkpoint",
			continuation: { kind: "may_finish", includeFinalAssistant: true },
			triggerEntryId: responseEntryId,
		};
	}
	const entry = { id: responseEntryId, parentId: lane.state.tipId, type: "message" as const, message: committed };
	const usageRow = { id: pending.usageId, usage: committed.usage, entryId: responseEntryId, adjustment: false };
	const writes = [
		insertEntry(entry),
		insertUsage(usageRow),
		setValue(branchTip(lane.name), responseEntryId),
		deleteList(pendingAssistantFrames(drive.operationId, responseEntryId)),
	];
	const events = (commit: { seqs: number[]; timestamp: number; stats: { usage: AssistantMessage["usage"] } }) => {
		const batch: HarnessEvent[] = [
			{
				type: "entry_added",
				lane: lane.name,
				entry: { ...entry, seq: commit.seqs[0] ?? 0, timestamp: commit.timestamp },
				...(recovery ? { recovery: true as const } : {}),
			},
			{ type: "usage", lane: lane.name, row: { ...usageRow, seq: commit.seqs[1] ?? 0 }, totals: commit.stats.usage },
		];
		const base = { lane: lane.name, runId: drive.operationId };
		if (!recovery && pending.attempt > 1 && next?.at !== "assistant.retry_wait") {
			const success = committed.stopReason !== "error" && committed.stopReason !== "aborted";
			batch.push({
				type: "retry_end",
				...base,
				step: pending.stepId,
				attempt: pending.attempt,
				success,
				...(success
					? {}
					: { finalError: committed.errorMessage ?? `Assistant request ended with ${committed.stopReason}` }),
			});
		}
		if (!recovery && next?.at === "assistant.retry_wait") {
			const policy = lane.services.config().retryPolicy;
			batch.push({
				type: "retry_scheduled",
				...base,
				step: pending.stepId,
				attempt: next.nextAttempt,
				maxAttempts: maxAttempts(lane),
				delayMs: retryDelayMs(
					{
						baseDelayMs: policy.baseDelayMs,
						maxAgentDelayMs: policy.maxAgentDelayMs ?? DEFAULT_MAX_AGENT_RETRY_DELAY_MS,
					},
					pending.attempt,
				),
				notBefore: next.notBefore,
				errorMessage: next.errorMessage,
			});
		}
		if (!recovery && next?.at !== "tools" && next?.at !== "assistant.retry_wait") {
			batch.push({ type: "turn_end", ...base, turnId: pending.stepId, message: committed, toolResults: [] });
		}
		return batch;
	};
	if (failure !== undefined) {
		const error = failure;
		return finishRun(lane, drive, () => ({ writes, status: "failed", error, tipId: responseEntryId, events }));
	}
	const state = next as RunState;
	await commitStep(lane, drive, () => ({ writes, state, lane: { tipId: responseEntryId }, events }));
	return undefined;
}
