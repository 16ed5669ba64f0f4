/**
 * `bedrock-converse-stream`: Amazon Bedrock's ConverseStream (`POST <endpoint>/model/<id>/converse-stream`, the
 * reply a binary AWS event stream), signed with SigV4 or sent with a Bedrock bearer token — no vendor SDK.
 *
 * Where the request goes (pi-ai 0.87.1's rules): a model whose `baseUrl` is not a standard
 * `bedrock-runtime.<region>.amazonaws.com` endpoint (a proxy, a VPC endpoint) is always called there; a standard one
 * only while no region (option, `AWS_REGION`, `AWS_DEFAULT_REGION`) and no `AWS_PROFILE` is set. The signing region
 * is the one in an inference-profile ARN, else the configured one, else the endpoint's, else the profile's
 * `region`, else us-east-1.
 *
 * Failures read as pi words them: `Throttling error: …`, `Validation error: …`, `Model stream error: …`,
 * `Internal server error: …`, `Service unavailable: …`, other AWS exceptions as `<Name>: …`, which the retry and
 * context-overflow rules classify. No credential ever appears in a message.
 */

import { redactCredentials } from "../aws/credentials.ts";
import { EventStreamDecoder } from "../aws/event-stream.ts";
import { signRequest } from "../aws/sigv4.ts";
import { appendAssistantMessageDiagnostic } from "../diagnostics.ts";
import { createAssistantMessageEventStream } from "../event-stream.ts";
import { joinUrl } from "../http.ts";
import { fetchWithIdleTimeout } from "../idle-fetch.ts";
import type { AssistantMessage, AssistantMessageEventStream, Context, Model, SimpleStreamOptions } from "../types.ts";
import { emptyUsage } from "../usage.ts";
import { type BedrockAuth, resolveBedrockAuth } from "./bedrock-auth.ts";
import { type BedrockOptions, buildBedrockRequest } from "./bedrock-request.ts";
import { bedrockSimpleOptions } from "./bedrock-simple.ts";
import { BedrockEventMapper, BedrockStreamError } from "./bedrock-stream.ts";

export type { BedrockOptions, BedrockThinkingDisplay } from "./bedrock-request.ts";

const PREFIXES: Record<string, string> = {
	InternalServerException: "Internal server error",
	ModelStreamErrorException: "Model stream error",
	ValidationException: "Validation error",
	ThrottlingException: "Throttling error",
	ServiceUnavailableException: "Service unavailable",
};
const DATA_RETENTION_DOCS = "https://docs.aws.amazon.com/bedrock/latest/userguide/data-retention.html";
const MAX_ERROR_BODY = 4000;

export function streamBedrock(
	model: Model,
	context: Context,
	options: BedrockOptions = {},
): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const output: AssistantMessage = {
		role: "assistant",
		content: [],
		api: "bedrock-converse-stream",
		provider: model.provider,
		model: model.id,
		usage: emptyUsage(),
		stopReason: "pending",
		timestamp: Date.now(),
	};
	const mapper = new BedrockEventMapper(model, output, stream);
	void (async () => {
		let auth: BedrockAuth | undefined;
		let requestId: string | undefined;
		try {
			auth = await resolveBedrockAuth(model, options);
			let body: unknown = buildBedrockRequest(model, context, options);
			const replaced = await options.onPayload?.(body, model);
			if (replaced !== undefined) body = replaced;
			const response = await send(model, auth, body, options);
			requestId = response.headers.get("x-amzn-requestid") ?? undefined;
			const decoder = new EventStreamDecoder();
			const reader = (response.body as ReadableStream<Uint8Array>).getReader();
			for (;;) {
				let chunk: Awaited<ReturnType<typeof reader.read>>;
				try {
					chunk = await reader.read();
				} catch (error) {
					// The SDK's Node transport words a body cut by the abort signal just "aborted".
					if (options.signal?.aborted) throw new Error("aborted");
					throw error;
				}
				const { done, value } = chunk;
				if (done) break;
				for (const message of decoder.push(value)) mapper.handle(message);
			}
			decoder.end();
			if (options.signal?.aborted) throw new Error("Request was aborted");
			if (output.stopReason === "pending") throw new Error("Bedrock stream ended without a stop reason");
			if (output.stopReason === "error" || output.stopReason === "aborted") {
				throw new Error(output.errorMessage || "An unknown error occurred");
			}
			mapper.finish();
			stream.push({ type: "done", reason: output.stopReason, message: output });
		} catch (error) {
			mapper.finish();
			output.stopReason = options.signal?.aborted ? "aborted" : "error";
			output.errorMessage = redactCredentials(describe(error, options), auth?.credentials);
			if (auth?.bearerToken) output.errorMessage = output.errorMessage.split(auth.bearerToken).join("[redacted]");
			if (output.stopReason === "error") diagnose(output, error, requestId);
			stream.push({ type: "error", reason: output.stopReason, error: output });
		}
		stream.end();
	})();
	return stream;
}

