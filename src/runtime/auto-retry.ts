/**
 * The retry loop of a session run: after a run ends in a transient provider failure (see retry.ts), waits out the
 * delay, drops the failed reply and continues the agent from the same input, with `auto_retry_start` /
 * `auto_retry_end` events around it. One instance per session; its attempt count starts over with each run.
 */
import type { Agent, AgentMessage } from "../agent/index.ts";
import type { AssistantMessage } from "../ai/index.ts";
import type { SessionEvent } from "./events.ts";
import { type RetrySettings, retryDelay, sleepAbortable } from "./retry.ts";

export interface AutoRetryHost {
	readonly agent: Agent;
	readonly retry: RetrySettings;
	emitEvent(event: SessionEvent): Promise<void>;
}

export class AutoRetry {
	private attempt = 0;
	private controller: AbortController | undefined;

	constructor(private readonly host: AutoRetryHost) {}

	/** A retry is waiting out its delay. */
	get waiting(): boolean {
		return this.controller !== undefined;
	}

	/** A new run: attempts count from zero again. */
	reset(): void {
		this.attempt = 0;
	}

	/** Stops a retry that is waiting out its delay (the run then ends with the error). */
	abort(): void {
		this.controller?.abort();
	}

	/** Whether a run that ended with `messages` will be retried. */
	willRetry(messages: readonly AgentMessage[]): boolean {
		const failure = lastAssistant(messages);
		return failure !== undefined && retryDelay(failure, this.attempt + 1, this.host.retry) !== undefined;
	}

	/** Retries while the last reply is a retryable failure; true when the run ended aborted. */
	async run(): Promise<boolean> {
		const { agent } = this.host;
		const emit = (event: SessionEvent) => this.host.emitEvent(event);
		while (true) {
			const last = lastAssistant(agent.state.messages);
			if (!last || last.stopReason === "aborted") return last?.stopReason === "aborted";
			if (last.stopReason !== "error") {
				if (this.attempt > 0) await emit({ type: "auto_retry_end", success: true, attempt: this.attempt });
				return false;
			}
			const delay = retryDelay(last, this.attempt + 1, this.host.retry);
			if (delay === undefined) {
				if (this.attempt > 0) {
					await emit({ type: "auto_retry_end", success: false, attempt: this.attempt, finalError: last.errorMessage });
				}
				return false;
			}
			this.attempt++;
			await emit({
				type: "auto_retry_start",
				attempt: this.attempt,
				maxAttempts: this.host.retry.maxRetries,
				delayMs: delay,
				errorMessage: last.errorMessage ?? "",
			});
			const controller = new AbortController();
			this.controller = controller;
			const waited = await sleepAbortable(delay, controller.signal);
			this.controller = undefined;
			if (!waited) {
				await emit({ type: "auto_retry_end", success: false, attempt: this.attempt, finalError: "Retry aborted" });
				return true;
			}
			// The failed reply is dropped from the transcript, then the run continues from the same input.
			const messages = agent.state.messages;
			if (messages[messages.length - 1] === last) messages.pop();
			await agent.continue();
		}
	}
}

/** The last assistant message of `messages`, if any. */
export function lastAssistant(messages: readonly AgentMessage[]): AssistantMessage | undefined {
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i] as { role?: string };
		if (m.role === "assistant") return m as AssistantMessage;
	}
	return undefined;
}
