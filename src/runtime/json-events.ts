/**
 * Wire form of session events for JSON and RPC modes (pi 0.84+): `message_update` carries only the delta — the
 * nested event without its cumulative `partial`, plus the message's current `usage` — so the stream grows
 * linearly. `toolcall_start` names the call (`id`, `toolName`). Every other event is sent as is.
 */
import type { AssistantMessageEvent } from "../ai/index.ts";

export function toWireEvent(event: { type: string; [key: string]: unknown }): Record<string, unknown> {
	if (event.type !== "message_update") return event;
	const nested = event.assistantMessageEvent as AssistantMessageEvent;
	const message = event.message as { usage?: unknown; content?: Array<{ type: string; id?: string; name?: string }> };
	const { partial: _partial, ...rest } = nested as AssistantMessageEvent & { partial?: unknown };
	const wire: Record<string, unknown> = { ...rest };
	if (nested.type === "toolcall_start") {
		const block = message.content?.[nested.contentIndex];
		if (block?.type === "toolCall") {
			wire.id = block.id;
			wire.toolName = block.name;
		}
	}
	return { type: "message_update", usage: message.usage, assistantMessageEvent: wire };
}
