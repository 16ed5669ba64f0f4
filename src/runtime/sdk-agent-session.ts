/**
 * The session the SDK's `createAgentSession` returns: our `AgentSession` plus the members pi's `AgentSession` has
 * for SDK users — its session manager, settings, resource loader and model runtime; `state`, `model`,
 * `thinkingLevel`, `sessionFile`, `sessionId`; `getActiveToolNames()`, `getLastAssistantText()`;
 * `bindExtensions(bindings)` (the mode's UI, command actions and error listener, then `session_start`); and
 * `dispose()` (aborts, makes extension contexts stale, drops every listener).
 */
import type { AssistantMessage } from "../ai/index.ts";
import type { SettingsManager } from "../config/index.ts";
import type { CommandDefinition, ExtensionError, ExtensionMode, ExtensionRunner } from "../extensions/index.ts";
import type { SessionManager } from "../session/index.ts";
import { AgentSession } from "./agent-session.ts";
import type { SessionListener } from "./events.ts";
import type { ExtensionBridge, SessionControl, SessionStartInfo } from "./extension-bridge.ts";
import type { ModelRuntime } from "./model-runtime.ts";
import type { CustomMessageInput, PromptOptions, StreamingBehavior } from "./prompt-input.ts";
import type { SdkResourceLoader } from "./sdk-session.ts";

/** pi's `ExtensionBindings` (what `bindExtensions` accepts). */
export interface ExtensionBindings {
	uiContext?: Record<string, unknown>;
	mode?: ExtensionMode;
	commandContextActions?: Partial<SessionControl> & { waitForIdle?: () => Promise<void> };
	abortHandler?: () => void;
	shutdownHandler?: () => void;
	onError?: (error: ExtensionError) => void;
}

/** What the composition gives the session once it is built. */
export interface SdkSessionParts {
	sessionManager: SessionManager;
	settingsManager: SettingsManager;
	resourceLoader: SdkResourceLoader;
	modelRuntime: ModelRuntime;
	bridge: ExtensionBridge;
	/** The UI extensions see (`bindExtensions({ uiContext, mode })` replaces it): methods, mode, whether one is bound. */
	ui: { current: Record<string, unknown>; mode: ExtensionMode; bound: boolean };
	/** Where extension errors go; `bindExtensions({ onError })` replaces it. */
	errors: { listener: (error: ExtensionError) => void };
	sessionStart: SessionStartInfo;
	/** The extension command `/name` runs, if any. */
	findCommand: (name: string) => CommandDefinition | undefined;
	/** Stops the recorder and other session subscriptions. */
	dispose: () => void;
}

export class SdkAgentSession extends AgentSession {
	private sdk!: SdkSessionParts;
	private readonly unsubscribers = new Set<() => void>();
	private disposed = false;

	/** Called once by the composition, before the session is handed out. */
	connect(parts: SdkSessionParts): void {
		this.sdk = parts;
	}

	get sessionManager(): SessionManager {
		return this.sdk.sessionManager;
	}
	get settingsManager(): SettingsManager {
		return this.sdk.settingsManager;
	}
	get resourceLoader(): SdkResourceLoader {
		return this.sdk.resourceLoader;
	}
	get modelRuntime(): ModelRuntime {
		return this.sdk.modelRuntime;
	}
	get modelRegistry() {
		return this.sdk.modelRuntime.modelRegistry;
	}
	get extensionRunner(): ExtensionRunner {
		return this.sdk.bridge.runner;
	}
	get state() {
		return this.agent.state;
	}
	get model() {
		return this.agent.state.model;
	}
	get thinkingLevel() {
		return this.agent.state.thinkingLevel;
	}
	get sessionFile(): string | undefined {
		return this.sdk.sessionManager.getSessionFile();
	}
	get sessionId(): string {
		return this.sdk.sessionManager.getSessionId();
	}

	getActiveToolNames(): string[] {
		return this.agent.state.tools.map((tool) => tool.name);
	}

