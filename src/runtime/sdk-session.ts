/**
 * pi's `createAgentSession(options)` over our runtime: the model (given, else the one the session recorded if it
 * still has credentials, else the settings' default, else the first available), the thinking level (given, else
 * the session's, else per-model and default settings, clamped), the tools (`tools` / `noTools` / `excludeTools`
 * over the built-in, extension and custom tools), the system prompt from the resource loader, and the same
 * wiring the CLI gives a session: extension hooks and actions, the session recorder, compaction and tree moves.
 * Extensions get `session_start` when the host calls `bindExtensions`, as in pi.
 */
import type { AgentTool, ThinkingLevel } from "../agent/index.ts";
import type { Model } from "../ai/index.ts";
import type { SettingsManager } from "../config/index.ts";
import {
	checkRegistrations,
	createNoopUi,
	type ExtensionError,
	type ScopedModel,
	type ToolDefinition,
} from "../extensions/index.ts";
import type { SessionManager } from "../session/index.ts";
import { createBuiltinTools, DEFAULT_ACTIVE_TOOLS } from "../tools/index.ts";
import { writeStderr } from "../util/index.ts";
import { attachAutoCompaction } from "./auto-compaction.ts";
import { RunBoundaries } from "./boundaries.ts";
import { DEFAULT_BRANCH_SUMMARY_RESERVE } from "./branch-summary.ts";
import { compactNow } from "./compaction-lifecycle.ts";
import { createAgentSession } from "./create-session.ts";
import type { DefaultResourceLoader } from "./default-resource-loader.ts";
import { createExtensionActions } from "./extension-actions.ts";
import { ExtensionBridge, type SessionStartInfo } from "./extension-bridge.ts";
import { clampThinking, resolveModel } from "./model-resolver.ts";
import type { ModelRuntime } from "./model-runtime.ts";
import { navigateTree } from "./navigate-tree.ts";
import { DEFAULT_RETRY } from "./retry.ts";
import { SdkAgentSession, type SdkSessionParts } from "./sdk-agent-session.ts";
import { extensionHandlesOf, type LoadExtensionsResult } from "./sdk-extensions.ts";
import { loginHelp, sdkPromptOptions } from "./sdk-session-prompt.ts";
import { recordSession, recordSettings } from "./session-recorder.ts";
import { isUsable } from "./session-settings.ts";

/** What a session needs of its resource loader (pi's `ResourceLoader`; `expandInput` is ours, optional). */
export type SdkResourceLoader = Pick<
	DefaultResourceLoader,
	"getExtensions" | "getSkills" | "getAgentsFiles" | "getSystemPrompt" | "getAppendSystemPrompt"
> & { expandInput?(text: string): string };

export interface SdkSessionOptions {
	cwd: string;
	modelRuntime: ModelRuntime;
	settingsManager: SettingsManager;
	resourceLoader: SdkResourceLoader;
	sessionManager: SessionManager;
	model?: Model;
	thinkingLevel?: ThinkingLevel;
	scopedModels?: { model: Model; thinkingLevel?: ThinkingLevel }[];
	tools?: string[];
	noTools?: "all" | "builtin";
	excludeTools?: string[];
	customTools?: ToolDefinition[];
	sessionStartEvent?: { type: "session_start"; reason: SessionStartInfo["reason"]; previousSessionFile?: string };
}

export interface SdkSessionResult {
	session: SdkAgentSession;
	extensionsResult: LoadExtensionsResult;
	modelFallbackMessage?: string;
}

const noModels = () => `No models available. ${loginHelp()}`;

