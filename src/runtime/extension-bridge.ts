/**
 * Where extensions meet a session: one runner over the loaded extensions, the `ctx` they receive, their tools,
 * the agent hooks (`tool_call`, `tool_result`, `context`, `before_provider_request`), the prompt hooks (`input`,
 * `before_agent_start`), and the session's events forwarded as extension events. Handler failures are reported
 * once through `onError` and never end a turn.
 */
import type { AgentTool } from "../agent/index.ts";
import type { ModelRegistry } from "../ai/index.ts";
import { getContextUsage } from "../compaction/index.ts";
import {
	type CommandContextSource,
	type ContextScope,
	type ContextSource,
	createContextScope,
	createExtensionRunner,
	type ExtensionError,
	type ExtensionMode,
	type ExtensionRunner,
	type ReadonlySessionManager,
	type ScopedModel,
	type ToolDefinition,
} from "../extensions/index.ts";
import type { AgentSession } from "./agent-session.ts";
import type { CompactionHooks, CompactionOutcome } from "./compaction-run.ts";
import type { SessionEvent } from "./events.ts";
import type { ExtensionHost } from "./extension-host.ts";
import { type PromptMetadata, wrapExtensionTool } from "./extension-tools.ts";
import { withPromptEvents } from "./extension-ui-prompts.ts";
import type { TreeHooks, TreeNavigationOptions } from "./navigate-tree.ts";
import { createPromptHooks } from "./prompt-hooks.ts";
import { installProviderHooks } from "./provider-hooks.ts";
import { chainAfterToolCall } from "./session-images.ts";
import { type NormalizedSystemPromptOptions, normalizeSystemPromptOptions } from "./system-prompt.ts";

export interface ExtensionBridgeOptions {
	/** The loaded extensions (the CLI's extension host, or an SDK resource loader's set). */
	host: Pick<ExtensionHost, "extensions">;
	cwd: string;
	mode: ExtensionMode;
	hasUI: boolean;
	ui: Record<string, unknown>;
	registry: ModelRegistry;
	projectTrusted: boolean;
	sessionManager: () => ReadonlySessionManager;
	onError: (error: ExtensionError) => void;
	/** `ctx.shutdown()`: how the mode ends the process (RPC: after the current command); default: abort the run. */
	requestShutdown?: () => void;
	/** `--models`: `ctx.scopedModels`. */
	scopedModels?: readonly ScopedModel[];
}

/** How `session_start` describes the session a runtime begins with. */
export interface SessionStartInfo {
	reason: "startup" | "reload" | "new" | "resume" | "fork";
	previousSessionFile?: string;
}

/** What replaces the session under a command (`ctx.newSession`, `fork`, `switchSession`, `reload`); the runtime host. */
export interface SessionControl {
	newSession(options?: { parentSession?: string; withSession?: (ctx: unknown) => Promise<void> }): Promise<{
		cancelled: boolean;
	}>;
	fork(
		entryId: string,
		options?: { position?: "before" | "at"; withSession?: (ctx: unknown) => Promise<void> },
	): Promise<{ cancelled: boolean }>;
	switchSession(
		sessionPath: string,
		options?: { withSession?: (ctx: unknown) => Promise<void> },
	): Promise<{ cancelled: boolean }>;
	reload(): Promise<void>;
}

export class ExtensionBridge {
	readonly runner: ExtensionRunner;
	readonly scope: ContextScope;
	private session: AgentSession | undefined;
	/** Set once the session can move in its tree (`ctx.navigateTree()` of commands). */
	navigator: ((targetId: string, options?: TreeNavigationOptions) => Promise<{ cancelled: boolean }>) | undefined;
	/** Set once the session can compact (`ctx.compact()`). */
	compactor: ((options?: { customInstructions?: string }) => Promise<CompactionOutcome | undefined>) | undefined;
	/** Set by the runtime host: session replacement for command contexts. */
	control: SessionControl | undefined;
	/** What the system prompt is built from, in pi's shape (`systemPromptOptions`, `ctx.getSystemPromptOptions()`). */
	promptOptions: (() => NormalizedSystemPromptOptions) | undefined;

