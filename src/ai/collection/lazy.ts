/** Streams whose setup (auth, loading an API module) is asynchronous but whose caller needs the stream now. */
import { AssistantMessageEventStreamImpl } from "../event-stream.ts";
import type {
	AssistantMessage,
	AssistantMessageEventStream,
	Model,
	SimpleStreamOptions,
	StreamOptions,
} from "../types.ts";
import { emptyUsage } from "../usage.ts";
import type { DeferredHandle, ProviderStreams } from "./types.ts";

/** The error message for a stream whose setup (auth, loading its module) failed before any request. */
export function setupFailure(model: Model, error: unknown): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: emptyUsage(),
		stopReason: "error",
		errorMessage: error instanceof Error ? error.message : String(error),
		timestamp: Date.now(),
	};
}

/**
 * A stream returned at once; `setup` produces the real stream, whose events are forwarded. A failing setup ends
 * the stream with one `error` event (stop reason "error", the failure's message).
 */
export function lazyStream(
	model: Model,
	setup: () => Promise<AssistantMessageEventStream>,
): AssistantMessageEventStream {
	const outer = new AssistantMessageEventStreamImpl();
	setup()
		.then(async (inner) => {
			for await (const event of inner) outer.push(event);
			outer.end(typeof inner.result === "function" ? await inner.result() : undefined);
		})
		.catch((error) => {
			const message = setupFailure(model, error);
			outer.push({ type: "error", reason: "error", error: message });
			outer.end(message);
		});
	return outer;
}

/**
 * An API whose implementation `load` imports on the first request. Deferred-response methods are offered only when
 * `capabilities` says the implementation has them.
 *
 * `loaded`, when given, returns the implementation once it is in memory: a request then gets its stream directly
 * instead of through a forwarding one (one async hand-off per event fewer). A synchronous throw still becomes the
 * stream's error event, as on the first request.
 */
export function lazyApi(
	load: () => Promise<ProviderStreams>,
	capabilities?: { fetchDeferred?: boolean; cancelDeferred?: boolean },
	loaded?: () => ProviderStreams | undefined,
): ProviderStreams {
	const direct = (
		open: (implementation: ProviderStreams) => AssistantMessageEventStream,
	): AssistantMessageEventStream | undefined => {
		const implementation = loaded?.();
		if (!implementation) return undefined;
		try {
			return open(implementation);
		} catch {
			return undefined;
		}
	};
	const api: ProviderStreams = {
		stream: (model, context, options?: StreamOptions) =>
			direct((i) => i.stream(model, context, options)) ??
			lazyStream(model, async () => (await load()).stream(model, context, options)),
		streamSimple: (model, context, options?: SimpleStreamOptions) =>
			direct((i) => i.streamSimple(model, context, options)) ??
			lazyStream(model, async () => (await load()).streamSimple(model, context, options)),
	};
	if (capabilities?.fetchDeferred) {
		api.fetchDeferred = (model, handle: DeferredHandle, options) =>
			lazyStream(model, async () => {
				const implementation = await load();
				if (!implementation.fetchDeferred) throw new Error("API does not support deferred responses");
				return implementation.fetchDeferred(model, handle, options);
			});
	}
	if (capabilities?.cancelDeferred) {
		api.cancelDeferred = async (model, handle, options) => {
			const implementation = await load();
			if (!implementation.cancelDeferred) throw new Error("API cannot cancel deferred responses");
			await implementation.cancelDeferred(model, handle, options);
		};
	}
	return api;
}
