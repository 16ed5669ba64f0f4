/**
 * The HTTP idle timeout (pi's `httpIdleTimeoutMs` setting, default 5 minutes, 0 = off): a provider request fails
 * when the server sends nothing, neither the response headers nor the next bytes of the body, for that long. The
 * failure reads "… timed out: no data from the server for N ms", which the retry policy treats as transient.
 * Process-wide, as pi's HTTP dispatcher is: the CLI sets it from the settings at start-up.
 */

export const DEFAULT_HTTP_IDLE_TIMEOUT_MS = 300_000;

let idleTimeoutMs = DEFAULT_HTTP_IDLE_TIMEOUT_MS;

/** Sets the idle timeout for provider requests made from now on (0 turns it off). */
export function setHttpIdleTimeout(ms: number): void {
	idleTimeoutMs = Number.isFinite(ms) && ms > 0 ? Math.floor(ms) : 0;
}

export function httpIdleTimeout(): number {
	return idleTimeoutMs;
}

export class IdleTimeoutError extends Error {
	override readonly name = "IdleTimeoutError";
	constructor(readonly ms: number) {
		super(`request timed out: no data from the server for ${ms} ms (httpIdleTimeoutMs)`);
	}
}

/**
 * `send(url, init)` with the idle timeout applied to the wait for the headers and to every read of the body. The
 * caller's own abort still wins: an aborted request rejects as before, never as a timeout.
 */
export async function fetchWithIdleTimeout(
	url: string | URL,
	init: RequestInit,
	send: (url: string | URL, init: RequestInit) => Promise<Response> = fetch,
	ms: number = idleTimeoutMs,
): Promise<Response> {
	if (!(ms > 0)) return send(url, init);
	const controller = new AbortController();
	const outer = init.signal ?? undefined;
	const signal = outer ? AbortSignal.any([outer, controller.signal]) : controller.signal;
	let timer: ReturnType<typeof setTimeout> | undefined;
	const arm = () => {
		timer = setTimeout(() => controller.abort(new IdleTimeoutError(ms)), ms);
	};
	const timedOut = () => controller.signal.aborted && !outer?.aborted;
	arm();
	let response: Response;
	try {
		response = await send(url, { ...init, signal });
	} catch (error) {
		throw timedOut() ? new IdleTimeoutError(ms) : error;
	} finally {
		clearTimeout(timer);
	}
	const source = response.body;
	if (!source) return response;
	const reader = source.getReader();
	const body = new ReadableStream<Uint8Array>({
		async pull(out) {
			arm();
			try {
				const { done, value } = await reader.read();
				if (done) out.close();
				else out.enqueue(value);
			} catch (error) {
				throw timedOut() ? new IdleTimeoutError(ms) : error;
			} finally {
				clearTimeout(timer);
			}
		},
		cancel(reason) {
			clearTimeout(timer);
			return reader.cancel(reason);
		},
	});
	return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
