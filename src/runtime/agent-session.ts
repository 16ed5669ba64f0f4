/**
 * The session runtime that modes drive: one `Agent`, the active model and tools, and the session-level work
 * around a run — the prompt pipeline (see prompt-input.ts), the steering / follow-up queues, extension messages,
 * automatic retry of transient failures and the final `agent_settled`. Session files, compaction and extensions
 * attach from their own modules (recorder, run-end hooks, prompt hooks).
 */
import type { Agent, AgentMessage } from "../agent/index.ts";
import type { AssistantMessage, ImageContent } from "../ai/index.ts";
import type { NormalizedSystemPromptOptions } from "../extensions/index.ts";
import { AutoRetry, lastAssistant } from "./auto-retry.ts";
import type { SessionEvent, SessionListener } from "./events.ts";
import {
	BUSY_MESSAGE,
	type CustomMessageInput,
	customMessage,
	type InputResult,
	type InputSource,
	messageText,
	type PromptHooks,
	type PromptOptions,
	type StreamingBehavior,
	splitContent,
	userMessage,
} from "./prompt-input.ts";
import { PromptState } from "./prompt-state.ts";
import { DEFAULT_RETRY, type RetrySettings } from "./retry.ts";
import { DEFAULT_IMAGE_SETTINGS, normalizePromptImages, type SessionImageSettings } from "./session-images.ts";

export interface AgentSessionOptions {
	agent: Agent;
	retry?: RetrySettings;
	/** The working directory the prompt names (default: the process's). */
	cwd?: string;
	/** How prompt images are processed (`images.autoResize`). */
	images?: SessionImageSettings;
}

interface Run {
	messages: AgentMessage[];
	options: NormalizedSystemPromptOptions;
	toolsBefore: string[];
}

/**
 * Runs after a run (retries included) and before `agent_settled`: auto-compaction lives here. Returning "continue"
 * makes the session continue the run once more (e.g. after compacting away a context overflow).
 */
export type RunEndHook = () => Promise<"continue" | undefined>;

export class AgentSession {
	readonly agent: Agent;
	retry: RetrySettings;
	/** The prompt and tool loadout the transcript declares (see prompt-state.ts). */
	readonly promptState: PromptState;
	/** `images.autoResize` / `images.blockImages` as this session reads them. */
	readonly images: SessionImageSettings;
	/** Extension hooks around prompts (set by the extension bridge). */
	promptHooks: PromptHooks = {};
	/** Hooks run after each run, before `agent_settled` (auto-compaction). */
	readonly runEndHooks: RunEndHook[] = [];
	/** `/skill:name` and prompt-template expansion, applied after the `input` event. */
	expandInput: (text: string) => string = (text) => text;
	/** Compactions in progress (manual or automatic); `get_state.isCompacting`. */
	compacting = 0;
	/** Compactions and branch summaries under way; `abort()` aborts them too. */
	readonly summarizing = new Set<AbortController>();
	/** Prompt runs under way (each settles after its `agent_settled`). */
	private readonly runs = new Set<Promise<void>>();
	private readonly listeners: SessionListener[] = [];
	private readonly retries = new AutoRetry(this);
	private lastQueue = "[[],[]]";
	/** Prompts between acceptance and the agent's start; `abort()` abandons their extension hooks. */
	private readonly preparing = new Set<AbortController>();
	/** `sendMessage(…, {deliverAs:"nextTurn"})`: sent with the next prompt. */
	private nextTurn: AgentMessage[] = [];
	/** Custom messages sent without a turn while the agent streams: appended once the turn ends. */
	private afterTurn: AgentMessage[] = [];
	private turns = 0;

	constructor(options: AgentSessionOptions) {
		this.agent = options.agent;
		this.images = options.images ?? DEFAULT_IMAGE_SETTINGS;
		this.retry = options.retry ?? DEFAULT_RETRY;
		this.promptState = new PromptState(options.agent, options.cwd ?? process.cwd());
		this.agent.subscribe(async (event) => {
			if (event.type === "agent_end") {
				return this.emit({ ...event, willRetry: this.retries.willRetry(event.messages) });
			}
			if (event.type === "agent_start") this.turns = 0;
			await this.emit(event);
			// A queued message is taken off its queue when it starts; clients see the shorter queue.
			if (event.type === "message_start") await this.emitQueueIfChanged();
			if (event.type === "turn_end") {
				this.turns++;
				await this.flushAfterTurn();
			}
		});
	}

	/** Index of the current turn within the run (0 for the first); `turn_start`/`turn_end` of extensions. */
	get turnIndex(): number {
		return this.turns;
	}

	/** Queues a steering message (after the current turn's tool calls, before the next model call). */
	async steer(text: string, images?: ImageContent[], source: InputSource = "interactive"): Promise<void> {
		await this.queue(text, images, "steer", source);
	}

