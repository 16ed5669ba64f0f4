/**
 * ConverseStream's events (decoded from the binary event stream) to pi's assistant-message events, as pi-ai 0.87.1
 * maps them:
 * - `messageStart` emits `start`; text and reasoning blocks open on their first delta (Bedrock sends no
 *   `contentBlockStart` for them), tool calls on `contentBlockStart`; blocks are found by the server's
 *   `contentBlockIndex` until their `contentBlockStop` closes them;
 * - reasoning signatures accumulate into `thinkingSignature`; encrypted reasoning (`redactedContent`) marks the
 *   block redacted, shows "[Reasoning redacted]" once and keeps the payload base64 in `thinkingSignature`;
 * - `messageStop` sets the stop reason, `metadata` the usage and cost;
 * - exception messages (`throttlingException`, `validationException`, …) and error messages become a
 *   `BedrockStreamError` carrying the exception's name.
 */
import type { EventStreamMessage } from "../aws/event-stream.ts";
import type { AssistantMessageEventStreamImpl } from "../event-stream.ts";
import { parseStreamingJson } from "../partial-json.ts";
import type { AssistantMessage, Model, TextContent, ThinkingContent, ToolCall } from "../types.ts";
import { calculateCost } from "../usage.ts";

const REDACTED = "[Reasoning redacted]";

/** A failure the service reported (an HTTP error or an exception in the stream), named as AWS names it. */
export class BedrockStreamError extends Error {
	constructor(
		/** AWS's exception name (`ThrottlingException`, …) or an error code. */
		override readonly name: string,
		message: string,
		/** Whether AWS modelled it (then the message gets pi's readable prefix). */
		readonly modeled: boolean,
		readonly status?: number,
		readonly requestId?: string,
	) {
		super(message);
	}
}

interface Open {
	block: TextContent | ThinkingContent | ToolCall;
	json: string;
	redacted?: string[];
}

const utf8 = new TextDecoder();

function header(message: EventStreamMessage, name: string): string | undefined {
	const h = message.headers[name];
	return h?.type === "string" ? h.value : undefined;
}

/** `throttlingException` → `ThrottlingException`. */
function exceptionName(type: string): string {
	return type.charAt(0).toUpperCase() + type.slice(1);
}

export class BedrockEventMapper {
	/** Blocks still receiving deltas, by the server's content block index. */
	private open = new Map<number, Open>();

	constructor(
		private readonly model: Model,
		private readonly output: AssistantMessage,
		private readonly stream: AssistantMessageEventStreamImpl,
	) {}

	handle(message: EventStreamMessage): void {
		const kind = header(message, ":message-type") ?? "event";
		const text = utf8.decode(message.payload);
		if (kind === "error") {
			const code = header(message, ":error-code") ?? "UnknownError";
			throw new BedrockStreamError(code, header(message, ":error-message") ?? code, false);
		}
		let payload: any = {};
		if (text.trim() !== "") {
			try {
				payload = JSON.parse(text);
			} catch {
				throw new Error(`Bedrock sent a malformed event: ${text.slice(0, 200)}`);
			}
		}
		if (kind === "exception") {
			const type = header(message, ":exception-type") ?? "UnknownException";
			const name = exceptionName(type);
			throw new BedrockStreamError(name, typeof payload.message === "string" ? payload.message : name, true);
		}
		switch (header(message, ":event-type")) {
			case "messageStart":
				if (payload.role !== "assistant") {
					throw new Error("Unexpected assistant message start but got user message start instead");
				}
				this.stream.push({ type: "start", partial: this.output });
				break;
			case "contentBlockStart":
				this.blockStart(payload);
				break;
			case "contentBlockDelta":
				this.delta(payload);
				break;
			case "contentBlockStop":
				this.blockStop(payload.contentBlockIndex);
				break;
			case "messageStop":
				this.stop(payload.stopReason);
				break;
			case "metadata":
				if (payload.usage) this.usage(payload.usage);
				break;
		}
	}

	private push(open: Open): number {
		this.output.content.push(open.block);
		return this.output.content.length - 1;
	}

	private indexOf(open: Open): number {
		return this.output.content.indexOf(open.block);
	}

	private blockStart(payload: any): void {
		const use = payload.start?.toolUse;
		if (!use) return;
		const block: ToolCall = { type: "toolCall", id: use.toolUseId || "", name: use.name || "", arguments: {} };
		const open: Open = { block, json: "" };
		this.open.set(payload.contentBlockIndex, open);
		this.stream.push({ type: "toolcall_start", contentIndex: this.push(open), partial: this.output });
	}

