/**
 * The session runtime that modes drive: one `Agent`, the active model and tools, and the session-level work
 * around a run — automatic retry of transient failures and the final `agent_settled`. Other concerns (session
 * files, compaction, extensions) attach here in later steps, each in its own module.
 */
import type { Agent, AgentMessage } from "../agent/index.ts";
import type { AssistantMessage, ImageContent } from "../ai/index.ts";
import type { SessionEvent, SessionListener } from "./events.ts";
import { DEFAULT_RETRY, type RetrySettings, retryDelay, sleepAbortable } from "./retry.ts";

export interface AgentSessionOptions {
	agent: Agent;
	retry?: RetrySettings;
}

/** What a prompt becomes after the extension `input` and `before_agent_start` hooks; undefined = handled. */
export interface PreparedInput {
	text: string;
	images?: ImageContent[];
	/** Extra messages sent right after the user message. */
	messages: AgentMessage[];
	/** System prompt for this run only. */
	systemPrompt?: string;
}

/** Extension hooks around a prompt: `input` → `expand` (skills, prompt templates) → `before_agent_start`. */
/**
 * Runs after a run (retries included) and before `agent_settled`: auto-compaction lives here. Returning "continue"
 * makes the session continue the run once more (e.g. after compacting away a context overflow).
 */
export type RunEndHook = () => Promise<"continue" | undefined>;

export type PromptPreparer = (
	text: string,
	images: ImageContent[] | undefined,
	systemPrompt: string,
	expand: (text: string) => string,
) => Promise<PreparedInput | undefined>;

export class AgentSession {
	readonly agent: Agent;
	retry: RetrySettings;
	/** Extension hooks run before each prompt (set by the extension bridge). */
	preparePrompt: PromptPreparer | undefined;
	/** Hooks run after each run, before `agent_settled` (auto-compaction). */
	readonly runEndHooks: RunEndHook[] = [];
	/** `/skill:name` and prompt-template expansion, applied after the `input` event. */
	expandInput: (text: string) => string = (text) => text;
	/** Compactions in progress (manual or automatic); `get_state.isCompacting`. */
	compacting = 0;
	private readonly listeners: SessionListener[] = [];
	private retryController: AbortController | undefined;
	private attempt = 0;
	private lastQueue = "[[],[]]";
	/** Prompts between acceptance and the agent's start (extension `input` / `before_agent_start` hooks). */
	private preparing = 0;

	constructor(options: AgentSessionOptions) {
		this.agent = options.agent;
		this.retry = options.retry ?? DEFAULT_RETRY;
		this.agent.subscribe((event) => {
			if (event.type === "agent_end") {
				const failure = lastAssistant(event.messages);
				const willRetry = failure !== undefined && retryDelay(failure, this.attempt + 1, this.retry) !== undefined;
				return this.emit({ ...event, willRetry });
			}
			// A queued message is taken off its queue when it starts; clients see the shorter queue.
			if (event.type === "message_start") return this.emit(event).then(() => this.emitQueueIfChanged());
			return this.emit(event);
		});
	}

	/** Queues a steering message (after the current turn's tool calls, before the next model call). */
	async steer(text: string, images?: ImageContent[]): Promise<void> {
		this.agent.steer(userMessage(this.expandInput(text), images));
		await this.emitQueueIfChanged();
	}

	/** Queues a follow-up message (delivered when the agent would otherwise stop). */
	async followUp(text: string, images?: ImageContent[]): Promise<void> {
		this.agent.followUp(userMessage(this.expandInput(text), images));
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
		return { steering: steering.map(messageText), followUp: followUp.map(messageText) };
	}

	/** Stops a retry that is waiting out its delay (the run then ends with the error). */
	abortRetry(): void {
		this.retryController?.abort();
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
		return this.agent.state.isStreaming || this.retryController !== undefined || this.preparing > 0;
	}

