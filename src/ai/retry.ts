/**
 * Retrying an assistant call on transient failures (pi-ai 0.87.1's `retryAssistantCall`): which error texts are
 * transient, the exponential delay, and a loop that reports each retry through callbacks.
 */
import type { AssistantMessage } from "./types.ts";

export interface RetryPolicy {
	enabled: boolean;
	/** Retries after the first call (0 = none). */
	maxRetries: number;
	/** Delay before retry n is `baseDelayMs * 2^(n-1)`. */
	baseDelayMs: number;
	/** Cap on one delay; default `DEFAULT_MAX_AGENT_RETRY_DELAY_MS`. */
	maxAgentDelayMs?: number;
}

export interface RetryCallbacks {
	/** Before the wait of retry `attempt` (1-based). */
	onRetryScheduled?: (
		attempt: number,
		maxAttempts: number,
		delayMs: number,
		errorMessage: string,
	) => void | Promise<void>;
	/** After the wait, just before the retried call. */
	onRetryAttemptStart?: () => void | Promise<void>;
	/** Once, when a loop that retried at least once ends. */
	onRetryFinished?: (success: boolean, attempt: number, finalError?: string) => void | Promise<void>;
}

export const DEFAULT_MAX_AGENT_RETRY_DELAY_MS = 60_000;

/** Account limits that are not worth retrying even though they often come as 429. */
const NOT_RETRYABLE = new RegExp(
	[
		"GoUsageLimitError",
		"FreeUsageLimitError",
		"Monthly usage limit reached",
		"available balance",
		"insufficient_quota",
		"out of budget",
		"quota exceeded",
		"billing",
	].join("|"),
	"i",
);

/** Overload, HTTP 429/5xx, transport drops, timeouts, early stream ends and explicit "retry" hints. */
const RETRYABLE = new RegExp(
	[
		"overloaded",
		"currently experiencing high demand",
		"rate.?limit",
		"too many requests",
		"429",
		"500",
		"502",
		"503",
		"504",
		"520",
		"524",
		"service.?unavailable",
		"server.?error",
		"internal.?error",
		"provider.?returned.?error",
		"exceeded request buffer limit while retrying upstream",
		"network.?error",
		"connection.?error",
		"connection.?refused",
		"connection.?lost",
		"other side closed",
		"fetch failed",
		"getaddrinfo",
		"ENOTFOUND",
		"EAI_AGAIN",
		"upstream.?connect",
		"reset before headers",
		"socket hang up",
		"socket connection was closed",
		"timed? out",
		"timeout",
		"terminated",
		"websocket.?closed",
		"websocket.?error",
		"ended without",
		"stream ended before message_stop",
		"stream ended before a terminal response event",
		"http2 request did not get a response",
		"retry delay",
		"you can retry your request",
		"try your request again",
		"please retry your request",
		"ResourceExhausted",
	].join("|"),
	"i",
);

/** Whether a failed message looks transient (overflow is not checked here: handle it first). */
export function isRetryableAssistantError(message: AssistantMessage): boolean {
	const text = message.errorMessage;
	if (message.stopReason !== "error" || !text) return false;
	return !NOT_RETRYABLE.test(text) && RETRYABLE.test(text);
}

/** The wait before retry `attempt` (1-based): doubling from `baseDelayMs`, capped. */
export function retryDelayMs(policy: Pick<RetryPolicy, "baseDelayMs" | "maxAgentDelayMs">, attempt: number): number {
	const delay = policy.baseDelayMs * 2 ** Math.max(0, attempt - 1);
	const safe = Number.isSafeInteger(delay) ? delay : Number.MAX_SAFE_INTEGER;
	return Math.min(safe, policy.maxAgentDelayMs ?? DEFAULT_MAX_AGENT_RETRY_DELAY_MS);
}

class SleepAborted extends Error {}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) return reject(new SleepAborted());
		const timer = setTimeout(resolve, ms);
		signal?.addEventListener(
			"abort",
			() => {
				clearTimeout(timer);
				reject(new SleepAborted());
			},
			{ once: true },
		);
	});
}

/**
 * Calls `produce` until it returns a message that is not a retryable error, at most `maxRetries` more times
 * (none when the policy is missing or disabled). Success, abort and permanent errors return at once. An abort
 * during a wait returns the last failed message as "aborted" (without its error text).
 */
export async function retryAssistantCall(
	produce: () => Promise<AssistantMessage>,
	policy: RetryPolicy | undefined,
	signal: AbortSignal | undefined,
	callbacks?: RetryCallbacks,
): Promise<AssistantMessage> {
	const maxAttempts = policy?.enabled ? policy.maxRetries : 0;
	let attempt = 0;
	let lastError: string | undefined;
	for (;;) {
		const response = await produce();
		const retried = lastError !== undefined;
		if (response.stopReason === "aborted") {
			if (retried) await callbacks?.onRetryFinished?.(false, attempt);
			return response;
		}
		if (response.stopReason !== "error") {
			if (retried) await callbacks?.onRetryFinished?.(true, attempt);
			return response;
		}
		if (attempt >= maxAttempts || !isRetryableAssistantError(response)) {
			if (retried) await callbacks?.onRetryFinished?.(false, attempt, response.errorMessage);
			return response;
		}
		attempt++;
		lastError = response.errorMessage || "Unknown error";
		const delayMs = retryDelayMs(policy as RetryPolicy, attempt);
		await callbacks?.onRetryScheduled?.(attempt, maxAttempts, delayMs, lastError);
		try {
			await sleep(delayMs, signal);
		} catch (error) {
			await callbacks?.onRetryFinished?.(false, attempt, lastError);
			if (!(error instanceof SleepAborted)) throw error;
			const { errorMessage: _dropped, ...rest } = response;
			return { ...rest, stopReason: "aborted" };
		}
		await callbacks?.onRetryAttemptStart?.();
	}
}
