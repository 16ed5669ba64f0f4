/**
 * Extension events around each provider request, installed on an agent only when some extension listens:
 * - `context_with_system`: the whole request transcript, a system message at index 0 holding the system prompt;
 *   what the handlers return is what is sent (the first message's text becomes the system prompt);
 * - `before_provider_headers`: handlers edit the request headers in place (`null` removes one);
 * - `after_provider_response`: status and headers of the response, before its body is read.
 * The stream function is wrapped so the (async) transcript hook runs before the provider is called.
 */
import type { Agent, AgentMessage, StreamFn } from "../agent/index.ts";
import { createAssistantMessageEventStream, type Message, streamSimple } from "../ai/index.ts";
import type { ExtensionRunner } from "../extensions/index.ts";
import { convertToLlm } from "./convert-to-llm.ts";

export function installProviderHooks(agent: Agent, runner: ExtensionRunner, context: () => unknown): void {
	if (runner.hasHandlers("context_with_system")) {
		const inner: StreamFn = agent.streamFn ?? streamSimple;
		agent.streamFn = (model, request, options) => {
			const out = createAssistantMessageEventStream();
			void (async () => {
				const transcript = [
					{ role: "system", content: request.systemPrompt ?? "", timestamp: Date.now() } as unknown as AgentMessage,
					...(request.messages as unknown as AgentMessage[]),
				];
				const changed = await runner.emit("context_with_system", { messages: transcript }, context() as never);
				const first = changed[0] as { role?: string; content?: unknown } | undefined;
				const systemPrompt = first?.role === "system" ? textOf(first.content) : "";
				const rest = first?.role === "system" ? changed.slice(1) : changed;
				const stream = inner(model, { ...request, systemPrompt, messages: convertToLlm(rest) as Message[] }, options);
				for await (const event of stream) out.push(event);
				out.end(await stream.result());
			})().catch((error: unknown) => {
				out.push({ type: "error", reason: "error", error: failure(model, error) } as never);
				out.end(failure(model, error) as never);
			});
			return out as never;
		};
	}
	const wantHeaders = runner.hasHandlers("before_provider_headers");
	const wantResponse = runner.hasHandlers("after_provider_response");
	if (!wantHeaders && !wantResponse) return;
	agent.streamOptions = {
		...agent.streamOptions,
		...(wantHeaders
			? {
					onHeaders: async (headers: Record<string, string | null>) => {
						await runner.emit("before_provider_headers", { headers }, context() as never);
					},
				}
			: {}),
		...(wantResponse
			? {
					onResponse: async (response: { status: number; headers: Record<string, string> }) => {
						await runner.emit(
							"after_provider_response",
							{ status: response.status, headers: response.headers },
							context() as never,
						);
					},
				}
			: {}),
	};
}

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.filter((b: { type?: string }) => b.type === "text")
		.map((b: { text?: string }) => b.text ?? "")
		.join("\n");
}

function failure(model: { api: string; provider: string; id: string }, error: unknown) {
	return {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: {
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "error",
		errorMessage: `context_with_system failed: ${error instanceof Error ? error.message : String(error)}`,
		timestamp: Date.now(),
	};
}
