/**
 * What an `openai-codex-responses` request is made of, as pi-ai 0.87.1 sends it:
 * - URL: the base (model `baseUrl`, default `https://chatgpt.com/backend-api`) + `/codex/responses`, unless the
 *   base already ends in `/codex` (+ `/responses`) or `/codex/responses`;
 * - headers: the model's, then the caller's (`null` removes one), then, always winning: `authorization: Bearer
 *   <token>`, `chatgpt-account-id` (the `chatgpt_account_id` claim under `https://api.openai.com/auth` in the
 *   token's JWT payload), `originator: pi`, `user-agent: pi (<platform> <release>; <arch>)`, `openai-beta:
 *   responses=experimental`, `accept: text/event-stream`, `content-type: application/json`, and with a session id
 *   (unless cache retention is "none") `session-id` and `x-client-request-id`;
 * - body: `model` (the id as is), `store: false`, `stream: true`, the system prompt as `instructions` (default
 *   "You are a helpful assistant."; it is not an input item), the conversation as `openai-responses` input items,
 *   `text.verbosity` (default "low"), `include: ["reasoning.encrypted_content"]` (reasoning is replayed from its
 *   encrypted content), `prompt_cache_key` (the session id, at most 64 characters), `tool_choice` (default
 *   "auto"), `parallel_tool_calls: true`, then `temperature`, `service_tier`, `tools` (`strict: null` unless the
 *   model's compat turns strict mode off) and `reasoning` when they apply. There is no output-token limit.
 */
import { os } from "../../util/index.ts";
import { ProviderError } from "../http.ts";
import { requestView } from "../transcript.ts";
import type { Context, Model, ThinkingLevel } from "../types.ts";
import type { OpenAICodexResponsesOptions } from "./openai-codex.ts";
import { convertMessages, RESPONSES_ID_PROVIDERS } from "./openai-responses-input.ts";

export const DEFAULT_CODEX_BASE_URL = "https://chatgpt.com/backend-api";
const AUTH_CLAIM = "https://api.openai.com/auth";
const DEFAULT_INSTRUCTIONS = "You are a helpful assistant.";
const PROMPT_CACHE_KEY_MAX = 64;

export function codexUrl(baseUrl: string | undefined): string {
	const base = (baseUrl?.trim() ? baseUrl : DEFAULT_CODEX_BASE_URL).replace(/\/+$/, "");
	if (base.endsWith("/codex/responses")) return base;
	if (base.endsWith("/codex")) return `${base}/responses`;
	return `${base}/codex/responses`;
}

/** The ChatGPT account the access token belongs to; the token itself never appears in the error. */
export function accountIdFromToken(token: string): string {
	try {
		const parts = token.split(".");
		if (parts.length !== 3) throw new Error("not a JWT");
		const payload = JSON.parse(decodeBase64Url(parts[1] as string));
		const accountId = payload?.[AUTH_CLAIM]?.chatgpt_account_id;
		if (!accountId) throw new Error("no account id claim");
		return String(accountId);
	} catch {
		throw new ProviderError("Failed to extract accountId from token");
	}
}

/** Base64 or base64url, padded or not, as UTF-8 text. */
function decodeBase64Url(text: string): string {
	const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
	const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
	const binary = atob(padded);
	const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
	return new TextDecoder().decode(bytes);
}

/** The session id used for the prompt cache and the session headers (undefined with cache retention "none"). */
export function codexSessionId(options: OpenAICodexResponsesOptions | undefined): string | undefined {
	const id = options?.cacheRetention === "none" ? undefined : options?.sessionId;
	if (id === undefined) return undefined;
	const chars = Array.from(id);
	return chars.length <= PROMPT_CACHE_KEY_MAX ? id : chars.slice(0, PROMPT_CACHE_KEY_MAX).join("");
}

export function codexUserAgent(): string {
	const { arch, platform, release } = os();
	return `pi (${platform()} ${release()}; ${arch()})`;
}

export function codexHeaders(
	model: Model,
	options: OpenAICodexResponsesOptions | undefined,
	accountId: string,
	token: string,
	sessionId: string | undefined,
): Headers {
	const headers = new Headers(model.headers);
	for (const [key, value] of Object.entries(options?.headers ?? {})) {
		if (value === null) headers.delete(key);
		else headers.set(key, value);
	}
	headers.set("authorization", `Bearer ${token}`);
	headers.set("chatgpt-account-id", accountId);
	headers.set("originator", "pi");
	headers.set("user-agent", codexUserAgent());
	headers.set("openai-beta", "responses=experimental");
	headers.set("accept", "text/event-stream");
	headers.set("content-type", "application/json");
	if (sessionId) {
		headers.set("session-id", sessionId);
		headers.set("x-client-request-id", sessionId);
	}
	return headers;
}

type Item = Record<string, unknown>;

export function buildCodexRequest(
	model: Model,
	full: Context,
	options: OpenAICodexResponsesOptions | undefined,
	sessionId: string | undefined,
): Record<string, unknown> {
	const context = requestView(full);
	const body: Record<string, unknown> = {
		model: model.id,
		store: false,
		stream: true,
		instructions: context.systemPrompt || DEFAULT_INSTRUCTIONS,
		input: convertMessages(model, context.messages, RESPONSES_ID_PROVIDERS),
		text: { verbosity: options?.textVerbosity || "low" },
		include: ["reasoning.encrypted_content"],
	};
	if (sessionId !== undefined) body.prompt_cache_key = sessionId;
	body.tool_choice = options?.toolChoice ?? "auto";
	body.parallel_tool_calls = true;
	if (options?.temperature !== undefined) body.temperature = options.temperature;
	if (options?.serviceTier !== undefined) body.service_tier = options.serviceTier;
	if (context.tools && context.tools.length > 0) {
		const strict = model.compat?.supportsStrictMode !== false;
		body.tools = context.tools.map(
			(tool): Item => ({
				type: "function",
				name: tool.name,
				description: tool.description,
				parameters: tool.parameters,
				...(strict ? { strict: null } : {}),
			}),
		);
	}
	const reasoning = reasoningField(model, options);
	if (reasoning) body.reasoning = reasoning;
	return body;
}

/**
 * A requested level maps through the model's `thinkingLevelMap` (a level it maps to `null` is sent by name; "none"
 * goes through its "off", and an "off" of `null` leaves the field out); without a level a reasoning model gets
 * its "off" effort (default "none") unless that is null.
 */
function reasoningField(model: Model, options: OpenAICodexResponsesOptions | undefined): Item | undefined {
	const map = model.thinkingLevelMap;
	const level = options?.reasoningEffort;
	if (level !== undefined) {
		const effort =
			level === "none" ? (map?.off === undefined ? "none" : map.off) : (map?.[level as ThinkingLevel] ?? level);
		if (effort === null) return undefined;
		return { effort, summary: options?.reasoningSummary ?? "auto" };
	}
	if (model.reasoning && map?.off !== null) return { effort: map?.off ?? "none" };
	return undefined;
}
