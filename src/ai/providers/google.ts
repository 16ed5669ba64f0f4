/**
 * `google-generative-ai`: the Gemini API (`models/{id}:streamGenerateContent?alt=sse`) over fetch + SSE.
 * Thinking (thought parts and thought signatures), function calling (Gemini sends each call's arguments whole, and
 * usually no id: ids are generated), images, and Gemini's finish reasons. The stream has no end event: it is
 * complete when the body ends after a chunk with a finishReason. Tool schemas are sanitised in google-schema.ts.
 */
import { joinUrl, ProviderError, postJson } from "../http.ts";
import { readSseBatches } from "../sse.ts";
import { requestView } from "../transcript.ts";
import type {
	AssistantMessage,
	Context,
	ImageContent,
	Message,
	Model,
	SimpleStreamOptions,
	StreamOptions,
	ThinkingLevel,
	ToolResultMessage,
	UserMessage,
} from "../types.ts";
import { toolParameters } from "./google-schema.ts";
import type { MessageBuilder } from "./message-builder.ts";
import { parseEventJson, runProviderStream } from "./run.ts";
import { mapThinkingLevel, maxOutputTokens, thinkingBudget } from "./simple-options.ts";
import { transformMessages } from "./transform-messages.ts";

export interface GoogleThinking {
	enabled: boolean;
	/** `thinkingConfig.thinkingBudget` (Gemini 2.5); 0 turns thinking off where the model allows it. */
	budgetTokens?: number;
	/** `thinkingConfig.thinkingLevel` (Gemini 3: "LOW", "HIGH", ...); wins over `budgetTokens`. */
	level?: string;
}

export interface GoogleOptions extends StreamOptions {
	thinking?: GoogleThinking;
	/** "auto" / "none" / "any" (must call some tool), or one named tool that must be called. */
	toolChoice?: "auto" | "none" | "any" | { name: string };
}

const NAME = "Google";

export function streamGoogle(model: Model, context: Context, options?: GoogleOptions) {
	return runProviderStream(NAME, model, options, async (builder) => {
		const response = await postJson({
			providerName: NAME,
			url: joinUrl(model.baseUrl, `models/${model.id.replace(/^models\//, "")}:streamGenerateContent?alt=sse`),
			headers: buildHeaders(model, options),
			body: buildRequest(model, context, options),
			model,
			options,
		});
		await consume(response.body as ReadableStream<Uint8Array>, builder);
	});
}

export function streamSimpleGoogle(model: Model, context: Context, options?: SimpleStreamOptions) {
	const level = options?.reasoning;
	if (!level || !model.reasoning) {
		const off = model.thinkingLevelMap?.off;
		return streamGoogle(model, context, { ...options, thinking: { enabled: false, ...(off ? setting(off) : {}) } });
	}
	const thinking = simpleThinking(model, level, options);
	const budget = thinking.budgetTokens ?? 0;
	if (thinking.level || budget <= 0) return streamGoogle(model, context, { ...options, thinking });
	// maxOutputTokens covers the thoughts too: make room for the budget plus an answer, within the model's limit.
	const maxTokens = Math.min(model.maxTokens, Math.max(maxOutputTokens(model, options), budget + 4096));
	thinking.budgetTokens = Math.min(budget, Math.max(1024, maxTokens - 1024));
	return streamGoogle(model, context, { ...options, maxTokens, thinking });
}

/** The model's thinkingLevelMap decides level vs budget; without one, the level becomes a token budget. */
function simpleThinking(model: Model, level: ThinkingLevel, options: SimpleStreamOptions | undefined): GoogleThinking {
	const mapped = model.thinkingLevelMap?.[level];
	if (typeof mapped === "string") return { enabled: true, ...setting(mapped) };
	if (mapped === null) return { enabled: true }; // level unsupported by this model: the model's default
	if (usesThinkingLevels(model)) {
		return { enabled: true, level: (mapThinkingLevel(model, level) ?? "high").toUpperCase() };
	}
	return { enabled: true, budgetTokens: thinkingBudget(level, options?.thinkingBudgets) };
}

/** A thinkingLevelMap value: an integer is a token budget (Gemini 2.5), anything else a thinkingLevel (Gemini 3). */
function setting(value: string): Pick<GoogleThinking, "budgetTokens" | "level"> {
	return /^-?\d+$/.test(value) ? { budgetTokens: Number(value) } : { level: value };
}

function usesThinkingLevels(model: Model): boolean {
	return Object.entries(model.thinkingLevelMap ?? {}).some(
		([key, value]) => key !== "off" && typeof value === "string" && !/^-?\d+$/.test(value),
	);
}

function buildHeaders(model: Model, options: GoogleOptions | undefined): Record<string, string> {
	const headers: Record<string, string> = { accept: "text/event-stream" };
	if (options?.apiKey) headers["x-goog-api-key"] = options.apiKey;
	return { ...headers, ...model.headers, ...options?.headers };
}

