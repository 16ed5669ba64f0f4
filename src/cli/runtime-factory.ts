/**
 * How the CLI builds a session runtime (for the first session and for every replacement): the extension bridge,
 * the agent session from the command line and settings (model, tools, system prompt), the session recorder,
 * the `pi` actions bound to every extension, compaction (automatic and manual) and tree navigation.
 */
import type { Model, ModelRegistry } from "../ai/index.ts";
import { type CompactionSettings, DEFAULT_COMPACTION_SETTINGS } from "../compaction/index.ts";
import type { SettingsStore } from "../config/index.ts";
import type { ExtensionError, ExtensionMode, ScopedModel } from "../extensions/index.ts";
import type { ResourceLoader } from "../resources/index.ts";
import {
	attachAutoCompaction,
	compactNow,
	createExtensionActions,
	DEFAULT_BRANCH_SUMMARY_RESERVE,
	ExtensionBridge,
	type ExtensionHost,
	navigateTree,
	RunBoundaries,
	type RuntimeFactory,
	recordSession,
	recordSettings,
	type SessionRuntime,
} from "../runtime/index.ts";
import { errorMessage } from "../util/index.ts";
import type { ParsedArgs } from "./args.ts";
import { type Credentials, setupSession } from "./setup.ts";

export interface RuntimeServices {
	cwd: string;
	agentDir: string;
	args: ParsedArgs;
	settings: SettingsStore["merged"];
	host: ExtensionHost;
	credentials: Credentials;
	resources: ResourceLoader;
	trusted: boolean;
	mode: ExtensionMode;
	hasUI: boolean;
	ui: Record<string, unknown>;
	onExtensionError: (error: ExtensionError) => void;
	warn: (line: string) => void;
	requestShutdown?: () => void;
	/** `--models`: what extensions see as `ctx.scopedModels`. */
	scopedModels?: ScopedModel[];
}

export function createRuntimeFactory(s: RuntimeServices): RuntimeFactory {
	let first = true;
	return async (manager) => {
		const bridge = new ExtensionBridge({
			host: s.host,
			cwd: s.cwd,
			mode: s.mode,
			hasUI: s.hasUI,
			ui: s.ui,
			registry: s.credentials.registry,
			projectTrusted: s.trusted,
			sessionManager: () => manager as never,
			onError: s.onExtensionError,
			scopedModels: s.scopedModels ?? [],
			...(s.requestShutdown ? { requestShutdown: s.requestShutdown } : {}),
		});
		const sessionContext = manager.buildSessionContext();
		const setup = setupSession(
			{
				cwd: s.cwd,
				agentDir: s.agentDir,
				// The command line's model applies to the first session, and to later ones whose file names none;
				// a session that recorded its model gets it back.
				flags: first || !sessionContext.model ? s.args.flags : withoutModelFlags(s.args.flags),
				settings: s.settings,
				extensionTools: bridge.tools(),
				resources: s.resources,
				sessionContext,
				sessionFile: () => {
					const sessionFile = manager.getSessionFile();
					return { sessionId: manager.getSessionId(), ...(sessionFile ? { sessionFile } : {}) };
				},
				warn: s.warn,
			},
			s.credentials,
		);
		first = false;
		const session = setup.session;
		const disposers: (() => void)[] = [];
		let compact: SessionRuntime["compact"];
		let autoCompaction: { enabled: boolean } | undefined;
		if (session) {
			session.expandInput = (text) => s.resources.expandInput(text);
			bridge.promptOptions = () => session.promptState.current();
			s.host.onEventBusError = (channel, error) =>
				bridge.runner.reportError({
					extensionPath: "<event-bus>",
					event: `pi.events:${channel}`,
					error: errorMessage(error),
				});
			bridge.attach(session);
			recordSettings(manager, session.agent.state.model, session.agent.state.thinkingLevel);
			disposers.push(recordSession(session, manager, s.warn));
			const actions = createExtensionActions({
				session,
				manager,
				registry: s.credentials.registry,
				host: s.host,
				allTools: setup.allTools,
				settings: { runner: bridge.runner, context: () => bridge.scope.context() },
				reportError: (error) => bridge.runner.reportError(error),
				wrapTool: (definition) => bridge.wrapTool(definition),
			});
			for (const extension of s.host.extensions) extension.handle.bind(actions);
			const auto = { enabled: s.settings.compaction?.enabled ?? DEFAULT_COMPACTION_SETTINGS.enabled };
			const compaction = {
				session,
				manager,
				// Resolved at each compaction: `modelOverrides` follow the model the session uses by then.
				settings: (model: Model) => compactionSettings(s.settings, model, auto.enabled),
				getApiKey: (model: Model) => s.credentials.registry.getApiKey(model),
				hooks: bridge.compactionHooks(),
				model: () => summaryModel(s.settings, s.credentials.registry),
				branchSummaryReserveTokens: s.settings.branchSummary?.reserveTokens ?? DEFAULT_BRANCH_SUMMARY_RESERVE,
			};
			attachAutoCompaction(compaction);
			autoCompaction = auto;
			new RunBoundaries({
				session,
				manager: () => manager,
				runner: bridge.runner,
				context: () => bridge.scope.context(),
			});
			compact = (customInstructions) => compactNow(compaction, customInstructions);
			bridge.compactor = (options) => compactNow(compaction, options?.customInstructions);
			bridge.navigator = (targetId, options) =>
				navigateTree({ ...compaction, treeHooks: bridge.treeHooks() }, targetId, options);
		}
		const runtime: SessionRuntime = {
			manager,
			session,
			bridge,
			...(setup.noModelReason ? { noModelReason: setup.noModelReason } : {}),
			...(compact ? { compact } : {}),
			...(autoCompaction ? { compactionSettings: autoCompaction } : {}),
			dispose: () => {
				for (const dispose of disposers) dispose();
			},
		};
		return runtime;
	};
}

function withoutModelFlags(flags: ParsedArgs["flags"]): ParsedArgs["flags"] {
	const copy = new Map(flags);
	for (const name of ["model", "provider", "thinking"]) copy.delete(name);
	return copy;
}

/** Settings `compaction.model` ("provider/id"): a different (cheaper) model writes the summaries. */
function summaryModel(settings: RuntimeServices["settings"], registry: ModelRegistry): Model | undefined {
	const spec = (settings.compaction as { model?: string } | undefined)?.model;
	if (!spec) return undefined;
	const slash = spec.indexOf("/");
	return slash > 0 ? registry.find(spec.slice(0, slash), spec.slice(slash + 1)) : undefined;
}

/** Settings `compaction`, with `modelOverrides["provider/id"]` applied for `model`. */
function compactionSettings(settings: RuntimeServices["settings"], model: Model, enabled: boolean): CompactionSettings {
	const c = settings.compaction;
	const override = c?.modelOverrides?.[`${model.provider}/${model.id}`];
	return {
		enabled,
		reserveTokens: override?.reserveTokens ?? c?.reserveTokens ?? DEFAULT_COMPACTION_SETTINGS.reserveTokens,
		keepRecentTokens: override?.keepRecentTokens ?? c?.keepRecentTokens ?? DEFAULT_COMPACTION_SETTINGS.keepRecentTokens,
	};
}
