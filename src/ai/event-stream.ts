/**
 * A push-based async iterable with a final result: producers `push` events and `end`; any number of consumers
 * iterate (each sees every event pushed after it started, plus the ones buffered before its first `next`).
 */
import type { AssistantMessage, AssistantMessageEvent, AssistantMessageEventStream } from "./types.ts";

export class EventStream<TEvent, TResult> implements AsyncIterable<TEvent> {
	private readonly events: TEvent[] = [];
	private readonly waiters = new Set<() => void>();
	private finished = false;
	private readonly resultPromise: Promise<TResult>;
	private resolveResult!: (value: TResult) => void;

	constructor(
		private readonly isFinal: (event: TEvent) => boolean,
		private readonly extractResult: (event: TEvent) => TResult,
	) {
		this.resultPromise = new Promise((resolve) => {
			this.resolveResult = resolve;
		});
	}

	push(event: TEvent): void {
		if (this.finished) return;
		this.events.push(event);
		if (this.isFinal(event)) {
			this.finished = true;
			this.resolveResult(this.extractResult(event));
		}
		this.wake();
	}

	/** Ends the stream; `result` resolves with `value` unless a final event already set it. */
	end(value?: TResult): void {
		if (!this.finished) {
			this.finished = true;
			if (value !== undefined) this.resolveResult(value);
		}
		this.wake();
	}

	result(): Promise<TResult> {
		return this.resultPromise;
	}

	[Symbol.asyncIterator](): AsyncIterator<TEvent> {
		let index = 0;
		const next = (): Promise<IteratorResult<TEvent>> => {
			if (index < this.events.length) return Promise.resolve({ value: this.events[index++] as TEvent, done: false });
			if (this.finished) return Promise.resolve({ value: undefined, done: true });
			return new Promise<void>((resolve) => this.waiters.add(resolve)).then(next);
		};
		return { next };
	}

	private wake(): void {
		if (this.waiters.size === 0) return;
		const waiters = [...this.waiters];
		this.waiters.clear();
		for (const wake of waiters) wake();
	}
}

export class AssistantMessageEventStreamImpl
	extends EventStream<AssistantMessageEvent, AssistantMessage>
	implements AssistantMessageEventStream
{
	constructor() {
		super(
			(event) => event.type === "done" || event.type === "error",
			(event) => {
				if (event.type === "done") return event.message;
				if (event.type === "error") return event.error;
				throw new Error("not a final event");
			},
		);
	}
}

export function createAssistantMessageEventStream(): AssistantMessageEventStreamImpl {
	return new AssistantMessageEventStreamImpl();
}