	constructor(private readonly options: ExtensionBridgeOptions) {
		this.runner = createExtensionRunner(() =>
			options.host.extensions.map((e) => ({ path: e.entry.path, handlers: e.handle.registrations.handlers })),
		);
		this.runner.onError(options.onError);
		this.ui = withPromptEvents(options.ui, this.runner, () => this.scope.context());
		this.scope = createContextScope(this.contextSource(), this.commandSource());
	}

	private readonly ui: Record<string, unknown>;

	/** Tools all extensions registered, wrapped for the agent (first registration of a name wins). */
	tools(): (AgentTool<any> & PromptMetadata)[] {
		const byName = new Map<string, AgentTool<any> & PromptMetadata>();
		for (const extension of this.options.host.extensions) {
			for (const [name, definition] of extension.handle.registrations.tools) {
				if (!byName.has(name))
					byName.set(
						name,
						wrapExtensionTool(definition, () => this.scope.context()),
					);
			}
		}
		return [...byName.values()];
	}

	/** One extension tool, wrapped for the agent like those of `tools()`. */
	wrapTool(definition: ToolDefinition): AgentTool<any> & PromptMetadata {
		return wrapExtensionTool(definition, () => this.scope.context());
	}

	/**
	 * Connects the session: agent hooks, prompt hooks and event forwarding. Call once, before the first prompt.
	 * Every hook is installed whether or not a handler exists yet (an extension may subscribe later, e.g. in
	 * `session_start`); each one checks for handlers when it runs, so an unused hook costs one lookup.
	 */
	attach(session: AgentSession): void {
		this.session = session;
		const agent = session.agent;
		const ctx = () => this.scope.context();
		agent.beforeToolCall = async ({ toolCall, args }, signal) => {
			if (!this.runner.hasHandlers("tool_call")) return undefined;
			const outcome = await this.runner.emit(
				"tool_call",
				{ toolCallId: toolCall.id, toolName: toolCall.name, input: args as Record<string, unknown> },
				ctx(),
				signal ? { signal } : {},
			);
			return outcome?.block ? { block: true, reason: outcome.reason ?? "Tool execution was blocked" } : undefined;
		};
		// Images in results are processed after the hook (the session's own afterToolCall), as pi does.
		agent.afterToolCall = chainAfterToolCall(async ({ toolCall, args, result, isError }, signal) => {
			if (!this.runner.hasHandlers("tool_result")) return undefined;
			const patch = await this.runner.emit(
				"tool_result",
				{
					toolCallId: toolCall.id,
					toolName: toolCall.name,
					input: args as Record<string, unknown>,
					content: result.content,
					details: result.details,
					isError,
				},
				ctx(),
				// An aborted tool's result still reaches the handlers (as in pi); only a later abort abandons them.
				signal && !signal.aborted ? { signal } : {},
			);
			if (!patch) return undefined;
			return {
				...(patch.content ? { content: patch.content } : {}),
				...(patch.details !== undefined ? { details: patch.details } : {}),
				...(patch.isError !== undefined ? { isError: patch.isError } : {}),
			};
		}, agent.afterToolCall);
		// `context` handlers see the conversation (pi restores the prompt and tools after them); then
		// `context_with_system` handlers get the whole transcript, and what they return is sent.
		const previous = agent.transformContext;
		agent.transformContext = async (messages, signal) => {
			let current = previous ? await previous(messages, signal) : messages;
			const options = signal ? { signal } : {};
			if (this.runner.hasHandlers("context"))
				current = await this.runner.emit("context", { messages: current }, ctx(), options);
			if (this.runner.hasHandlers("context_with_system")) {
				current = await this.runner.emit("context_with_system", { messages: current }, ctx(), options);
			}
			return current;
		};
		agent.streamOptions = {
			...agent.streamOptions,
			onPayload: (payload: unknown) =>
				this.runner.hasHandlers("before_provider_request")
					? this.runner.emit("before_provider_request", { payload }, ctx())
					: undefined,
		};
		installProviderHooks(agent, this.runner, ctx);
		session.subscribe((event) => this.forward(event));
		session.promptHooks = createPromptHooks(this.runner, ctx);
	}

