/**
 * `Agent`: the stateful wrapper around the loop — transcript, model, tools, thinking level, steering and
 * follow-up queues, abort, and subscribers that are awaited in order (so `agent_end` listeners finish before
 * `prompt()` resolves).
 */
import type { ImageContent, Model, ThinkingBudgets, TranscriptMessage } from "../ai/index.ts";
import { runAgentLoop } from "./loop.ts";
import type {
	AgentEvent,
	AgentLoopConfig,
	AgentMessage,
	AgentTool,
	StreamFn,
	ThinkingLevel,
	ToolExecutionMode,
} from "./types.ts";

export type QueueMode = "all" | "one-at-a-time";
export type AgentListener = (event: AgentEvent, signal: AbortSignal) => void | Promise<void>;

export interface AgentState {
	systemPrompt: string;
	model: Model;
	thinkingLevel: ThinkingLevel;
	tools: AgentTool<any>[];
	messages: AgentMessage[];
	isStreaming: boolean;
	streamingMessage?: AgentMessage;
	pendingToolCalls: Set<string>;
	errorMessage?: string;
}

export interface AgentOptions {
	initialState?: Partial<Omit<AgentState, "isStreaming" | "pendingToolCalls">> & { model: Model };
	convertToLlm?: AgentLoopConfig["convertToLlm"];
	transformContext?: AgentLoopConfig["transformContext"];
	steeringMode?: QueueMode;
	followUpMode?: QueueMode;
	streamFn?: StreamFn;
	sessionId?: string;
	getApiKey?: AgentLoopConfig["getApiKey"];
	toolExecution?: ToolExecutionMode;
	beforeToolCall?: AgentLoopConfig["beforeToolCall"];
	afterToolCall?: AgentLoopConfig["afterToolCall"];
	thinkingBudgets?: ThinkingBudgets;
	streamOptions?: AgentLoopConfig["streamOptions"];
}

/** Keeps only the roles an LLM understands. */
/** Keeps the roles the LLM layer knows (system messages carry the prompt and tools); drops app-defined ones. */
export function defaultConvertToLlm(messages: AgentMessage[]): TranscriptMessage[] {
	return messages.filter((m): m is TranscriptMessage => {
		const role = (m as { role?: string }).role;
		return role === "user" || role === "assistant" || role === "toolResult" || role === "system";
	});
}

export class Agent {
	readonly state: AgentState;
	convertToLlm: AgentLoopConfig["convertToLlm"];
	transformContext: AgentLoopConfig["transformContext"];
	/** Patches the prompt at each turn (see `AgentLoopConfig.prepareSystemMessage`); the session runtime sets it. */
	prepareSystemMessage: AgentLoopConfig["prepareSystemMessage"];
	streamFn: StreamFn | undefined;
	sessionId: string | undefined;
	getApiKey: AgentLoopConfig["getApiKey"];
	toolExecution: ToolExecutionMode;
	beforeToolCall: AgentLoopConfig["beforeToolCall"];
	afterToolCall: AgentLoopConfig["afterToolCall"];
	thinkingBudgets: ThinkingBudgets | undefined;
	streamOptions: AgentLoopConfig["streamOptions"];
	steeringMode: QueueMode;
	followUpMode: QueueMode;

	private readonly listeners: AgentListener[] = [];
	private steeringQueue: AgentMessage[] = [];
	private followUpQueue: AgentMessage[] = [];
	private controller: AbortController | undefined;
	private running: Promise<void> | undefined;

	constructor(options: AgentOptions) {
		if (!options.initialState?.model) throw new Error("Agent: initialState.model is required");
		const init = options.initialState;
		this.state = {
			systemPrompt: init.systemPrompt ?? "",
			model: init.model,
			thinkingLevel: init.thinkingLevel ?? "off",
			tools: [...(init.tools ?? [])],
			messages: [...(init.messages ?? [])],
			isStreaming: false,
			pendingToolCalls: new Set(),
		};
		this.convertToLlm = options.convertToLlm ?? defaultConvertToLlm;
		this.transformContext = options.transformContext;
		this.streamFn = options.streamFn;
		this.sessionId = options.sessionId;
		this.getApiKey = options.getApiKey;
		this.toolExecution = options.toolExecution ?? "parallel";
		this.beforeToolCall = options.beforeToolCall;
		this.afterToolCall = options.afterToolCall;
		this.thinkingBudgets = options.thinkingBudgets;
		this.streamOptions = options.streamOptions;
		this.steeringMode = options.steeringMode ?? "one-at-a-time";
		this.followUpMode = options.followUpMode ?? "one-at-a-time";
	}

	subscribe(listener: AgentListener): () => void {
		this.listeners.push(listener);
		return () => {
			const index = this.listeners.indexOf(listener);
			if (index >= 0) this.listeners.splice(index, 1);
		};
	}

	/** Starts a run. Rejects if one is already running (queue with `steer`/`followUp` instead). */
	async prompt(input: string | AgentMessage | AgentMessage[], images?: ImageContent[]): Promise<void> {
		const messages = typeof input === "string" ? [userMessage(input, images)] : Array.isArray(input) ? input : [input];
		await this.run(messages);
	}

