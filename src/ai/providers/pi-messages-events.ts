/**
 * The `pi-messages` stream carries pi's own assistant-message events, serialised: `start`, `text_*`, `thinking_*`,
 * `toolcall_*` by content index, then one terminal `done` or `error` holding the stop reason, the usage (cost
 * included: the backend prices it) and the response id. This module rebuilds the message from them. Each event is
 * handed on as the server sent it (its own fields kept) with the message so far; `toolcall_end` hands on the
 * rebuilt call, and the terminal events carry the finished message, as pi-ai 0.87.1 does for the same bytes.
 */
import { appendAssistantMessageDiagnostic } from "../diagnostics.ts";
import { parseStreamingJson } from "../partial-json.ts";
import type {
	AssistantMessage,
	AssistantMessageEvent,
	Model,
	TextContent,
	ThinkingContent,
	ToolCall,
} from "../types.ts";
import { emptyUsage } from "../usage.ts";

/** Impact summary of a rewrite the backend applied to the request (e.g. a gateway policy). */
export interface PiMessagesRewriteImpact {
	policyId: string;
	policyVersion: number;
	changed: boolean;
	tokenCountChange: number;
	messageCountChange: number;
	systemPromptChanged: boolean;
}

/** One event as a pi-messages backend sends it. */
export type PiMessagesEvent =
	| { type: "start" }
	| { type: "text_start" | "thinking_start"; contentIndex: number }
	| { type: "text_delta" | "thinking_delta" | "toolcall_delta"; contentIndex: number; delta: string }
	| { type: "text_end"; contentIndex: number; content: string; contentSignature?: string }
	| { type: "thinking_end"; contentIndex: number; content: string; contentSignature?: string; redacted?: boolean }
	| { type: "toolcall_start"; contentIndex: number; id: string; toolName: string }
	| { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall }
	| ({ type: "done"; reason: "stop" | "length" | "toolUse" } & PiMessagesTerminal)
	| ({ type: "error"; reason: "aborted" | "error"; errorMessage?: string } & PiMessagesTerminal);

interface PiMessagesTerminal {
	usage: AssistantMessage["usage"];
	responseId?: string;
	providerThinkingLevel?: string;
	rewrite?: PiMessagesRewriteImpact;
}

/** A message with the extra field the pi-messages terminal events may set. */
export type PiMessagesAssistantMessage = AssistantMessage;

/** A server event that does not fit the message built so far (a delta for a block never opened, …). */
export class PiMessagesProtocolError extends Error {
	override name = "PiMessagesProtocolError";
}

export function emptyAssistantMessage(model: Model): PiMessagesAssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: emptyUsage(),
		stopReason: "pending",
		timestamp: Date.now(),
	};
}

/** Rebuilds one response from its events; `accept` returns the event to emit for each. */
export class PiMessagesAssembler {
	readonly message: PiMessagesAssistantMessage;
	private readonly json = new Map<number, string>();

	constructor(model: Model) {
		this.message = emptyAssistantMessage(model);
	}

	accept(event: any): AssistantMessageEvent {
		const message = this.message;
		if (typeof event?.type !== "string") throw new PiMessagesProtocolError("pi-messages event without a type");
		switch (event.type) {
			case "done":
			case "error":
				return this.finish(event);
			case "text_start":
				message.content[this.index(event)] = { type: "text", text: "" };
				break;
			case "text_delta":
				this.block<TextContent>(event, "text").text += event.delta;
				break;
			case "text_end": {
				const block = this.block<TextContent>(event, "text");
				block.text = event.content;
				block.textSignature = event.contentSignature;
				break;
			}
			case "thinking_start":
				message.content[this.index(event)] = { type: "thinking", thinking: "" };
				break;
			case "thinking_delta":
				this.block<ThinkingContent>(event, "thinking").thinking += event.delta;
				break;
			case "thinking_end": {
				const block = this.block<ThinkingContent>(event, "thinking");
				block.thinking = event.content;
				block.thinkingSignature = event.contentSignature;
				block.redacted = event.redacted;
				break;
			}
			case "toolcall_start": {
				const index = this.index(event);
				message.content[index] = { type: "toolCall", id: event.id, name: event.toolName, arguments: {} };
				this.json.set(index, "");
				break;
			}
			case "toolcall_delta": {
				const block = this.block<ToolCall>(event, "toolCall");
				const text = (this.json.get(event.contentIndex) ?? "") + event.delta;
				this.json.set(event.contentIndex, text);
				block.arguments = parseStreamingJson(text);
				break;
			}
			case "toolcall_end": {
				const block = this.block<ToolCall>(event, "toolCall");
				Object.assign(block, event.toolCall);
				this.json.delete(event.contentIndex);
				return { type: "toolcall_end", contentIndex: event.contentIndex, toolCall: block, partial: message };
			}
		}
		return { ...event, partial: message };
	}

	private finish(event: any): AssistantMessageEvent {
		const message = this.message;
		message.stopReason = event.reason;
		message.usage = event.usage ?? emptyUsage();
		if (event.type === "error") message.errorMessage = event.errorMessage;
		message.responseId = event.responseId;
		if (event.providerThinkingLevel !== undefined) message.providerThinkingLevel = event.providerThinkingLevel;
		if (event.rewrite) {
			appendAssistantMessageDiagnostic(message, {
				type: "pi_messages_rewrite",
				timestamp: Date.now(),
				details: { ...event.rewrite },
			});
		}
		return event.type === "done"
			? { type: "done", reason: event.reason, message }
			: { type: "error", reason: event.reason, error: message };
	}

	private index(event: any): number {
		const index = event.contentIndex;
		if (!Number.isInteger(index) || index < 0) {
			throw new PiMessagesProtocolError(`pi-messages event "${event.type}" has no valid contentIndex`);
		}
		return index;
	}

	private block<T extends TextContent | ThinkingContent | ToolCall>(event: any, type: T["type"]): T {
		const block = this.message.content[this.index(event)];
		if (block?.type !== type) {
			throw new PiMessagesProtocolError(
				`pi-messages event "${event.type}" refers to content ${event.contentIndex}, which is not an open ${type} block`,
			);
		}
		return block as T;
	}
}
