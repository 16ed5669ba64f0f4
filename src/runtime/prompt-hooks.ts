/**
 * The extension side of the prompt pipeline (see prompt-input.ts): `input` (source and streaming behaviour passed
 * on; a transform chains, `handled` stops the prompt; an aborted caller abandons a handler that never settles) and
 * `before_agent_start` (every handler's messages collected, the system prompt chained, for this run only).
 */
import type { ExtensionRunner } from "../extensions/index.ts";
import { customMessage, type PromptHooks } from "./prompt-input.ts";

export function createPromptHooks(
	runner: ExtensionRunner,
	context: () => unknown,
	systemPromptOptions: () => Record<string, unknown>,
): PromptHooks {
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
		async beforeAgentStart(text, images, systemPrompt, signal) {
			if (!runner.hasHandlers("before_agent_start")) return { messages: [] };
			const outcome = await runner.emit(
				"before_agent_start",
				{
					prompt: text,
					...(images ? { images } : {}),
					systemPrompt,
					systemPromptOptions: systemPromptOptions(),
				} as never,
				context() as never,
				{ signal },
			);
			const messages = outcome.messages.map(customMessage);
			return { messages, ...(outcome.systemPrompt !== undefined ? { systemPrompt: outcome.systemPrompt } : {}) };
		},
	};
}
