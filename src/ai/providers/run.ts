/**
 * The frame every provider stream runs in: creates the event stream and the message builder, runs the provider's
 * body, and turns whatever goes wrong into the one final `error` event. The body returns when the response ends;
 * if it ended without a stop event the connection was cut and the partial content is kept with an error.
 */
import { createAssistantMessageEventStream } from "../event-stream.ts";
import { ProviderError } from "../http.ts";
import type { AssistantMessageEventStream, Model, StreamOptions } from "../types.ts";
import { MessageBuilder } from "./message-builder.ts";

export function runProviderStream(
	providerName: string,
	model: Model,
	options: StreamOptions | undefined,
	body: (builder: MessageBuilder) => Promise<void>,
): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const builder = new MessageBuilder(model, stream);
	void (async () => {
		try {
			if (options?.signal?.aborted) throw new Error("aborted before the request was sent");
			await body(builder);
			if (!builder.finished) {
				if (options?.signal?.aborted) builder.fail("Request was aborted", "aborted");
				else builder.fail(`${providerName} stream ended before the response was complete (connection closed)`);
			}
		} catch (error) {
			if (options?.signal?.aborted) builder.fail("Request was aborted", "aborted");
			else builder.fail(describeFailure(providerName, error, options));
		}
	})();
	return stream;
}

function describeFailure(providerName: string, error: unknown, options: StreamOptions | undefined): string {
	if (error instanceof ProviderError) return error.message;
	const e = error as { name?: string; message?: string; code?: string };
	if (e?.name === "IdleTimeoutError") return `${providerName} ${e.message}`;
	if (e?.name === "TimeoutError") return `${providerName} request timed out after ${options?.timeoutMs} ms`;
	const message = e?.message ?? String(error);
	return `${providerName} connection error: ${message}${e?.code && !message.includes(e.code) ? ` (${e.code})` : ""}`;
}

/** Parses one SSE data payload; a malformed one is a protocol error naming the provider. */
export function parseEventJson(providerName: string, data: string): any {
	try {
		return JSON.parse(data);
	} catch {
		throw new ProviderError(`${providerName} sent malformed stream data: ${data.slice(0, 200)}`);
	}
}
