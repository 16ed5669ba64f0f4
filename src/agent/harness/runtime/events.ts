/**
 * The harness event bus: listeners per event type, batches delivered in commit order on one delivery chain, each
 * listener receiving its own copy; a throwing listener becomes a `handler_error` event instead of stopping delivery.
 */
import type { Context } from "../context.ts";
import type { HarnessEvent, HarnessEventType } from "./types.ts";

type Listener = (event: HarnessEvent, context: Context) => void | Promise<void>;

function toError(error: unknown): Error {
	return error instanceof Error ? error : new Error(String(error));
}

export class HarnessEventBus {
	private readonly listeners = new Map<string, Set<Listener>>();
	private readonly watchers = new Set<Listener>();
	private tail: Promise<void> = Promise.resolve();
	private closedError: Error | undefined;

	on(type: HarnessEventType, listener: Listener): () => void {
		if (this.closedError !== undefined) throw this.closedError;
		const wrapped: Listener = (event, context) => listener(event, context);
		let set = this.listeners.get(type);
		if (set === undefined) {
			set = new Set();
			this.listeners.set(type, set);
		}
		set.add(wrapped);
		return () => {
			set.delete(wrapped);
		};
	}

	emit(event: HarnessEvent, context: Context): Promise<void> {
		return this.emitBatch([event], context);
	}

	/** Bind the recipients now and queue the batch after every earlier batch. */
	emitBatch(events: HarnessEvent[], context: Context): Promise<void> {
		if (this.closedError !== undefined || events.length === 0) return Promise.resolve();
		const bound = events.map((event) => {
			const payload = structuredClone(event);
			return { payload, recipients: this.recipients(payload.type) };
		});
		const delivery = this.tail.then(async () => {
			for (const { payload, recipients } of bound) await this.deliver(payload, recipients, context, true);
		});
		this.tail = delivery.catch(() => {});
		return delivery;
	}

	close(error: Error): void {
		this.closedError ??= error;
		void this.tail.finally(() => {
			this.listeners.clear();
			this.watchers.clear();
		});
	}

	private recipients(type: string): Listener[] {
		return [...(this.listeners.get(type) ?? []), ...this.watchers];
	}

	/** Receive every event from now on (lane watchers); returns the unsubscribe function. */
	watch(listener: Listener): () => void {
		if (this.closedError !== undefined) throw this.closedError;
		this.watchers.add(listener);
		return () => {
			this.watchers.delete(listener);
		};
	}

	private async deliver(event: HarnessEvent, recipients: Listener[], context: Context, report: boolean): Promise<void> {
		for (const listener of recipients) {
			try {
				await listener(structuredClone(event), context);
			} catch (error) {
				if (!report || event.type === "handler_error") continue;
				const normalized = toError(error);
				const lane = "lane" in event && typeof event.lane === "string" ? event.lane : undefined;
				const handlerError = {
					type: "handler_error",
					kind: "event",
					event: event.type,
					error: normalized.message,
					...(normalized.stack === undefined ? {} : { stack: normalized.stack }),
					...(lane === undefined ? {} : { lane }),
				} as HarnessEvent;
				await this.deliver(handlerError, this.recipients("handler_error"), context, false);
			}
		}
	}
}
