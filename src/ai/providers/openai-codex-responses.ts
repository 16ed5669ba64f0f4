/**
 * Sending an `openai-codex-responses` request and reading its answer (loaded on the first Codex request):
 * - the JSON body goes zstd-compressed (`content-encoding: zstd`, level 3) when the runtime can compress;
 * - `timeoutMs` bounds the wait for the response headers ("Codex SSE response headers timed out after <n>ms");
 * - `maxRetries` (default 0) retries HTTP 429/5xx and overload-like answers after `retry-after-ms`/`retry-after`
 *   (refused beyond `maxRetryDelayMs`, default 60 s) or 1 s, 2 s, 4 s…, and failed attempts except usage limits;
 * - an HTTP error reads as pi-ai words it (`describeCodexError`): a usage or rate limit becomes "You have hit your
 *   ChatGPT usage limit (<plan> plan). Try again in ~<n> min.", else the body's `error.message`, else the body;
 * - the stream is the `openai-responses` one, except that an `error` event fails the message with "Codex error:
 *   <message>", `response.failed` with the response's error message, `response.done` ends it like
 *   `response.completed`, an incomplete response (other than at the output limit) or a failed status fails it,
 *   and the answer's `end_turn` and service tier are kept (flex and priority scale the cost).
 */
import { ProviderError } from "../http.ts";
import { fetchWithIdleTimeout } from "../idle-fetch.ts";
import { readSseBatches } from "../sse.ts";
import type { Context, Model, Usage } from "../types.ts";
import type { MessageBuilder } from "./message-builder.ts";
import { OPENAI_CODEX_NAME, type OpenAICodexResponsesOptions } from "./openai-codex.ts";
import {
	accountIdFromToken,
	buildCodexRequest,
	codexHeaders,
	codexSessionId,
	codexUrl,
} from "./openai-codex-request.ts";
import { consumeResponsesEvents, noteResponseEnd, type ResponsesEvent } from "./openai-responses-stream.ts";

const BASE_DELAY_MS = 1000;
const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;
const ZSTD_LEVEL = 3;
const RESPONSE_STATUSES = new Set(["completed", "incomplete", "failed", "cancelled", "queued", "in_progress"]);

export async function sendCodexRequest(
	model: Model,
	context: Context,
	options: OpenAICodexResponsesOptions | undefined,
	builder: MessageBuilder,
): Promise<void> {
	const token = options?.apiKey;
	if (!token) throw new ProviderError(`No API key for provider: ${model.provider}`);
	const accountId = accountIdFromToken(token);
	const sessionId = codexSessionId(options);
	let body: unknown = buildCodexRequest(model, context, options, sessionId);
	if (options?.onPayload) {
		const replaced = await options.onPayload(body, model);
		if (replaced !== undefined) body = replaced;
	}
	const headers = codexHeaders(model, options, accountId, token, sessionId);
	const timeoutMs = headerTimeout(options?.timeoutMs);
	const json = JSON.stringify(body);
	const compressed = await compressZstd(json);
	if (compressed) headers.set("content-encoding", "zstd");
	const finalHeaders = await applyHeaderHook(headers, model, options);
	const response = await sendWithRetries(
		codexUrl(model.baseUrl),
		finalHeaders,
		compressed ?? json,
		timeoutMs,
		model,
		options,
	);
	if (!response.body) throw new ProviderError("No response body");
	builder.start();
	try {
		await consumeResponsesEvents(OPENAI_CODEX_NAME, codexEvents(response.body, builder), builder, (b, answer) =>
			endCodexResponse(b, answer, model, options),
		);
	} catch (error) {
		if (!options?.signal?.aborted) throw error;
	}
	// An abort while the answer streams reads as the cancelled body read does in pi-ai (under Node).
	if (options?.signal?.aborted) builder.fail("This operation was aborted", "aborted");
	if (!builder.finished) {
		throw new ProviderError("OpenAI Responses stream ended before a terminal response event");
	}
}

function headerTimeout(value: number | undefined): number | undefined {
	if (value === undefined) return undefined;
	if (!Number.isFinite(value) || value < 0) throw new ProviderError(`Invalid timeoutMs: ${String(value)}`);
	return Math.floor(value);
}

async function compressZstd(json: string): Promise<Uint8Array | undefined> {
	try {
		const zlib = await import("node:zlib");
		if (typeof zlib.zstdCompressSync !== "function") return undefined;
		const out = zlib.zstdCompressSync(json, { params: { [zlib.constants.ZSTD_c_compressionLevel]: ZSTD_LEVEL } });
		return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
	} catch {
		return undefined;
	}
}

