/**
 * JSON mode (`--mode json`): the session header, then every session event as one JSON line (message updates in
 * their delta-only wire form). Exit code 0 even when the model call failed: the failure is in the stream.
 */
import { type SessionListener, toWireEvent } from "../runtime/index.ts";
import { type RunPromptsOptions, runPrompts } from "./prompts.ts";

export interface JsonModeOptions extends RunPromptsOptions {
	header: Record<string, unknown>;
	/** Session events of the current session, whichever it is. */
	subscribe(listener: SessionListener): () => void;
	stdout: (text: string) => void;
}

export async function runJsonMode(options: JsonModeOptions): Promise<number> {
	options.stdout(`${JSON.stringify(options.header)}\n`);
	const unsubscribe = options.subscribe((event) => {
		options.stdout(`${JSON.stringify(toWireEvent(event as { type: string }))}\n`);
	});
	try {
		await runPrompts(options);
	} finally {
		unsubscribe();
	}
	return 0;
}
