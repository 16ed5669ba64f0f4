/**
 * The faux provider's engine (pi-ai 0.87.1's `createFauxCore`): models, a queue of scripted replies and the
 * stream functions, not registered anywhere. `registerFauxProvider` puts it in the global API registry,
 * `fauxProvider` wraps it as a `Provider` for `createModels`. Requests with `deferred` get a handle first (stop
 * reason "deferred"); `fetchDeferred` then answers "still deferred" `pendingFetches` times before the reply.
 */
import type { DeferredFetchOptions, DeferredHandle } from "../collection/types.ts";
import { AssistantMessageEventStreamImpl } from "../event-stream.ts";
import type { AssistantMessage, AssistantMessageEventStream, Context, Model, SimpleStreamOptions } from "../types.ts";
import { emptyUsage } from "../usage.ts";
import type { FauxProviderState, FauxResponseStep, RegisterFauxProviderOptions } from "./faux.ts";
import { estimatePrompt, nextMicrotask, normalizeTokenSize, replay, serializeContext } from "./faux-replay.ts";
import { runProviderStream } from "./run.ts";

export const FAUX_NO_MORE_RESPONSES = "No more faux responses queued";
export const DEFAULT_API = "faux";
export const DEFAULT_PROVIDER = "faux";
export const DEFAULT_MODEL_ID = "faux-1";
const DEFAULT_MODEL_NAME = "Faux Model";
const DEFAULT_BASE_URL = "http://localhost:0";

interface DeferredEntry {
	handle: DeferredHandle;
	step: FauxResponseStep;
	context: Context;
	options: SimpleStreamOptions | undefined;
	model: Model;
	pendingFetches: number;
	cancelled: boolean;
	/** The reply once a fetch produced it: later fetches replay the same message. */
	final?: AssistantMessage;
}

let serial = 0;
const randomSuffix = () => Math.random().toString(36).slice(2);

function deferredMessage(model: Model, handle: DeferredHandle): AssistantMessage {
	const message = {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: emptyUsage(),
		stopReason: "deferred",
		deferred: handle,
		timestamp: Date.now(),
	};
	return message as unknown as AssistantMessage;
}

/** A stream of just `start` and `done` for a deferred answer. */
function deferredStream(message: AssistantMessage): AssistantMessageEventStream {
	const stream = new AssistantMessageEventStreamImpl();
	queueMicrotask(() => {
		stream.push({ type: "start", partial: { ...message, stopReason: "pending" } });
		stream.push({ type: "done", reason: message.stopReason as "stop", message });
		stream.end(message);
	});
	return stream;
}

