/**
 * The turn loop: prompt → stream the assistant reply → run its tool calls → next turn, until the model stops
 * calling tools; then steering and follow-up queues may start more turns. Emits the 10 agent events through an
 * awaited sink, so a caller can use events as barriers.
 */
import { type AssistantMessage, createAssistantMessageEventStream, EventStream, emptyUsage } from "../ai/index.ts";
import { errorMessage, timing } from "../util/index.ts";
import { abandonOnAbort } from "./abandon.ts";
import { getDefaultStreamFn } from "./stream-fn.ts";
import { declareToolChanges } from "./system-messages.ts";
import { type Emit, executeToolCalls } from "./tool-execution.ts";
import type { AgentContext, AgentEvent, AgentLoopConfig, AgentMessage, StreamFn } from "./types.ts";

/** Runs a loop for `prompts` and returns the messages it produced. Never throws for provider or tool failures. */
export async function runAgentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	emit: Emit,
	signal?: AbortSignal,
	streamFn: StreamFn = getDefaultStreamFn(),
): Promise<AgentMessage[]> {
	const produced: AgentMessage[] = [];
	const current: AgentContext = { ...context, messages: [...context.messages] };
	await emit({ type: "agent_start" });
	let pending = prompts;
	let firstTurn = true;
	if (pending.length === 0) pending = (await config.getSteeringMessages?.()) ?? [];
	outer: while (true) {
		while (true) {
			await emit({ type: "turn_start" });
			// A continued run's first request goes out as the transcript stands (pi declares only tool changes).
			const update =
				firstTurn && prompts.length === 0 ? undefined : await config.prepareSystemMessage?.(current.messages);
			firstTurn = false;
			if (update) pending = [update, ...pending];
			pending = declareToolChanges(current, pending);
			for (const message of pending) {
				await emit({ type: "message_start", message });
				await emit({ type: "message_end", message });
				current.messages.push(message);
				produced.push(message);
			}
			pending = [];
			const assistant = await streamAssistant(current, config, emit, signal, streamFn);
			current.messages.push(assistant);
			produced.push(assistant);
			if (assistant.stopReason === "error" || assistant.stopReason === "aborted") {
				await emit({ type: "turn_end", message: assistant, toolResults: [] });
				break outer;
			}
			const hasCalls = assistant.content.some((b) => b.type === "toolCall");
			const { results, terminate } = hasCalls
				? await executeToolCalls(assistant, current, config, emit, signal)
				: { results: [], terminate: false };
			current.messages.push(...results);
			produced.push(...results);
			await emit({ type: "turn_end", message: assistant, toolResults: results });
			if (signal?.aborted) break outer;
			pending = (await config.getSteeringMessages?.()) ?? [];
			if (pending.length > 0) continue;
			if (hasCalls && !terminate) continue;
			break;
		}
		pending = (await config.getFollowUpMessages?.()) ?? [];
		if (pending.length === 0) break;
	}
	await emit({ type: "agent_end", messages: produced });
	return produced;
}

/** Streams one assistant reply, emitting message_start/update/end. */
async function streamAssistant(
	context: AgentContext,
	config: AgentLoopConfig,
	emit: Emit,
	signal: AbortSignal | undefined,
	streamFn: StreamFn,
): Promise<AssistantMessage> {
	let stream: ReturnType<StreamFn>;
	try {
		let messages = context.messages;
		if (config.transformContext) {
			// An extension's `context` handler that never settles must not hold an aborted run.
			const step = await abandonOnAbort(config.transformContext(context.messages, signal), signal);
			if (!step.settled) throw new Error("Request was aborted");
			messages = step.value;
		}
		timing("llm call: context ready");
		const llmMessages = await config.convertToLlm(messages);
		const apiKey = await config.getApiKey?.(config.model.provider);
		stream = streamFn(
			config.model,
			// The transcript declares the prompt's patches and the tools; the context's own prompt leads them.
			{ ...(context.systemPrompt ? { systemPrompt: context.systemPrompt } : {}), messages: llmMessages },
			{
				...config.streamOptions,
				...(signal ? { signal } : {}),
				...(apiKey ? { apiKey } : {}),
				...(config.reasoning && config.reasoning !== "off" ? { reasoning: config.reasoning } : {}),
				...(config.sessionId ? { sessionId: config.sessionId } : {}),
				...(config.thinkingBudgets ? { thinkingBudgets: config.thinkingBudgets } : {}),
			},
		);
	} catch (error) {
		stream = failed(config, signal?.aborted ? "Request was aborted" : errorMessage(error), signal?.aborted === true);
	}
	let started = false;
	// message_start carries the message as it was when the stream started, as in pi: no content, zero usage, stop
	// reason "pending", and nothing learnt from the response yet (id, model). By the time this consumer runs, the
	// provider may already have filled the shared partial, so only the request-side fields are copied.
	const startSnapshot = (partial: AssistantMessage): AssistantMessage => ({
		role: "assistant",
		content: [],
		api: partial.api,
		provider: partial.provider,
		model: partial.model,
		usage: emptyUsage(),
		stopReason: "pending",
		timestamp: partial.timestamp,
	});
	timing("llm call: stream opened");
	for await (const event of stream) {
		if (event.type === "start") {
			started = true;
			await emit({ type: "message_start", message: startSnapshot(event.partial) });
		} else if (event.type !== "done" && event.type !== "error") {
			if (!started) {
				started = true;
				await emit({ type: "message_start", message: startSnapshot(event.partial) });
			}
			await emit({ type: "message_update", message: event.partial, assistantMessageEvent: event });
		}
	}
	timing("llm call: stream ended");
	const final = await stream.result();
	if (!started) await emit({ type: "message_start", message: final });
	await emit({ type: "message_end", message: final });
	return final;
}

function failed(config: AgentLoopConfig, message: string, aborted: boolean) {
	const s = createAssistantMessageEventStream();
	const error: AssistantMessage = {
		role: "assistant",
		content: [],
		api: config.model.api,
		provider: config.model.provider,
		model: config.model.id,
		usage: emptyUsage(),
		stopReason: aborted ? "aborted" : "error",
		errorMessage: message,
		timestamp: Date.now(),
	};
	s.push({ type: "error", reason: aborted ? "aborted" : "error", error });
	return s;
}

/** pi-agent-core's `agentLoop`: the same loop as an event stream whose result is the produced messages. */
export function agentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	const out = new EventStream<AgentEvent, AgentMessage[]>(
		(e) => e.type === "agent_end",
		(e) => (e.type === "agent_end" ? e.messages : []),
	);
	void runAgentLoop(prompts, context, config, async (e) => out.push(e), signal, streamFn);
	return out;
}

function checkContinuable(context: AgentContext): void {
	const last = context.messages[context.messages.length - 1];
	if (!last) throw new Error("Cannot continue: no messages in context");
	if ((last as { role?: string }).role === "assistant") throw new Error("Cannot continue from message role: assistant");
}

/** `runAgentLoop` from the existing context (its last message must not be an assistant message). */
export function runAgentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	emit: Emit,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	checkContinuable(context);
	return runAgentLoop([], context, config, emit, signal, streamFn);
}

/** Continues from the existing context (its last message must not be an assistant message). */
export function agentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	checkContinuable(context);
	return agentLoop([], context, config, signal, streamFn);
}
