/** Abort helpers for the promise-returning APIs whose signal is optional (credential and model stores, `Models`). */

function abortReason(signal: AbortSignal): unknown {
	if (signal.reason !== undefined) return signal.reason;
	const error = new Error("The operation was aborted");
	error.name = "AbortError";
	return error;
}

/** The caller's signal, or one that never aborts. */
export function operationSignal(signal: AbortSignal | undefined): AbortSignal {
	return signal ?? new AbortController().signal;
}

/**
 * Settles like `operation`, or rejects with the signal's reason as soon as it aborts. An abandoned operation is
 * still observed, so its later rejection is never unhandled.
 */
export function raceWithAbortSignal<T>(operation: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) {
		operation.catch(() => {});
		return Promise.reject(abortReason(signal));
	}
	return new Promise<T>((resolve, reject) => {
		let settled = false;
		const onAbort = () => {
			if (settled) return;
			settled = true;
			reject(abortReason(signal));
		};
		signal.addEventListener("abort", onAbort, { once: true });
		operation.then(
			(value) => {
				if (settled) return;
				settled = true;
				signal.removeEventListener("abort", onAbort);
				resolve(value);
			},
			(error) => {
				if (settled) return;
				settled = true;
				signal.removeEventListener("abort", onAbort);
				reject(error);
			},
		);
	});
}