type Part = Record<string, unknown>;
interface Content {
	role: "user" | "model";
	parts: Part[];
}

export function buildRequest(model: Model, full: Context, options: GoogleOptions | undefined) {
	const context = requestView(full);
	const body: Record<string, unknown> = {};
	if (context.systemPrompt) body.systemInstruction = { parts: [{ text: context.systemPrompt }] };
	body.contents = convertMessages(model, transformMessages(context.messages));
	if (context.tools && context.tools.length > 0) {
		const functionDeclarations = context.tools.map((tool) => {
			const parameters = toolParameters(tool.parameters);
			return { name: tool.name, description: tool.description, ...(parameters ? { parameters } : {}) };
		});
		body.tools = [{ functionDeclarations }];
		const choice = options?.toolChoice;
		if (choice) {
			body.toolConfig = {
				functionCallingConfig:
					typeof choice === "string"
						? { mode: choice.toUpperCase() }
						: { mode: "ANY", allowedFunctionNames: [choice.name] },
			};
		}
	}
	const generationConfig: Record<string, unknown> = { maxOutputTokens: options?.maxTokens ?? model.maxTokens };
	if (options?.temperature !== undefined) generationConfig.temperature = options.temperature;
	const thinking = options?.thinking;
	if (thinking) {
		const config: Record<string, unknown> = thinking.enabled ? { includeThoughts: true } : {};
		if (thinking.level) config.thinkingLevel = thinking.level;
		else if (thinking.budgetTokens !== undefined) config.thinkingBudget = thinking.budgetTokens;
		if (Object.keys(config).length > 0) generationConfig.thinkingConfig = config;
	}
	body.generationConfig = generationConfig;
	return body;
}

function convertMessages(model: Model, messages: Message[]): Content[] {
	const out: Content[] = [];
	let toolTurn: Content | undefined; // the user turn that collects consecutive tool results
	for (const message of messages) {
		if (message.role === "toolResult") {
			if (!toolTurn) {
				toolTurn = { role: "user", parts: [] };
				out.push(toolTurn);
			}
			toolTurn.parts.push(functionResponse(message));
			for (const block of message.content) if (block.type === "image") toolTurn.parts.push(inlineData(block));
			continue;
		}
		toolTurn = undefined;
		const parts = message.role === "user" ? userParts(message) : modelParts(model, message);
		if (parts.length > 0) out.push({ role: message.role === "user" ? "user" : "model", parts });
	}
	return out;
}

function inlineData(image: ImageContent): Part {
	return { inlineData: { mimeType: image.mimeType, data: image.data } };
}

function userParts(message: UserMessage): Part[] {
	if (typeof message.content === "string") return message.content === "" ? [] : [{ text: message.content }];
	const parts: Part[] = [];
	for (const block of message.content) {
		if (block.type === "image") parts.push(inlineData(block));
		else if (block.text !== "") parts.push({ text: block.text }); // Gemini rejects empty text parts
	}
	return parts;
}

function modelParts(model: Model, message: AssistantMessage): Part[] {
	// Signatures are only valid for the model that made them; thinking from elsewhere travels as plain text.
	const sameModel = message.api === model.api && message.provider === model.provider && message.model === model.id;
	const signed = (signature: string | undefined) => (sameModel && signature ? { thoughtSignature: signature } : {});
	const parts: Part[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			const extra = signed(block.textSignature);
			if (block.text.trim() !== "" || extra.thoughtSignature) parts.push({ text: block.text, ...extra });
		} else if (block.type === "thinking") {
			if (sameModel) {
				if (block.thinking !== "" || block.thinkingSignature) {
					parts.push({ text: block.thinking, thought: true, ...signed(block.thinkingSignature) });
				}
			} else if (block.thinking.trim() !== "") parts.push({ text: block.thinking });
		} else {
			parts.push({ functionCall: { name: block.name, args: block.arguments }, ...signed(block.thoughtSignature) });
		}
	}
	return parts;
}

function functionResponse(message: ToolResultMessage): Part {
	const text = message.content
		.filter((b) => b.type === "text")
		.map((b) => b.text)
		.join("\n");
	const hasImage = message.content.some((b) => b.type === "image");
	const value = text || (hasImage ? "(image attached)" : "(no output)");
	return {
		functionResponse: { name: message.toolName, response: message.isError ? { error: value } : { output: value } },
	};
}

// ---- response stream ---------------------------------------------------------------------------------------

