/**
 * Compact frames for one assistant stream (pi-ai 0.87.1's `AssistantMessageFrameEncoder` and
 * `reduceAssistantMessageFrames`): events carry the whole `partial` message, frames carry only what changed, so a
 * stream can be stored or sent cheaply and rebuilt later. The encoder tracks per block how much text a consumer has
 * already seen in the shared, live `partial`, so an event consumed late never repeats text; a tool call whose
 * start already held arguments is resynchronised with one `toolcall_checkpoint` frame.
 */
import { parseStreamingJson } from "./partial-json.ts";
import type { AssistantMessage, AssistantMessageEvent, TextContent, ThinkingContent, ToolCall } from "./types.ts";

export type AssistantMessageFrame =
	| { type: "start"; partial: AssistantMessage }
	| { type: "text_start"; contentIndex: number; content: TextContent }
	| { type: "text_delta"; contentIndex: number; delta: string }
	| { type: "text_end"; contentIndex: number; content: string; textSignature?: string }
	| { type: "thinking_start"; contentIndex: number; content: ThinkingContent }
	| { type: "thinking_delta"; contentIndex: number; delta: string }
	| { type: "thinking_end"; contentIndex: number; content: string; thinkingSignature?: string; redacted?: boolean }
	| { type: "toolcall_start"; contentIndex: number; toolCall: ToolCall }
	| { type: "toolcall_checkpoint"; contentIndex: number; json: string }
	| { type: "toolcall_delta"; contentIndex: number; delta: string }
	| {
			type: "toolcall_end";
			contentIndex: number;
			id: string;
			name: string;
			arguments: ToolCall["arguments"];
			thoughtSignature?: string;
			namespace?: string;
	  };

type Block = AssistantMessage["content"][number];
type BlockKind = Block["type"];

/** Copies `source[key]` into the result only when it is set. */
function optional<T extends object, K extends keyof T>(source: T, ...keys: K[]): Partial<Pick<T, K>> {
	const out: Partial<Pick<T, K>> = {};
	for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
	return out;
}

function copyText(block: TextContent): TextContent {
	return { type: "text", text: block.text, ...optional(block, "textSignature") };
}

function copyThinking(block: ThinkingContent): ThinkingContent {
	return { type: "thinking", thinking: block.thinking, ...optional(block, "thinkingSignature", "redacted") };
}

function copyToolCall(call: ToolCall): ToolCall {
	const extra = optional(call, "thoughtSignature", "namespace");
	return { type: "toolCall", id: call.id, name: call.name, arguments: structuredClone(call.arguments), ...extra };
}

/** The start message without content, stop reason "pending". */
function startMessage(message: AssistantMessage): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: message.api,
		provider: message.provider,
		model: message.model,
		...optional(message, "responseModel", "responseId"),
		...(((message as { providerThinkingLevel?: unknown }).providerThinkingLevel === undefined
			? {}
			: { providerThinkingLevel: (message as { providerThinkingLevel?: unknown }).providerThinkingLevel }) as object),
		...(message.diagnostics === undefined ? {} : { diagnostics: structuredClone(message.diagnostics) }),
		usage: structuredClone(message.usage),
		stopReason: "pending",
		timestamp: message.timestamp,
	};
}

function checkIndex(contentIndex: number): void {
	if (!Number.isSafeInteger(contentIndex) || contentIndex < 0) {
		throw new Error(`Invalid assistant message frame contentIndex: ${contentIndex}`);
	}
}

function blockOf(event: AssistantMessageEvent & { contentIndex: number; partial: AssistantMessage }, kind: BlockKind) {
	checkIndex(event.contentIndex);
	const block = event.partial.content[event.contentIndex];
	if (!block) throw new Error(`${event.type} event has no content block at index ${event.contentIndex}`);
	if (block.type !== kind) {
		throw new Error(`${event.type} event points to ${block.type} block at index ${event.contentIndex}`);
	}
	return block;
}

