/**
 * The state half of pi's SDK `ExtensionRunner` (see sdk-extension-runner.ts for the events): the session's
 * actions bound into the shared extension runtime (`bindCore`, `bindCommandContext`), the UI (`setUIContext`),
 * the `ctx` objects handlers receive (members read at use time, all stale after `invalidate`), error listeners,
 * and what the extensions registered (tools, flags, shortcuts, renderers, commands).
 */
import type { ModelRegistry, ProviderConfig } from "../ai/index.ts";
import {
	type CommandContextSource,
	type ContextScope,
	type ContextSource,
	createContextScope,
	createExtensionRunner,
	type ExtensionRunner as Dispatcher,
	type ExtensionCommandContext,
	type ExtensionContext,
	type ExtensionError,
	type ExtensionErrorListener,
	type ExtensionMode,
	type ReadonlySessionManager,
	type SdkExtensionRuntime,
} from "../extensions/index.ts";
import { errorMessage } from "../util/index.ts";
import type { SdkExtension } from "./sdk-extension-view.ts";
import {
	announcingUi,
	NO_UI,
	type ResolvedCommand,
	resolveCommands,
	resolveShortcuts,
	type ShortcutDiagnostic,
} from "./sdk-runner-registry.ts";
import { normalizeSystemPromptOptions } from "./system-prompt.ts";

type Fn = (...args: any[]) => any;
type Source = { [K in keyof ContextSource]: ContextSource[K] };
type CommandSource = { [K in keyof CommandContextSource]: CommandContextSource[K] };

const ACTION_NAMES = [
	"sendMessage",
	"sendUserMessage",
	"appendEntry",
	"setSessionName",
	"getSessionName",
	"setLabel",
	"getActiveTools",
	"getAllTools",
	"setActiveTools",
	"refreshTools",
	"getCommands",
	"setModel",
	"getThinkingLevel",
	"setThinkingLevel",
] as const;

const STALE_RUNNER =
	"This extension ctx is stale after session replacement or reload. Do not use a captured pi or command ctx " +
	"after ctx.newSession(), ctx.fork(), ctx.switchSession(), or ctx.reload(). For newSession, fork, and " +
	"switchSession, move post-replacement work into withSession and use the ctx passed to withSession. For " +
	"reload, do not use the old ctx after await ctx.reload().";

export interface ProviderActions {
	registerProvider?: (name: string, config: ProviderConfig) => void;
	registerNativeProvider?: (provider: unknown) => void;
	unregisterProvider?: (name: string) => void;
}

/** Bindings, ctx, error listeners and registered items; the event methods are added by `ExtensionRunner`. */
export class ExtensionRunnerCore {
	protected readonly dispatcher: Dispatcher;
	protected readonly scope: ContextScope;
	private ui: Record<string, unknown> = NO_UI;
	private mode: ExtensionMode = "print";
	private shortcutDiagnostics: ShortcutDiagnostic[] = [];
	private commandDiagnostics: unknown[] = [];
	private readonly source: Source;
	private readonly commandSource: CommandSource;

	constructor(
		protected readonly extensions: SdkExtension[],
		private readonly runtime: SdkExtensionRuntime,
		private readonly cwd: string,
		private readonly sessionManager: ReadonlySessionManager,
		private readonly modelRegistry: ModelRegistry,
	) {
		this.dispatcher = createExtensionRunner(() => this.extensions);
		const runtimeRef = runtime as unknown as Record<string, Fn>;
		// Every member forwards at use time, so a ctx made before `bindCore` sees the session bound later.
		const act = this.contextActions;
		this.source = {
			ui: () => this.ui as never,
			mode: () => this.mode,
			hasUI: () => this.hasUI(),
			cwd: () => this.cwd,
			sessionManager: () => this.sessionManager,
			modelRegistry: () => this.modelRegistry,
			model: () => act.getModel?.(),
			scopedModels: () => act.getScopedModels?.(),
			thinkingLevel: () => runtimeRef.getThinkingLevel?.(),
			signal: () => act.getSignal?.(),
			isIdle: () => act.isIdle?.(),
			isProjectTrusted: () => act.isProjectTrusted?.(),
			abort: () => act.abort?.(),
			hasPendingMessages: () => act.hasPendingMessages?.(),
			shutdown: () => act.shutdown?.(),
			getContextUsage: () => act.getContextUsage?.(),
			compact: (options) => act.compact?.(options),
			getSystemPrompt: () => act.getSystemPrompt?.(),
		};
		const cmd = this.commandActions;
		this.commandSource = {
			getSystemPromptOptions: () => (act.getSystemPromptOptions ?? this.defaultPromptOptions)(),
			waitForIdle: () => cmd.waitForIdle?.(),
			newSession: (options) => cmd.newSession?.(options),
			fork: (entryId, options) => cmd.fork?.(entryId, options),
			navigateTree: (targetId, options) => cmd.navigateTree?.(targetId, options),
			switchSession: (path, options) => cmd.switchSession?.(path, options),
			reload: () => cmd.reload?.(),
		};
		this.bindCommandContext();
		this.scope = createContextScope(this.source, this.commandSource);
	}