export async function createSdkSession(o: SdkSessionOptions): Promise<SdkSessionResult> {
	const registry = o.modelRuntime.modelRegistry;
	const manager = o.sessionManager;
	const context = manager.buildSessionContext();
	const continuing = context.messages.length > 0;
	const chosen = chooseModel(o, context, continuing);
	// pi still makes a session without a model (its prompts fail until one is set); our Agent needs a model, so
	// the reason pi would give later is thrown now.
	if (!chosen.model) throw new Error(chosen.fallback ?? noModels());
	const model = chosen.model;
	const thinkingLevel = clampThinking(model, chooseThinking(o, context, continuing, model));

	const extensionsResult = o.resourceLoader.getExtensions();
	// Providers extensions registered while loading join the model runtime now (services may have done it already).
	for (const { name, config } of extensionsResult.runtime.pendingProviderRegistrations.splice(0)) {
		o.modelRuntime.registerProvider(name, config as never);
	}
	const handles = extensionHandlesOf(extensionsResult);
	const errors = { listener: (e: ExtensionError) => writeStderr(`Extension error (${e.extensionPath}): ${e.error}\n`) };
	// `bindExtensions({ uiContext, mode })` changes what extensions see: ctx.mode, ctx.hasUI and the UI they call.
	const ui: SdkSessionParts["ui"] = { current: createNoopUi(), mode: "print", bound: false };
	const bridge = new ExtensionBridge({
		host: { extensions: handles },
		cwd: o.cwd,
		get mode() {
			return ui.mode;
		},
		get hasUI() {
			return ui.bound;
		},
		ui: forwardingUi(ui),
		registry,
		projectTrusted: o.settingsManager.isProjectTrusted(),
		sessionManager: () => manager as never,
		onError: (error) => errors.listener(error),
		scopedModels: (o.scopedModels ?? []) as ScopedModel[],
	});

	const builtins = createBuiltinTools(o.cwd, {
		...(o.settingsManager.getShellPath() ? { shellPath: o.settingsManager.getShellPath() as string } : {}),
		...(o.settingsManager.getShellCommandPrefix()
			? { commandPrefix: o.settingsManager.getShellCommandPrefix() as string }
			: {}),
		sessionInfo: () => ({
			sessionId: manager.getSessionId(),
			...(manager.getSessionFile() ? { sessionFile: manager.getSessionFile() as string } : {}),
			provider: session.agent.state.model.provider,
			model: session.agent.state.model.id,
			thinkingLevel: session.agent.state.thinkingLevel,
		}),
	});
	const added = [...bridge.tools(), ...(o.customTools ?? []).map((definition) => bridge.wrapTool(definition))];
	const byName = new Map<string, AgentTool<any>>([...builtins, ...added.map((t) => [t.name, t] as const)]);
	const allTools = [...byName.values()];
	const active = activeToolNames(o, added);

	const settings = o.settingsManager;
	const retry = settings.getRetrySettings();
	const session = createAgentSession({
		model,
		thinkingLevel,
		tools: active.flatMap((name) => byName.get(name) ?? []),
		cwd: o.cwd,
		sessionId: manager.getSessionId(),
		prompt: {
			base: () => sdkPromptOptions(o.cwd, o.resourceLoader, session.agent.state.tools, allTools),
			registry: () => allTools,
		},
		getApiKey: (m) => registry.getApiKeyForRequest(m),
		getHeaders: (m) => registry.getRequestHeaders(m),
		prepareRequest: (m) => registry.requestTarget(m),
		retry: {
			enabled: settings.getRetryEnabled(),
			maxRetries: retry.maxRetries ?? DEFAULT_RETRY.maxRetries,
			baseDelayMs: retry.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
			maxDelayMs: DEFAULT_RETRY.maxDelayMs,
		},
		construct: (options) => new SdkAgentSession(options),
	}) as SdkAgentSession;
	session.agent.state.messages = [...context.messages];
	session.expandInput = (text) => o.resourceLoader.expandInput?.(text) ?? text;
	bridge.promptOptions = () => session.promptState.current();
	bridge.attach(session);
	recordSettings(manager, model, thinkingLevel);
	const stopRecording = recordSession(session, manager, (line) => writeStderr(`${line}\n`));

	const commands = () =>
		checkRegistrations(
			handles.map((e) => ({
				path: e.entry.path,
				commands: e.handle.registrations.commands,
				shortcuts: e.handle.registrations.shortcuts,
			})),
		).commands;
	const actions = createExtensionActions({
		session,
		manager,
		registry,
		host: { commands },
		allTools,
		settings: { runner: bridge.runner, context: () => bridge.scope.context() },
		reportError: (error) => bridge.runner.reportError(error),
		wrapTool: (definition) => bridge.wrapTool(definition),
	});
	for (const extension of handles) extension.handle.bind(actions);

	const compaction = {
		session,
		manager,
		settings: () => settings.getCompactionSettings(),
		getApiKey: (m: Model) => registry.getApiKey(m),
		hooks: bridge.compactionHooks(),
		model: () => undefined,
		branchSummaryReserveTokens: settings.getBranchSummarySettings().reserveTokens ?? DEFAULT_BRANCH_SUMMARY_RESERVE,
	};
	attachAutoCompaction(compaction);
	new RunBoundaries({ session, manager: () => manager, runner: bridge.runner, context: () => bridge.scope.context() });
	bridge.compactor = (options) => compactNow(compaction, options?.customInstructions);
	bridge.navigator = (targetId, options) =>
		navigateTree({ ...compaction, treeHooks: bridge.treeHooks() }, targetId, options);

	const start = o.sessionStartEvent;
	session.connect({
		sessionManager: manager,
		settingsManager: settings,
		resourceLoader: o.resourceLoader,
		modelRuntime: o.modelRuntime,
		bridge,
		ui,
		errors,
		sessionStart: start
			? {
					reason: start.reason,
					...(start.previousSessionFile ? { previousSessionFile: start.previousSessionFile } : {}),
				}
			: { reason: "startup" },
		findCommand: (name) => commands().get(name)?.command,
		dispose: stopRecording,
	});
	return { session, extensionsResult, ...(chosen.fallback ? { modelFallbackMessage: chosen.fallback } : {}) };
}