function toJson(value: unknown): string {
	const text = JSON.stringify(value);
	if (text === undefined) throw new Error("Tool-call arguments are not JSON-serializable");
	return text;
}

const EMPTY_ARGUMENTS = toJson(parseStreamingJson(""));

/** Whether `current` extends `snapshot` (strings by prefix, arrays by leading items, objects by their keys). */
function extendsJson(snapshot: unknown, current: unknown): boolean {
	if (typeof snapshot === "string") return typeof current === "string" && current.startsWith(snapshot);
	if (Array.isArray(snapshot)) {
		return (
			Array.isArray(current) &&
			snapshot.length <= current.length &&
			snapshot.every((v, i) => extendsJson(v, current[i]))
		);
	}
	if (typeof snapshot !== "object" || snapshot === null) return Object.is(snapshot, current);
	if (typeof current !== "object" || current === null || Array.isArray(current)) return false;
	const record = current as Record<string, unknown>;
	return Object.entries(snapshot).every(
		([key, value]) => Object.hasOwn(record, key) && extendsJson(value, record[key]),
	);
}

type EncoderBlock =
	| { kind: "text" | "thinking"; covered: number; seen: number }
	| { kind: "toolCall"; caughtUp: boolean; pending: string; snapshot: string };

export class AssistantMessageFrameEncoder {
	private started = false;
	private terminal = false;
	private readonly blocks = new Map<number, EncoderBlock>();

	/** The frame for `event`, or undefined when it adds nothing (done/error end the stream; frames stop there). */
	encode(event: AssistantMessageEvent): AssistantMessageFrame | undefined {
		if (this.terminal) throw new Error(`Assistant message event ${event.type} follows a terminal event`);
		if (event.type === "start") {
			if (this.started) throw new Error("Assistant message stream contains more than one start event");
			this.started = true;
			return { type: "start", partial: startMessage(event.partial) };
		}
		if (event.type === "done" || event.type === "error") {
			if (event.type === "done" && !this.started) throw new Error("Assistant message done event appears before start");
			this.terminal = true;
			return undefined;
		}
		if (!this.started) throw new Error(`Assistant message ${event.type} event appears before start`);
		const index = event.contentIndex;
		switch (event.type) {
			case "text_start": {
				const block = blockOf(event, "text") as TextContent;
				this.open(index, { kind: "text", covered: block.text.length, seen: 0 });
				return { type: "text_start", contentIndex: index, content: copyText(block) };
			}
			case "thinking_start": {
				const block = blockOf(event, "thinking") as ThinkingContent;
				this.open(index, { kind: "thinking", covered: block.thinking.length, seen: 0 });
				return { type: "thinking_start", contentIndex: index, content: copyThinking(block) };
			}
			case "text_delta":
			case "thinking_delta": {
				const kind = event.type === "text_delta" ? "text" : "thinking";
				const delta = this.uncovered(index, event.delta, kind);
				if (delta === undefined) return undefined;
				return kind === "text"
					? { type: "text_delta", contentIndex: index, delta }
					: { type: "thinking_delta", contentIndex: index, delta };
			}
			case "text_end": {
				const block = blockOf(event, "text") as TextContent;
				this.close(index, "text");
				return { type: "text_end", contentIndex: index, content: event.content, ...optional(block, "textSignature") };
			}
			case "thinking_end": {
				const block = blockOf(event, "thinking") as ThinkingContent;
				this.close(index, "thinking");
				const extra = optional(block, "thinkingSignature", "redacted");
				return { type: "thinking_end", contentIndex: index, content: event.content, ...extra };
			}
			case "toolcall_start": {
				const call = blockOf(event, "toolCall") as ToolCall;
				const snapshot = toJson(call.arguments);
				const caughtUp = snapshot === EMPTY_ARGUMENTS;
				this.open(index, { kind: "toolCall", caughtUp, pending: "", snapshot: caughtUp ? "" : snapshot });
				return { type: "toolcall_start", contentIndex: index, toolCall: copyToolCall(call) };
			}
			case "toolcall_delta":
				return this.toolCallDelta(index, event.delta);
			case "toolcall_end": {
				blockOf(event, "toolCall");
				if (event.toolCall.type !== "toolCall") {
					throw new Error(`toolcall_end event has invalid tool call at index ${index}`);
				}
				this.close(index, "toolCall");
				const call = event.toolCall;
				return {
					type: "toolcall_end",
					contentIndex: index,
					id: call.id,
					name: call.name,
					arguments: structuredClone(call.arguments),
					...optional(call, "thoughtSignature", "namespace"),
				};
			}
		}
	}