	/** The text of the last assistant message, if any. */
	getLastAssistantText(): string | undefined {
		const last = [...this.messages].reverse().find((m) => (m as { role?: string }).role === "assistant") as
			| AssistantMessage
			| undefined;
		if (!last) return undefined;
		const text = last.content
			.filter((part) => part.type === "text")
			.map((part) => (part as { text: string }).text)
			.join("");
		return text.length > 0 ? text : undefined;
	}

	/** As pi's: `/name args` runs an extension command of that name; anything else is a prompt for the agent. */
	override async prompt(text: string, options: PromptOptions = {}): Promise<void> {
		const match = /^\/([^\s/][^\s]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
		const command = match ? this.sdk.findCommand(match[1] as string) : undefined;
		if (!command) return super.prompt(text, options);
		await command.handler((match?.[2] ?? "").trim(), this.sdk.bridge.scope.commandContext());
	}

	override subscribe(listener: SessionListener): () => void {
		const unsubscribe = super.subscribe(listener);
		const remove = () => {
			this.unsubscribers.delete(remove);
			unsubscribe();
		};
		this.unsubscribers.add(remove);
		return remove;
	}

	/** Binds the mode to the extensions (UI, command actions, error listener), then fires `session_start`. */
	async bindExtensions(bindings: ExtensionBindings = {}): Promise<void> {
		if (bindings.uiContext) {
			this.sdk.ui.current = bindings.uiContext;
			this.sdk.ui.bound = true;
		}
		if (bindings.mode) this.sdk.ui.mode = bindings.mode;
		if (bindings.onError) this.sdk.errors.listener = bindings.onError;
		const actions = bindings.commandContextActions;
		if (actions?.newSession && actions.fork && actions.switchSession && actions.reload) {
			this.sdk.bridge.control = {
				newSession: actions.newSession,
				fork: actions.fork,
				switchSession: actions.switchSession,
				reload: actions.reload,
			};
		}
		await this.sdk.bridge.start(this.sdk.sessionStart);
	}

	/** An extension event (`session_before_switch`, …); undefined when no extension handles it. */
	async emitToExtensions(event: string, payload: Record<string, unknown>): Promise<unknown> {
		const runner = this.sdk.bridge.runner;
		if (!runner.hasHandlers(event as never)) return undefined;
		return runner.emit(event as never, payload as never, this.sdk.bridge.scope.context());
	}

	/** `session_shutdown` (reason and target file) to this session's extensions. */
	shutdownExtensions(reason: "quit" | "reload" | "new" | "resume" | "fork", targetSessionFile?: string): Promise<void> {
		return this.sdk.bridge.shutdown(reason, targetSessionFile);
	}

	/**
	 * What `withSession` receives after a replacement: this session's command context, with `sendMessage` and
	 * `sendUserMessage` returning promises (so the callback can await the run).
	 */
	createReplacedSessionContext(): Record<string, unknown> {
		const base = this.sdk.bridge.scope.commandContext() as unknown as object;
		const ctx = Object.defineProperties({}, Object.getOwnPropertyDescriptors(base)) as Record<string, unknown>;
		ctx.sendMessage = (message: CustomMessageInput, options?: Parameters<AgentSession["sendCustomMessage"]>[1]) =>
			this.sendCustomMessage(message, options);
		ctx.sendUserMessage = (content: string | { type: string }[], options?: { deliverAs?: StreamingBehavior }) =>
			this.sendUserMessage(content, options?.deliverAs);
		return ctx;
	}

	/**
	 * Aborts what runs, makes extension contexts stale and drops every listener, then closes the session file (its
	 * lock released, so the file can be opened again). Idempotent.
	 */
	dispose(): void {
		this.disposeKeepingSessionFile();
		this.sdk.sessionManager.close();
	}

	/** `dispose()` without closing the session file: the runtime hands the same manager to the next session. */
	disposeKeepingSessionFile(): void {
		if (this.disposed) return;
		this.disposed = true;
		try {
			this.abort();
		} catch {
			// Disposing must succeed whatever an abort hook does.
		}
		this.sdk.bridge.scope.invalidate();
		for (const unsubscribe of [...this.unsubscribers]) unsubscribe();
		this.sdk.dispose();
	}
}