/** Finish reasons that end the reply normally; every other one is an error (the content is kept). */
const FINISH_REASONS: Record<string, "stop" | "length"> = { STOP: "stop", MAX_TOKENS: "length" };
const FINISH_EXPLANATIONS: Record<string, string> = {
	SAFETY: "blocked by the safety filters",
	RECITATION: "blocked for reciting training data",
	LANGUAGE: "unsupported language",
	BLOCKLIST: "blocked by a terms blocklist",
	PROHIBITED_CONTENT: "blocked for prohibited content",
	SPII: "blocked for sensitive personal information",
	IMAGE_SAFETY: "image blocked by the safety filters",
	MALFORMED_FUNCTION_CALL: "the model produced a malformed function call",
	UNEXPECTED_TOOL_CALL: "the model called a tool that was not offered",
	TOO_MANY_TOOL_CALLS: "too many tool calls in a row",
	OTHER: "stopped for an unspecified reason",
};

let generatedIds = 0;

async function consume(body: ReadableStream<Uint8Array>, builder: MessageBuilder): Promise<void> {
	let finish: "stop" | "length" | undefined;
	for await (const batch of readSseBatches(body))
		for (const sse of batch) {
			const chunk = parseEventJson(NAME, sse.data);
			if (typeof chunk !== "object" || chunk === null) {
				throw new ProviderError(`${NAME} sent malformed stream data: ${sse.data.slice(0, 200)}`);
			}
			if (chunk.error) {
				const { code, message, status } =
					typeof chunk.error === "object" ? chunk.error : { message: String(chunk.error) };
				builder.fail(
					`${NAME} API error${code ? ` ${code}` : ""}: ${message ?? "stream error"}${status ? ` [${status}]` : ""}`,
				);
				return;
			}
			if (typeof chunk.responseId === "string") builder.message.responseId ??= chunk.responseId;
			applyUsage(builder, chunk.usageMetadata);
			builder.start();
			const candidate = chunk.candidates?.[0];
			for (const part of candidate?.content?.parts ?? []) if (!applyPart(builder, part)) return;
			const blocked = chunk.promptFeedback?.blockReason;
			if (blocked && !candidate) {
				const detail = chunk.promptFeedback.blockReasonMessage;
				builder.fail(`${NAME} blocked the prompt (blockReason ${blocked})${detail ? `: ${detail}` : ""}`);
				return;
			}
			const reason = candidate?.finishReason;
			if (typeof reason === "string" && reason !== "") builder.message.rawStopReason = reason;
			if (typeof reason === "string" && reason !== "FINISH_REASON_UNSPECIFIED") {
				finish = FINISH_REASONS[reason];
				if (!finish) {
					const why = FINISH_EXPLANATIONS[reason];
					const detail = candidate.finishMessage;
					builder.fail(
						`${NAME} ended the response with finishReason ${reason}${why ? ` (${why})` : ""}${detail ? `: ${detail}` : ""}`,
					);
					return;
				}
			}
		}
	// No finishReason: the connection was cut; the runner reports it.
	if (finish) builder.finish(finish);
}

/** One part of a candidate. Returns false when the message failed (tool-call arguments that are not an object). */
function applyPart(builder: MessageBuilder, part: any): boolean {
	if (typeof part !== "object" || part === null) return true;
	const signature = typeof part.thoughtSignature === "string" ? part.thoughtSignature : undefined;
	if (part.functionCall) {
		const call = part.functionCall;
		const name = typeof call.name === "string" ? call.name : "";
		builder.toolCall(toolCallId(builder, call.id, name), name, signature ? { thoughtSignature: signature } : {});
		// Gemini sends the arguments whole: one delta, then the call is complete.
		builder.toolArguments(JSON.stringify(call.args ?? {}));
		return builder.close();
	}
	if (typeof part.text !== "string" || (part.text === "" && !signature)) return true;
	if (part.thought === true) {
		builder.thinking(part.text);
		if (signature) builder.setThinkingSignature(signature);
	} else {
		builder.text(part.text, signature);
	}
	return true;
}

/** Gemini's id when it sends one (and it is unused in this message), else `<name>_<counter>_<random>`. */
function toolCallId(builder: MessageBuilder, id: unknown, name: string): string {
	const taken = (candidate: string) => builder.message.content.some((b) => b.type === "toolCall" && b.id === candidate);
	if (typeof id === "string" && id !== "" && !taken(id)) return id;
	return `${name || "call"}_${++generatedIds}_${Math.random().toString(36).slice(2, 10)}`;
}

function applyUsage(builder: MessageBuilder, usage: any): void {
	if (typeof usage !== "object" || usage === null) return;
	const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);
	// promptTokenCount includes the cached tokens; the thoughts are output too (and reported as reasoning).
	const cached = count(usage.cachedContentTokenCount);
	const thoughts = count(usage.thoughtsTokenCount);
	const total = count(usage.totalTokenCount);
	builder.reportedUsage({
		input: Math.max(0, count(usage.promptTokenCount) - cached),
		output: count(usage.candidatesTokenCount) + thoughts,
		cacheRead: cached,
		cacheWrite: 0,
		reasoning: thoughts,
		...(total > 0 ? { totalTokens: total } : {}),
	});
}
