/**
 * Invocation contexts (pi's `Context`): an immutable chain of typed values plus an optional abort signal, passed
 * explicitly through every harness operation. Deriving a context never changes its parent.
 */

/** Typed identity for one value a context carries. */
export interface ContextKey<T> {
	readonly token: symbol;
	/** Type-only marker: keys of different value types are not interchangeable. */
	readonly valueType?: (value: T) => T;
}

export interface Context {
	readonly abortSignal: AbortSignal | undefined;
	value<T>(key: ContextKey<T>): T | undefined;
	toString(): string;
}

const ABORT_KEY: ContextKey<AbortSignal | undefined> = Object.freeze({ token: Symbol("chord.abortSignal") });

abstract class ContextNode implements Context {
	abstract value<T>(key: ContextKey<T>): T | undefined;
	abstract toString(): string;
	get abortSignal(): AbortSignal | undefined {
		return this.value(ABORT_KEY);
	}
}

class RootContext extends ContextNode {
	readonly #label: string;
	constructor(label: string) {
		super();
		this.#label = label;
	}
	value<T>(_key: ContextKey<T>): T | undefined {
		return undefined;
	}
	toString(): string {
		return this.#label;
	}
}

class ValueContext extends ContextNode {
	readonly #parent: Context;
	readonly #key: ContextKey<unknown>;
	readonly #value: unknown;
	constructor(parent: Context, key: ContextKey<unknown>, value: unknown) {
		super();
		this.#parent = parent;
		this.#key = key;
		this.#value = value;
	}
	value<T>(key: ContextKey<T>): T | undefined {
		return key.token === this.#key.token ? (this.#value as T) : this.#parent.value(key);
	}
	toString(): string {
		return `${this.#parent.toString()}.WithValue(${this.#key.token.description ?? "anonymous"})`;
	}
}

/** The root context for work that nothing cancels. */
export const BACKGROUND_CONTEXT: Context = new RootContext("[Context BACKGROUND_CONTEXT]");
/** A root context marking a call site that should be given a real context later. */
export const TODO_CONTEXT: Context = new RootContext("[Context TODO_CONTEXT]");

export function createContextKey<T>(description: string): ContextKey<T> {
	return Object.freeze({ token: Symbol(description) });
}

/** A child context with one value added or replaced. */
export function withContextValue<T>(key: ContextKey<T>, value: T, parent: Context): Context {
	return new ValueContext(parent, key as ContextKey<unknown>, value);
}

/** A child context cancelled when either the parent's signal or `signal` aborts. */
export function withAbortSignal(signal: AbortSignal, context: Context): Context {
	const parent = context.abortSignal;
	return withContextValue(ABORT_KEY, parent ? AbortSignal.any([parent, signal]) : signal, context);
}

/** A child context with every value but no cancellation (for cleanup that must run). */
export function withoutAbortSignal(context: Context): Context {
	return withContextValue(ABORT_KEY, undefined, context);
}

/** A child context with its own cancel function. */
export function withCancel(context: Context): {
	readonly context: Context;
	readonly cancel: (reason?: unknown) => void;
} {
	const controller = new AbortController();
	return { context: withAbortSignal(controller.signal, context), cancel: (reason) => controller.abort(reason) };
}

/**
 * Wait for `promise` unless the context is cancelled first; cancellation rejects this wait only (with the abort
 * reason when it is an Error, else an `AbortError`), the promise itself runs on.
 */
export function awaitWithContext<T>(promise: Promise<T>, context: Context): Promise<T> {
	const signal = context.abortSignal;
	if (!signal) return promise;
	if (signal.aborted) return Promise.reject(abortReason(signal));
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(abortReason(signal));
		signal.addEventListener("abort", onAbort, { once: true });
		promise.then(
			(value) => {
				signal.removeEventListener("abort", onAbort);
				resolve(value);
			},
			(error: unknown) => {
				signal.removeEventListener("abort", onAbort);
				reject(error);
			},
		);
	});
}

function abortReason(signal: AbortSignal): Error {
	return signal.reason instanceof Error ? signal.reason : new DOMException("The operation was aborted", "AbortError");
}