export function streamSimpleBedrock(
	model: Model,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	return streamBedrock(model, context, bedrockSimpleOptions(model, context, options));
}

/** Attempts per request (the AWS SDK's standard retry strategy, which pi-ai's Bedrock client keeps). */
const MAX_ATTEMPTS = 3;
const THROTTLING = new Set([
	"ThrottlingException",
	"Throttling",
	"ThrottledException",
	"TooManyRequestsException",
	"RequestLimitExceeded",
	"ProvisionedThroughputExceededException",
	"RequestThrottled",
	"RequestThrottledException",
	"SlowDown",
	"PriorRequestNotComplete",
	"EC2ThrottledException",
	"BandwidthLimitExceeded",
	"LimitExceededException",
	"TransactionInProgressException",
]);
const TRANSIENT = new Set(["TimeoutError", "RequestTimeout", "RequestTimeoutException"]);

/** The SDK's rule: throttling and transient errors (and 5xx gateway failures) are worth another attempt. */
function retryable(error: BedrockStreamError): { throttling: boolean } | undefined {
	if (error.status === 429 || THROTTLING.has(error.name)) return { throttling: true };
	if (TRANSIENT.has(error.name) || [500, 502, 503, 504].includes(error.status ?? 0)) return { throttling: false };
	return undefined;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
	return new Promise((resolve) => {
		const timer = setTimeout(done, ms);
		function done() {
			clearTimeout(timer);
			signal?.removeEventListener("abort", done);
			resolve();
		}
		signal?.addEventListener("abort", done, { once: true });
	});
}

async function send(model: Model, auth: BedrockAuth, body: unknown, options: BedrockOptions): Promise<Response> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await sendOnce(model, auth, body, options);
		} catch (error) {
			// Transport failures (refused, reset) are transient too, as the SDK treats them.
			const kind =
				error instanceof BedrockStreamError
					? retryable(error)
					: (error as { name?: string })?.name === "AbortError" || (error as { name?: string })?.name === "TimeoutError"
						? undefined
						: { throttling: false };
			if (!kind || attempt >= MAX_ATTEMPTS || options.signal?.aborted) throw error;
			// Full jitter: a random share of base × 2^(attempt−1), capped at 20 s.
			const base = kind.throttling ? 500 : 100;
			await sleep(Math.floor(Math.random() * Math.min(20_000, base * 2 ** (attempt - 1))), options.signal);
			if (options.signal?.aborted) throw error;
		}
	}
}

async function sendOnce(model: Model, auth: BedrockAuth, body: unknown, options: BedrockOptions): Promise<Response> {
	const url = joinUrl(auth.endpoint, `model/${awsEscape(model.id)}/converse-stream`);
	const text = JSON.stringify(body);
	let headers: Record<string, string> = { "content-type": "application/json" };
	for (const [name, value] of Object.entries(options.headers ?? {})) {
		const lower = name.toLowerCase();
		if (value === null || value === undefined || lower === "host" || lower === "authorization") continue;
		if (lower.startsWith("x-amz-")) continue;
		headers[lower] = value;
	}
	if (auth.bearerToken) headers.authorization = `Bearer ${auth.bearerToken}`;
	else if (auth.credentials) {
		headers = await signRequest({
			method: "POST",
			url,
			headers,
			body: text,
			region: auth.region,
			service: "bedrock",
			credentials: auth.credentials,
		});
	}
	const signals: AbortSignal[] = [];
	if (options.signal) signals.push(options.signal);
	if (options.timeoutMs && options.timeoutMs > 0) signals.push(AbortSignal.timeout(options.timeoutMs));
	const signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
	const response = await fetchWithIdleTimeout(url, {
		method: "POST",
		headers,
		body: text,
		...(signal ? { signal } : {}),
	});
	if (options.onResponse) {
		const seen: Record<string, string> = {};
		response.headers.forEach((value, key) => {
			seen[key] = value;
		});
		await options.onResponse({ status: response.status, headers: seen }, model);
	}
	if (!response.ok) throw await httpError(response);
	if (!response.body) throw new Error("Bedrock response has no body");
	return response;
}

