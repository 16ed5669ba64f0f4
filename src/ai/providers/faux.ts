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
	Model,
	SimpleStreamOptions,
	TextContent,
	ThinkingContent,
	ToolCall,
} from "../types.ts";
import { emptyUsage } from "../usage.ts";
import { estimatePrompt, nextMicrotask, normalizeTokenSize, replay, serializeContext } from "./faux-replay.ts";
import { runProviderStream } from "./run.ts";

export const FAUX_NO_MORE_RESPONSES = "No more faux responses queued";

const DEFAULT_API = "faux";
const DEFAULT_PROVIDER = "faux";
const DEFAULT_MODEL_ID = "faux-1";
const DEFAULT_MODEL_NAME = "Faux Model";
const DEFAULT_BASE_URL = "http://localhost:0";

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
