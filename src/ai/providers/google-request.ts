/**
 * Request body of `google-generative-ai`, as pi-ai 0.87.1 sends it through Google's SDK: `systemInstruction` with
 * role "user", tools as `parametersJsonSchema` (the schema untouched), pi's thinking settings per model family, and
 * its conversion of the conversation (thought signatures kept only for the same provider and model and only when
 * valid base64; function call ids for models that need them; tool-result images inside the function response
 * where the model takes them there, else in a following user turn).
 */
import { clampThinkingLevel } from "../models/index.ts";
import { requestView } from "../transcript.ts";
import type {
	AssistantMessage,
	Context,
	ImageContent,
	Message,
	Model,
	StreamOptions,
	ThinkingLevel,
	ToolResultMessage,
} from "../types.ts";
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

export type GoogleLevel = "minimal" | "low" | "medium" | "high";
const GOOGLE_LEVELS: readonly string[] = ["minimal", "low", "medium", "high"];

/** The model's map may rename a level (case-insensitively); xhigh/max read as high. */
export function googleLevel(model: Model, level: ThinkingLevel): GoogleLevel {
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

/** "gemini" is pi's table for the Gemini API; pi's Vertex table has no Flash-Lite row (it gets Flash's budgets). */
export type GoogleBudgetTable = "gemini" | "vertex";

export function googleBudget(model: Model, level: GoogleLevel, table: GoogleBudgetTable = "gemini"): number {
	const rows = table === "vertex" ? BUDGET_TABLES.filter(([piece]) => piece !== "2.5-flash-lite") : BUDGET_TABLES;
	return rows.find(([piece]) => model.id.includes(piece))?.[1][level] ?? -1;
}

/** Gemini 3 Pro/Flash, the flash "latest" aliases and Gemma 4 take `thinkingLevel` rather than a budget. */
export function usesThinkingLevels(model: Model): boolean {
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
	// Always present, possibly empty, as Google's SDK sends it for pi-ai.
	body.generationConfig = generationConfig;
	return body;
}

function convertMessages(model: Model, messages: Message[]): Content[] {
	const out: Content[] = [];
	for (const message of messages) {
		if (message.role === "user") {
			const parts =
				typeof message.content === "string"
					? [{ text: message.content }]
					: message.content.map((block) => (block.type === "text" ? { text: block.text } : inlineData(block)));
			if (parts.length > 0) out.push({ parts, role: "user" });
		} else if (message.role === "assistant") {
			const parts = modelParts(model, message);
			if (parts.length > 0) out.push({ parts, role: "model" });
		} else {
			toolResultParts(model, message, out);
		}
	}
	return out;
}

function inlineData(image: ImageContent): Part {
	return { inlineData: { mimeType: image.mimeType, data: image.data } };
}

function geminiMajorVersion(id: string): number | undefined {
	const match = id.toLowerCase().match(/^gemini(?:-live)?-(\d+)/);
	return match ? Number.parseInt(match[1] as string, 10) : undefined;
}

/** Gemini 3+, and Claude or gpt-oss served through Google, want ids on function calls and responses. */
function requiresToolCallId(id: string): boolean {
	const major = geminiMajorVersion(id);
	return id.startsWith("claude-") || id.startsWith("gpt-oss-") || (major !== undefined && major >= 3);
}

/** Images inside the function response: Gemini 3+ and models that are not Gemini at all. */
function imagesInFunctionResponse(id: string): boolean {
	const major = geminiMajorVersion(id);
	return major === undefined || major >= 3;
}

/** Thought signatures are bytes: only base64 ones of the same provider and model go back. */
function usableSignature(same: boolean, signature: string | undefined): string | undefined {
	if (!same || !signature || signature.length % 4 !== 0) return undefined;
	return /^[A-Za-z0-9+/]+={0,2}$/.test(signature) ? signature : undefined;
}

function modelParts(model: Model, message: AssistantMessage): Part[] {
	const same = message.provider === model.provider && message.model === model.id;
	const parts: Part[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			const signature = usableSignature(same, block.textSignature);
			// An empty part that carries a signature must go back: Gemini needs it to continue its reasoning.
			if (block.text.trim() === "" && !signature) continue;
			parts.push({ text: block.text, ...(signature ? { thoughtSignature: signature } : {}) });
		} else if (block.type === "thinking") {
			if (same) {
				const signature = usableSignature(same, block.thinkingSignature);
				if (block.thinking.trim() === "" && !signature) continue;
				parts.push({ text: block.thinking, thought: true, ...(signature ? { thoughtSignature: signature } : {}) });
			} else if (block.thinking.trim() !== "") {
				parts.push({ text: block.thinking }); // another model's thoughts travel as plain text
			}
		} else {
			const signature = usableSignature(same, block.thoughtSignature);
			parts.push({
				functionCall: {
					name: block.name,
					args: block.arguments ?? {},
					...(requiresToolCallId(model.id) ? { id: block.id } : {}),
				},
				...(signature ? { thoughtSignature: signature } : {}),
			});
		}
	}
	return parts;
}

/** A function response joins the previous user turn of responses; images go inside it or in a turn after it. */
function toolResultParts(model: Model, message: ToolResultMessage, out: Content[]): void {
	const text = message.content
		.filter((block) => block.type === "text")
		.map((block) => block.text)
		.join("\n");
	const images = model.input.includes("image")
		? message.content.filter((block): block is ImageContent => block.type === "image").map(inlineData)
		: [];
	const nested = imagesInFunctionResponse(model.id);
	const value = text.length > 0 ? text : images.length > 0 ? "(see attached image)" : "";
	const part: Part = {
		functionResponse: {
			name: message.toolName,
			response: message.isError ? { error: value } : { output: value },
			...(images.length > 0 && nested ? { parts: images } : {}),
			...(requiresToolCallId(model.id) ? { id: message.toolCallId } : {}),
		},
	};
	const last = out[out.length - 1];
	if (last?.role === "user" && last.parts.some((p) => p.functionResponse)) last.parts.push(part);
	else out.push({ parts: [part], role: "user" });
	if (images.length > 0 && !nested) out.push({ parts: [{ text: "Tool result image:" }, ...images], role: "user" });
}