	/** Queues a follow-up message (delivered when the agent would otherwise stop). */
	async followUp(text: string, images?: ImageContent[], source: InputSource = "interactive"): Promise<void> {
		await this.queue(text, images, "followUp", source);
	}

	private async queue(
		text: string,
		images: ImageContent[] | undefined,
		behavior: StreamingBehavior,
		source: InputSource,
		expand = true,
	): Promise<void> {
		const input = await this.runInput(text, images, source, this.isStreaming ? behavior : undefined);
		if (!input) return;
		const message = userMessage(expand ? this.expandInput(input.text) : input.text, input.images);
		if (behavior === "steer") this.agent.steer(message);
		else this.agent.followUp(message);
		await this.emitQueueIfChanged();
	}

	/** Empties both queues and returns the text of what was queued. */
	async clearQueue(): Promise<{ steering: string[]; followUp: string[] }> {
		const queued = this.queuedTexts();
		this.agent.clearAllQueues();
		await this.emitQueueIfChanged();
		return queued;
	}

	/** The text of each queued message. */
	queuedTexts(): { steering: string[]; followUp: string[] } {
		const { steering, followUp } = this.agent.queuedMessages;
		return { steering: steering.map((m) => messageText(m)), followUp: followUp.map((m) => messageText(m)) };
	}

	/** Stops a retry that is waiting out its delay (the run then ends with the error). */
	abortRetry(): void {
		this.retries.abort();
	}

	private async emitQueueIfChanged(): Promise<void> {
		const queued = this.queuedTexts();
		const key = JSON.stringify([queued.steering, queued.followUp]);
		if (key === this.lastQueue) return;
		this.lastQueue = key;
		await this.emit({ type: "queue_update", ...queued });
	}

	subscribe(listener: SessionListener): () => void {
		this.listeners.push(listener);
		return () => {
			const index = this.listeners.indexOf(listener);
			if (index >= 0) this.listeners.splice(index, 1);
		};
	}

	get messages(): AgentMessage[] {
		return this.agent.state.messages;
	}

	get isStreaming(): boolean {
		return this.agent.state.isStreaming || this.retries.waiting || this.preparing.size > 0;
	}

	/**
	 * Runs one prompt to completion, retries included; resolves after `agent_settled`. The `input` hook runs first;
	 * while the agent is busy the prompt is queued by `streamingBehavior` (refused without one); otherwise
	 * `before_agent_start` runs and the run starts with the user message, any `nextTurn` messages and the
	 * extensions' messages. `abort()` during the hooks abandons the prompt. Throws only before acceptance.
	 */
	async prompt(text: string, options: PromptOptions = {}): Promise<void> {
		const { images, source = "interactive", streamingBehavior, expand = true, onAccepted } = options;
		const controller = new AbortController();
		this.preparing.add(controller);
		let run: Run | undefined;
		let prepared: NormalizedSystemPromptOptions | undefined;
		try {
			const busy = this.agent.state.isStreaming || this.retries.waiting || this.preparing.size > 1;
			const input = await this.runInput(text, images, source, busy ? streamingBehavior : undefined, controller.signal);
			if (input && !controller.signal.aborted) {
				const expanded = expand ? this.expandInput(input.text) : input.text;
				if (busy || this.agent.state.isStreaming) {
					if (!streamingBehavior) throw new Error(BUSY_MESSAGE);
					const message = userMessage(expanded, input.images);
					if (streamingBehavior === "followUp") this.agent.followUp(message);
					else this.agent.steer(message);
					await this.emitQueueIfChanged();
				} else {
					const options = this.promptState.prepare();
					prepared = options;
					const toolsBefore = [...options.selectedTools];
					const start = this.promptHooks.beforeAgentStart
						? await this.promptHooks.beforeAgentStart(expanded, input.images, options, controller.signal)
						: { messages: [] };
					// Images are processed after before_agent_start, their notes appended to the prompt (as pi).
					const images = await normalizePromptImages(input.images, this.images);
					if (!controller.signal.aborted) {
						const text = images.hints.length > 0 ? `${expanded}\n\n${images.hints.join("\n")}` : expanded;
						const user = userMessage(text, input.images ? images.images : undefined);
						const messages = [user, ...this.nextTurn, ...start.messages];
						this.nextTurn = [];
						run = { messages, options, toolsBefore };
						await this.flushAfterTurn();
					}
				}
			}
		} finally {
			this.preparing.delete(controller);
			if (prepared && !run) this.promptState.unprepare(prepared);
		}
		onAccepted?.();
		if (!run) return;
		const running = this.execute(run);
		this.runs.add(running);
		try {
			await running;
		} finally {
			this.runs.delete(running);
		}
	}

