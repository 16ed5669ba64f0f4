/**
 * Abort handling shared by the file tools: every tool rejects with `Error("Operation aborted")` as soon as its
 * signal fires, even if the underlying I/O is still in flight (its late result or error is then ignored).
 */

export const ABORT_MESSAGE = "Operation aborted";

export function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new Error(ABORT_MESSAGE);
}

/** Runs `work`, rejecting early with "Operation aborted" when `signal` fires first. */
export function runAbortable<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
	if (signal?.aborted) return Promise.reject(new Error(ABORT_MESSAGE));
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(new Error(ABORT_MESSAGE));
		signal?.addEventListener("abort", onAbort, { once: true });
		// After an abort the promise is already settled, so the late outcome of `work` is dropped here.
		Promise.resolve()
			.then(work)
			.then(resolve, reject)
			.finally(() => signal?.removeEventListener("abort", onAbort));
	});
}
