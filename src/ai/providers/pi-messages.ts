/**
 * `pi-messages`: pi's own message protocol, spoken by the Radius gateway (and any backend a models.json provider
 * points at with `"api": "pi-messages"`). One POST of `{ model, context, options }` to `<baseUrl>/messages`
 * (`?debug=1` with the `debug` option) with a bearer key; the reply is an SSE stream of serialised assistant-message
 * events ending in `done` or `error` (`pi-messages-events.ts`). What pi-ai 0.87.1 does for the same bytes:
 * - the context goes as the transcript (`{ messages }`, the prompt and tools as a leading system message), the
 *   backend converts it for the model; options carry temperature, maxTokens, reasoning, cacheRetention (the option,
 *   else "long" with `PI_CACHE_RETENTION=long`, else left to the backend), sessionId and toolChoice;
 * - usage and cost are the backend's, taken as sent;
 * - an HTTP error reads `<status> <statusText>: <error.message or body>[ (<error.code>)]` (the retry and overflow
 *   rules read it) and records a `pi_messages_response_failure` diagnostic;
 * - any failure, a stream without a terminal event included, ends with an error message of its own (no content),
 *   `aborted` when the caller's signal fired.
 */
import { appendAssistantMessageDiagnostic, createAssistantMessageDiagnostic } from "../diagnostics.ts";
import { retryAfterNote } from "../errors.ts";
import { createAssistantMessageEventStream } from "../event-stream.ts";
import { fetchWithIdleTimeout } from "../idle-fetch.ts";
import { readSseBatches } from "../sse.ts";
import { normalizeContext } from "../transcript.ts";
import type {
	AssistantMessageEventStream,
	CacheRetention,
	Context,
	Model,
	SimpleStreamOptions,
	StreamOptions,
	ThinkingLevel,
} from "../types.ts";
import { emptyAssistantMessage, PiMessagesAssembler, PiMessagesProtocolError } from "./pi-messages-events.ts";

export type { PiMessagesEvent, PiMessagesRewriteImpact } from "./pi-messages-events.ts";

export interface PiMessagesOptions extends StreamOptions {
	reasoning?: ThinkingLevel;
	toolChoice?: "auto" | "none" | "required" | { type: "function"; function: { name: string } };
	/** Ask the backend for debug metadata (e.g. routing response headers). */
	debug?: boolean;
	/** The fetch to use (default: the global one). */
	fetch?: typeof fetch;
	env?: Record<string, string | undefined>;
}

const MAX_DIAGNOSTIC_BODY = 8192;

/** A non-OK answer: its one-line message, the backend's error code, and what the diagnostic records. */
export class PiMessagesResponseError extends Error {
	override name = "PiMessagesResponseError";
	constructor(
		message: string,
		readonly code: string | undefined,
		readonly diagnosticDetails: Record<string, unknown>,
	) {
		super(message);
	}
}

export function streamPiMessages(
	model: Model,
	context: Context,
	options?: PiMessagesOptions,
): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	void run(stream, model, context, options).then(
		() => stream.end(),
		() => stream.end(),
	);
	return stream;
}

/** `streamSimple`: the reasoning level and tool choice go to the backend as given; it applies the model's rules. */
export function streamSimplePiMessages(
	model: Model,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	return streamPiMessages(model, context, options as PiMessagesOptions | undefined);
}