	private open(index: number, state: EncoderBlock): void {
		checkIndex(index);
		if (this.blocks.has(index)) throw new Error(`Assistant message block ${index} starts more than once`);
		this.blocks.set(index, state);
	}

	private state(index: number, kind: BlockKind): EncoderBlock {
		checkIndex(index);
		const state = this.blocks.get(index);
		if (state === undefined) throw new Error(`Assistant message ${kind} block ${index} has not started`);
		if (state.kind !== kind) throw new Error(`Assistant message block ${index} is ${state.kind}, not ${kind}`);
		return state;
	}

	private close(index: number, kind: BlockKind): void {
		this.state(index, kind);
		this.blocks.delete(index);
	}

	/** The part of `delta` the start frame's text did not already contain. */
	private uncovered(index: number, delta: string, kind: "text" | "thinking"): string | undefined {
		const state = this.state(index, kind) as Extract<EncoderBlock, { covered: number }>;
		const start = state.seen;
		state.seen += delta.length;
		const covered = Math.max(0, state.covered - start);
		if (covered >= delta.length) return undefined;
		return covered === 0 ? delta : delta.slice(covered);
	}

	private toolCallDelta(index: number, delta: string): AssistantMessageFrame | undefined {
		const state = this.state(index, "toolCall") as Extract<EncoderBlock, { kind: "toolCall" }>;
		if (state.caughtUp) return delta.length === 0 ? undefined : { type: "toolcall_delta", contentIndex: index, delta };
		state.pending += delta;
		const parsed = parseStreamingJson(state.pending);
		// Until the streamed JSON reproduces (or extends) the arguments the start frame showed, hold it back.
		if (toJson(parsed) !== state.snapshot && !extendsJson(parseStreamingJson(state.snapshot), parsed)) return undefined;
		state.caughtUp = true;
		state.snapshot = "";
		const json = state.pending;
		state.pending = "";
		return json.length === 0 ? undefined : { type: "toolcall_checkpoint", contentIndex: index, json };
	}
}

type ReducerBlock = { kind: BlockKind; ended: boolean; json: string };

function append(message: AssistantMessage, states: Map<number, ReducerBlock>, index: number, block: Block): void {
	checkIndex(index);
	if (index !== message.content.length) {
		const reason = index < message.content.length ? "already exists" : "would leave a gap";
		throw new Error(`Cannot start assistant message block at index ${index}: ${reason}`);
	}
	message.content.push(structuredClone(block));
	states.set(index, { kind: block.type, ended: false, json: "" });
}

function active(
	message: AssistantMessage,
	states: Map<number, ReducerBlock>,
	index: number,
	kind: BlockKind,
	frame: string,
) {
	checkIndex(index);
	const state = states.get(index);
	const block = message.content[index];
	if (!state || !block) throw new Error(`${frame} frame has no started block at index ${index}`);
	if (state.kind !== kind || block.type !== kind) {
		throw new Error(`${frame} frame expected ${kind} block at index ${index}, found ${block.type}`);
	}
	if (state.ended) throw new Error(`${frame} frame follows the end of block at index ${index}`);
	return { block, state };
}