	private delta(payload: any): void {
		const index = payload.contentBlockIndex;
		const delta = payload.delta;
		let open = this.open.get(index);
		if (delta?.text !== undefined) {
			if (!open) {
				open = { block: { type: "text", text: "" }, json: "" };
				this.open.set(index, open);
				this.stream.push({ type: "text_start", contentIndex: this.push(open), partial: this.output });
			}
			if (open.block.type === "text") {
				open.block.text += delta.text;
				this.stream.push({
					type: "text_delta",
					contentIndex: this.indexOf(open),
					delta: delta.text,
					partial: this.output,
				});
			}
		} else if (delta?.toolUse && open?.block.type === "toolCall") {
			const piece = delta.toolUse.input || "";
			open.json += piece;
			open.block.arguments = parseStreamingJson(open.json);
			this.stream.push({
				type: "toolcall_delta",
				contentIndex: this.indexOf(open),
				delta: piece,
				partial: this.output,
			});
		} else if (delta?.reasoningContent) {
			if (!open) {
				open = { block: { type: "thinking", thinking: "", thinkingSignature: "" }, json: "" };
				this.open.set(index, open);
				this.stream.push({ type: "thinking_start", contentIndex: this.push(open), partial: this.output });
			}
			if (open.block.type === "thinking") this.reasoning(open, open.block, delta.reasoningContent);
		}
	}

	private reasoning(open: Open, block: ThinkingContent, r: any): void {
		const at = this.indexOf(open);
		if (r.text) {
			block.thinking += r.text;
			this.stream.push({ type: "thinking_delta", contentIndex: at, delta: r.text, partial: this.output });
		}
		if (r.signature && !block.redacted) block.thinkingSignature = (block.thinkingSignature || "") + r.signature;
		if (typeof r.redactedContent === "string" && r.redactedContent.length > 0) {
			if (!block.redacted) {
				block.redacted = true;
				block.thinkingSignature = "";
				block.thinking += REDACTED;
				this.stream.push({ type: "thinking_delta", contentIndex: at, delta: REDACTED, partial: this.output });
			}
			open.redacted ??= [];
			open.redacted.push(r.redactedContent);
		}
	}

	private blockStop(index: number): void {
		const open = this.open.get(index);
		if (!open) return;
		this.open.delete(index);
		const at = this.indexOf(open);
		const block = open.block;
		if (block.type === "text") {
			this.stream.push({ type: "text_end", contentIndex: at, content: block.text, partial: this.output });
		} else if (block.type === "thinking") {
			flushRedacted(open);
			this.stream.push({ type: "thinking_end", contentIndex: at, content: block.thinking, partial: this.output });
		} else {
			block.arguments = parseStreamingJson(open.json);
			this.stream.push({ type: "toolcall_end", contentIndex: at, toolCall: block, partial: this.output });
		}
	}

	private stop(reason: unknown): void {
		this.output.rawStopReason = reason as string;
		if (reason === "end_turn" || reason === "stop_sequence") this.output.stopReason = "stop";
		else if (reason === "max_tokens" || reason === "model_context_window_exceeded") this.output.stopReason = "length";
		else if (reason === "tool_use") this.output.stopReason = "toolUse";
		else {
			this.output.stopReason = "error";
			if (reason) this.output.errorMessage = `Provider stopped with: ${reason}`;
		}
	}

	private usage(u: any): void {
		const usage = this.output.usage;
		usage.input = u.inputTokens || 0;
		usage.output = u.outputTokens || 0;
		usage.cacheRead = u.cacheReadInputTokens || 0;
		usage.cacheWrite = u.cacheWriteInputTokens || 0;
		if (Array.isArray(u.cacheDetails)) {
			usage.cacheWrite1h = u.cacheDetails.reduce(
				(sum: number, d: any) => sum + (d?.ttl === "1h" ? (d.inputTokens ?? 0) : 0),
				0,
			);
		} else delete usage.cacheWrite1h;
		usage.totalTokens = u.totalTokens || usage.input + usage.output;
		calculateCost(this.model, usage);
	}

	/** Ends every block still open without events (the stream settled before stopping them). */
	finish(): void {
		for (const open of this.open.values()) flushRedacted(open);
		this.open.clear();
	}
}

function flushRedacted(open: Open): void {
	if (open.block.type !== "thinking" || !open.redacted) return;
	open.block.thinkingSignature = btoa(open.redacted.map((chunk) => atob(chunk)).join(""));
	open.redacted = undefined;
}