	/** What `ctx` reads before `bindCore`: idle, trusted, no model, nothing to abort or compact. */
	private readonly contextActions: Record<string, Fn> = {
		getModel: () => undefined,
		getScopedModels: () => [],
		isIdle: () => true,
		isProjectTrusted: () => true,
		getSignal: () => undefined,
		abort: () => {},
		hasPendingMessages: () => false,
		shutdown: () => {},
		getContextUsage: () => undefined,
		compact: () => {},
		getSystemPrompt: () => "",
	};
	private readonly commandActions: Record<string, Fn> = {};
	private readonly defaultPromptOptions = () => normalizeSystemPromptOptions({ cwd: this.cwd });

	/** The session's actions for every extension's `pi` object and `ctx`; flushes the providers queued at load. */
	bindCore(actions: Record<string, Fn>, contextActions: Record<string, Fn>, providerActions?: ProviderActions): void {
		const runtime = this.runtime as unknown as Record<string, unknown>;
		for (const name of ACTION_NAMES) runtime[name] = actions[name];
		for (const key of Object.keys(this.contextActions)) {
			if (key !== "getSystemPromptOptions") this.contextActions[key] = contextActions[key] as Fn;
		}
		if (contextActions.getSystemPromptOptions)
			this.contextActions.getSystemPromptOptions = contextActions.getSystemPromptOptions;
		else delete this.contextActions.getSystemPromptOptions;
		const registry = this.modelRegistry as unknown as Record<string, Fn>;
		const register = (name: string, config: unknown) =>
			providerActions?.registerProvider
				? providerActions.registerProvider(name, config as ProviderConfig)
				: registry.registerProvider?.(name, config);
		const registerNative = (provider: unknown) =>
			providerActions?.registerNativeProvider
				? providerActions.registerNativeProvider(provider)
				: registry.registerProvider?.(provider);
		const flush = (extensionPath: string, apply: () => void) => {
			try {
				apply();
			} catch (error) {
				this.emitError({
					extensionPath,
					event: "register_provider",
					error: errorMessage(error),
					stack: error instanceof Error ? error.stack : undefined,
				});
			}
		};
		for (const { name, config, extensionPath } of this.runtime.pendingProviderRegistrations) {
			flush(extensionPath, () => register(name, config));
		}
		this.runtime.pendingProviderRegistrations = [];
		for (const { provider, extensionPath } of this.runtime.pendingNativeProviderRegistrations) {
			flush(extensionPath, () => registerNative(provider));
		}
		this.runtime.pendingNativeProviderRegistrations = [];
		// From here on provider changes apply at once.
		this.runtime.registerProvider = (name, config) => register(name, config);
		this.runtime.registerNativeProvider = (provider) => registerNative(provider);
		this.runtime.unregisterProvider = (name) =>
			providerActions?.unregisterProvider
				? providerActions.unregisterProvider(name)
				: registry.unregisterProvider?.(name);
	}

	/** What command contexts can do to the session; without actions they do nothing and report "not cancelled". */
	bindCommandContext(actions?: Record<string, Fn>): void {
		const notCancelled = async () => ({ cancelled: false });
		Object.assign(this.commandActions, {
			waitForIdle: actions?.waitForIdle ?? (async () => {}),
			newSession: actions?.newSession ?? notCancelled,
			fork: actions?.fork ?? notCancelled,
			navigateTree: actions?.navigateTree ?? notCancelled,
			switchSession: actions?.switchSession ?? notCancelled,
			reload: actions?.reload ?? (async () => {}),
		});
	}

