/**
 * The `pi-messages` API as registered at start-up: its stream code (`pi-messages.ts`) is imported the first time a
 * request is made, so runs that never use the Radius gateway do not load it. The returned stream forwards every
 * event of the real one; a failure to load ends it with an error message.
 */
import { setupFailure } from "../collection/lazy.ts";
import { createAssistantMessageEventStream } from "../event-stream.ts";
import type { ApiProvider, AssistantMessageEventStream, Context, Model, SimpleStreamOptions } from "../types.ts";

export type { PiMessagesEvent, PiMessagesOptions, PiMessagesRewriteImpact } from "./pi-messages.ts";

type Entry = "streamPiMessages" | "streamSimplePiMessages";

/** The stream module once a request has loaded it: later requests use it directly (no forwarding stream). */
let loaded: typeof import("./pi-messages.ts") | undefined;

function deferred(entry: Entry) {
	return (model: Model, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream => {
		if (loaded) {
			try {
				return loaded[entry](model, context, options);
			} catch {
				// A synchronous failure: the forwarding path below turns it into the stream's error event.
			}
		}
		const outer = createAssistantMessageEventStream();
		void (async () => {
			try {
				const module = await import("./pi-messages.ts");
				loaded = module;
				for await (const event of module[entry](model, context, options)) outer.push(event);
			} catch (error) {
				outer.push({ type: "error", reason: "error", error: setupFailure(model, error) });
			}
			outer.end();
		})();
		return outer;
	};
}

const PROVIDER: ApiProvider = {
	api: "pi-messages",
	stream: deferred("streamPiMessages"),
	streamSimple: deferred("streamSimplePiMessages"),
};

/** pi's `piMessagesApi()`: the API's `stream` / `streamSimple` pair. */
export const piMessagesApi = (): ApiProvider => PROVIDER;
