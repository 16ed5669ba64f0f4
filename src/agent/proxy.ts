/**
 * `streamProxy`: a stream function for apps whose LLM calls go through their own server. It POSTs
 * `{ model, context, options }` to `<proxyUrl>/api/stream` with a bearer token and reads `data: <json>` lines of
 * slimmed events (no `partial`), rebuilding the partial assistant message on this side. Failures, aborts and a
 * stream that ends without `done`/`error` all end in one `error` event.
 */
import {
	type AssistantMessage,
	type AssistantMessageEvent,
	createAssistantMessageEventStream,
	emptyUsage,
	type Model,
	parseStreamingJson,
	type SimpleStreamOptions,
	type StopReason,
	type ToolCall,
} from "../ai/index.ts";
import type { AgentContext } from "./types.ts";

export type ProxyAssistantMessageEvent =
	| { type: "start" }
	| { type: "text_start"; contentIndex: number }
	| { type: "text_delta"; contentIndex: number; delta: string }
	| { type: "text_end"; contentIndex: number; contentSignature?: string }
	| { type: "thinking_start"; contentIndex: number }
	| { type: "thinking_delta"; contentIndex: number; delta: string }
	| { type: "thinking_end"; contentIndex: number; contentSignature?: string }
	| { type: "toolcall_start"; contentIndex: number; id: string; toolName: string }
	| { type: "toolcall_delta"; contentIndex: number; delta: string }
	| { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall }
	| {
			type: "done";
			reason: Extract<StopReason, "stop" | "length" | "toolUse">;
			usage: AssistantMessage["usage"];
			providerThinkingLevel?: string;
	  }
	| {
			type: "error";
			reason: Extract<StopReason, "aborted" | "error">;
			errorMessage?: string;
			usage: AssistantMessage["usage"];
			providerThinkingLevel?: string;
	  };

const FORWARDED_OPTIONS = [
	"temperature",
	"samplingParams",
	"maxTokens",
	"reasoning",
	"cacheRetention",
	"sessionId",
	"headers",
	"metadata",
	"transport",
	"thinkingBudgets",
	"maxRetryDelayMs",
] as const;

export interface ProxyStreamOptions {
	temperature?: number;
	samplingParams?: Record<string, unknown>;
	maxTokens?: number;
	reasoning?: SimpleStreamOptions["reasoning"];
	cacheRetention?: SimpleStreamOptions["cacheRetention"];
	sessionId?: string;
	headers?: Record<string, string>;
	metadata?: Record<string, unknown>;
	transport?: string;
	thinkingBudgets?: SimpleStreamOptions["thinkingBudgets"];
	maxRetryDelayMs?: number;
	signal?: AbortSignal;
	authToken: string;
	proxyUrl: string;
}

type Partial = AssistantMessage & Record<string, unknown>;

function contentAt<K extends string>(partial: Partial, index: number, type: K, event: string) {
	const block = partial.content[index] as ({ type: string } & Record<string, unknown>) | undefined;
	if (block?.type !== type) throw new Error(`Received ${event} for non-${type} content`);
	return block;
}