/** Our `onHeaders` hook (not in pi-ai's Codex API) sees the final headers; `null` removes one. */
async function applyHeaderHook(
	headers: Headers,
	model: Model,
	options: OpenAICodexResponsesOptions | undefined,
): Promise<Headers> {
	if (!options?.onHeaders) return headers;
	const editable: Record<string, string | null> = {};
	headers.forEach((value, key) => {
		editable[key] = value;
	});
	await options.onHeaders(editable, model);
	const out = new Headers();
	for (const [key, value] of Object.entries(editable)) if (typeof value === "string") out.set(key, value);
	return out;
}

class RetryDelayTooLong extends ProviderError {}

async function sendWithRetries(
	url: string,
	headers: Headers,
	body: string | Uint8Array,
	timeoutMs: number | undefined,
	model: Model,
	options: OpenAICodexResponsesOptions | undefined,
): Promise<Response> {
	const maxRetries = options?.maxRetries ?? 0;
	let lastError: unknown;
	for (let attempt = 0; attempt <= maxRetries; attempt++) {
		if (options?.signal?.aborted) throw new ProviderError("Request was aborted");
		try {
			const response = await fetchWithHeaderTimeout(url, headers, body, timeoutMs, options);
			if (options?.onResponse) {
				const seen: Record<string, string> = {};
				response.headers.forEach((value, key) => {
					seen[key] = value;
				});
				await options.onResponse({ status: response.status, headers: seen }, model);
			}
			if (response.ok) return response;
			const text = await response.text();
			if (attempt < maxRetries && isRetryableCodexError(response.status, text)) {
				const requested = retryAfterMs(response.headers);
				await sleep(requested === undefined ? BASE_DELAY_MS * 2 ** attempt : checkedDelay(requested, options), options);
				continue;
			}
			throw new ProviderError(describeCodexError(response.status, response.statusText, text));
		} catch (error) {
			if (options?.signal?.aborted) throw error;
			lastError = error;
			const message = error instanceof Error ? error.message : String(error);
			if (attempt < maxRetries && !(error instanceof RetryDelayTooLong) && !message.includes("usage limit")) {
				await sleep(BASE_DELAY_MS * 2 ** attempt, options);
				continue;
			}
			throw error;
		}
	}
	throw lastError ?? new ProviderError("Failed after retries");
}

/** The caller's signal aborts the whole exchange; the timeout only the wait for the response headers. */
async function fetchWithHeaderTimeout(
	url: string,
	headers: Headers,
	body: string | Uint8Array,
	timeoutMs: number | undefined,
	options: OpenAICodexResponsesOptions | undefined,
): Promise<Response> {
	const controller = new AbortController();
	const outer = options?.signal;
	const onAbort = () => controller.abort(outer?.reason);
	outer?.addEventListener("abort", onAbort, { once: true });
	let timedOut = false;
	const timer =
		timeoutMs !== undefined && timeoutMs > 0
			? setTimeout(() => {
					timedOut = true;
					controller.abort();
				}, timeoutMs)
			: undefined;
	try {
		const send = options?.fetch ?? fetch;
		return await fetchWithIdleTimeout(url, { method: "POST", headers, body, signal: controller.signal }, send);
	} catch (error) {
		if (timedOut && !outer?.aborted) {
			throw new ProviderError(`Codex SSE response headers timed out after ${timeoutMs}ms`);
		}
		throw error;
	} finally {
		if (timer) clearTimeout(timer);
	}
}

/** Account limits that come as 429 but are not worth retrying. */
const TERMINAL_LIMIT =
	/GoUsageLimitError|FreeUsageLimitError|Monthly usage limit reached|available balance|insufficient_quota|out of budget|quota exceeded|billing/i;

export function isRetryableCodexError(status: number, text: string): boolean {
	if (status === 429 && TERMINAL_LIMIT.test(text)) return false;
	if ([429, 500, 502, 503, 504].includes(status)) return true;
	return /rate.?limit|overloaded|service.?unavailable|upstream.?connect|connection.?refused/i.test(text);
}