	private async execute(run: Run) {
		this.retries.reset();
		this.promptState.startRun(run.options, run.toolsBefore);
		try {
			await this.agent.prompt(run.messages);
			await this.settle();
		} finally {
			this.promptState.endRun();
		}
	}

	/** The system prompt the session's requests use now (`ctx.getSystemPrompt()`). */
	get systemPrompt(): string {
		return this.promptState.text;
	}

	/** Resolves once no run is under way any more (its `agent_settled` sent). */
	async waitForIdle(): Promise<void> {
		while (this.runs.size > 0) await Promise.allSettled([...this.runs]);
		await this.agent.waitForIdle();
	}

	/**
	 * `pi.sendUserMessage`: a prompt from an extension (source "extension", no template expansion); while the agent
	 * is busy it needs `deliverAs`.
	 */
	sendUserMessage(content: string | readonly { type: string }[], deliverAs?: StreamingBehavior): Promise<void> {
		const { text, images } = splitContent(content);
		return this.prompt(text, {
			source: "extension",
			expand: false,
			...(images ? { images } : {}),
			...(deliverAs ? { streamingBehavior: deliverAs } : {}),
		});
	}

	/**
	 * `pi.sendMessage`: a custom message. `nextTurn` waits for the next prompt; while streaming it is steered (or
	 * queued as a follow-up) unless `triggerTurn` is false, in which case it is appended when the turn ends; idle,
	 * it starts a run with `triggerTurn`, or is appended to the transcript without one.
	 */
	async sendCustomMessage(
		input: CustomMessageInput,
		options: { triggerTurn?: boolean; deliverAs?: StreamingBehavior | "nextTurn" } = {},
	): Promise<void> {
		const message = customMessage(input);
		if (options.deliverAs === "nextTurn") this.nextTurn.push(message);
		else if (this.isStreaming && options.triggerTurn !== false) {
			if (options.deliverAs === "followUp") this.agent.followUp(message);
			else this.agent.steer(message);
		} else if (options.triggerTurn) await this.promptMessages([message]);
		else if (this.isStreaming) this.afterTurn.push(message);
		else await this.appendCustomMessage(message);
	}

	/** Runs the given messages as a new turn (extension messages that trigger a turn). */
	async promptMessages(messages: AgentMessage[]): Promise<void> {
		this.retries.reset();
		await this.agent.prompt(messages);
		await this.settle();
	}

	private async runInput(
		text: string,
		images: ImageContent[] | undefined,
		source: InputSource,
		streamingBehavior: StreamingBehavior | undefined,
		signal: AbortSignal = new AbortController().signal,
	): Promise<InputResult | undefined> {
		const input = this.promptHooks.input;
		if (!input) return { text, ...(images ? { images } : {}) };
		return input(text, images, source, streamingBehavior, signal);
	}

	private async appendCustomMessage(message: AgentMessage): Promise<void> {
		this.agent.state.messages.push(message);
		await this.emit({ type: "message_start", message });
		await this.emit({ type: "message_end", message });
	}

	private async flushAfterTurn(): Promise<void> {
		const pending = this.afterTurn;
		this.afterTurn = [];
		for (const message of pending) await this.appendCustomMessage(message);
	}

	/** Retries, run-end hooks, then messages queued by `agent_end` handlers (each a fresh run), then settled. */
	private async settle(): Promise<void> {
		let aborted = await this.retries.run();
		let continued = false;
		while (!aborted) {
			let rerun = false;
			for (const hook of this.runEndHooks) {
				if (aborted || rerun) break;
				if ((await hook()) === "continue" && !continued) {
					continued = rerun = true;
					aborted = await this.rerun();
				}
			}
			// The hooks see how a continued run ended too (a second overflow is reported, not ignored).
			if (rerun) continue;
			if (aborted || !this.agent.hasQueuedMessages()) break;
			aborted = await this.rerun();
		}
		await this.emit({ type: "agent_settled", aborted });
	}

	private async rerun(): Promise<boolean> {
		this.retries.reset();
		await this.agent.continue();
		return this.retries.run();
	}

	/** Emits a session-level event (compaction, …) to the session's listeners. */
	emitEvent(event: SessionEvent): Promise<void> {
		return this.emit(event);
	}

	abort(): void {
		this.retries.abort();
		for (const preparation of this.preparing) preparation.abort();
		for (const summary of this.summarizing) summary.abort();
		this.agent.abort();
	}

	/** The last assistant message of the transcript, if any. */
	lastAssistantMessage(): AssistantMessage | undefined {
		return lastAssistant(this.agent.state.messages);
	}

	private async emit(event: SessionEvent): Promise<void> {
		for (const listener of [...this.listeners]) await listener(event);
	}
}