/** Applies one proxy event to the partial message and returns the full event to emit (none for a stray end). */
function rebuild(event: ProxyAssistantMessageEvent, partial: Partial): AssistantMessageEvent | undefined {
	const content = partial.content as unknown as Record<string, unknown>[];
	switch (event.type) {
		case "start":
			return { type: "start", partial };
		case "text_start":
			content[event.contentIndex] = { type: "text", text: "" };
			return { type: "text_start", contentIndex: event.contentIndex, partial };
		case "text_delta": {
			const block = contentAt(partial, event.contentIndex, "text", "text_delta");
			block.text = `${block.text}${event.delta}`;
			return { type: "text_delta", contentIndex: event.contentIndex, delta: event.delta, partial };
		}
		case "text_end": {
			const block = contentAt(partial, event.contentIndex, "text", "text_end");
			block.textSignature = event.contentSignature;
			return { type: "text_end", contentIndex: event.contentIndex, content: block.text as string, partial };
		}
		case "thinking_start":
			content[event.contentIndex] = { type: "thinking", thinking: "" };
			return { type: "thinking_start", contentIndex: event.contentIndex, partial };
		case "thinking_delta": {
			const block = contentAt(partial, event.contentIndex, "thinking", "thinking_delta");
			block.thinking = `${block.thinking}${event.delta}`;
			return { type: "thinking_delta", contentIndex: event.contentIndex, delta: event.delta, partial };
		}
		case "thinking_end": {
			const block = contentAt(partial, event.contentIndex, "thinking", "thinking_end");
			block.thinkingSignature = event.contentSignature;
			return { type: "thinking_end", contentIndex: event.contentIndex, content: block.thinking as string, partial };
		}
		case "toolcall_start":
			content[event.contentIndex] = {
				type: "toolCall",
				id: event.id,
				name: event.toolName,
				arguments: {},
				partialJson: "",
			};
			return { type: "toolcall_start", contentIndex: event.contentIndex, partial };
		case "toolcall_delta": {
			const block = contentAt(partial, event.contentIndex, "toolCall", "toolcall_delta");
			const json = `${block.partialJson}${event.delta}`;
			content[event.contentIndex] = { ...block, partialJson: json, arguments: parseStreamingJson(json) || {} };
			return { type: "toolcall_delta", contentIndex: event.contentIndex, delta: event.delta, partial };
		}
		case "toolcall_end": {
			const block = content[event.contentIndex];
			if (block?.type !== "toolCall") return undefined;
			Object.assign(block, event.toolCall);
			delete block.partialJson;
			return {
				type: "toolcall_end",
				contentIndex: event.contentIndex,
				toolCall: block as unknown as ToolCall,
				partial,
			};
		}
		case "done":
		case "error": {
			partial.stopReason = event.reason;
			partial.usage = event.usage;
			if (event.type === "error") partial.errorMessage = event.errorMessage;
			if (event.providerThinkingLevel !== undefined) partial.providerThinkingLevel = event.providerThinkingLevel;
			return event.type === "done"
				? { type: "done", reason: event.reason, message: partial }
				: { type: "error", reason: event.reason, error: partial };
		}
		default:
			console.warn(`Unhandled proxy event type: ${(event as { type: string }).type}`);
			return undefined;
	}
}

export function streamProxy(model: Model, context: AgentContext | object, options: ProxyStreamOptions) {
	const stream = createAssistantMessageEventStream();
	const partial: Partial = {
		role: "assistant",
		stopReason: "pending" as StopReason,
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: emptyUsage(),
		timestamp: Date.now(),
	};
	const signal = options.signal;
	let reader:
		| { cancel(reason?: unknown): Promise<void>; read(): Promise<{ done: boolean; value?: Uint8Array }> }
		| undefined;
	const onAbort = () => void reader?.cancel("Request aborted by user").catch(() => {});
	signal?.addEventListener("abort", onAbort);
	const forwarded: Record<string, unknown> = {};
	for (const key of FORWARDED_OPTIONS) forwarded[key] = options[key];
	void (async () => {
		try {
			const response = await fetch(`${options.proxyUrl}/api/stream`, {
				method: "POST",
				headers: { Authorization: `Bearer ${options.authToken}`, "Content-Type": "application/json" },
				body: JSON.stringify({ model, context, options: forwarded }),
				signal,
			});
			if (!response.ok) {
				let message = `Proxy error: ${response.status} ${response.statusText}`;
				try {
					const body = (await response.json()) as { error?: string };
					if (body.error) message = `Proxy error: ${body.error}`;
				} catch {
					// no JSON error body: keep the status line
				}
				throw new Error(message);
			}
			if (!response.body) throw new Error("Proxy response has no body");
			const body = response.body.getReader();
			reader = body;
			const decoder = new TextDecoder();
			let pending = "";
			let ended = false;
			const handle = (line: string) => {
				if (!line.startsWith("data: ")) return;
				const data = line.slice(6).trim();
				if (!data) return;
				const event = rebuild(JSON.parse(data) as ProxyAssistantMessageEvent, partial);
				if (!event) return;
				if (event.type === "done" || event.type === "error") ended = true;
				stream.push(event);
			};
			for (;;) {
				const { done, value } = await body.read();
				if (done) break;
				if (signal?.aborted) throw new Error("Request aborted by user");
				pending += decoder.decode(value, { stream: true });
				const lines = pending.split("\n");
				pending = lines.pop() ?? "";
				for (const line of lines) handle(line);
			}
			if (signal?.aborted) throw new Error("Request aborted by user");
			pending += decoder.decode();
			if (pending) handle(pending);
			if (!ended) {
				partial.stopReason = "error";
				partial.errorMessage = "Connection closed by proxy server before the response completed";
				stream.push({ type: "error", reason: "error", error: partial });
			}
			stream.end();
		} catch (error) {
			const reason = signal?.aborted ? "aborted" : "error";
			partial.stopReason = reason;
			partial.errorMessage = error instanceof Error ? error.message : String(error);
			stream.push({ type: "error", reason, error: partial });
			stream.end();
		} finally {
			signal?.removeEventListener("abort", onAbort);
		}
	})();
	return stream;
}
