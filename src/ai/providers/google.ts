/**
 * `google-generative-ai`: the Gemini API (`models/{id}:streamGenerateContent?alt=sse`) over fetch + SSE.
 * Thinking (thought parts and thought signatures), function calling (Gemini sends each call's arguments whole, and
 * usually no id: ids are generated), images, and Gemini's finish reasons. The stream has no end event: it is
 * complete when the body ends after a chunk with a finishReason.
 */
import { joinUrl, ProviderError, postJson } from "../http.ts";
import { clampThinkingLevel } from "../models/index.ts";
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
import type { MessageBuilder } from "./message-builder.ts";
import { parseEventJson, runProviderStream } from "./run.ts";
import { maxOutputTokens, supportedLevel } from "./simple-options.ts";
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

/**
 * pi-ai's rules: no level turns thinking off (budget 0, or the model's lowest level for level-based models); Gemini
 * 3 style models get a `thinkingLevel`, others a token budget (fixed tables for Gemini 2.5, else -1: dynamic).
 */
export function streamSimpleGoogle(model: Model, context: Context, options?: SimpleStreamOptions) {
	const base = { ...options, maxTokens: maxOutputTokens(model, options) };
	const level = options?.reasoning ? supportedLevel(model, options.reasoning) : undefined;
	if (!level) return streamGoogle(model, context, { ...base, thinking: { enabled: false } });
	const resolved = googleLevel(model, level);
	if (usesThinkingLevels(model)) {
		return streamGoogle(model, context, { ...base, thinking: { enabled: true, level: resolved.toUpperCase() } });
	}
	const budget = options?.thinkingBudgets?.[resolved] ?? googleBudget(model, resolved);
	return streamGoogle(model, context, { ...base, thinking: { enabled: true, budgetTokens: budget } });
}

type GoogleLevel = "minimal" | "low" | "medium" | "high";
const GOOGLE_LEVELS: readonly string[] = ["minimal", "low", "medium", "high"];

/** The model's map may rename a level (case-insensitively); xhigh/max read as high. */
function googleLevel(model: Model, level: ThinkingLevel): GoogleLevel {
	const mapped = model.thinkingLevelMap?.[level];
	const name = typeof mapped === "string" ? mapped.toLowerCase() : level;
	if (GOOGLE_LEVELS.includes(name)) return name as GoogleLevel;
	return level === "xhigh" || level === "max" ? "high" : (level as GoogleLevel);
}

/** Token budgets of the Gemini 2.5 families by level; other models think dynamically (-1). */
const BUDGET_TABLES: [string, Record<GoogleLevel, number>][] = [
	["2.5-pro", { minimal: 128, low: 2048, medium: 8192, high: 32768 }],
	["2.5-flash-lite", { minimal: 512, low: 2048, medium: 8192, high: 24576 }],
	["2.5-flash", { minimal: 128, low: 2048, medium: 8192, high: 24576 }],
];

function googleBudget(model: Model, level: GoogleLevel): number {
	return BUDGET_TABLES.find(([piece]) => model.id.includes(piece))?.[1][level] ?? -1;
}

/** Gemini 3 Pro/Flash, the flash "latest" aliases and Gemma 4 take `thinkingLevel` rather than a budget. */
function usesThinkingLevels(model: Model): boolean {
	const id = model.id.toLowerCase();
	return (
		/gemini-3(?:\.\d+)?-(?:pro|flash)/.test(id) ||
		id === "gemini-flash-latest" ||
		id === "gemini-flash-lite-latest" ||
		/gemma-?4/.test(id)
	);
}

/** Thinking off: budget 0, or for level-based models the lowest level they support. */
function disabledThinking(model: Model): Record<string, unknown> {
	if (!usesThinkingLevels(model)) return { thinkingBudget: 0 };
	const fallback = clampThinkingLevel(model, "off");
	if (fallback === "off") return { thinkingBudget: 0 };
	return { thinkingLevel: googleLevel(model, fallback).toUpperCase() };
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
	body.contents = convertMessages(model, transformMessages(context.messages, model));
	if (context.systemPrompt) body.systemInstruction = { parts: [{ text: context.systemPrompt }], role: "user" };
	if (context.tools && context.tools.length > 0) {
		// The JSON schema as it is (`parametersJsonSchema`), as pi-ai sends it.
		const functionDeclarations = context.tools.map((tool) => ({
			name: tool.name,
			description: tool.description,
			parametersJsonSchema: tool.parameters,
		}));
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
	const generationConfig: Record<string, unknown> = {};
	if (options?.temperature !== undefined) generationConfig.temperature = options.temperature;
	if (options?.maxTokens !== undefined) generationConfig.maxOutputTokens = options.maxTokens;
	const thinking = options?.thinking;
	if (thinking?.enabled && model.reasoning) {
		const config: Record<string, unknown> = { includeThoughts: true };
		if (thinking.level) config.thinkingLevel = thinking.level;
		else if (thinking.budgetTokens !== undefined) config.thinkingBudget = thinking.budgetTokens;
		generationConfig.thinkingConfig = config;
	} else if (thinking && !thinking.enabled && model.reasoning) {
		generationConfig.thinkingConfig = disabledThinking(model);
	}
	if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
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
