/**
 * `openai-codex-responses`: OpenAI's Responses API as the ChatGPT backend serves it to Codex clients, used with a
 * ChatGPT (Plus/Pro) login: `apiKey` is the OAuth access token. The wire format is the `openai-responses` one;
 * what differs (URL, headers, request fields, error texts, stop rules) lives in the modules this one loads on the
 * first request, so a start-up that never talks to Codex loads none of it:
 * - openai-codex-request.ts: the URL, the headers (account id from the token), the request body;
 * - openai-codex-responses.ts: sending (zstd body, retries, header timeout), the event mapping, error texts.
 *
 * Transport: server-sent events only. pi-ai 0.87.1 first tries a WebSocket (`transport` "auto", "websocket",
 * "websocket-cached") and falls back to the same SSE request; here every transport value sends the SSE request.
 */
import { clampThinkingLevel } from "../models/index.ts";
import type { Context, Model, SimpleStreamOptions, StreamOptions } from "../types.ts";
import { runProviderStream } from "./run.ts";

export interface OpenAICodexResponsesOptions extends StreamOptions {
	/** A reasoning level (the model's thinkingLevelMap maps it to `reasoning.effort`); unset = the "off" effort. */
	reasoningEffort?: "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max" | (string & {});
	/** `reasoning.summary` (default "auto"). */
	reasoningSummary?: "auto" | "concise" | "detailed" | null;
	/** `text.verbosity` (default "low"). */
	textVerbosity?: "low" | "medium" | "high";
	/** `service_tier`; "flex" and "priority" also scale the reported cost as the tier is billed. */
	serviceTier?: string;
	toolChoice?: "auto" | "none" | "required" | { type: "function"; name: string };
	/** Accepted for pi-ai compatibility; the request always goes over SSE (see the module comment). */
	transport?: "auto" | "sse" | "websocket" | "websocket-cached";
	/** The fetch to use (default: the global one). */
	fetch?: typeof fetch;
}

export const OPENAI_CODEX_NAME = "OpenAI Codex";

export function streamOpenAICodexResponses(model: Model, context: Context, options?: OpenAICodexResponsesOptions) {
	return runProviderStream(OPENAI_CODEX_NAME, model, options, async (builder) => {
		const { sendCodexRequest } = await import("./openai-codex-responses.ts");
		await sendCodexRequest(model, context, options, builder);
	});
}

/** Options `streamSimple` passes on (as pi-ai: no verbosity or service tier; those need `stream`). */
const SIMPLE_KEYS = [
	"temperature",
	"signal",
	"apiKey",
	"fetch",
	"transport",
	"cacheRetention",
	"sessionId",
	"headers",
	"onPayload",
	"onHeaders",
	"onResponse",
	"timeoutMs",
	"websocketConnectTimeoutMs",
	"maxRetries",
	"maxRetryDelayMs",
	"metadata",
	"env",
	"toolChoice",
] as const;

/**
 * The unified options: the reasoning level, clamped to what the model supports ("off" = none), becomes
 * `reasoningEffort`. Without an access token it throws at once, as pi-ai does.
 */
export function streamSimpleOpenAICodexResponses(model: Model, context: Context, options?: SimpleStreamOptions) {
	if (!options?.apiKey) throw new Error(`No API key for provider: ${model.provider}`);
	const passed: Record<string, unknown> = {};
	for (const key of SIMPLE_KEYS) if (options[key] !== undefined) passed[key] = options[key];
	const level = options.reasoning ? clampThinkingLevel(model, options.reasoning) : undefined;
	if (level && level !== "off") passed.reasoningEffort = level;
	return streamOpenAICodexResponses(model, context, passed as OpenAICodexResponsesOptions);
}