async function run(
	stream: ReturnType<typeof createAssistantMessageEventStream>,
	model: Model,
	context: Context,
	options: PiMessagesOptions | undefined,
): Promise<void> {
	const assembler = new PiMessagesAssembler(model);
	try {
		const apiKey = options?.apiKey;
		if (!apiKey) throw new Error(`No API key provided for provider "${model.provider}"`);
		const url = new URL(`${model.baseUrl.replace(/\/+$/, "")}/messages`);
		if (options?.debug) url.searchParams.set("debug", "1");
		let payload: unknown = {
			model: model.id,
			context: normalizeContext(context),
			options: {
				temperature: options?.temperature,
				maxTokens: options?.maxTokens,
				reasoning: options?.reasoning,
				cacheRetention: cacheRetention(options),
				sessionId: options?.sessionId,
				toolChoice: options?.toolChoice,
			},
		};
		const replaced = await options?.onPayload?.(payload, model);
		if (replaced !== undefined) payload = replaced;
		const headers: Record<string, string> = {
			authorization: `Bearer ${apiKey}`,
			accept: "text/event-stream",
			"content-type": "application/json",
		};
		for (const [name, value] of Object.entries(options?.headers ?? {})) {
			if (value !== null) headers[name] = value;
		}
		const doFetch = typeof options?.fetch === "function" ? options.fetch : fetch;
		const init: RequestInit = { method: "POST", headers, body: JSON.stringify(payload) };
		if (options?.signal) init.signal = options.signal;
		const response = await fetchWithIdleTimeout(url, init, doFetch);
		if (options?.onResponse) {
			const seen: Record<string, string> = {};
			response.headers.forEach((value, key) => {
				seen[key] = value;
			});
			await options.onResponse({ status: response.status, headers: seen }, model);
		}
		if (!response.ok) throw responseError(model, url, response, await response.text());
		if (!response.body) throw new Error(`${model.provider} response has no body`);
		let ended = false;
		read: for await (const batch of readSseBatches(response.body)) {
			for (const sse of batch) {
				const data = sse.data.trim();
				if (data === "" || data === "[DONE]") continue;
				const event = assembler.accept(parseEvent(data));
				stream.push(event);
				if (event.type === "done" || event.type === "error") {
					ended = true;
					break read;
				}
			}
		}
		if (!ended) throw new Error(`${model.provider} stream ended without a terminal event`);
		// Whatever the backend sends after its terminal event is not read.
		await response.body.cancel().catch(() => {});
	} catch (error) {
		const aborted = options?.signal?.aborted ?? false;
		const message = emptyAssistantMessage(model);
		message.stopReason = aborted ? "aborted" : "error";
		message.errorMessage = error instanceof Error ? error.message : String(error);
		if (!aborted && error instanceof PiMessagesResponseError) {
			appendAssistantMessageDiagnostic(
				message,
				createAssistantMessageDiagnostic("pi_messages_response_failure", error, error.diagnosticDetails),
			);
		}
		stream.push({ type: "error", reason: aborted ? "aborted" : "error", error: message });
	}
}

function parseEvent(data: string): unknown {
	try {
		return JSON.parse(data);
	} catch {
		throw new PiMessagesProtocolError(`pi-messages sent malformed event data: ${data.slice(0, 200)}`);
	}
}

/** The option, else "long" when `PI_CACHE_RETENTION=long`; otherwise unset, so the backend's default applies. */
function cacheRetention(options: PiMessagesOptions | undefined): CacheRetention | undefined {
	if (options?.cacheRetention) return options.cacheRetention;
	const value = options?.env?.PI_CACHE_RETENTION || process.env.PI_CACHE_RETENTION;
	return value === "long" ? "long" : undefined;
}

function responseError(model: Model, url: URL, response: Response, body: string): PiMessagesResponseError {
	const error = errorObject(body);
	const text = typeof error?.message === "string" ? error.message : undefined;
	const code = typeof error?.code === "string" ? error.code : undefined;
	const message = `${response.status} ${response.statusText}: ${text ?? body}${code ? ` (${code})` : ""}${retryAfterNote(response.headers)}`;
	return new PiMessagesResponseError(message, code, {
		version: 1,
		provider: model.provider,
		model: model.id,
		url: url.toString(),
		status: response.status,
		statusText: response.statusText,
		...(error === undefined ? {} : { error }),
		...(error === undefined
			? { body: body.length > MAX_DIAGNOSTIC_BODY ? `${body.slice(0, MAX_DIAGNOSTIC_BODY)}…` : body }
			: {}),
		timestampMs: Date.now(),
	});
}

/** The `error` object of a JSON error body (`{ "error": { message, code, … } }`), if that is what came. */
function errorObject(body: string): Record<string, unknown> | undefined {
	try {
		const parsed = JSON.parse(body);
		const error = parsed?.error;
		return error && typeof error === "object" && !Array.isArray(error) ? error : undefined;
	} catch {
		return undefined;
	}
}
