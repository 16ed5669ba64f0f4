/**
 * Makes a conversation safe to send to any provider:
 * - assistant messages that ended in `error` or `aborted` are dropped (their tool calls never ran);
 * - every tool call gets a result: a missing one is filled with an error result so providers accept the history;
 * - tool results whose call is gone are dropped.
 */
import type { AssistantMessage, Message, ToolResultMessage } from "../types.ts";

export function transformMessages(messages: readonly Message[]): Message[] {
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
	return out;
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