/**
 * The message the frames describe (the frames are not changed), or undefined when there is no start frame. A tool
 * call still open at the end gets the arguments its streamed JSON parses to so far.
 */
export function reduceAssistantMessageFrames(frames: Iterable<AssistantMessageFrame>): AssistantMessage | undefined {
	let message: AssistantMessage | undefined;
	let early: string | undefined;
	const states = new Map<number, ReducerBlock>();
	for (const frame of frames) {
		if (frame.type === "start") {
			if (message) throw new Error("Assistant message frame sequence contains more than one start frame");
			if (early !== undefined) throw new Error(`${early} frame appears before the start frame`);
			message = structuredClone(frame.partial);
			continue;
		}
		if (!message) {
			early ??= frame.type;
			continue;
		}
		applyFrame(message, states, frame);
	}
	if (!message) return undefined;
	for (const [index, state] of states) {
		if (state.kind !== "toolCall" || state.ended || state.json.length === 0) continue;
		(message.content[index] as ToolCall).arguments = parseStreamingJson(state.json);
	}
	return message;
}

function applyFrame(message: AssistantMessage, states: Map<number, ReducerBlock>, frame: AssistantMessageFrame): void {
	switch (frame.type) {
		case "text_start":
		case "thinking_start": {
			const kind = frame.type === "text_start" ? "text" : "thinking";
			if (frame.content.type !== kind) throw new Error(`${frame.type} frame contains ${frame.content.type} content`);
			append(message, states, frame.contentIndex, frame.content);
			return;
		}
		case "text_delta": {
			const { block } = active(message, states, frame.contentIndex, "text", frame.type);
			(block as TextContent).text += frame.delta;
			return;
		}
		case "thinking_delta": {
			const { block } = active(message, states, frame.contentIndex, "thinking", frame.type);
			(block as ThinkingContent).thinking += frame.delta;
			return;
		}
		case "text_end": {
			const { block, state } = active(message, states, frame.contentIndex, "text", frame.type);
			const text = block as TextContent;
			text.text = frame.content;
			delete text.textSignature;
			if (frame.textSignature !== undefined) text.textSignature = frame.textSignature;
			state.ended = true;
			return;
		}
		case "thinking_end": {
			const { block, state } = active(message, states, frame.contentIndex, "thinking", frame.type);
			const thinking = block as ThinkingContent;
			thinking.thinking = frame.content;
			delete thinking.thinkingSignature;
			delete thinking.redacted;
			if (frame.thinkingSignature !== undefined) thinking.thinkingSignature = frame.thinkingSignature;
			if (frame.redacted !== undefined) thinking.redacted = frame.redacted;
			state.ended = true;
			return;
		}
		case "toolcall_start":
			if (frame.toolCall.type !== "toolCall") {
				throw new Error(`toolcall_start frame contains ${frame.toolCall.type} content`);
			}
			append(message, states, frame.contentIndex, frame.toolCall);
			return;
		case "toolcall_checkpoint": {
			const { block, state } = active(message, states, frame.contentIndex, "toolCall", frame.type);
			state.json = frame.json;
			(block as ToolCall).arguments = parseStreamingJson(frame.json);
			return;
		}
		case "toolcall_delta": {
			const { state } = active(message, states, frame.contentIndex, "toolCall", frame.type);
			state.json += frame.delta;
			return;
		}
		case "toolcall_end": {
			const { block, state } = active(message, states, frame.contentIndex, "toolCall", frame.type);
			const call = block as ToolCall;
			call.id = frame.id;
			call.name = frame.name;
			call.arguments = structuredClone(frame.arguments);
			delete call.thoughtSignature;
			delete call.namespace;
			if (frame.thoughtSignature !== undefined) call.thoughtSignature = frame.thoughtSignature;
			if (frame.namespace !== undefined) call.namespace = frame.namespace;
			state.ended = true;
			return;
		}
	}
}
