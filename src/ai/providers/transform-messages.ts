/**
 * Makes a conversation safe to send to any provider:
 * - assistant messages that ended in `error` or `aborted` are dropped (their tool calls never ran);
 * - every tool call gets a result: a missing one is filled with an error result so providers accept the history;
 * - tool results whose call is gone are dropped;
 * - for a model that takes no images (when `model` is given), each run of images becomes one placeholder text.
 */
import type { AssistantMessage, ImageContent, Message, Model, TextContent, ToolResultMessage } from "../types.ts";

const USER_IMAGE_PLACEHOLDER = "(image omitted: model does not support images)";
const TOOL_IMAGE_PLACEHOLDER = "(tool image omitted: model does not support images)";

function withoutImages<T extends TextContent | ImageContent>(content: T[], placeholder: string): (T | TextContent)[] {
	const out: (T | TextContent)[] = [];
	let afterPlaceholder = false;
	for (const block of content) {
		if (block.type === "image") {
			if (!afterPlaceholder) out.push({ type: "text", text: placeholder });
			afterPlaceholder = true;
			continue;
		}
		out.push(block);
		afterPlaceholder = (block as TextContent).text === placeholder;
	}
	return out;
}

function downgradeImages(messages: readonly Message[], model: Model | undefined): readonly Message[] {
	if (!model || model.input.includes("image")) return messages;
	return messages.map((m) => {
		if (m.role === "user" && Array.isArray(m.content)) {
			return { ...m, content: withoutImages(m.content, USER_IMAGE_PLACEHOLDER) };
		}
		if (m.role === "toolResult") return { ...m, content: withoutImages(m.content, TOOL_IMAGE_PLACEHOLDER) };
		return m;
	});
}

/** Rewrites a tool-call id made by another model into one the target API accepts. */
export type ToolCallIdNormaliser = (id: string, source: AssistantMessage) => string;

export function transformMessages(
	input: readonly Message[],
	model?: Model,
	normaliseId?: ToolCallIdNormaliser,
): Message[] {
	const messages = downgradeImages(input, model);
	const out: Message[] = [];
	const kept = messages.filter(
		(m) => !(m.role === "assistant" && (m.stopReason === "error" || m.stopReason === "aborted")),
	);
	const callIds = new Set<string>();
	for (const m of kept)
		if (m.role === "assistant") for (const b of m.content) if (b.type === "toolCall") callIds.add(b.id);
	let pending: AssistantMessage | undefined;
	const answered = new Set<string>();
	const flushMissing = () => {
		if (!pending) return;
		for (const block of pending.content) {
			if (block.type === "toolCall" && !answered.has(block.id)) {
				out.push(missingResult(block.id, block.name, pending.timestamp));
			}
		}
		pending = undefined;
	};
	for (const message of kept) {
		if (message.role === "toolResult") {
			if (!callIds.has(message.toolCallId)) continue;
			answered.add(message.toolCallId);
			out.push(message);
			continue;
		}
		flushMissing();
		if (message.role === "assistant" && message.content.some((b) => b.type === "toolCall")) pending = message;
		out.push(message);
	}
	flushMissing();
	return model && normaliseId ? renameForeignCalls(out, model, normaliseId) : out;
}

/** Tool calls of another model get ids the target accepts; their results follow the new ids. */
function renameForeignCalls(messages: Message[], model: Model, normaliseId: ToolCallIdNormaliser): Message[] {
	const renamed = new Map<string, string>();
	return messages.map((message) => {
		if (message.role === "toolResult") {
			const id = renamed.get(message.toolCallId);
			return id && id !== message.toolCallId ? { ...message, toolCallId: id } : message;
		}
		if (message.role !== "assistant") return message;
		if (message.provider === model.provider && message.api === model.api && message.model === model.id) return message;
		const content = message.content.map((block) => {
			if (block.type !== "toolCall") return block;
			const id = normaliseId(block.id, message);
			if (id === block.id) return block;
			renamed.set(block.id, id);
			return { ...block, id };
		});
		return { ...message, content };
	});
}

function missingResult(toolCallId: string, toolName: string, timestamp: number): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId,
		toolName,
		content: [{ type: "text", text: "No result provided" }],
		isError: true,
		timestamp,
	};
}
