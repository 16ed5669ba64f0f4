/**
 * The global facade (pi-ai's compat API): dispatch on `model.api` through the registry, with the provider's key
 * taken from the environment when the caller gives none. Never throws: an unknown API ends the stream with an
 * error event like any other failure.
 */
import { getEnvApiKey } from "./env-keys.ts";
import { createAssistantMessageEventStream } from "./event-stream.ts";
import { getApiProvider, isBuiltinApiProvider } from "./registry.ts";
import { getCurrentSystemMessage, getSystemMessageText, normalizeContext } from "./transcript.ts";
import type {
	ApiProvider,
	AssistantMessage,
	AssistantMessageEventStream,
	Context,
	Model,
	SimpleStreamOptions,
	StreamOptions,
} from "./types.ts";
import { emptyUsage } from "./usage.ts";

function withKey<T extends StreamOptions>(model: Model, options: T | undefined): T {
	if (options?.apiKey) return options;
	const apiKey = getEnvApiKey(model.provider);
	return (apiKey ? { ...options, apiKey } : { ...options }) as T;
}

export function stream(model: Model, context: Context, options?: StreamOptions): AssistantMessageEventStream {
	const provider = getApiProvider(model.api);
	if (!provider) return failedStream(model, `No API provider registered for api "${model.api}"`);
	return provider.stream(model, forProvider(provider, context), withKey(model, options));
}

export function streamSimple(
	model: Model,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	const provider = getApiProvider(model.api);
	if (!provider) return failedStream(model, `No API provider registered for api "${model.api}"`);
	return provider.streamSimple(model, forProvider(provider, context), withKey(model, options));
}

/**
 * Registered providers get pi 0.86+'s transcript context: the prompt and tools as system messages leading the
 * messages. `systemPrompt` and `tools` stay beside them, replayed, for providers written for older pi. Ours read
 * either form (`requestView`).
 */
function forProvider(provider: ApiProvider, context: Context): Context {
	if (isBuiltinApiProvider(provider)) return context;
	const messages = normalizeContext(context).messages;
	const head = getCurrentSystemMessage(messages);
	const systemPrompt = head ? getSystemMessageText(head) : undefined;
	return {
		messages,
		...(systemPrompt ? { systemPrompt } : {}),
		...(head?.toolsAdded?.length ? { tools: head.toolsAdded } : {}),
	};
}

export function complete(model: Model, context: Context, options?: StreamOptions): Promise<AssistantMessage> {
	return stream(model, context, options).result();
}

export function completeSimple(
	model: Model,
	context: Context,
	options?: SimpleStreamOptions,
): Promise<AssistantMessage> {
	return streamSimple(model, context, options).result();
}

/** A stream that ends at once with an error message (for failures before any provider is involved). */
export function failedStream(model: Model, errorMessage: string): AssistantMessageEventStream {
	const s = createAssistantMessageEventStream();
	const error: AssistantMessage = {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: emptyUsage(),
		stopReason: "error",
		errorMessage,
		timestamp: Date.now(),
	};
	s.push({ type: "error", reason: "error", error });
	s.end();
	return s;
}
