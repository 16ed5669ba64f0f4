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
import { createProvider } from "../collection/provider.ts";
import type { DeferredHandle } from "../collection/types.ts";
import { registerApiProvider, unregisterApiProviders } from "../registry.ts";
import type {
	AssistantMessage,
	Context,
	Model,
	SimpleStreamOptions,
	TextContent,
	ThinkingContent,
	ToolCall,
} from "../types.ts";
import { emptyUsage } from "../usage.ts";
import { createFauxCore, DEFAULT_API, DEFAULT_MODEL_ID, DEFAULT_PROVIDER } from "./faux-core.ts";

export { createFauxCore, FAUX_NO_MORE_RESPONSES } from "./faux-core.ts";

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
	/** `fetchDeferred` calls so far. */
	deferredFetchCount: number;
	/** Handles passed to `cancelDeferred`, in order. */
	cancelledDeferred: DeferredHandle[];
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
	/** With `deferred` requests: how many fetches answer "still deferred" first, and the poll hint of handles. */
	deferred?: { pendingFetches?: number; pollAfterMs?: number };
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

export function fauxToolCall(name: string, args: ToolCall["arguments"], options: { id?: string } = {}): ToolCall {
	const id = options.id ?? `tool:${Date.now()}:${Math.random().toString(36).slice(2)}`;
	return { type: "toolCall", id, name, arguments: args };
}

export function fauxAssistantMessage(
	content: string | FauxContentBlock | FauxContentBlock[],
	options: {
		stopReason?: AssistantMessage["stopReason"] | "deferred";
		deferred?: DeferredHandle;
		errorMessage?: string;
		responseId?: string;
		timestamp?: number;
	} = {},
): AssistantMessage {
	const blocks = typeof content === "string" ? [fauxText(content)] : Array.isArray(content) ? content : [content];
	return {
		role: "assistant",
		content: blocks,
		api: DEFAULT_API,
		provider: DEFAULT_PROVIDER,
		model: DEFAULT_MODEL_ID,
		usage: emptyUsage(),
		stopReason: (options.stopReason ?? "stop") as AssistantMessage["stopReason"],
		...(options.deferred === undefined ? {} : { deferred: options.deferred }),
		...(options.errorMessage === undefined ? {} : { errorMessage: options.errorMessage }),
		...(options.responseId === undefined ? {} : { responseId: options.responseId }),
		timestamp: options.timestamp ?? Date.now(),
	};
}

// ---- registration ------------------------------------------------------------------------------------------

export function registerFauxProvider(options: RegisterFauxProviderOptions = {}): FauxProviderRegistration {
	const core = createFauxCore(options);
	const sourceId = `faux-provider:${core.api}`;
	registerApiProvider({ api: core.api, stream: core.stream, streamSimple: core.streamSimple }, sourceId);
	const {
		provider: _provider,
		stream: _stream,
		streamSimple: _simple,
		fetchDeferred: _f,
		cancelDeferred: _c,
		...rest
	} = core;
	return { ...rest, unregister: () => unregisterApiProviders(sourceId) };
}

/**
 * The faux provider as a `Provider` for explicit collections (`createModels().setProvider(faux.provider)`); its
 * api-key auth always resolves (no key needed).
 */
export function fauxProvider(options: RegisterFauxProviderOptions = {}) {
	const core = createFauxCore(options);
	const provider = createProvider({
		id: core.provider,
		auth: { apiKey: { name: "Faux", resolve: async () => ({ auth: {} }) } },
		models: core.models,
		api: {
			stream: core.stream,
			streamSimple: core.streamSimple,
			fetchDeferred: core.fetchDeferred,
			cancelDeferred: core.cancelDeferred,
		},
	});
	const {
		stream: _stream,
		streamSimple: _simple,
		fetchDeferred: _f,
		cancelDeferred: _c,
		provider: _id,
		...rest
	} = core;
	return { provider, ...rest };
}
