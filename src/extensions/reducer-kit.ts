/** The reducer contract and the small helpers every reducer uses (see reducers.ts). */

export type Report = (message: string, error?: unknown) => void;

export interface Reducer<S = any> {
	start(payload: any, name: string): S | Promise<S>;
	/** The event object handed to the next handler. */
	event(state: S): object;
	/** Folds one handler's return value in; true ends the dispatch. May throw (treated as the handler failing). */
	apply(state: S, value: unknown, extensionPath: string, report: Report): boolean | Promise<boolean>;
	/** Outcome of a fail-closed dispatch whose handler failed. */
	fail?(state: S, reason: string, extensionPath: string): unknown;
	finish(state: S): unknown;
	/** Outcome when no handler is registered, if it can be had without `start` (which may copy or build). */
	idle?(payload: any): unknown;
}

export const isObject = (value: unknown): value is Record<string, any> =>
	typeof value === "object" && value !== null && !Array.isArray(value);

export const describe = (value: unknown): string =>
	value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "string" ? "a string" : typeof value;

/** A fresh event object: `type` plus the payload's own properties (getters stay getters). */
export function makeEvent(name: string, payload: object, overrides: object = {}): Record<string, any> {
	const event = Object.defineProperties({ type: name }, Object.getOwnPropertyDescriptors(payload));
	return Object.defineProperties(event, Object.getOwnPropertyDescriptors(overrides));
}

/** Reports a truthy non-object answer; true when `value` is an object worth reading. */
export function readable(value: unknown, expected: string, report: Report): value is Record<string, any> {
	if (isObject(value)) return true;
	if (value) report(`ignored a return value of ${describe(value)}; expected ${expected}`);
	return false;
}
