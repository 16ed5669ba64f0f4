/** Placeholder: being written. */
import { failedStream } from "../stream.ts";
import type { Context, Model, SimpleStreamOptions, StreamOptions } from "../types.ts";

export function streamOpenAICompletions(model: Model, _context: Context, _options?: StreamOptions) {
	return failedStream(model, "not implemented yet");
}

export function streamSimpleOpenAICompletions(model: Model, context: Context, options?: SimpleStreamOptions) {
	return streamOpenAICompletions(model, context, options);
}
