/** Placeholder: being written. */
import { failedStream } from "../stream.ts";
import type { Context, Model, SimpleStreamOptions, StreamOptions } from "../types.ts";

export function streamGoogle(model: Model, _context: Context, _options?: StreamOptions) {
	return failedStream(model, "not implemented yet");
}

export function streamSimpleGoogle(model: Model, context: Context, options?: SimpleStreamOptions) {
	return streamGoogle(model, context, options);
}
