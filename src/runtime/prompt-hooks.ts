/**
 * The extension side of the prompt pipeline (see prompt-input.ts): `input` (source and streaming behaviour passed
 * on; a transform chains, `handled` stops the prompt; an aborted caller abandons a handler that never settles) and
 * `before_agent_start` (every handler's messages collected; handlers edit the run's prompt options in place).
 */
import type { ExtensionRunner } from "../extensions/index.ts";
import { customMessage, type PromptHooks } from "./prompt-input.ts";
import { buildSystemPrompt } from "./system-prompt.ts";

export function createPromptHooks(runner: ExtensionRunner, context: () => unknown): PromptHooks {
	return {
		async input(text, images, source, streamingBehavior, signal) {
			const original = { text, ...(images ? { images } : {}) };
			if (!runner.hasHandlers("input")) return original;
			const input = await runner.emit(
				"input",
				{ text, source, ...(images ? { images } : {}), ...(streamingBehavior ? { streamingBehavior } : {}) },
				context() as never,
				{ signal },
			);
			if (input.action === "handled") return undefined;
			if (input.action !== "transform") return original;
			const transformed = input.images ?? images;
			return { text: input.text, ...(transformed ? { images: transformed } : {}) };
		},
		async beforeAgentStart(text, images, options, signal) {
			if (!runner.hasHandlers("before_agent_start")) return { messages: [] };
			const payload = {
				prompt: text,
				...(images ? { images } : {}),
				// The prompt as the options render it now (a handler's edits and forced prompt included).
				get systemPrompt() {
					return buildSystemPrompt(options);
				},
				systemPromptOptions: options,
			};
			const outcome = await runner.emit("before_agent_start", payload as never, context() as never, { signal });
			return { messages: outcome.messages.map(customMessage) };
		},
	};
}
