/**
 * A stream function for agent tests: each call takes the next scripted reply (or a function of the context) and
 * streams it through the real MessageBuilder, so the event sequence matches real providers.
 */
import {
	type AssistantMessage,
	type Context,
	createAssistantMessageEventStream,
	MessageBuilder,
	type Model,
	type SimpleStreamOptions,
} from "../../src/ai/index.ts";

export interface ScriptedReply {
	text?: string;
	thinking?: string;
	toolCalls?: Array<{ id?: string; name: string; args: Record<string, unknown> }>;
	error?: string;
	/** Wait for this long before finishing (abort tests). */
	delayMs?: number;
}

export type ScriptStep = ScriptedReply | ((context: Context, options?: SimpleStreamOptions) => ScriptedReply);

export const testModel: Model = {
	id: "test-model",
	name: "Test",
	api: "test-api",
	provider: "test",
	baseUrl: "http://127.0.0.1:1",
	reasoning: true,
	input: ["text", "image"],
	cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 100_000,
	maxTokens: 4096,
};

export function scriptedStream(steps: ScriptStep[]) {
	const calls: Array<{ context: Context; options?: SimpleStreamOptions }> = [];
	let n = 0;
	const fn = (model: Model, context: Context, options?: SimpleStreamOptions) => {
		calls.push({ context: structuredClone(context), ...(options ? { options } : {}) });
		const stream = createAssistantMessageEventStream();
		const builder = new MessageBuilder(model, stream);
		const step = steps[n++];
		void (async () => {
			const reply = typeof step === "function" ? step(context, options) : step;
			if (!reply) return builder.fail("no more scripted replies");
			builder.start();
			if (reply.thinking) builder.thinking(reply.thinking);
			if (reply.text) {
				for (const piece of reply.text.match(/.{1,4}/gs) ?? []) builder.text(piece);
			}
			for (const [i, call] of (reply.toolCalls ?? []).entries()) {
				builder.toolCall(call.id ?? `call_${n}_${i}`, call.name);
				builder.toolArguments(JSON.stringify(call.args));
			}
			if (reply.delayMs) {
				await new Promise<void>((resolve) => {
					const timer = setTimeout(resolve, reply.delayMs);
					options?.signal?.addEventListener("abort", () => {
						clearTimeout(timer);
						resolve();
					});
				});
			}
			if (options?.signal?.aborted) return builder.fail("Request was aborted", "aborted");
			if (reply.error) return builder.fail(reply.error);
			builder.usage({ input: 10, output: 5 });
			builder.finish("stop");
		})();
		return stream;
	};
	return { fn, calls, remaining: () => steps.length - n };
}

export function lastText(message: AssistantMessage): string {
	return message.content
		.filter((b) => b.type === "text")
		.map((b) => (b as { text: string }).text)
		.join("");
}
