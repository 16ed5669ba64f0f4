/**
 * An in-process LLM for tests and demos (pi-ai's `registerFauxProvider`). Replies are scripted: a queue of assistant
 * messages (or factories that build one from the request) is consumed in request order, and each reply is streamed
 * through the same `MessageBuilder` the real providers use, so consumers see the same event sequence:
 * - text and thinking arrive as deltas of a few tokens each (≈ 4 characters per token; `tokenSize` sets how many
 *   tokens a chunk holds, picked at random within `{min, max}`, default 3–5);
 * - a tool call's arguments arrive as chunks of their JSON text and are parsed when the call closes;
 * - without `tokensPerSecond` each chunk is emitted on its own microtask; with it, chunks are paced in real time;
 * - usage is estimated at ≈ 1 token per 4 characters (input from the context, output from the reply). With a
 *   `sessionId` (and `cacheRetention` other than "none") a prompt cache is simulated: the part of the prompt shared
 *   with the previous request of that session counts as `cacheRead` and only the rest as `input` (the three never
 *   overlap, so `totalTokens` is always prompt + output; `cacheWrite` stays 0);
 * - an empty queue ends the stream with the error "No more faux responses queued"; a scripted message with stop
 *   reason "error" or "aborted" ends it with an error event carrying its `errorMessage`; aborting `options.signal`
 *   ends it with "aborted" and the content streamed so far.
 */
import { registerApiProvider, unregisterApiProviders } from "../registry.ts";
import type {
	Api,
	AssistantMessage,
	AssistantMessageEventStream,
	Context,
	Message,
	Model,
	SimpleStreamOptions,
	StreamOptions,
	TextContent,
	ThinkingContent,
	ToolCall,
	Usage,
} from "../types.ts";
import { emptyUsage } from "../usage.ts";
import type { MessageBuilder } from "./message-builder.ts";
import { runProviderStream } from "./run.ts";

export const FAUX_NO_MORE_RESPONSES = "No more faux responses queued";

const DEFAULT_API = "faux";
const DEFAULT_PROVIDER = "faux";
const DEFAULT_MODEL_ID = "faux-1";
const DEFAULT_MODEL_NAME = "Faux Model";
const DEFAULT_BASE_URL = "http://localhost:0";
const DEFAULT_TOKEN_SIZE = { min: 3, max: 5 };
const CHARS_PER_TOKEN = 4;

// ---- types -------------------------------------------------------------------------------------------------

export interface FauxModelDefinition {
	id: string;
	name?: string;
	reasoning?: boolean;
	input?: ("text" | "image")[];
	cost?: { input: number; output: number; cacheRead: number; cacheWrite: number };
	contextWindow?: number;
	maxTokens?: number;
}

export type FauxContentBlock = TextContent | ThinkingContent | ToolCall;

export interface FauxProviderState {
	/** Requests started so far (including ones that found the queue empty). */
	callCount: number;
}

export type FauxResponseFactory = (
	context: Context,
	options: SimpleStreamOptions | undefined,
	state: FauxProviderState,
	model: Model,
) => AssistantMessage | Promise<AssistantMessage>;

export type FauxResponseStep = AssistantMessage | FauxResponseFactory;

export interface RegisterFauxProviderOptions {
	/** The api id to register; default a fresh id starting with "faux:", so registrations never collide. */
	api?: string;
	/** The `provider` of the models; default "faux". */
	provider?: string;
	/** Default: one model "faux-1". */
	models?: FauxModelDefinition[];
	/** Pace chunks in real time at this rate; unset (or ≤ 0) = one microtask per chunk. */
	tokensPerSecond?: number;
	/** Tokens per streamed chunk (≈ 4 characters each): a fixed number or a random range. Default 3–5. */
	tokenSize?: number | { min?: number; max?: number };
}

export interface FauxProviderRegistration {
	api: string;
	models: [Model, ...Model[]];
	getModel(): Model;
	getModel(modelId: string): Model | undefined;
	state: FauxProviderState;
	/** Replaces the queued responses. */
	setResponses: (responses: FauxResponseStep[]) => void;
	appendResponses: (responses: FauxResponseStep[]) => void;
	getPendingResponseCount: () => number;
	/** Removes the api from the registry (idempotent); requests for it then fail as for any unknown api. */
	unregister: () => void;
}

