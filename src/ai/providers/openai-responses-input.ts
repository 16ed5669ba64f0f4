/**
 * The conversation as `openai-responses` input items, converted as pi-ai 0.87.1 does (`store: false`: the whole
 * conversation goes out every turn):
 * - the same model's reasoning items go back whole (their JSON is the thinking block's signature); another model's
 *   thinking travels as assistant text, its redacted thinking not at all;
 * - every assistant text is a `message` item with an id: the one it was signed with, else `msg_pi_<n>[_<k>]`;
 * - a function call keeps its `fc_` item id unless it came from another model of the same provider;
 *   calls of other providers get ids OpenAI accepts (`call|fc_<hash>` for OpenAI's own providers);
 * - tool results are text, or input parts with their images for models that take images.
 */
import type { AssistantMessage, ImageContent, Message, Model, TextContent, ToolResultMessage } from "../types.ts";
import { transformMessages } from "./transform-messages.ts";

type Item = Record<string, unknown>;

/** Providers whose tool-call ids are Responses ids ("call|item") worth keeping in that form. */
export const RESPONSES_ID_PROVIDERS: ReadonlySet<string> = new Set(["openai", "openai-codex", "opencode"]);

/** A short, stable hash of a string (two 32-bit multiply-xor lanes, base 36), for ids derived from long ones. */
export function shortHash(text: string): string {
	let a = 0xdeadbeef;
	let b = 0x41c6ce57;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		a = Math.imul(a ^ code, 2654435761);
		b = Math.imul(b ^ code, 1597334677);
	}
	a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
	b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
	return (b >>> 0).toString(36) + (a >>> 0).toString(36);
}

/** [a-zA-Z0-9_-] only, at most 64 characters, no trailing underscores. */
function idPart(part: string): string {
	return part
		.replace(/[^a-zA-Z0-9_-]/g, "_")
		.slice(0, 64)
		.replace(/_+$/, "");
}

function foreignCallId(model: Model, idProviders: ReadonlySet<string>) {
	return (id: string, source: AssistantMessage): string => {
		if (!idProviders.has(model.provider) || !id.includes("|")) return idPart(id);
		const [callId = "", itemId = ""] = id.split("|");
		const foreign = source.provider !== model.provider || source.api !== model.api;
		let item = foreign ? `fc_${shortHash(itemId)}`.slice(0, 64) : idPart(itemId);
		if (!item.startsWith("fc_")) item = idPart(`fc_${item}`);
		return `${idPart(callId)}|${item}`;
	};
}

/** `idProviders`: the providers whose `call|item` tool-call ids are kept in that form (the rest get `call` only). */
export function convertMessages(
	model: Model,
	messages: Message[],
	idProviders: ReadonlySet<string> = RESPONSES_ID_PROVIDERS,
): Item[] {
	const items: Item[] = [];
	const transformed = transformMessages(messages, model, foreignCallId(model, idProviders));
	transformed.forEach((message, index) => {
		if (message.role === "user") {
			const content =
				typeof message.content === "string"
					? [{ type: "input_text", text: message.content }]
					: message.content.map((block) =>
							block.type === "text" ? { type: "input_text", text: block.text } : imagePart(block),
						);
			if (content.length > 0) items.push({ role: "user", content });
		} else if (message.role === "assistant") {
			items.push(...assistantItems(model, message, index));
		} else {
			items.push(toolResultItem(model, message));
		}
	});
	return items;
}

function imagePart(image: ImageContent): Item {
	return { type: "input_image", detail: "auto", image_url: `data:${image.mimeType};base64,${image.data}` };
}

/** A stored reasoning item: its JSON, or (older sessions) a bare encrypted_content string. */
function reasoningItem(signature: string): Item {
	try {
		const item = JSON.parse(signature);
		if (item && typeof item === "object") return item as Item;
	} catch {
		// not JSON
	}
	return { type: "reasoning", summary: [], encrypted_content: signature };
}

function assistantItems(model: Model, message: AssistantMessage, index: number): Item[] {
	const sameProvider = message.provider === model.provider && message.api === model.api;
	const sameModel = sameProvider && message.model === model.id;
	const items: Item[] = [];
	let textIndex = 0;
	for (const block of message.content) {
		if (block.type === "thinking") {
			if (sameModel) {
				if (block.thinkingSignature) items.push(reasoningItem(block.thinkingSignature));
			} else if (!block.redacted && block.thinking.trim() !== "") {
				items.push(textItem(block.thinking, undefined, fallbackId(index, textIndex)));
				textIndex++;
			}
		} else if (block.type === "text") {
			// Another model's text signature names an item this server never made.
			items.push(textItem(block.text, sameModel ? block.textSignature : undefined, fallbackId(index, textIndex)));
			textIndex++;
		} else {
			const [callId, rawItemId] = block.id.split("|");
			const differentModel = sameProvider && !sameModel;
			const itemId = rawItemId?.startsWith("fc_") && !differentModel ? rawItemId : undefined;
			items.push({
				type: "function_call",
				...(itemId ? { id: itemId } : {}),
				call_id: callId,
				name: block.name,
				arguments: JSON.stringify(block.arguments),
			});
		}
	}
	return items;
}

function fallbackId(index: number, textIndex: number): string {
	return textIndex === 0 ? `msg_pi_${index}` : `msg_pi_${index}_${textIndex}`;
}

/** A text block's signature: pi-ai writes `{"v":1,"id":…,"phase"?}`; older sessions hold the bare id. */
function parseTextSignature(signature: string | undefined): { id: string; phase?: string } | undefined {
	if (!signature) return undefined;
	if (signature.startsWith("{")) {
		try {
			const parsed = JSON.parse(signature) as { v?: unknown; id?: unknown; phase?: unknown };
			if (parsed.v === 1 && typeof parsed.id === "string") {
				const phase = parsed.phase === "commentary" || parsed.phase === "final_answer" ? parsed.phase : undefined;
				return { id: parsed.id, ...(phase ? { phase } : {}) };
			}
		} catch {
			// not JSON: a bare id after all
		}
	}
	return { id: signature };
}

function textItem(text: string, signature: string | undefined, fallback: string): Item {
	const parsed = parseTextSignature(signature);
	let id = parsed?.id || fallback;
	if (id.length > 64) id = `msg_${shortHash(id)}`;
	return {
		type: "message",
		role: "assistant",
		content: [{ type: "output_text", text, annotations: [] }],
		status: "completed",
		id,
		...(parsed?.phase ? { phase: parsed.phase } : {}),
	};
}

function toolResultItem(model: Model, message: ToolResultMessage): Item {
	const text = message.content
		.filter((block): block is TextContent => block.type === "text")
		.map((block) => block.text)
		.join("\n");
	const images = message.content.filter((block): block is ImageContent => block.type === "image");
	const callId = message.toolCallId.split("|")[0];
	if (images.length === 0 || !model.input.includes("image")) {
		const output = text.length > 0 ? text : images.length > 0 ? "(see attached image)" : "(no tool output)";
		return { type: "function_call_output", call_id: callId, output };
	}
	const output: Item[] = text.length > 0 ? [{ type: "input_text", text }] : [];
	output.push(...images.map(imagePart));
	return { type: "function_call_output", call_id: callId, output };
}
