/**
 * `openai-responses`: the OpenAI Responses API (`POST {baseUrl}/responses`) over fetch + SSE, stateless
 * (`store: false`): the whole conversation is sent as input items every turn.
 *
 * Ids and replay (see openai-responses-stream.ts for the receiving side):
 * - A tool call's id is `"<call_id>|<item_id>"` (e.g. `call_abc|fc_123`): `call_id` pairs the call with its
 *   `function_call_output`, the item id identifies the output item. Ids without `|` (other providers) are a
 *   bare call id. Tool results carry the same combined id; only the `call_id` part goes back in them.
 * - A reasoning item's JSON (id, summary, `encrypted_content`) is kept whole in `thinkingSignature`, and a message
 *   item's id in `textSignature`. When the history comes from this same model (api, provider and model id), the
 *   reasoning items are sent back as received and the message/function_call items keep their ids, so the model
 *   continues its own chain of thought. Anything else is sent without ids and without reasoning items (foreign
 *   thinking becomes assistant text), since the server cannot pair ids it never issued.
 */
import { joinUrl, postJson } from "../http.ts";
import { requestView } from "../transcript.ts";
import type {
	AssistantMessage,
	Context,
	ImageContent,
	Message,
	Model,
	SimpleStreamOptions,
	StreamOptions,
	TextContent,
	ThinkingLevel,
	ToolResultMessage,
} from "../types.ts";
import { consumeResponsesStream } from "./openai-responses-stream.ts";
import { runProviderStream } from "./run.ts";
import { maxOutputTokens, supportedLevel } from "./simple-options.ts";
import { transformMessages } from "./transform-messages.ts";

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
			headers: buildHeaders(model, options),
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
export function streamSimpleOpenAIResponses(model: Model, context: Context, options?: SimpleStreamOptions) {
	const level = options?.reasoning ? supportedLevel(model, options.reasoning) : undefined;
	return streamOpenAIResponses(model, context, {
		...options,
		maxTokens: maxOutputTokens(model, options),
		...(level ? { reasoningEffort: level } : {}),
	});
}

