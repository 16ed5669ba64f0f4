/**
 * Builds one assistant message from a provider's stream and emits the matching events. Every provider uses it, so
 * the event sequence rules live in one place:
 * - blocks are opened, filled and closed in order; opening a block closes the open one of another kind;
 * - tool-call arguments accumulate as text, are parsed best-effort while partial and strictly at the end;
 *   invalid final JSON fails the whole message (the call is never run);
 * - `finish` and `fail` emit the single final event; later calls are ignored.
 */
import type { AssistantMessageEventStreamImpl } from "../event-stream.ts";
import {
	markInvalidToolArguments,
	parseJsonWithRepair,
	parseStreamingJson,
	parseToolArguments,
} from "../partial-json.ts";
import type { AssistantMessage, Model, StopReason, TextContent, ThinkingContent, ToolCall } from "../types.ts";
import { calculateCost, emptyUsage } from "../usage.ts";

type OpenBlock =
	| { kind: "text"; index: number; block: TextContent }
	| { kind: "thinking"; index: number; block: ThinkingContent }
	| { kind: "toolCall"; index: number; block: ToolCall; json: string };

export class MessageBuilder {
	readonly message: AssistantMessage;
	private open: OpenBlock | undefined;
	private done = false;
	private started = false;

	constructor(
		readonly model: Model,
		private readonly stream: AssistantMessageEventStreamImpl,
	) {
		this.message = {
			role: "assistant",
			content: [],
			api: model.api,
			provider: model.provider,
			model: model.id,
			usage: emptyUsage(),
			stopReason: "stop",
			timestamp: Date.now(),
		};
	}

	get finished(): boolean {
		return this.done;
	}

	start(): void {
		if (this.started) return;
		this.started = true;
		this.stream.push({ type: "start", partial: this.message });
	}

	/** `keepEmpty`: an empty delta is still an event (Google's empty parts, as pi-ai reports them). */
	text(delta: string, signature?: string, keepEmpty = false): void {
		const open = this.ensure("text");
		if (open.kind !== "text") return;
		if (signature !== undefined) open.block.textSignature = signature;
		if (delta === "" && !keepEmpty) return;
		open.block.text += delta;
		this.stream.push({ type: "text_delta", contentIndex: open.index, delta, partial: this.message });
	}

	thinking(delta: string, signature?: string, keepEmpty = false): void {
		const open = this.ensure("thinking");
		if (open.kind !== "thinking") return;
		if (signature !== undefined) open.block.thinkingSignature = (open.block.thinkingSignature ?? "") + signature;
		if (delta === "" && !keepEmpty) return;
		open.block.thinking += delta;
		this.stream.push({ type: "thinking_delta", contentIndex: open.index, delta, partial: this.message });
	}

	/** A redacted thinking block arrives whole: its encrypted payload is kept as the signature. */
	redactedThinking(data: string): void {
		this.close();
		const block: ThinkingContent = { type: "thinking", thinking: "", thinkingSignature: data, redacted: true };
		const index = this.message.content.push(block) - 1;
		this.stream.push({ type: "thinking_start", contentIndex: index, partial: this.message });
		this.stream.push({ type: "thinking_end", contentIndex: index, content: "", partial: this.message });
	}

	setThinkingSignature(signature: string): void {
		if (this.open?.kind === "thinking") this.open.block.thinkingSignature = signature;
	}

	/** Opens a tool call; its arguments follow through `toolArguments`. */
	toolCall(id: string, name: string, extra?: Partial<ToolCall>): void {
		this.close();
		this.start();
		const block: ToolCall = { type: "toolCall", id, name, arguments: {}, ...extra };
		const index = this.message.content.push(block) - 1;
		this.open = { kind: "toolCall", index, block, json: "" };
		this.stream.push({ type: "toolcall_start", contentIndex: index, partial: this.message });
	}

