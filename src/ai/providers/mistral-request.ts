/**
 * The request side of `mistral-conversations` (Mistral's native chat completions endpoint, as pi-ai 0.87.1 calls
 * it): the JSON body in Mistral's snake_case wire form, tool-call ids rewritten to the 9 alphanumeric characters
 * Mistral accepts, images as data URLs (or a note when the model takes no images), and the simple-options mapping
 * of a thinking level to `prompt_mode` or `reasoning_effort`.
 */
import { requestView } from "../transcript.ts";
import type { Context, Model, StreamOptions, Tool, ToolResultMessage } from "../types.ts";
import { shortHash } from "./openai-responses-input.ts";
import { transformMessages } from "./transform-messages.ts";

export interface MistralOptions extends StreamOptions {
	toolChoice?: "auto" | "none" | "any" | "required" | { type: "function"; function: { name: string } };
	promptMode?: "reasoning";
	reasoningEffort?: "none" | "high";
}

const ID_LENGTH = 9;

/**
 * A 9-character id for `id`: kept when it already is one, else pi-ai's short hash of it (so a session continued in
 * either program sends the same ids), with an attempt suffix on collisions.
 */
export function mistralToolCallId(id: string, attempt = 0): string {
	const plain = id.replace(/[^a-zA-Z0-9]/g, "");
	if (attempt === 0 && plain.length === ID_LENGTH) return plain;
	const base = plain || id;
	return shortHash(attempt === 0 ? base : `${base}:${attempt}`)
		.replace(/[^a-zA-Z0-9]/g, "")
		.slice(0, ID_LENGTH);
}

/** One request's id rewriter: the same id always maps to the same short id, two ids never to one. */
function idRewriter(): (id: string) => string {
	const forward = new Map<string, string>();
	const owners = new Map<string, string>();
	return (id) => {
		const known = forward.get(id);
		if (known) return known;
		for (let attempt = 0; ; attempt++) {
			const candidate = mistralToolCallId(id, attempt);
			const owner = owners.get(candidate);
			if (owner === undefined || owner === id) {
				forward.set(id, candidate);
				owners.set(candidate, id);
				return candidate;
			}
		}
	};
}

export function usesPromptCaching(
	options: StreamOptions | undefined,
): options is StreamOptions & { sessionId: string } {
	return options?.cacheRetention !== "none" && !!options?.sessionId;
}

export function buildMistralRequest(model: Model, full: Context, options: MistralOptions | undefined): any {
	const context = requestView(full);
	const images = model.input.includes("image");
	const messages: any[] = [];
	if (context.systemPrompt) messages.push({ role: "system", content: context.systemPrompt });
	const rewrite = idRewriter();
	for (const message of transformMessages(context.messages, model, (id) => rewrite(id))) {
		if (message.role === "user") {
			if (typeof message.content === "string") {
				messages.push({ role: "user", content: message.content });
				continue;
			}
			const parts = message.content
				.filter((part) => part.type === "text" || images)
				.map((part) =>
					part.type === "text"
						? { type: "text", text: part.text }
						: { type: "image_url", image_url: `data:${part.mimeType};base64,${part.data}` },
				);
			if (parts.length > 0) messages.push({ role: "user", content: parts });
			else if (message.content.some((part) => part.type === "image")) {
				messages.push({ role: "user", content: "(image omitted: model does not support images)" });
			}
		} else if (message.role === "assistant") {
			const content: any[] = [];
			const calls: any[] = [];
			for (const block of message.content) {
				if (block.type === "text") {
					if (block.text.trim() !== "") content.push({ type: "text", text: block.text });
				} else if (block.type === "thinking") {
					if (block.thinking.trim() !== "") {
						content.push({ type: "thinking", thinking: [{ type: "text", text: block.thinking }] });
					}
				} else {
					const args = JSON.stringify(block.arguments ?? {});
					calls.push({ id: block.id, type: "function", function: { name: block.name, arguments: args }, index: 0 });
				}
			}
			if (content.length === 0 && calls.length === 0) continue;
			messages.push({
				role: "assistant",
				prefix: false,
				...(content.length > 0 ? { content } : {}),
				...(calls.length > 0 ? { tool_calls: calls } : {}),
			});
		} else {
			messages.push(toolResult(message, images));
		}
	}
	const body: any = { model: model.id, stream: true, messages };
	if (context.tools && context.tools.length > 0) body.tools = context.tools.map(toolDeclaration);
	if (options?.temperature !== undefined) body.temperature = options.temperature;
	if (options?.maxTokens !== undefined) body.max_tokens = options.maxTokens;
	if (options?.toolChoice) body.tool_choice = toolChoice(options.toolChoice);
	if (options?.promptMode) body.prompt_mode = options.promptMode;
	if (options?.reasoningEffort) body.reasoning_effort = options.reasoningEffort;
	if (usesPromptCaching(options)) body.prompt_cache_key = options.sessionId;
	return body;
}

function toolDeclaration(tool: Tool): any {
	return {
		type: "function",
		function: {
			name: tool.name,
			description: tool.description,
			parameters: JSON.parse(JSON.stringify(tool.parameters ?? {})),
			strict: false,
		},
	};
}

function toolChoice(choice: NonNullable<MistralOptions["toolChoice"]>): unknown {
	return typeof choice === "string" ? choice : { type: "function", function: { name: choice.function.name } };
}

function toolResult(message: ToolResultMessage, images: boolean): any {
	const text = message.content
		.filter((part) => part.type === "text")
		.map((part) => (part.type === "text" ? part.text : ""))
		.join("\n")
		.trim();
	const hasImages = message.content.some((part) => part.type === "image");
	const error = message.isError ? "[tool error] " : "";
	let body: string;
	if (text !== "")
		body = `${error}${text}${hasImages && !images ? "\n[tool image omitted: model does not support images]" : ""}`;
	else if (hasImages)
		body = `${error}${images ? "(see attached image)" : "(image omitted: model does not support images)"}`;
	else body = `${error}(no tool output)`;
	const content: any[] = [{ type: "text", text: body }];
	if (images) {
		for (const part of message.content) {
			if (part.type === "image")
				content.push({ type: "image_url", image_url: `data:${part.mimeType};base64,${part.data}` });
		}
	}
	return { role: "tool", tool_call_id: message.toolCallId, name: message.toolName, content };
}

/** pi-ai's split: these models take `reasoning_effort`, the other reasoning models `prompt_mode: "reasoning"`. */
export function usesReasoningEffort(model: Model): boolean {
	return (
		model.id === "mistral-small-2603" ||
		model.id === "mistral-small-latest" ||
		model.id.startsWith("mistral-medium-") ||
		model.id === "zai-glm-5-2"
	);
}
