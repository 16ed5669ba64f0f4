/**
 * `openai-responses`: the OpenAI Responses API (`POST {baseUrl}/responses`) over fetch + SSE, stateless
 * (`store: false`): the whole conversation is sent as input items every turn.
 *
 * Ids and replay (see openai-responses-stream.ts for the receiving side, openai-responses-input.ts for the rules):
 * - A tool call's id is `"<call_id>|<item_id>"` (e.g. `call_abc|fc_123`): `call_id` pairs the call with its
 *   `function_call_output`, the item id identifies the output item. Tool results carry the same combined id; only
 *   the `call_id` part goes back in them.
 * - A reasoning item's JSON (id, summary, `encrypted_content`) is kept whole in `thinkingSignature`, and a message
 *   item's id in `textSignature`; the same model gets them back as received.
 */
import { joinUrl, postJson } from "../http.ts";
import { requestView } from "../transcript.ts";
import type { Context, Model, SimpleStreamOptions, StreamOptions, ThinkingLevel } from "../types.ts";
import { copilotRequestHeaders } from "./github-copilot-headers.ts";
import { convertMessages } from "./openai-responses-input.ts";
import { consumeResponsesStream } from "./openai-responses-stream.ts";
import { runProviderStream } from "./run.ts";
import { cacheRetention, maxOutputTokens, supportedLevel } from "./simple-options.ts";

export interface OpenAIResponsesOptions extends StreamOptions {
	/** The reasoning level (the model's thinkingLevelMap maps it to `reasoning.effort`); unset = the "off" effort. */
	reasoningEffort?: "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | (string & {});
	/** `reasoning.summary` (default "auto"). */
	reasoningSummary?: "auto" | "concise" | "detailed" | null;
	toolChoice?: "auto" | "none" | "required" | { type: "function"; name: string };
}

const NAME = "OpenAI";

export function streamOpenAIResponses(model: Model, context: Context, options?: OpenAIResponsesOptions) {
	return runProviderStream(NAME, model, options, async (builder) => {
		const response = await postJson({
			providerName: NAME,
			url: joinUrl(model.baseUrl, "responses"),
			headers: buildHeaders(model, options, copilotRequestHeaders(model, context.messages)),
			body: buildRequest(model, context, options),
			model,
			options,
		});
		await consumeResponsesStream(NAME, response.body as ReadableStream<Uint8Array>, builder);
	});
}

/**
 * The unified reasoning level, clamped to what the model supports, becomes `reasoning.effort` (the model's
 * `thinkingLevelMap` maps it). Without a level a reasoning model is told its map's "off" value, else "none".
 */
export function streamSimpleOpenAIResponses(
	model: Model,
	context: Context,
	options?: SimpleStreamOptions,
	send: typeof streamOpenAIResponses = streamOpenAIResponses,
) {
	const level = options?.reasoning ? supportedLevel(model, options.reasoning) : undefined;
	return send(model, context, {
		...options,
		maxTokens: maxOutputTokens(model, context, options),
		...(level ? { reasoningEffort: level } : {}),
	});
}

function buildHeaders(
	model: Model,
	options: OpenAIResponsesOptions | undefined,
	perRequest: Record<string, string>,
): Record<string, string> {
	const headers: Record<string, string> = { accept: "text/event-stream" };
	if (options?.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
	if (options?.sessionId && model.compat?.sendSessionIdHeader) headers.session_id = options.sessionId;
	return { ...headers, ...model.headers, ...perRequest, ...options?.headers };
}

/** OpenAI Responses rejects a `max_output_tokens` below 16. */
const MIN_OUTPUT_TOKENS = 16;
const PROMPT_CACHE_KEY_MAX = 64;

/** `idProviders` (see `convertMessages`) lets a variant of the API (Azure) keep its own providers' ids. */
export function buildRequest(
	model: Model,
	full: Context,
	options: OpenAIResponsesOptions | undefined,
	idProviders?: ReadonlySet<string>,
) {
	const context = requestView(full);
	const compat = model.compat ?? {};
	const input: Item[] = [];
	if (context.systemPrompt) {
		const developer = model.reasoning && compat.supportsDeveloperRole !== false;
		input.push({ role: developer ? "developer" : "system", content: context.systemPrompt });
	}
	input.push(...convertMessages(model, context.messages, idProviders));
	const cache = cacheRetention(options);
	const body: Record<string, unknown> = { model: model.id, input, stream: true };
	if (cache !== "none" && options?.sessionId) {
		body.prompt_cache_key = Array.from(options.sessionId).slice(0, PROMPT_CACHE_KEY_MAX).join("");
	}
	if (cache === "long" && compat.supportsLongCacheRetention !== false) body.prompt_cache_retention = "24h";
	body.store = false;
	if (options?.maxTokens && compat.supportsMaxOutputTokens !== false) {
		body.max_output_tokens = Math.max(options.maxTokens, MIN_OUTPUT_TOKENS);
	}
	if (options?.temperature !== undefined) body.temperature = options.temperature;
	if (context.tools && context.tools.length > 0) {
		// `strict` goes out only to servers whose compat says they understand it (pi-ai's default: not).
		body.tools = context.tools.map((tool) => ({
			type: "function",
			name: tool.name,
			description: tool.description,
			parameters: tool.parameters,
			...(compat.supportsStrictMode === true ? { strict: false } : {}),
		}));
	}
	if (options?.toolChoice !== undefined) body.tool_choice = options.toolChoice;
	if (model.reasoning) {
		const level = options?.reasoningEffort;
		if (level || options?.reasoningSummary) {
			const mapped = level ? model.thinkingLevelMap?.[level as ThinkingLevel] : undefined;
			body.reasoning = { effort: level ? (mapped ?? level) : "medium", summary: options?.reasoningSummary || "auto" };
			// Reasoning is only replayable with its encrypted content (nothing is stored server-side).
			body.include = ["reasoning.encrypted_content"];
		} else if (model.provider !== "github-copilot" && model.thinkingLevelMap?.off !== null) {
			body.reasoning = { effort: model.thinkingLevelMap?.off ?? "none" };
		}
		if (model.provider === "xai") body.include = ["reasoning.encrypted_content"];
	}
	return body;
}

type Item = Record<string, unknown>;