function buildHeaders(model: Model, options: OpenAIResponsesOptions | undefined): Record<string, string> {
	const headers: Record<string, string> = { accept: "text/event-stream" };
	if (options?.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
	if (options?.sessionId && model.compat?.sendSessionIdHeader) headers.session_id = options.sessionId;
	return { ...headers, ...model.headers, ...options?.headers };
}

/** OpenAI Responses rejects a `max_output_tokens` below 16. */
const MIN_OUTPUT_TOKENS = 16;
const PROMPT_CACHE_KEY_MAX = 64;

export function buildRequest(model: Model, full: Context, options: OpenAIResponsesOptions | undefined) {
	const context = requestView(full);
	const compat = model.compat ?? {};
	const input: Item[] = [];
	if (context.systemPrompt) {
		const developer = model.reasoning && compat.supportsDeveloperRole !== false;
		input.push({ role: developer ? "developer" : "system", content: context.systemPrompt });
	}
	input.push(...convertMessages(model, transformMessages(context.messages, model)));
	const cache = options?.cacheRetention ?? "short";
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

export function convertMessages(model: Model, messages: Message[]): Item[] {
	const items: Item[] = [];
	let pendingImages: ImageContent[] = []; // images of consecutive tool results, sent after the last of them
	const flushImages = () => {
		if (pendingImages.length === 0) return;
		const content = [
			{ type: "input_text", text: "Images returned by the tool call(s) above:" },
			...pendingImages.map((image) => imagePart(model, image)),
		];
		items.push({ role: "user", content });
		pendingImages = [];
	};
	for (const message of messages) {
		if (message.role !== "toolResult") flushImages();
		if (message.role === "user") {
			const content =
				typeof message.content === "string"
					? [textPart(message.content)]
					: message.content.map((b) => (b.type === "text" ? textPart(b.text) : imagePart(model, b)));
			if (content.length > 0) items.push({ role: "user", content });
		} else if (message.role === "assistant") {
			items.push(...assistantItems(model, message));
		} else {
			items.push(toolResultItem(message));
			pendingImages.push(...message.content.filter((b): b is ImageContent => b.type === "image"));
		}
	}
	flushImages();
	return items;
}

function textPart(text: string): Item {
	return { type: "input_text", text };
}

function imagePart(model: Model, image: ImageContent): Item {
	if (!model.input.includes("image")) return textPart("(image omitted: this model does not accept images)");
	return { type: "input_image", detail: "auto", image_url: `data:${image.mimeType};base64,${image.data}` };
}

function isSameModel(model: Model, message: AssistantMessage): boolean {
	return message.api === model.api && message.provider === model.provider && message.model === model.id;
}

/** A stored reasoning item that can be sent back: it needs its encrypted content. */
function replayableReasoning(signature: string | undefined): Item | undefined {
	if (!signature) return undefined;
	try {
		const item = JSON.parse(signature);
		if (item && typeof item === "object" && item.type === "reasoning" && item.encrypted_content) return item;
	} catch {
		// Not JSON: a bare encrypted_content string.
		return { type: "reasoning", summary: [], encrypted_content: signature };
	}
	return undefined;
}

function assistantItems(model: Model, message: AssistantMessage): Item[] {
	// Ids are only meaningful to the model that issued them, and only if its reasoning can go back with them.
	const sameModel = isSameModel(model, message);
	const withIds =
		sameModel &&
		message.content.every(
			(b) => b.type !== "thinking" || !b.thinkingSignature || replayableReasoning(b.thinkingSignature),
		);
	const items: Item[] = [];
	for (const block of message.content) {
		if (block.type === "thinking") {
			const reasoning = withIds ? replayableReasoning(block.thinkingSignature) : undefined;
			if (reasoning) items.push(reasoning);
			else if (!sameModel && block.thinking.trim() !== "") items.push(outputMessage(block.thinking, undefined));
		} else if (block.type === "text") {
			if (block.text.trim() === "") continue;
			const signed = textSignatureId(block.textSignature);
			const id = withIds && signed?.startsWith("msg_") ? signed : undefined;
			items.push(outputMessage(block.text, id));
		} else {
			const { callId, itemId } = splitToolCallId(block.id);
			items.push({
				type: "function_call",
				...(withIds && itemId?.startsWith("fc") ? { id: itemId } : {}),
				call_id: callId,
				name: block.name,
				arguments: JSON.stringify(block.arguments ?? {}),
			});
		}
	}
	return items;
}

/**
 * The message item id a text block was signed with: pi-ai writes `{"v":1,"id":…}` (with the item's `phase` when it
 * has one); older sessions hold the bare id.
 */
function textSignatureId(signature: string | undefined): string | undefined {
	if (!signature) return undefined;
	if (signature.startsWith("{")) {
		try {
			const parsed = JSON.parse(signature) as { v?: unknown; id?: unknown };
			if (parsed.v === 1 && typeof parsed.id === "string") return parsed.id;
		} catch {
			// not JSON: a bare id after all
		}
	}
	return signature;
}

function outputMessage(text: string, id: string | undefined): Item {
	return {
		type: "message",
		role: "assistant",
		...(id ? { id } : {}),
		status: "completed",
		content: [{ type: "output_text", text, annotations: [] }],
	};
}

function toolResultItem(message: ToolResultMessage): Item {
	const text = message.content
		.filter((b): b is TextContent => b.type === "text")
		.map((b) => b.text)
		.join("\n");
	const hasImages = message.content.some((b) => b.type === "image");
	return {
		type: "function_call_output",
		call_id: splitToolCallId(message.toolCallId).callId,
		output: text !== "" ? text : hasImages ? "(image attached below)" : "(no output)",
	};
}

/** `"call|item"` → both parts; a foreign id is a bare call id, restricted to the characters OpenAI accepts. */
export function splitToolCallId(id: string): { callId: string; itemId: string | undefined } {
	const bar = id.indexOf("|");
	const callId = bar === -1 ? id : id.slice(0, bar);
	const itemId = bar === -1 ? undefined : id.slice(bar + 1);
	return { callId: callId.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64), itemId: itemId || undefined };
}