// ---- content helpers ---------------------------------------------------------------------------------------

export function fauxText(text: string): TextContent {
	return { type: "text", text };
}

export function fauxThinking(thinking: string): ThinkingContent {
	return { type: "thinking", thinking };
}

let toolCallCounter = 0;

export function fauxToolCall(name: string, args: ToolCall["arguments"], options: { id?: string } = {}): ToolCall {
	const id = options.id ?? `call_faux_${(++toolCallCounter).toString(36)}_${Math.random().toString(36).slice(2, 10)}`;
	return { type: "toolCall", id, name, arguments: args };
}

export function fauxAssistantMessage(
	content: string | FauxContentBlock | FauxContentBlock[],
	options: {
		stopReason?: AssistantMessage["stopReason"];
		errorMessage?: string;
		responseId?: string;
		timestamp?: number;
	} = {},
): AssistantMessage {
	const blocks = typeof content === "string" ? [fauxText(content)] : Array.isArray(content) ? content : [content];
	const message: AssistantMessage = {
		role: "assistant",
		content: blocks,
		api: DEFAULT_API,
		provider: DEFAULT_PROVIDER,
		model: DEFAULT_MODEL_ID,
		usage: emptyUsage(),
		stopReason: options.stopReason ?? "stop",
		timestamp: options.timestamp ?? Date.now(),
	};
	if (options.errorMessage !== undefined) message.errorMessage = options.errorMessage;
	if (options.responseId !== undefined) message.responseId = options.responseId;
	return message;
}

// ---- registration ------------------------------------------------------------------------------------------

let registrationCounter = 0;

