/**
 * Provider failures as data: one-line messages from HTTP errors, context-overflow recognition, and the
 * retryable/permanent split the agent's retry loop uses.
 */
import { isContextOverflow } from "./overflow.ts";
import type { AssistantMessage } from "./types.ts";

/** Reads an error response body and returns `<Provider> API error <status>: <message>[ (retry after Ns)]`. */
export async function describeHttpError(providerName: string, response: Response): Promise<string> {
	let text = "";
	try {
		text = await response.text();
	} catch {
		// The body could not be read (connection closed); the status alone must do.
	}
	const detail = extractErrorText(text) || response.statusText || "no details";
	return `${providerName} API error ${response.status}: ${detail}${retryAfterNote(response.headers)}`;
}

/**
 * ` (retry after Ns)` when the response asks for a delay (`retry-after` in seconds or as an HTTP date, or
 * `retry-after-ms`), else "". Error lines end with it so the retry waits at least that long.
 */
export function retryAfterNote(headers: Headers): string {
	const retryAfter = parseRetryAfter(headers.get("retry-after"), headers.get("retry-after-ms"));
	return retryAfter !== undefined ? ` (retry after ${Math.ceil(retryAfter / 1000)}s)` : "";
}

function extractErrorText(body: string): string {
	const trimmed = body.trim();
	if (trimmed === "") return "";
	try {
		const parsed = JSON.parse(trimmed) as any;
		const candidate = Array.isArray(parsed) ? parsed[0] : parsed;
		const error = candidate?.error ?? candidate;
		const message = typeof error === "string" ? error : (error?.message ?? candidate?.message);
		const kind =
			typeof error?.type === "string" ? error.type : typeof error?.status === "string" ? error.status : undefined;
		if (typeof message === "string" && message !== "") return kind ? `${message} [${kind}]` : message;
	} catch {
		// Not JSON: use the text itself.
	}
	return trimmed.replace(/\s+/g, " ").slice(0, 500);
}

export function parseRetryAfter(header: string | null, headerMs?: string | null): number | undefined {
	if (headerMs) {
		const ms = Number(headerMs);
		if (Number.isFinite(ms) && ms >= 0) return ms;
	}
	if (!header) return undefined;
	const seconds = Number(header);
	if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
	const date = Date.parse(header);
	if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
	return undefined;
}

export interface ErrorClassification {
	retryable: boolean;
	/** Server-requested delay, when the error said so. */
	retryAfterMs?: number;
}

const PERMANENT = [
	/insufficient[_ ]quota/i,
	/billing/i,
	/credit balance/i,
	/quota exceeded/i,
	/exceeded your current quota/i,
	/API error 40[0-4]\b/,
	/invalid[_ ]api[_ ]key/i,
	/No API key/i,
];
const RETRYABLE = [
	/API error 429\b/,
	/API error 5\d\d\b/,
	/overloaded/i,
	/rate[_ ]limit/i,
	/too many requests/i,
	/temporarily unavailable/i,
	/fetch failed/i,
	/ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|socket hang up|network/i,
	/connection (?:was )?(?:closed|reset|lost|terminated)/i,
	/stream ended before/i,
	/timed? ?out/i,
];

/** Splits provider errors into retryable (rate limits, overload, 5xx, dropped connections) and permanent. */
export function classifyError(message: AssistantMessage): ErrorClassification {
	if (message.stopReason !== "error" || !message.errorMessage) return { retryable: false };
	const text = message.errorMessage;
	if (isContextOverflow(message)) return { retryable: false };
	if (PERMANENT.some((re) => re.test(text))) return { retryable: false };
	if (!RETRYABLE.some((re) => re.test(text))) return { retryable: false };
	const after = /retry after (\d+)s/.exec(text);
	return after ? { retryable: true, retryAfterMs: Number(after[1]) * 1000 } : { retryable: true };
}

const REFUSED_CREDENTIAL =
	/\b40[13]\b|invalid[_ ]?(?:x-)?api[_ -]?key|authentication[_ ]error|unauthori[sz]ed|PERMISSION_DENIED|UnrecognizedClient|InvalidSignature|AccessDenied|access denied/i;
const OUT_OF_QUOTA =
	/insufficient[_ ]quota|quota exceeded|exceeded your current quota|billing|credit balance|usage limit|spend(?:ing)? limit|out of budget|available balance/i;

/**
 * A failure the user has to fix on the account (not retried): "credential" when the provider refused the key or
 * login, "quota" when the account is out of quota, credit or its usage limit; undefined otherwise.
 */
export function accountProblem(message: AssistantMessage): "credential" | "quota" | undefined {
	const text = message.errorMessage;
	if (message.stopReason !== "error" || !text || classifyError(message).retryable || isContextOverflow(message)) {
		return undefined;
	}
	if (OUT_OF_QUOTA.test(text)) return "quota";
	if (REFUSED_CREDENTIAL.test(text)) return "credential";
	return undefined;
}
