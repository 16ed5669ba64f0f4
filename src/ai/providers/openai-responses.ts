/** Placeholder: being written. */
import { failedStream } from "../stream.ts";
import type { Context, Model, SimpleStreamOptions, StreamOptions } from "../types.ts";

export function streamOpenAIResponses(model: Model, _context: Context, _options?: StreamOptions) {
	return failedStream(model, "not implemented yet");
}

export function streamSimpleOpenAIResponses(model: Model, context: Context, options?: SimpleStreamOptions) {
	return streamOpenAIResponses(model, context, options);
}
