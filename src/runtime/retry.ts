/**
 * Automatic retry of transient provider failures (rate limits, overload, 5xx, dropped connections) with
 * exponential backoff; a server's retry-after wins when it asks for longer. Permanent errors (bad request, auth,
 * quota, context overflow) are never retried here. Transient is what pi 0.87.1 retries (`isRetryableAssistantError`)
 * and what `classifyError` recognises besides.
 */
import { type AssistantMessage, classifyError, isContextOverflow, isRetryableAssistantError } from "../ai/index.ts";

export interface RetrySettings {
	enabled: boolean;
	maxRetries: number;
	baseDelayMs: number;
	maxDelayMs: number;
}

export const DEFAULT_RETRY: RetrySettings = { enabled: true, maxRetries: 3, baseDelayMs: 2000, maxDelayMs: 60_000 };

/** The delay before retry number `attempt` (1-based), or undefined when this failure must not be retried. */
export function retryDelay(message: AssistantMessage, attempt: number, settings: RetrySettings): number | undefined {
	if (!settings.enabled || attempt > settings.maxRetries) return undefined;
	const classification = classifyError(message);
	// pi's classifier (any 5xx or transport wording, whatever the provider's line looks like) or ours.
	const transient = !isContextOverflow(message) && isRetryableAssistantError(message);
	if (!classification.retryable && !transient) return undefined;
	const backoff = settings.baseDelayMs * 2 ** (attempt - 1);
	const delay = Math.max(backoff, classification.retryAfterMs ?? 0);
	return Math.min(delay, settings.maxDelayMs);
}

/** Sleeps `ms`, resolving false early if `signal` aborts. */
export function sleepAbortable(ms: number, signal: AbortSignal): Promise<boolean> {
	return new Promise((resolve) => {
		if (signal.aborted) return resolve(false);
		const timer = setTimeout(() => {
			signal.removeEventListener("abort", onAbort);
			resolve(true);
		}, ms);
		const onAbort = () => {
			clearTimeout(timer);
			resolve(false);
		};
		signal.addEventListener("abort", onAbort, { once: true });
	});
}