export function registerFauxProvider(options: RegisterFauxProviderOptions = {}): FauxProviderRegistration {
	const serial = ++registrationCounter;
	const api: Api = options.api ?? `${DEFAULT_API}:${serial}:${Math.random().toString(36).slice(2, 8)}`;
	const provider = options.provider ?? DEFAULT_PROVIDER;
	const sourceId = `faux-provider:${serial}`;
	const tokenRange = normalizeTokenSize(options.tokenSize);
	const tokensPerSecond = options.tokensPerSecond;

	const definitions: FauxModelDefinition[] =
		options.models && options.models.length > 0 ? options.models : [{ id: DEFAULT_MODEL_ID, name: DEFAULT_MODEL_NAME }];
	const models = definitions.map(
		(d): Model => ({
			id: d.id,
			name: d.name ?? d.id,
			api,
			provider,
			baseUrl: DEFAULT_BASE_URL,
			reasoning: d.reasoning ?? false,
			input: d.input ? [...d.input] : ["text", "image"],
			cost: d.cost ? { ...d.cost } : { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: d.contextWindow ?? 128_000,
			maxTokens: d.maxTokens ?? 16_384,
		}),
	) as [Model, ...Model[]];

	const state: FauxProviderState = { callCount: 0 };
	let queue: FauxResponseStep[] = [];
	/** sessionId → the prompt text of that session's previous request */
	const promptCache = new Map<string, string>();

	const streamFaux = (
		model: Model,
		context: Context,
		streamOptions?: SimpleStreamOptions,
	): AssistantMessageEventStream => {
		// Taken when the request starts, so concurrent requests get responses in the order they were made.
		const step = queue.shift();
		state.callCount++;
		return runProviderStream("faux", model, streamOptions, async (builder) => {
			await nextMicrotask();
			await streamOptions?.onResponse?.({ status: 200, headers: {} }, model);
			const prompt = estimatePrompt(serializeContext(context), streamOptions, promptCache);
			if (step === undefined) {
				builder.usage(prompt);
				builder.fail(FAUX_NO_MORE_RESPONSES);
				return;
			}
			let scripted: AssistantMessage;
			try {
				scripted = typeof step === "function" ? await step(context, streamOptions, state, model) : step;
			} catch (error) {
				builder.usage(prompt);
				builder.fail(error instanceof Error ? error.message : String(error));
				return;
			}
			if (!scripted || typeof scripted !== "object" || !Array.isArray(scripted.content)) {
				builder.usage(prompt);
				builder.fail("Faux response step did not produce an assistant message");
				return;
			}
			await replay(builder, structuredClone(scripted), prompt, {
				tokenRange,
				tokensPerSecond,
				signal: streamOptions?.signal,
			});
		});
	};

	registerApiProvider({ api, stream: streamFaux, streamSimple: streamFaux }, sourceId);

	function getModel(): Model;
	function getModel(modelId: string): Model | undefined;
	function getModel(modelId?: string): Model | undefined {
		if (modelId === undefined) return models[0];
		return models.find((m) => m.id === modelId);
	}

	return {
		api,
		models,
		getModel,
		state,
		setResponses(responses) {
			queue = [...responses];
		},
		appendResponses(responses) {
			queue.push(...responses);
		},
		getPendingResponseCount() {
			return queue.length;
		},
		unregister() {
			unregisterApiProviders(sourceId);
		},
	};
}

// ---- streaming ---------------------------------------------------------------------------------------------

interface TokenRange {
	min: number;
	max: number;
}

interface ReplayOptions {
	tokenRange: TokenRange;
	tokensPerSecond: number | undefined;
	signal: AbortSignal | undefined;
}

type PromptUsage = Pick<Usage, "input" | "cacheRead" | "cacheWrite">;

/** Streams the scripted message through the builder; ends with its stop reason, or "aborted" if the signal fires. */
async function replay(
	builder: MessageBuilder,
	scripted: AssistantMessage,
	prompt: PromptUsage,
	options: ReplayOptions,
): Promise<void> {
	const target = builder.message;
	if (typeof scripted.timestamp === "number") target.timestamp = scripted.timestamp;
	if (scripted.responseId !== undefined) target.responseId = scripted.responseId;
	if (scripted.responseModel !== undefined) target.responseModel = scripted.responseModel;

	const aborted = (): boolean => {
		if (!options.signal?.aborted) return false;
		builder.usage({ ...prompt, output: estimateTokens(assistantText(target.content)) });
		builder.fail("Request was aborted", "aborted");
		return true;
	};
	/** Emits `text` in chunks through `emit`; false if aborted on the way. */
	const chunked = async (text: string, emit: (chunk: string) => void): Promise<boolean> => {
		for (const chunk of splitIntoChunks(text, options.tokenRange)) {
			await pace(chunk, options.tokensPerSecond, options.signal);
			if (aborted()) return false;
			emit(chunk);
		}
		return true;
	};

	builder.start();
	for (const block of scripted.content) {
		if (aborted()) return;
		if (block.type === "text") {
			builder.text("", block.textSignature);
			if (!(await chunked(block.text ?? "", (c) => builder.text(c)))) return;
		} else if (block.type === "thinking") {
			if (block.redacted) {
				builder.redactedThinking(block.thinkingSignature ?? "");
				continue;
			}
			builder.thinking("", block.thinkingSignature);
			if (!(await chunked(block.thinking ?? "", (c) => builder.thinking(c)))) return;
		} else if (block.type === "toolCall") {
			builder.toolCall(
				block.id,
				block.name,
				block.thoughtSignature !== undefined ? { thoughtSignature: block.thoughtSignature } : undefined,
			);
			const json = JSON.stringify(block.arguments ?? {});
			if (!(await chunked(json, (c) => builder.toolArguments(c)))) return;
		} else {
			continue;
		}
		if (!builder.close()) return;
	}

	builder.usage({ ...prompt, output: estimateTokens(assistantText(scripted.content)) });
	const reason = scripted.stopReason;
	if (reason === "error" || reason === "aborted") {
		const fallback = reason === "aborted" ? "Request was aborted" : "Faux provider error";
		builder.fail(scripted.errorMessage ?? fallback, reason);
	} else {
		builder.finish(reason === "length" || reason === "toolUse" ? reason : "stop");
	}
}

function normalizeTokenSize(size: RegisterFauxProviderOptions["tokenSize"]): TokenRange {
	const positive = (n: number | undefined, fallback: number): number =>
		typeof n === "number" && Number.isFinite(n) && n > 0 ? n : fallback;
	if (typeof size === "number") {
		const fixed = positive(size, DEFAULT_TOKEN_SIZE.min);
		return { min: fixed, max: fixed };
	}
	const min = positive(size?.min, Math.min(DEFAULT_TOKEN_SIZE.min, positive(size?.max, DEFAULT_TOKEN_SIZE.min)));
	const max = Math.max(min, positive(size?.max, Math.max(DEFAULT_TOKEN_SIZE.max, min)));
	return { min, max };
}

function splitIntoChunks(text: string, range: TokenRange): string[] {
	const chunks: string[] = [];
	for (let at = 0; at < text.length; ) {
		const span = Math.floor(range.max - range.min);
		const tokens = span > 0 ? range.min + Math.floor(Math.random() * (span + 1)) : range.min;
		const size = Math.max(1, Math.round(tokens * CHARS_PER_TOKEN));
		chunks.push(text.slice(at, at + size));
		at += size;
	}
	return chunks;
}

/** Waits before a chunk: one microtask, or the chunk's share of real time at `tokensPerSecond` (cut short by abort). */
function pace(chunk: string, tokensPerSecond: number | undefined, signal: AbortSignal | undefined): Promise<void> {
	if (!tokensPerSecond || !(tokensPerSecond > 0)) return nextMicrotask();
	const ms = (estimateTokens(chunk) / tokensPerSecond) * 1000;
	return new Promise<void>((resolve) => {
		if (signal?.aborted) {
			resolve();
			return;
		}
		const done = (): void => {
			clearTimeout(timer);
			signal?.removeEventListener("abort", done);
			resolve();
		};
		const timer = setTimeout(done, ms);
		signal?.addEventListener("abort", done, { once: true });
	});
}

function nextMicrotask(): Promise<void> {
	return new Promise<void>((resolve) => queueMicrotask(resolve));
}

// ---- usage estimate ----------------------------------------------------------------------------------------

function estimateTokens(text: string): number {
	return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Input-side usage of a request; updates the session's simulated prompt cache. */
function estimatePrompt(
	promptText: string,
	options: StreamOptions | undefined,
	cache: Map<string, string>,
): PromptUsage {
	const total = estimateTokens(promptText);
	const sessionId = options?.sessionId;
	if (!sessionId || options?.cacheRetention === "none") return { input: total, cacheRead: 0, cacheWrite: 0 };
	const previous = cache.get(sessionId);
	cache.set(sessionId, promptText);
	if (previous === undefined) return { input: total, cacheRead: 0, cacheWrite: 0 };
	const shared = commonPrefixLength(previous, promptText);
	const cacheRead = Math.min(total, Math.floor(shared / CHARS_PER_TOKEN));
	return { input: total - cacheRead, cacheRead, cacheWrite: 0 };
}

function commonPrefixLength(a: string, b: string): number {
	const limit = Math.min(a.length, b.length);
	let i = 0;
	while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
	return i;
}

function serializeContext(context: Context): string {
	const parts: string[] = [];
	if (context.systemPrompt) parts.push(`system:${context.systemPrompt}`);
	for (const tool of context.tools ?? []) {
		parts.push(`tool:${tool.name}:${tool.description}:${JSON.stringify(tool.parameters)}`);
	}
	for (const message of context.messages ?? []) parts.push(`${message.role}:${messageText(message)}`);
	return parts.join("\n\n");
}

function messageText(message: Message): string {
	switch (message.role) {
		case "user":
			return typeof message.content === "string" ? message.content : partsText(message.content);
		case "assistant":
			return assistantText(message.content);
		case "toolResult":
			return `${message.toolName}\n${partsText(message.content)}`;
		default:
			return JSON.stringify(message);
	}
}

function partsText(parts: readonly { type: string; text?: string; mimeType?: string }[]): string {
	return parts.map((p) => (p.type === "text" ? (p.text ?? "") : `[${p.type}:${p.mimeType ?? ""}]`)).join("\n");
}

function assistantText(content: AssistantMessage["content"]): string {
	return content
		.map((b) => {
			if (b.type === "text") return b.text ?? "";
			if (b.type === "thinking") return b.thinking ?? "";
			if (b.type === "toolCall") return `${b.name}:${JSON.stringify(b.arguments ?? {})}`;
			return "";
		})
		.join("\n");
}