	/** `session_before_compact` (cancel or supply), `session_compact`, `session_compact_failed`. */
	compactionHooks(): CompactionHooks {
		const ctx = () => this.scope.context();
		return {
			before: async (input) => {
				if (!this.runner.hasHandlers("session_before_compact")) return undefined;
				return (await this.runner.emit(
					"session_before_compact",
					{ ...input, willRetry: input.reason === "overflow" } as never,
					ctx(),
				)) as never;
			},
			after: async (entry, fromExtension, reason) => {
				if (!this.runner.hasHandlers("session_compact")) return;
				await this.runner.emit(
					"session_compact",
					{ compactionEntry: entry, fromExtension, reason, willRetry: reason === "overflow" } as never,
					ctx(),
				);
			},
			failed: async (info) => {
				if (!this.runner.hasHandlers("session_compact_failed")) return;
				await this.runner.emit("session_compact_failed", info as never, ctx());
			},
		};
	}

	/** `session_before_tree` (cancel, or a summary of the branch being left) and `session_tree`. */
	treeHooks(): TreeHooks {
		const ctx = () => this.scope.context();
		return {
			before: async (preparation, signal) => {
				if (!this.runner.hasHandlers("session_before_tree")) return undefined;
				return (await this.runner.emit("session_before_tree", { preparation, signal } as never, ctx())) as never;
			},
			after: async (info) => {
				if (this.runner.hasHandlers("session_tree")) await this.runner.emit("session_tree", info as never, ctx());
			},
		};
	}

	/**
	 * `session_start`; after a switch or fork also the legacy `session_switch` / `session_fork` that extensions
	 * written for pi ≤ 0.64 listen to.
	 */
	async start(info: SessionStartInfo = { reason: "startup" }): Promise<void> {
		const ctx = this.scope.context();
		await this.runner.emit("session_start", info, ctx);
		const previousSessionFile = info.previousSessionFile;
		if ((info.reason === "new" || info.reason === "resume") && this.runner.hasHandlers("session_switch")) {
			await this.runner.emit("session_switch", { reason: info.reason, previousSessionFile }, ctx);
		}
		if (info.reason === "fork" && this.runner.hasHandlers("session_fork")) {
			await this.runner.emit("session_fork", { previousSessionFile }, ctx);
		}
	}

	/** `session_shutdown` (a handler is abandoned and reported after 3 s), then every old `ctx` becomes stale. */
	async shutdown(
		reason: "quit" | "reload" | "new" | "resume" | "fork" = "quit",
		targetSessionFile?: string,
	): Promise<void> {
		await this.runner.emit(
			"session_shutdown",
			{ reason, ...(targetSessionFile ? { targetSessionFile } : {}) },
			this.scope.context(),
			{ timeoutMs: 3_000 },
		);
		this.scope.invalidate();
	}