export function createFauxCore(options: RegisterFauxProviderOptions) {
	const api = options.api ?? `${DEFAULT_API}:${++serial}:${randomSuffix().slice(0, 6)}`;
	const provider = options.provider ?? DEFAULT_PROVIDER;
	const tokenRange = normalizeTokenSize(options.tokenSize);
	const tokensPerSecond = options.tokensPerSecond;
	const definitions =
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
	const state: FauxProviderState = { callCount: 0, deferredFetchCount: 0, cancelledDeferred: [] };
	let queue: FauxResponseStep[] = [];
	/** sessionId → the prompt text of that session's previous request */
	const promptCache = new Map<string, string>();
	const deferred = new Map<string, DeferredEntry>();

	/** Streams the reply `step` gives for this request (or the "queue empty" error when there is none). */
	const respond = (
		model: Model,
		context: Context,
		streamOptions: SimpleStreamOptions | undefined,
		step: FauxResponseStep | undefined,
		signal: AbortSignal | undefined,
		onResponse: SimpleStreamOptions["onResponse"],
	) =>
		runProviderStream("faux", model, { ...streamOptions, signal }, async (builder) => {
			await nextMicrotask();
			await onResponse?.({ status: 200, headers: {} }, model);
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
			await replay(builder, structuredClone(scripted), prompt, { tokenRange, tokensPerSecond, signal });
		});

	const stream = (model: Model, context: Context, streamOptions?: SimpleStreamOptions): AssistantMessageEventStream => {
		// Taken when the request starts, so concurrent requests get responses in the order they were made.
		const step = queue.shift();
		state.callCount++;
		if (streamOptions?.deferred && step !== undefined) {
			const handle: DeferredHandle = {
				provider: model.provider,
				modelId: model.id,
				api: model.api,
				id: `deferred:${Date.now()}:${randomSuffix()}`,
				...(options.deferred?.pollAfterMs !== undefined ? { pollAfterMs: options.deferred.pollAfterMs } : {}),
			};
			const pendingFetches = Math.max(0, Math.floor(options.deferred?.pendingFetches ?? 0));
			deferred.set(handle.id, {
				handle,
				step,
				context,
				options: streamOptions,
				model,
				pendingFetches,
				cancelled: false,
			});
			const ready = (async () => {
				await nextMicrotask();
				await streamOptions.onResponse?.({ status: 200, headers: {} }, model);
			})();
			return chain(ready, () => deferredStream(deferredMessage(model, handle)), model);
		}
		return respond(model, context, streamOptions, step, streamOptions?.signal, streamOptions?.onResponse);
	};

	const fetchDeferred = (model: Model, handle: DeferredHandle, fetchOptions?: DeferredFetchOptions) => {
		state.deferredFetchCount++;
		return chain(
			nextMicrotask(),
			() => {
				const entry = deferred.get(handle.id);
				const same =
					entry &&
					entry.handle.provider === handle.provider &&
					entry.handle.modelId === handle.modelId &&
					entry.handle.api === handle.api;
				if (!same) throw new Error(`Unknown faux deferred response: ${handle.id}`);
				if (entry.cancelled) throw new Error(`Faux deferred response was cancelled: ${handle.id}`);
				const onResponse = fetchOptions?.onResponse;
				if (entry.pendingFetches > 0) {
					entry.pendingFetches--;
					const ready = Promise.resolve(onResponse?.({ status: 200, headers: {} }, model)).then(() => {});
					return chain(ready, () => deferredStream(deferredMessage(model, entry.handle)), model);
				}
				const { deferred: _d, signal: _s, onResponse: _r, ...submission } = entry.options ?? {};
				const original = entry.step;
				const step: FauxResponseStep =
					entry.final ??
					(async (context, options, fauxState, model) => {
						entry.final =
							typeof original === "function" ? await original(context, options, fauxState, model) : original;
						return entry.final;
					});
				return respond(entry.model, entry.context, submission, step, fetchOptions?.signal, onResponse);
			},
			model,
		);
	};

	const cancelDeferred = async (model: Model, handle: DeferredHandle, cancelOptions?: DeferredFetchOptions) => {
		state.cancelledDeferred.push(structuredClone(handle));
		const entry = deferred.get(handle.id);
		if (entry) entry.cancelled = true;
		await cancelOptions?.onResponse?.({ status: 200, headers: {} }, model);
	};

	function getModel(): Model;
	function getModel(modelId: string): Model | undefined;
	function getModel(modelId?: string): Model | undefined {
		return modelId === undefined ? models[0] : models.find((m) => m.id === modelId);
	}

	return {
		api,
		provider,
		models,
		stream,
		streamSimple: stream,
		fetchDeferred,
		cancelDeferred,
		getModel,
		state,
		setResponses(responses: FauxResponseStep[]) {
			queue = [...responses];
		},
		appendResponses(responses: FauxResponseStep[]) {
			queue.push(...responses);
		},
		getPendingResponseCount() {
			return queue.length;
		},
	};
}

/** A stream that waits for `ready`, then forwards the stream `next` makes; a failure becomes an error event. */
function chain(
	ready: Promise<void>,
	next: () => AssistantMessageEventStream,
	model: Model,
): AssistantMessageEventStream {
	const outer = new AssistantMessageEventStreamImpl();
	ready
		.then(async () => {
			const inner = next();
			for await (const event of inner) outer.push(event);
			outer.end(await inner.result());
		})
		.catch((error) => {
			const message: AssistantMessage = {
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
			outer.push({ type: "error", reason: "error", error: message });
			outer.end(message);
		});
	return outer;
}