/** The model id as a path segment: every reserved character escaped (`:` → `%3A`, `/` → `%2F`). */
function awsEscape(value: string): string {
	return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A non-OK reply as AWS's error: its type from `x-amzn-errortype` or the body's `__type`/`code`. */
async function httpError(response: Response): Promise<BedrockStreamError> {
	const text = await response.text();
	let parsed: any;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = undefined;
	}
	const rawType =
		response.headers.get("x-amzn-errortype") ??
		(typeof parsed?.__type === "string" ? parsed.__type : undefined) ??
		(typeof parsed?.code === "string" ? parsed.code : undefined);
	const type = rawType?.split(":")[0]?.split("#").pop();
	const message =
		typeof parsed?.message === "string"
			? parsed.message
			: typeof parsed?.Message === "string"
				? parsed.Message
				: undefined;
	const requestId = response.headers.get("x-amzn-requestid") ?? undefined;
	if (type && message !== undefined) return new BedrockStreamError(type, message, true, response.status, requestId);
	const shown = text.trim();
	const clipped =
		shown.length > MAX_ERROR_BODY
			? `${shown.slice(0, MAX_ERROR_BODY)}... [truncated ${shown.length - MAX_ERROR_BODY} chars]`
			: shown;
	return new BedrockStreamError(
		type ?? "Unknown",
		clipped ? `${response.status}: ${clipped}` : `${response.status}: ${type ?? "UnknownError"}`,
		type !== undefined,
		response.status,
		requestId,
	);
}

function describe(error: unknown, options: BedrockOptions): string {
	let core: string;
	if (error instanceof BedrockStreamError) {
		core = error.message;
		const hint = /data retention mode/i.test(core)
			? ` See ${DATA_RETENTION_DOCS} for supported data retention modes.`
			: "";
		return error.modeled ? `${PREFIXES[error.name] ?? error.name}: ${core}${hint}` : `${core}${hint}`;
	}
	const e = error as { name?: string; message?: string };
	if (e?.name === "TimeoutError") core = `Bedrock request timed out after ${options.timeoutMs} ms`;
	// Aborted before the reply arrived: the SDK's transport says "Request aborted".
	else if (options.signal?.aborted && e?.name === "AbortError") core = "Request aborted";
	else if (error instanceof Error && (error as { code?: unknown }).code !== undefined) {
		const code = String((error as { code?: unknown }).code);
		core = `Bedrock connection error: ${error.message}${error.message.includes(code) ? "" : ` (${code})`}`;
	} else core = error instanceof Error ? error.message : JSON.stringify(error);
	const hint = /data retention mode/i.test(core)
		? ` See ${DATA_RETENTION_DOCS} for supported data retention modes.`
		: "";
	return `${core}${hint}`;
}

function diagnose(output: AssistantMessage, error: unknown, streamRequestId: string | undefined): void {
	const details: Record<string, unknown> = {};
	if (error instanceof BedrockStreamError) {
		if (error.status !== undefined) details.status = error.status;
		if (error.name.endsWith("Exception")) details.errorCode = error.name;
	}
	const requestId = (error instanceof BedrockStreamError ? error.requestId : undefined) ?? streamRequestId;
	const trimmed = requestId?.trim();
	if (trimmed && trimmed.length <= 200) details.requestId = trimmed;
	if (Object.keys(details).length === 0) return;
	appendAssistantMessageDiagnostic(output, { type: "bedrock_response_failure", timestamp: Date.now(), details });
}