	private async forward(event: SessionEvent): Promise<void> {
		// Most events have no handlers; building a ctx per streamed delta would cost more than the event itself.
		if (!this.runner.hasHandlers(event.type)) return;
		const ctx = this.scope.context();
		switch (event.type) {
			case "agent_start":
				return void (await this.runner.emit("agent_start", {}, ctx));
			case "agent_end":
				return void (await this.runner.emit("agent_end", { messages: event.messages }, ctx));
			case "agent_settled":
				return void (await this.runner.emit("agent_settled", {}, ctx));
			case "turn_start":
				return void (await this.runner.emit(
					"turn_start",
					{ turnIndex: this.session?.turnIndex ?? 0, timestamp: Date.now() },
					ctx,
				));
			case "message_start":
				return void (await this.runner.emit("message_start", { message: event.message }, ctx));
			case "message_update":
				return void (await this.runner.emit(
					"message_update",
					{ message: event.message, assistantMessageEvent: event.assistantMessageEvent },
					ctx,
				));
			case "message_end": {
				// A handler may replace the message (same role): the replacement takes the original's place in the
				// transcript, and is what the session file records (the recorder listens after the bridge).
				const replacement = await this.runner.emit("message_end", { message: event.message }, ctx);
				if (replacement && replacement !== event.message) replaceInPlace(event.message, replacement);
				return;
			}
			case "session_info_changed":
				return void (await this.runner.emit("session_info_changed", { name: event.name } as never, ctx));
			case "tool_execution_start":
			case "tool_execution_update":
			case "tool_execution_end": {
				const { type, ...payload } = event;
				return void (await this.runner.emit(type, payload as never, ctx));
			}
			default:
				return;
		}
	}

	private systemPromptOptions(): NormalizedSystemPromptOptions {
		return this.promptOptions?.() ?? normalizeSystemPromptOptions({ cwd: this.options.cwd });
	}

	private requireControl(name: string): SessionControl {
		if (!this.control) throw new Error(`ctx.${name}() needs a session runtime`);
		return this.control;
	}

	private commandSource(): CommandContextSource {
		return {
			getSystemPromptOptions: () => this.systemPromptOptions() as never,
			waitForIdle: async () => {
				await this.session?.agent.waitForIdle();
			},
			navigateTree: async (targetId, options) => {
				if (!this.navigator) throw new Error("ctx.navigateTree() needs a session with a model");
				return this.navigator(targetId, options);
			},
			newSession: (options) => this.requireControl("newSession").newSession(options as never),
			fork: (entryId, options) => this.requireControl("fork").fork(entryId, options as never),
			switchSession: (path, options) => this.requireControl("switchSession").switchSession(path, options as never),
			reload: () => this.requireControl("reload").reload(),
		};
	}

	private contextSource(): ContextSource {
		const o = this.options;
		const session = () => this.session;
		return {
			ui: () => this.ui as never,
			mode: () => o.mode,
			hasUI: () => o.hasUI,
			cwd: () => o.cwd,
			sessionManager: () => o.sessionManager(),
			modelRegistry: () => o.registry,
			model: () => session()?.agent.state.model,
			scopedModels: () => o.scopedModels ?? [],
			thinkingLevel: () => session()?.agent.state.thinkingLevel,
			signal: () => session()?.agent.signal,
			isIdle: () => !session()?.isStreaming,
			isProjectTrusted: () => o.projectTrusted,
			abort: () => session()?.abort(),
			hasPendingMessages: () => session()?.agent.hasQueuedMessages() ?? false,
			shutdown: () => {
				if (o.requestShutdown) o.requestShutdown();
				else session()?.abort();
			},
			getContextUsage: () => {
				const current = session();
				if (!current) return undefined;
				return getContextUsage(current.messages, current.agent.state.model.contextWindow);
			},
			compact: (options) => {
				const compactor = this.compactor;
				if (!compactor) {
					options?.onError?.(new Error("compaction is not available in this session"));
					return;
				}
				compactor(options?.customInstructions ? { customInstructions: options.customInstructions } : {}).then(
					(result) => {
						if (result) options?.onComplete?.(result as never);
						else options?.onError?.(new Error("nothing to compact"));
					},
					(error: unknown) => options?.onError?.(error instanceof Error ? error : new Error(String(error))),
				);
			},
			getSystemPrompt: () => session()?.systemPrompt ?? "",
		};
	}
}

function replaceInPlace(target: object, replacement: object): void {
	const record = target as Record<string, unknown>;
	for (const key of Object.keys(record)) delete record[key];
	Object.assign(record, replacement);
}