	/** Runs one prompt to completion, retries included; resolves after `agent_settled`. */
	async prompt(text: string, images?: ImageContent[]): Promise<void> {
		this.attempt = 0;
		const baseSystemPrompt = this.agent.state.systemPrompt;
		let prepared: PreparedInput | undefined;
		this.preparing++;
		try {
			prepared = this.preparePrompt
				? await this.preparePrompt(text, images, baseSystemPrompt, this.expandInput)
				: { text: this.expandInput(text), messages: [], ...(images ? { images } : {}) };
		} finally {
			this.preparing--;
		}
		if (!prepared) return;
		const user = userMessage(prepared.text, prepared.images);
		if (prepared.systemPrompt !== undefined) this.agent.state.systemPrompt = prepared.systemPrompt;
		try {
			await this.agent.prompt([user, ...prepared.messages]);
			await this.settle();
		} finally {
			this.agent.state.systemPrompt = baseSystemPrompt;
		}
	}

	/** Runs the given messages as a new turn (extension messages that trigger a turn). */
	async promptMessages(messages: AgentMessage[]): Promise<void> {
		this.attempt = 0;
		await this.agent.prompt(messages);
		await this.settle();
	}

	/** Retries, run-end hooks (which may continue the run once), then `agent_settled`. */
	private async settle(): Promise<void> {
		let aborted = await this.retryLoop();
		let continued = false;
		for (const hook of this.runEndHooks) {
			if (aborted) break;
			if ((await hook()) === "continue" && !continued) {
				continued = true;
				this.attempt = 0;
				await this.agent.continue();
				aborted = await this.retryLoop();
			}
		}
		await this.emit({ type: "agent_settled", aborted });
	}

	/** Emits a session-level event (compaction, …) to the session's listeners. */
	emitEvent(event: SessionEvent): Promise<void> {
		return this.emit(event);
	}

	abort(): void {
		this.retryController?.abort();
		this.agent.abort();
	}

	/** The last assistant message of the transcript, if any. */
	lastAssistantMessage(): AssistantMessage | undefined {
		return lastAssistant(this.agent.state.messages);
	}

	private async retryLoop(): Promise<boolean> {
		while (true) {
			const last = this.lastAssistantMessage();
			if (!last || last.stopReason === "aborted") return last?.stopReason === "aborted";
			if (last.stopReason !== "error") {
				if (this.attempt > 0) await this.emit({ type: "auto_retry_end", success: true, attempt: this.attempt });
				return false;
			}
			const delay = retryDelay(last, this.attempt + 1, this.retry);
			if (delay === undefined) {
				if (this.attempt > 0) {
					await this.emit({
						type: "auto_retry_end",
						success: false,
						attempt: this.attempt,
						finalError: last.errorMessage,
					});
				}
				return false;
			}
			this.attempt++;
			await this.emit({
				type: "auto_retry_start",
				attempt: this.attempt,
				maxAttempts: this.retry.maxRetries,
				delayMs: delay,
				errorMessage: last.errorMessage ?? "",
			});
			const controller = new AbortController();
			this.retryController = controller;
			const waited = await sleepAbortable(delay, controller.signal);
			this.retryController = undefined;
			if (!waited) {
				await this.emit({ type: "auto_retry_end", success: false, attempt: this.attempt, finalError: "Retry aborted" });
				return true;
			}
			// The failed reply is dropped from the transcript, then the run continues from the same input.
			const messages = this.agent.state.messages;
			if (messages[messages.length - 1] === last) messages.pop();
			await this.agent.continue();
		}
	}

	private async emit(event: SessionEvent): Promise<void> {
		for (const listener of [...this.listeners]) await listener(event);
	}
}

function userMessage(text: string, images: ImageContent[] | undefined): AgentMessage {
	return {
		role: "user",
		content: images && images.length > 0 ? [{ type: "text", text }, ...images] : text,
		timestamp: Date.now(),
	};
}

/** The text of a user (or custom) message, images left out. */
function messageText(message: AgentMessage): string {
	const content = (message as { content?: unknown }).content;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.filter((b: { type?: string }) => b.type === "text")
		.map((b: { text?: string }) => b.text ?? "")
		.join("\n");
}

function lastAssistant(messages: readonly AgentMessage[]): AssistantMessage | undefined {
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i] as { role?: string };
		if (m.role === "assistant") return m as AssistantMessage;
	}
	return undefined;
}
