/**
 * The one event dispatcher. `emit(name, payload, ctx)` looks the event up in EVENT_TABLE, runs the handlers of
 * every extension in load order (then registration order), one at a time, and folds their answers with the
 * event's reducer. A handler that throws, rejects or is abandoned is reported once to the error listeners as
 * `{ extensionPath, event, error, stack }`; the dispatch then goes on, except for fail-closed events (tool_call,
 * user_bash), where the failure becomes the outcome (a block / an error result).
 *
 * Handlers are snapshotted when the dispatch starts: registering or unsubscribing during a dispatch affects the
 * next one only.
 */
import { errorMessage } from "../util/index.ts";
import { thrownAt } from "./error-location.ts";
import {
	type EmitOutcome,
	EVENT_TABLE,
	type EventPayload,
	type ExtensionEventName,
	type HandlerContextOf,
} from "./events.ts";
import { reducerFor } from "./reducers.ts";
import type { ExtensionHandler } from "./types.ts";

/** What the runner needs of a loaded extension. */
export interface RunnerExtension {
	path: string;
	handlers: ReadonlyMap<string, readonly ExtensionHandler[]>;
}

export interface ExtensionError {
	extensionPath: string;
	event: string;
	error: string;
	stack?: string;
	/** Where the handler threw, `<file>:<line>:<column>` (see error-location.ts); absent for abandoned handlers. */
	location?: string;
}
export type ExtensionErrorListener = (error: ExtensionError) => void;

export interface EmitOptions {
	/**
	 * When it aborts, the handler still running is abandoned (reported) and the dispatch ends: isolated events
	 * resolve with what earlier handlers produced (`input` → "continue" unless an earlier handler transformed),
	 * fail-closed events with a block / error.
	 */
	signal?: AbortSignal;
	/** Per-handler limit; a handler that has not settled in time is abandoned and counts as failed. */
	timeoutMs?: number;
	/** A failing handler's error is reported and then thrown from `emit` (pi's SDK runner for tool_call, user_bash). */
	rethrow?: boolean;
}

export interface ExtensionRunner {
	emit<K extends ExtensionEventName>(
		name: K,
		payload: EventPayload<K>,
		ctx: HandlerContextOf<K>,
		options?: EmitOptions,
	): Promise<EmitOutcome<K>>;
	hasHandlers(name: string): boolean;
	/** Returns an unsubscribe function. */
	onError(listener: ExtensionErrorListener): () => void;
	/** Sends an error to the listeners (for failures the runtime detects outside a dispatch). */
	reportError(error: ExtensionError): void;
}

class AbandonedError extends Error {
	constructor(
		message: string,
		readonly aborted: boolean,
	) {
		super(message);
	}
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
	typeof (value as { then?: unknown } | null)?.then === "function";

/** Calls a handler; a pending promise is raced against the caller's signal and the per-handler timeout. */
function invoke(handler: ExtensionHandler, event: object, ctx: unknown, options: EmitOptions): unknown {
	const result = handler(event, ctx);
	if (!isThenable(result)) return result;
	const { signal, timeoutMs } = options;
	if (!signal && timeoutMs === undefined) return result;
	return new Promise((resolve, reject) => {
		let timer: ReturnType<typeof setTimeout> | undefined;
		const settle = (finish: () => void) => {
			clearTimeout(timer);
			signal?.removeEventListener("abort", onAbort);
			finish();
		};
		const onAbort = () =>
			settle(() =>
				reject(new AbandonedError("handler abandoned: the caller aborted while it was still running", true)),
			);
		if (signal?.aborted) return onAbort();
		signal?.addEventListener("abort", onAbort, { once: true });
		if (timeoutMs !== undefined) {
			timer = setTimeout(
				() => settle(() => reject(new AbandonedError(`handler abandoned: no answer within ${timeoutMs} ms`, false))),
				timeoutMs,
			);
		}
		// An abandoned handler that settles later lands here too; the promise has already settled, so it is dropped.
		result.then(
			(value) => settle(() => resolve(value)),
			(error) => settle(() => reject(error)),
		);
	});
}

export function createExtensionRunner(getExtensions: () => readonly RunnerExtension[]): ExtensionRunner {
	const listeners = new Set<ExtensionErrorListener>();
	const reportError = (error: ExtensionError) => {
		for (const listener of [...listeners]) {
			try {
				listener(error);
			} catch (failure) {
				// A broken error listener must not break the dispatch; say so on stderr and keep going.
				console.error(`extension error listener failed: ${errorMessage(failure)}`);
			}
		}
	};

	return {
		async emit(name, payload, ctx, options = {}) {
			type Outcome = EmitOutcome<typeof name>;
			const { failClosed } = EVENT_TABLE[name];
			const reducer = reducerFor(name);
			const queue = getExtensions().flatMap((ext) =>
				(ext.handlers.get(name) ?? []).map((handler) => ({ path: ext.path, handler })),
			);
			if (queue.length === 0 && reducer.idle) return reducer.idle(payload) as Outcome;
			const state = await reducer.start(payload, name);
			for (const { path, handler } of queue) {
				if (options.signal?.aborted) {
					const refusal = failClosed && reducer.fail?.(state, "the caller aborted", path);
					return (refusal || reducer.finish(state)) as Outcome;
				}
				const report = (message: string, error?: unknown) => {
					const thrown = error instanceof Error && !(error instanceof AbandonedError);
					const location = thrown ? thrownAt(error, path) : undefined;
					reportError({
						extensionPath: path,
						event: name,
						error: message,
						stack: thrown ? error.stack : undefined,
						...(location ? { location } : {}),
					});
				};
				try {
					const value = await invoke(handler, reducer.event(state), ctx, options);
					if (await reducer.apply(state, value, path, report)) break;
				} catch (error) {
					const message = errorMessage(error);
					report(message, error);
					if (options.rethrow) throw error;
					if (failClosed && reducer.fail) return reducer.fail(state, message, path) as Outcome;
					if (error instanceof AbandonedError && error.aborted) break;
				}
			}
			return reducer.finish(state) as Outcome;
		},
		hasHandlers(name) {
			return getExtensions().some((ext) => (ext.handlers.get(name)?.length ?? 0) > 0);
		},
		onError(listener) {
			listeners.add(listener);
			return () => {
				listeners.delete(listener);
			};
		},
		reportError,
	};
}