	toolArguments(delta: string): void {
		const open = this.open;
		if (open?.kind !== "toolCall" || delta === "") return;
		open.json += delta;
		// Arguments are an object while they stream; JSON of another shape is rejected when the call closes.
		const parsed: unknown = parseStreamingJson(open.json);
		open.block.arguments =
			typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, any>) : {};
		this.stream.push({ type: "toolcall_delta", contentIndex: open.index, delta, partial: this.message });
	}

	/** The id or name of the open tool call, for providers that send them late. */
	updateToolCall(patch: Partial<Pick<ToolCall, "id" | "name" | "thoughtSignature">>): void {
		if (this.open?.kind === "toolCall") Object.assign(this.open.block, patch);
	}

	get openKind(): OpenBlock["kind"] | undefined {
		return this.open?.kind;
	}

	/** Closes the open block (always true now: a tool call with unreadable JSON is marked, not failed). */
	close(): boolean {
		const open = this.open;
		if (!open) return true;
		this.open = undefined;
		if (open.kind === "text") {
			this.stream.push({ type: "text_end", contentIndex: open.index, content: open.block.text, partial: this.message });
		} else if (open.kind === "thinking") {
			this.stream.push({
				type: "thinking_end",
				contentIndex: open.index,
				content: open.block.thinking,
				partial: this.message,
			});
		} else {
			const parsed = parseToolArguments(open.json);
			if (parsed.ok) open.block.arguments = parsed.value;
			else {
				// As in pi, the message stands; the call keeps what could be read, is marked, and is refused when run,
				// so the model is told what was wrong with its arguments.
				const repaired = repairedArguments(open.json);
				if (repaired) open.block.arguments = repaired;
				else markInvalidToolArguments(open.block, `${parsed.error}; the arguments were: ${open.json.slice(0, 500)}`);
			}
			this.stream.push({ type: "toolcall_end", contentIndex: open.index, toolCall: open.block, partial: this.message });
		}
		return true;
	}

	/** Applies token counts and recomputes cost. Absent fields keep their value. */
	usage(counts: Partial<Record<"input" | "output" | "cacheRead" | "cacheWrite" | "cacheWrite1h", number>>): void {
		const u = this.message.usage;
		for (const key of ["input", "output", "cacheRead", "cacheWrite", "cacheWrite1h"] as const) {
			const value = counts[key];
			if (typeof value === "number" && Number.isFinite(value)) u[key] = value;
		}
		u.totalTokens = u.input + u.output + u.cacheRead + u.cacheWrite;
		calculateCost(this.model, u);
	}

	/**
	 * Replaces the usage with a full report that carries a reasoning count (OpenAI and Google report one, possibly 0),
	 * in pi-ai's field order. `totalTokens` is the provider's total when it gives one.
	 */
	reportedUsage(counts: {
		input: number;
		output: number;
		cacheRead: number;
		cacheWrite: number;
		reasoning: number;
		totalTokens?: number;
	}): void {
		const { input, output, cacheRead, cacheWrite, reasoning } = counts;
		const usage = {
			input,
			output,
			cacheRead,
			cacheWrite,
			reasoning,
			totalTokens: counts.totalTokens ?? input + output + cacheRead + cacheWrite,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		};
		calculateCost(this.model, usage);
		this.message.usage = usage;
	}

	finish(reason: Extract<StopReason, "stop" | "length" | "toolUse">): void {
		if (this.done) return;
		this.start();
		if (!this.close()) return;
		const hasToolCall = this.message.content.some((b) => b.type === "toolCall");
		this.message.stopReason = reason === "stop" && hasToolCall ? "toolUse" : reason;
		this.done = true;
		this.stream.push({ type: "done", reason: this.message.stopReason as "stop", message: this.message });
		this.stream.end();
	}

	fail(errorMessage: string, reason: Extract<StopReason, "error" | "aborted"> = "error"): void {
		if (this.done) return;
		this.done = true;
		this.open = undefined;
		this.message.stopReason = reason;
		this.message.errorMessage = errorMessage;
		this.stream.push({ type: "error", reason, error: this.message });
		this.stream.end();
	}

	private ensure(kind: "text" | "thinking"): OpenBlock {
		if (this.open?.kind === kind) return this.open;
		this.close();
		this.start();
		const block: TextContent | ThinkingContent =
			kind === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "" };
		const index = this.message.content.push(block) - 1;
		this.open =
			kind === "text" ? { kind, index, block: block as TextContent } : { kind, index, block: block as ThinkingContent };
		this.stream.push({
			type: kind === "text" ? "text_start" : "thinking_start",
			contentIndex: index,
			partial: this.message,
		});
		return this.open;
	}
}

/** Arguments that parse once string escapes are repaired (raw control characters, stray backslashes), as pi reads them. */
function repairedArguments(text: string): Record<string, any> | undefined {
	try {
		const value: unknown = parseJsonWithRepair(text);
		return typeof value === "object" && value !== null && !Array.isArray(value)
			? (value as Record<string, any>)
			: undefined;
	} catch {
		return undefined;
	}
}
