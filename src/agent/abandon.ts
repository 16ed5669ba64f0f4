/**
 * Abort must end a turn promptly whatever a hook or a tool does: a promise that has not settled when the run's
 * signal aborts (plus a short grace, for tools that wind down on abort and report what they did) is abandoned.
 * The abandoned promise keeps running; its later result or rejection is dropped.
 */

/** What an awaited step produced, or that it was given up on after the abort. */
export type Abandonable<T> = { settled: true; value: T } | { settled: false };

/** The result of `step`, or `{ settled: false }` once `signal` has been aborted for `graceMs`. Rejections pass. */
export function abandonOnAbort<T>(
	step: T | PromiseLike<T>,
	signal: AbortSignal | undefined,
	graceMs = 0,
): Promise<Abandonable<T>> {
	const settled = Promise.resolve(step).then((value): Abandonable<T> => ({ settled: true, value }));
	if (!signal) return settled;
	return new Promise<Abandonable<T>>((resolve, reject) => {
		let timer: ReturnType<typeof setTimeout> | undefined;
		const giveUp = () => {
			timer = setTimeout(() => resolve({ settled: false }), graceMs);
		};
		const done = () => {
			clearTimeout(timer);
			signal.removeEventListener("abort", giveUp);
		};
		if (signal.aborted) giveUp();
		else signal.addEventListener("abort", giveUp, { once: true });
		settled.then(
			(value) => {
				done();
				resolve(value);
			},
			(error: unknown) => {
				done();
				reject(error);
			},
		);
	});
}
