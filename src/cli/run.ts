/**
 * A print or JSON run: the session file, resources, the extension bridge (tools, hooks, events, actions), the
 * agent session, then the mode. `session_start` fires before the first prompt and `session_shutdown` after the
 * last; the session file is closed (lock released) at the end, whatever happened.
 */

import type { Model, ModelRegistry } from "../ai/index.ts";
import { type CompactionSettings, DEFAULT_COMPACTION_SETTINGS } from "../compaction/index.ts";
import type { SettingsStore } from "../config/index.ts";
import { createNoopUi } from "../extensions/index.ts";
import { type PromptInput, runJsonMode, runPrintMode } from "../modes/index.ts";
import { formatResourceDiagnostic, ResourceLoader } from "../resources/index.ts";
import {
	attachAutoCompaction,
	compactSession,
	createExtensionActions,
	ExtensionBridge,
	type ExtensionHost,
	navigateTree,
	recordSession,
	recordSettings,
} from "../runtime/index.ts";
import { errorMessage, UserError } from "../util/index.ts";
import type { ParsedArgs } from "./args.ts";
import { chooseSession } from "./session-choice.ts";
import { type Credentials, setupSession } from "./setup.ts";

export interface RunOptions {
	cwd: string;
	agentDir: string;
	args: ParsedArgs;
	settings: SettingsStore["merged"];
	store: SettingsStore;
	host: ExtensionHost;
	credentials: Credentials;
	trusted: boolean;
	inputs: PromptInput[];
	json: boolean;
	out: (text: string) => void;
	err: (text: string) => void;
}

export async function runNonInteractive(o: RunOptions): Promise<number> {
	const { cwd, agentDir, args, settings, err } = o;
	const manager = chooseSession({
		cwd,
		agentDir,
		flags: args.flags,
		...(settings.sessionDir ? { settingsSessionDir: settings.sessionDir } : {}),
	});
	try {
		for (const line of manager.getDiagnostics()) err(`${line}\n`);
		const name = args.flags.get("name") as string | undefined;
		if (name) manager.appendSessionInfo(name);
		const resources = new ResourceLoader({
			cwd,
			agentDir,
			projectTrusted: o.trusted,
			settingsFiles: o.store.files,
			skillPaths: (args.flags.get("skill") as string[] | undefined) ?? [],
			promptPaths: (args.flags.get("prompt-template") as string[] | undefined) ?? [],
			themePaths: (args.flags.get("theme") as string[] | undefined) ?? [],
			noSkills: args.flags.get("no-skills") === true,
			noPromptTemplates: args.flags.get("no-prompt-templates") === true,
			noThemes: args.flags.get("no-themes") === true,
			noContextFiles: args.flags.get("no-context-files") === true,
		});
		for (const d of resources.getDiagnostics()) err(`${formatResourceDiagnostic(d)}\n`);
		const bridge = new ExtensionBridge({
			host: o.host,
			cwd,
			mode: o.json ? "json" : "print",
			hasUI: false,
			ui: createNoopUi(),
			registry: o.credentials.registry,
			projectTrusted: o.trusted,
			sessionManager: () => manager as never,
			onError: (e) => err(`Extension error (${e.extensionPath}): ${e.error}\n`),
		});
		const setup = setupSession(
			{
				cwd,
				agentDir,
				flags: args.flags,
				settings,
				extensionTools: bridge.tools(),
				resources,
				sessionContext: manager.buildSessionContext(),
				warn: (l) => err(`${l}\n`),
			},
			o.credentials,
		);
		const session = setup.session;
		if (session) {
			session.expandInput = (text) => resources.expandInput(text);
			bridge.attach(session);
			recordSettings(manager, session.agent.state.model, session.agent.state.thinkingLevel);
			recordSession(session, manager, (line) => err(`${line}\n`));
			const actions = createExtensionActions({
				session,
				manager,
				registry: o.credentials.registry,
				host: o.host,
				allTools: setup.allTools,
			});
			for (const extension of o.host.extensions) extension.handle.bind(actions);
			const compaction = {
				session,
				manager,
				settings: compactionSettings(settings, session.agent.state.model),
				getApiKey: (model: Model) => o.credentials.registry.getApiKey(model),
				hooks: bridge.compactionHooks(),
				...summaryModel(settings, o.credentials.registry),
			};
			attachAutoCompaction(compaction);
			bridge.compactor = (options) => compactSession(compaction, { reason: "manual", ...options });
			bridge.navigator = (targetId, options) =>
				navigateTree({ ...compaction, treeHooks: bridge.treeHooks() }, targetId, options);
		}
		await bridge.start();
		await discoverExtensionResources(bridge, resources, cwd, err);
		if (session && setup.rebuildSystemPrompt) session.agent.state.systemPrompt = setup.rebuildSystemPrompt();
		const common = {
			session,
			inputs: o.inputs,
			findCommand: (commandName: string) =>
				commandName === "compact" && bridge.compactor
					? { description: "Compact the session", handler: (args: string) => runCompact(bridge, args, o.out) }
					: o.host.findCommand(commandName),
			commandContext: bridge.scope.commandContext() as unknown as Record<string, unknown>,
			reportCommandError: (name: string, error: unknown) =>
				err(`Extension command /${name} failed: ${errorMessage(error).split("\n")[0]}\n`),
			noSession: (): never => {
				throw new UserError(setup.noModelReason ?? "Error: no model available");
			},
		};
		const code = o.json
			? await runJsonMode({
					...common,
					header: manager.getHeader() as unknown as Record<string, unknown>,
					stdout: o.out,
				})
			: await runPrintMode({ ...common, stdout: o.out, stderr: err });
		await bridge.shutdown();
		return code;
	} finally {
		manager.close();
	}
}