	setUIContext(uiContext?: Record<string, any>, mode: ExtensionMode = "print"): void {
		this.ui = uiContext
			? announcingUi(uiContext, (type, kind, title) => {
					const payload = { reason: "ui_prompt" as const, kind, ...(title ? { title } : {}) };
					queueMicrotask(() => void this.dispatcher.emit(type, payload, this.createContext()));
				})
			: NO_UI;
		this.mode = mode;
	}

	getUIContext(): Record<string, unknown> {
		return this.ui;
	}

	hasUI(): boolean {
		return this.ui !== NO_UI;
	}

	getExtensionPaths(): string[] {
		return this.extensions.map((ext) => ext.path);
	}

	/** Every extension tool; the first registration of a name wins. */
	getAllRegisteredTools(): { definition: any; sourceInfo: unknown }[] {
		const byName = new Map<string, { definition: any; sourceInfo: unknown }>();
		for (const ext of this.extensions) {
			for (const tool of ext.tools.values())
				if (!byName.has(tool.definition.name)) byName.set(tool.definition.name, tool);
		}
		return [...byName.values()];
	}

	getToolDefinition(toolName: string): any {
		for (const ext of this.extensions) {
			const tool = ext.tools.get(toolName);
			if (tool) return tool.definition;
		}
		return undefined;
	}

	getFlags(): Map<string, unknown> {
		const flags = new Map<string, unknown>();
		for (const ext of this.extensions)
			for (const [name, flag] of ext.flags) if (!flags.has(name)) flags.set(name, flag);
		return flags;
	}

	setFlagValue(name: string, value: boolean | string): void {
		this.runtime.flagValues.set(name, value);
	}

	getFlagValues(): Map<string, boolean | string> {
		return new Map(this.runtime.flagValues);
	}

	getShortcuts(resolvedKeybindings: Record<string, string | string[] | undefined>): Map<string, unknown> {
		const { shortcuts, diagnostics } = resolveShortcuts(this.extensions, resolvedKeybindings, !this.hasUI());
		this.shortcutDiagnostics = diagnostics;
		return shortcuts;
	}

	getShortcutDiagnostics(): ShortcutDiagnostic[] {
		return this.shortcutDiagnostics;
	}

	/** Retires every `ctx` made by this runner and the extensions' `pi` objects (the first message sticks). */
	invalidate(message: string = STALE_RUNNER): void {
		if (this.scope.stale) return;
		this.scope.invalidate(message);
		this.runtime.invalidate(message);
	}

	onError(listener: ExtensionErrorListener): () => void {
		return this.dispatcher.onError(listener);
	}

	emitError(error: ExtensionError): void {
		this.dispatcher.reportError(error);
	}

	hasHandlers(eventType: string): boolean {
		return this.dispatcher.hasHandlers(eventType);
	}

	getMessageRenderer(customType: string): unknown {
		for (const ext of this.extensions) {
			const renderer = ext.messageRenderers.get(customType);
			if (renderer) return renderer;
		}
		return undefined;
	}

	getMarkdownTransformers(): unknown[] {
		return this.extensions.flatMap((ext) => (ext.markdownTransformer ? [ext.markdownTransformer] : []));
	}

	getEntryRenderer(customType: string): unknown {
		for (const ext of this.extensions) {
			const renderer = ext.entryRenderers?.get(customType);
			if (renderer) return renderer;
		}
		return undefined;
	}

	getModelRegistry(): ModelRegistry {
		return this.modelRegistry;
	}

	getRegisteredCommands(): ResolvedCommand[] {
		this.commandDiagnostics = [];
		return resolveCommands(this.extensions);
	}

	getCommandDiagnostics(): unknown[] {
		return this.commandDiagnostics;
	}

	getCommand(name: string): ResolvedCommand | undefined {
		return resolveCommands(this.extensions).find((command) => command.invocationName === name);
	}

	/** Asks the mode to end the run gracefully (what `ctx.shutdown()` does). */
	shutdown(): void {
		this.contextActions.shutdown?.();
	}

	getActiveTools(): string[] {
		this.scope.assertActive();
		return (this.runtime as unknown as Record<string, Fn>).getActiveTools?.();
	}

	/** A `ctx` for handlers and tools; every member is read when used, so later bindings show. */
	createContext(): ExtensionContext {
		return this.scope.context();
	}

	createCommandContext(): ExtensionCommandContext {
		return this.scope.commandContext();
	}
}
