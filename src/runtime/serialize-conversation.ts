/**
 * A conversation as plain text, for prompts that ask a model to summarise it (compaction, handoff). Each message
 * becomes a labelled block; tool calls show their name and arguments; thinking is marked as such.
 */
import type { Message } from "../ai/index.ts";

export function serializeConversation(messages: readonly Message[]): string {
	const blocks: string[] = [];
	for (const message of messages) {
		if (message.role === "user") {
			const text = typeof message.content === "string" ? message.content : textOf(message.content);
			if (text) blocks.push(`[User]: ${text}`);
		} else if (message.role === "assistant") {
			for (const block of message.content) {
				if (block.type === "text" && block.text.trim()) blocks.push(`[Assistant]: ${block.text}`);
				else if (block.type === "thinking" && block.thinking.trim())
					blocks.push(`[Assistant thinking]: ${block.thinking}`);
				else if (block.type === "toolCall")
					blocks.push(`[Assistant tool call]: ${block.name}(${JSON.stringify(block.arguments)})`);
			}
		} else {
			const text = textOf(message.content);
			blocks.push(
				`[Tool result${message.isError ? " (error)" : ""}: ${message.toolName}]: ${text || "(no text output)"}`,
			);
		}
	}
	return blocks.join("\n\n");
}

function textOf(content: readonly { type: string; text?: string }[]): string {
	return content
		.map((part) => (part.type === "text" ? (part.text ?? "") : part.type === "image" ? "[image]" : ""))
		.filter(Boolean)
		.join("\n");
}
