/**
 * pi's `ExtensionRunner` class for SDK users who drive extensions themselves: `new ExtensionRunner(extensions,
 * runtime, cwd, sessionManager, modelRegistry)` over a `LoadExtensionsResult`, then `bindCore` (the session's
 * actions), `bindCommandContext`, `setUIContext`, and the `emit*` methods here. Events go through our one
 * dispatcher (extensions/runner.ts), so ordering, chaining and error reporting are those of a pi run; these
 * methods only adapt arguments and results to pi's signatures.
 */
import type { AgentMessage } from "../agent/index.ts";
import type { ImageContent } from "../ai/index.ts";
import {
	type EmitOptions,
	type EventPayload,
	type ExtensionContext,
	type ExtensionEventName,
	isExtensionEventName,
	type SystemPromptOptions,
} from "../extensions/index.ts";
import { errorMessage } from "../util/index.ts";
import { ExtensionRunnerCore } from "./sdk-runner-core.ts";
import { buildSystemPrompt, normalizeSystemPromptOptions } from "./system-prompt.ts";

export type { ProviderActions } from "./sdk-runner-core.ts";

type Fn = (...args: any[]) => any;

export class ExtensionRunner extends ExtensionRunnerCore {
	/** Runs one event through the dispatcher with a fresh `ctx`. */
	protected dispatch<K extends ExtensionEventName>(
		name: K,
		payload: EventPayload<K>,
		ctx: ExtensionContext = this.createContext(),
		options?: EmitOptions,
	) {
		return this.dispatcher.emit(name, payload, ctx as never, options);
	}

	/** Any event without a dedicated method; `session_before_*` events resolve to the deciding result. */
	async emit(event: { type: string; [field: string]: unknown }): Promise<any> {
		const { type, ...payload } = event;
		if (isExtensionEventName(type)) return this.dispatch(type, payload as never);
		// An event name outside the table: handlers are told, nothing is read back.
		const ctx = this.createContext();
		for (const ext of this.extensions) {
			for (const handler of [...(ext.handlers.get(type) ?? [])]) {
				try {
					await handler(event, ctx);
				} catch (error) {
					this.emitError({ extensionPath: ext.path, event: type, error: errorMessage(error) });
				}
			}
		}
		return undefined;
	}

	emitCacheWarmingDecision(event: EventPayload<"cache_warming_decision"> & { type?: string }) {
		const { type: _type, ...payload } = event;
		return this.dispatch("cache_warming_decision", payload);
	}

	emitMessageEnd(event: EventPayload<"message_end"> & { type?: string }) {
		const { type: _type, ...payload } = event;
		return this.dispatch("message_end", payload);
	}

	emitToolResult(event: EventPayload<"tool_result"> & { type?: string }) {
		const { type: _type, ...payload } = event;
		return this.dispatch("tool_result", payload as EventPayload<"tool_result">);
	}

	/** The last result, or the first `{ block: true }`; a failing handler rejects the call (after reporting). */
	emitToolCall(event: { type?: string; toolCallId: string; toolName: string; input: Record<string, unknown> }) {
		const { type: _type, ...payload } = event;
		return this.dispatch("tool_call", payload as EventPayload<"tool_call">, undefined, { rethrow: true });
	}

	/** The first handler's `{ operations }` or `{ result }`; a failing handler or a wrong shape rejects the call. */
	async emitUserBash(event: EventPayload<"user_bash"> & { type?: string }) {
		const { type: _type, ...payload } = event;
		const outcome = await this.dispatch("user_bash", payload, undefined, { rethrow: true });
		return outcome.result;
	}

	/** `context` handlers (conversation only; prompt and tools restored after), then `context_with_system`. */
	async emitContext(messages: AgentMessage[]): Promise<AgentMessage[]> {
		const conversation = await this.dispatch("context", { messages: structuredClone(messages) });
		return this.dispatch("context_with_system", { messages: conversation });
	}

	emitBeforeProviderRequest(payload: unknown): Promise<unknown> {
		return this.dispatch("before_provider_request", { payload });
	}

	async emitBeforeProviderHeaders(headers: Record<string, string | null>) {
		await this.dispatch("before_provider_headers", { headers });
		return headers;
	}

	/** Messages to add and the (edited) prompt options; a returned `systemPrompt` becomes `forceSystemPrompt`. */
	async emitBeforeAgentStart(prompt: string, images: ImageContent[] | undefined, options: SystemPromptOptions) {
		const systemPromptOptions = normalizeSystemPromptOptions(options);
		const render = () => buildSystemPrompt(systemPromptOptions);
		// This ctx's getSystemPrompt() shows the prompt as the handlers so far have shaped it.
		const ctx = Object.defineProperties(
			{},
			{
				...Object.getOwnPropertyDescriptors(this.createContext()),
				getSystemPrompt: {
					enumerable: true,
					value: () => {
						this.scope.assertActive();
						return render();
					},
				},
			},
		) as ExtensionContext;
		const payload = {
			prompt,
			images,
			get systemPrompt() {
				return render();
			},
			systemPromptOptions,
		};
		const outcome = await this.dispatch("before_agent_start", payload, ctx);
		return { messages: outcome.messages, systemPromptOptions };
	}

	emitResourcesDiscover(cwd: string, reason: "startup" | "reload") {
		return this.dispatch("resources_discover", { cwd, reason });
	}

	/** Transforms chain; `handled` ends the dispatch. */
	emitInput(
		text: string,
		images: ImageContent[] | undefined,
		source: "interactive" | "rpc" | "extension",
		streamingBehavior?: "steer" | "followUp",
	) {
		return this.dispatch("input", { text, images, source, streamingBehavior });
	}

	/** `turn_end` / `agent_before_settle`: entries and `continue` chained, the context preview rebuilt each time. */
	emitBoundary(baseEvent: { type: "turn_end" | "agent_before_settle"; [field: string]: unknown }, buildContext: Fn) {
		const { type, ...base } = baseEvent;
		return this.dispatch(type, { ...base, buildContext } as never);
	}
}
