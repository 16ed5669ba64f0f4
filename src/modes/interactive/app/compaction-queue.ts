/**
 * Messages typed while the context is being compacted, held as pi 0.87.1 holds them: the editor stays usable,
 * Enter and the follow-up key queue the text ("Queued message for after compaction"), the pending area lists it,
 * the dequeue key brings it back, and when the compaction ends the queue is sent — the first message as a prompt,
 * the rest queued behind it (all queued into the run when an overflow compaction will retry it). Extension
 * commands in the queue run in their place. A failed send puts the messages back.
 */
import type { AgentSession } from "../../../runtime/index.ts";
import { errorMessage } from "../../../util/index.ts";

export type QueueMode = "steer" | "followUp";

interface Queued {
	text: string;
	mode: QueueMode;
}

export interface CompactionQueueHooks {
	/** Runs `text` when it is an extension command; true when it was. */
	runExtensionCommand(text: string): Promise<boolean>;
	/** The queue changed: redraw the pending area. */
	changed(): void;
	error(message: string): void;
}

export class CompactionQueue {
	private items: Queued[] = [];

	constructor(private readonly hooks: CompactionQueueHooks) {}

	get size(): number {
		return this.items.length;
	}

	/** The queued texts by mode, for the pending area. */
	texts(): { steering: string[]; followUp: string[] } {
		return {
			steering: this.items.filter((m) => m.mode === "steer").map((m) => m.text),
			followUp: this.items.filter((m) => m.mode === "followUp").map((m) => m.text),
		};
	}

	push(text: string, mode: QueueMode): void {
		this.items.push({ text, mode });
		this.hooks.changed();
	}

	/** Empties the queue; returns what it held. */
	take(): { steering: string[]; followUp: string[] } {
		const texts = this.texts();
		this.items = [];
		this.hooks.changed();
		return texts;
	}

	/** Sends what was queued once the compaction has ended. */
	async flush(session: AgentSession, willRetry: boolean): Promise<void> {
		if (this.items.length === 0) return;
		const queued = this.items;
		this.items = [];
		this.hooks.changed();
		const restore = (error: unknown) => {
			void session.clearQueue();
			this.items = queued;
			this.hooks.changed();
			const plural = queued.length > 1 ? "s" : "";
			this.hooks.error(`Failed to send queued message${plural}: ${errorMessage(error)}`);
		};
		const enqueue = (message: Queued) =>
			message.mode === "followUp" ? session.followUp(message.text) : session.steer(message.text);
		try {
			let prompted = willRetry;
			for (const message of queued) {
				if (await this.hooks.runExtensionCommand(message.text)) continue;
				if (prompted) {
					await enqueue(message);
					continue;
				}
				prompted = true;
				// Not awaited: the run goes on while the rest is queued behind its prompt.
				void session.prompt(message.text, { streamingBehavior: message.mode }).catch(restore);
			}
		} catch (error) {
			restore(error);
		}
	}
}