	/** Continues from the current transcript (retry after an error, or run queued messages). */
	async continue(): Promise<void> {
		const last = this.state.messages[this.state.messages.length - 1] as { role?: string } | undefined;
		if (!last) throw new Error("Cannot continue: no messages");
		if (last.role === "assistant") {
			const queued = this.takeQueued("steering");
			const next = queued.length > 0 ? queued : this.takeQueued("followUp");
			if (next.length === 0) throw new Error("Cannot continue from message role: assistant");
			await this.run(next);
			return;
		}
		await this.run([]);
	}

	steer(message: AgentMessage): void {
		this.steeringQueue.push(message);
	}

	followUp(message: AgentMessage): void {
		this.followUpQueue.push(message);
	}

	clearSteeringQueue(): void {
		this.steeringQueue = [];
	}

	clearFollowUpQueue(): void {
		this.followUpQueue = [];
	}

	clearAllQueues(): void {
		this.clearSteeringQueue();
		this.clearFollowUpQueue();
	}

	hasQueuedMessages(): boolean {
		return this.steeringQueue.length > 0 || this.followUpQueue.length > 0;
	}

	get queuedMessages(): { steering: readonly AgentMessage[]; followUp: readonly AgentMessage[] } {
		return { steering: this.steeringQueue, followUp: this.followUpQueue };
	}

	abort(): void {
		this.controller?.abort();
	}

	get signal(): AbortSignal | undefined {
		return this.controller?.signal;
	}

	async waitForIdle(): Promise<void> {
		while (this.running) await this.running;
	}

	/** Clears transcript, queues and error; keeps model, tools and hooks. */
	reset(): void {
		this.state.messages = [];
		this.state.errorMessage = undefined;
		this.state.streamingMessage = undefined;
		this.clearAllQueues();
	}

	private takeQueued(which: "steering" | "followUp"): AgentMessage[] {
		const queue = which === "steering" ? this.steeringQueue : this.followUpQueue;
		const mode = which === "steering" ? this.steeringMode : this.followUpMode;
		if (queue.length === 0) return [];
		return mode === "all" ? queue.splice(0) : queue.splice(0, 1);
	}

	private async run(prompts: AgentMessage[]): Promise<void> {
		if (this.state.isStreaming) {
			throw new Error("Agent is already processing a prompt. Use steer() or followUp() to queue messages.");
		}
		const controller = new AbortController();
		this.controller = controller;
		this.state.isStreaming = true;
		this.state.errorMessage = undefined;
		const config: AgentLoopConfig = {
			model: this.state.model,
			reasoning: this.state.thinkingLevel,
			convertToLlm: this.convertToLlm,
			toolExecution: this.toolExecution,
			getSteeringMessages: async () => this.takeQueued("steering"),
			getFollowUpMessages: async () => this.takeQueued("followUp"),
			...(this.transformContext ? { transformContext: this.transformContext } : {}),
			...(this.prepareSystemMessage ? { prepareSystemMessage: this.prepareSystemMessage } : {}),
			...(this.getApiKey ? { getApiKey: this.getApiKey } : {}),
			...(this.beforeToolCall ? { beforeToolCall: this.beforeToolCall } : {}),
			...(this.afterToolCall ? { afterToolCall: this.afterToolCall } : {}),
			...(this.sessionId ? { sessionId: this.sessionId } : {}),
			...(this.thinkingBudgets ? { thinkingBudgets: this.thinkingBudgets } : {}),
			...(this.streamOptions ? { streamOptions: this.streamOptions } : {}),
		};
		const context = { systemPrompt: this.state.systemPrompt, messages: this.state.messages, tools: this.state.tools };
		const emit = (event: AgentEvent) => this.dispatch(event, controller.signal);
		this.running = runAgentLoop(prompts, context, config, emit, controller.signal, this.streamFn)
			.then(() => undefined)
			.finally(() => {
				this.state.isStreaming = false;
				this.state.streamingMessage = undefined;
				this.state.pendingToolCalls = new Set();
				this.running = undefined;
				if (this.controller === controller) this.controller = undefined;
			});
		await this.running;
	}

	private async dispatch(event: AgentEvent, signal: AbortSignal): Promise<void> {
		switch (event.type) {
			case "message_start":
			case "message_update":
				this.state.streamingMessage = event.message;
				break;
			case "message_end":
				this.state.streamingMessage = undefined;
				this.state.messages.push(event.message);
				if ((event.message as { stopReason?: string }).stopReason === "error") {
					this.state.errorMessage = (event.message as { errorMessage?: string }).errorMessage;
				}
				break;
			case "tool_execution_start":
				this.state.pendingToolCalls.add(event.toolCallId);
				break;
			case "tool_execution_end":
				this.state.pendingToolCalls.delete(event.toolCallId);
				break;
		}
		for (const listener of [...this.listeners]) await listener(event, signal);
	}
}

function userMessage(text: string, images?: ImageContent[]): AgentMessage {
	return {
		role: "user",
		content: images && images.length > 0 ? [{ type: "text", text }, ...images] : text,
		timestamp: Date.now(),
	};
}