function retryAfterMs(headers: Headers): number | undefined {
	const ms = headers.get("retry-after-ms");
	if (ms !== null && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
	const after = headers.get("retry-after");
	if (!after) return undefined;
	const seconds = Number(after);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(after);
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function checkedDelay(delayMs: number, options: OpenAICodexResponsesOptions | undefined): number {
	const max = options?.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
	if (max > 0 && delayMs > max) {
		throw new RetryDelayTooLong(
			`Server requested ${Math.ceil(delayMs / 1000)}s retry delay (max: ${Math.ceil(max / 1000)}s)`,
		);
	}
	return delayMs;
}

function sleep(ms: number, options: OpenAICodexResponsesOptions | undefined): Promise<void> {
	const signal = options?.signal;
	return new Promise((resolve, reject) => {
		if (signal?.aborted) return reject(new ProviderError("Request was aborted"));
		const timer = setTimeout(resolve, ms);
		signal?.addEventListener(
			"abort",
			() => {
				clearTimeout(timer);
				reject(new ProviderError("Request was aborted"));
			},
			{ once: true },
		);
	});
}

/**
 * An HTTP error as one line, pi-ai's way: with an `error` object in a JSON body, a usage-limit or rate-limit
 * code (or status 429) gives the friendly usage-limit text (plan and minutes to the reset when given), else its
 * `message`; otherwise the body as sent, else the status text.
 */
export function describeCodexError(status: number, statusText: string, raw: string): string {
	let message: string = raw || statusText || "Request failed";
	let friendly: string | undefined;
	try {
		const error = JSON.parse(raw)?.error;
		if (error) {
			const code = error.code || error.type || "";
			if (/usage_limit_reached|usage_not_included|rate_limit_exceeded/i.test(code) || status === 429) {
				const plan = error.plan_type ? ` (${error.plan_type.toLowerCase()} plan)` : "";
				const minutes = error.resets_at
					? Math.max(0, Math.round((error.resets_at * 1000 - Date.now()) / 60000))
					: undefined;
				const when = minutes !== undefined ? ` Try again in ~${minutes} min.` : "";
				friendly = `You have hit your ChatGPT usage limit${plan}.${when}`.trim();
			}
			message = error.message || friendly || message;
		}
	} catch {
		// Not JSON (or an odd shape): the body as it came.
	}
	return String(friendly || message);
}

/** The SSE events with Codex's own error and terminal events turned into what the shared consumer expects. */
async function* codexEvents(body: ReadableStream<Uint8Array>, builder: MessageBuilder): AsyncGenerator<ResponsesEvent> {
	for await (const batch of readSseBatches(body))
		for (const sse of batch) {
			const data = sse.data.trim();
			if (data === "" || data === "[DONE]") continue;
			let event: any;
			try {
				event = JSON.parse(data);
			} catch (error) {
				throw new ProviderError(
					`Invalid Codex SSE JSON: ${error instanceof Error ? `${error.name}: ${error.message}` : error}`,
				);
			}
			const type = typeof event?.type === "string" ? event.type : undefined;
			if (!type) continue;
			if (type === "error") {
				const nested = event.error && typeof event.error === "object" ? event.error : undefined;
				const code =
					typeof event.code === "string" ? event.code : typeof nested?.code === "string" ? nested.code : undefined;
				const message =
					typeof event.message === "string"
						? event.message
						: typeof nested?.message === "string"
							? nested.message
							: undefined;
				throw new ProviderError(`Codex error: ${message || code || JSON.stringify(event)}`);
			}
			if (type === "response.failed")
				throw new ProviderError(event.response?.error?.message || "Codex response failed");
			if (type === "response.done" || type === "response.completed" || type === "response.incomplete") {
				const response = event.response;
				if (typeof response?.end_turn === "boolean") builder.message.endTurn = response.end_turn;
				const status = RESPONSE_STATUSES.has(response?.status) ? response.status : undefined;
				yield {
					type: "response.completed",
					event: { ...event, type: "response.completed", response: response && { ...response, status } },
				};
				return;
			}
			yield { type, event };
		}
}

/** pi-ai's stop rules for a finished Codex response (its usage, id and raw stop reason noted first). */
function endCodexResponse(
	builder: MessageBuilder,
	response: any,
	model: Model,
	options: OpenAICodexResponsesOptions | undefined,
): void {
	noteResponseEnd(builder, response);
	scaleForServiceTier(builder.message.usage, serviceTier(response.service_tier, options?.serviceTier), model);
	const status = response.status;
	const reason =
		typeof response.incomplete_details?.reason === "string" ? response.incomplete_details.reason : undefined;
	if (status === "incomplete") {
		if (reason === "max_output_tokens") builder.finish("length");
		else builder.fail(reason ? `Response incomplete: ${reason}` : "Response incomplete without a provider reason");
	} else if (status === "failed" || status === "cancelled") {
		builder.fail("An unknown error occurred");
	} else {
		builder.finish("stop");
	}
}

/** The tier the answer was billed at: a "default" answer to a flex or priority request counts as requested. */
function serviceTier(answered: unknown, requested: string | undefined): string | undefined {
	if (answered === "default" && (requested === "flex" || requested === "priority")) return requested;
	return typeof answered === "string" ? answered : requested;
}

function scaleForServiceTier(usage: Usage, tier: string | undefined, model: Model): void {
	const factor = tier === "flex" ? 0.5 : tier === "priority" ? (model.id === "gpt-5.5" ? 2.5 : 2) : 1;
	if (factor === 1) return;
	const cost = usage.cost;
	cost.input *= factor;
	cost.output *= factor;
	cost.cacheRead *= factor;
	cost.cacheWrite *= factor;
	cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
}