/** `resources_discover`: skills, prompt templates and themes that extensions contribute join the loader. */
async function discoverExtensionResources(
	bridge: ExtensionBridge,
	resources: ResourceLoader,
	cwd: string,
	err: (text: string) => void,
): Promise<void> {
	if (!bridge.runner.hasHandlers("resources_discover")) return;
	const before = new Set(resources.getDiagnostics().map(formatResourceDiagnostic));
	const found = await bridge.runner.emit("resources_discover", { cwd, reason: "startup" }, bridge.scope.context());
	const byExtension = new Map<string, { skillPaths: string[]; promptPaths: string[]; themePaths: string[] }>();
	const add = (kind: "skillPaths" | "promptPaths" | "themePaths", items: { path: string; extensionPath: string }[]) => {
		for (const { path, extensionPath } of items) {
			const entry = byExtension.get(extensionPath) ?? { skillPaths: [], promptPaths: [], themePaths: [] };
			entry[kind].push(path);
			byExtension.set(extensionPath, entry);
		}
	};
	add("skillPaths", found.skillPaths);
	add("promptPaths", found.promptPaths);
	add("themePaths", found.themePaths);
	for (const [extensionPath, paths] of byExtension) resources.addExtensionResources(extensionPath, paths);
	for (const line of resources.getDiagnostics().map(formatResourceDiagnostic)) if (!before.has(line)) err(`${line}\n`);
}

/** Settings `compaction.model` ("provider/id"): a different (cheaper) model writes the summaries. */
function summaryModel(settings: RunOptions["settings"], registry: ModelRegistry): { model?: Model } {
	const spec = (settings.compaction as { model?: string } | undefined)?.model;
	if (!spec) return {};
	const slash = spec.indexOf("/");
	const model = slash > 0 ? registry.find(spec.slice(0, slash), spec.slice(slash + 1)) : undefined;
	return model ? { model } : {};
}

/** Settings `compaction`, with `modelOverrides["provider/id"]` applied for the session's model. */
function compactionSettings(settings: RunOptions["settings"], model: Model): CompactionSettings {
	const c = settings.compaction;
	const override = c?.modelOverrides?.[`${model.provider}/${model.id}`];
	return {
		enabled: c?.enabled ?? DEFAULT_COMPACTION_SETTINGS.enabled,
		reserveTokens: override?.reserveTokens ?? c?.reserveTokens ?? DEFAULT_COMPACTION_SETTINGS.reserveTokens,
		keepRecentTokens: override?.keepRecentTokens ?? c?.keepRecentTokens ?? DEFAULT_COMPACTION_SETTINGS.keepRecentTokens,
	};
}

/** Built-in `/compact [instructions]`: compacts now and says what it did. */
async function runCompact(bridge: ExtensionBridge, args: string, out: (text: string) => void): Promise<void> {
	const result = await bridge.compactor?.(args ? { customInstructions: args } : {});
	out(
		result
			? `Compacted: ${result.tokensBefore} tokens of context summarised; kept from entry ${result.firstKeptEntryId}\n`
			: "Nothing to compact\n",
	);
}