type Context = ReturnType<SessionManager["buildSessionContext"]>;

function chooseModel(
	o: SdkSessionOptions,
	context: Context,
	continuing: boolean,
): { model?: Model; fallback?: string } {
	if (o.model) return { model: o.model };
	const registry = o.modelRuntime.modelRegistry;
	let fallback: string | undefined;
	if (continuing && context.model) {
		const saved = registry.find(context.model.provider, context.model.modelId);
		if (saved && isUsable(registry, saved)) return { model: saved };
		fallback = `Could not restore model ${context.model.provider}/${context.model.modelId}`;
	}
	const provider = o.settingsManager.getDefaultProvider();
	const pattern = o.settingsManager.getDefaultModel();
	let found = resolveModel(registry, { ...(provider ? { provider } : {}), ...(pattern ? { model: pattern } : {}) });
	if (found.ok && !isUsable(registry, found.model)) found = resolveModel(registry, {});
	if (!found.ok && (provider || pattern)) found = resolveModel(registry, {});
	if (!found.ok) return { fallback: noModels() };
	return {
		model: found.model,
		...(fallback ? { fallback: `${fallback}. Using ${found.model.provider}/${found.model.id}` } : {}),
	};
}

function chooseThinking(o: SdkSessionOptions, context: Context, continuing: boolean, model: Model): ThinkingLevel {
	if (o.thinkingLevel) return o.thinkingLevel;
	const settings = o.settingsManager;
	if (continuing && context.thinkingLevel) return context.thinkingLevel as ThinkingLevel;
	const perModel = settings.getModelThinkingLevel(model.provider, model.id);
	if (perModel) return perModel as ThinkingLevel;
	return (settings.getDefaultThinkingLevel() as ThinkingLevel | undefined) ?? "medium";
}

/** pi's rule: `tools` is an allowlist; else the default built-ins (none with `noTools`) plus every extension and custom tool (none with `noTools: "all"`); `excludeTools` last. */
function activeToolNames(o: SdkSessionOptions, added: AgentTool<any>[]): string[] {
	const excluded = new Set(o.excludeTools ?? []);
	const configured = (o.settingsManager.getGlobalSettings() as { defaultTools?: string[] }).defaultTools;
	const builtin = o.tools ?? (o.noTools ? [] : (configured ?? [...DEFAULT_ACTIVE_TOOLS]));
	const extra = o.tools ? [] : o.noTools === "all" ? [] : added.map((tool) => tool.name);
	return [...new Set([...builtin, ...extra])].filter((name) => !excluded.has(name));
}

/** A UI object whose methods call whichever UI is bound now (`bindExtensions({ uiContext })`). */
function forwardingUi(holder: { current: Record<string, unknown> }): Record<string, unknown> {
	const ui: Record<string, unknown> = {};
	for (const [key, fallback] of Object.entries(createNoopUi())) {
		if (typeof fallback === "function") {
			ui[key] = (...args: unknown[]) => {
				const method = holder.current[key] ?? fallback;
				return (method as (...a: unknown[]) => unknown).apply(holder.current, args);
			};
		} else Object.defineProperty(ui, key, { enumerable: true, get: () => holder.current[key] ?? fallback });
	}
	return ui;
}
