/**
 * pi's `createAgentSessionServices`: the cwd-bound services a session is built from — model runtime, settings,
 * resource loader (reloaded) — plus diagnostics instead of printed warnings. Providers that extensions registered
 * while loading are handed to the model runtime; `extensionFlagValues` are checked against the flags they declare.
 */
import { join, resolve } from "node:path";
import type { ProviderConfig } from "../ai/index.ts";
import { getAgentDir, SettingsManager } from "../config/index.ts";
import { DefaultResourceLoader, type DefaultResourceLoaderOptions } from "./default-resource-loader.ts";
import { ModelRuntime } from "./model-runtime.ts";
import type { ExtensionModules, LoadExtensionsResult } from "./sdk-extensions.ts";

export interface AgentSessionRuntimeDiagnostic {
	type: "info" | "warning" | "error";
	message: string;
}

export interface CreateAgentSessionServicesOptions {
	cwd: string;
	agentDir?: string;
	settingsManager?: SettingsManager;
	modelRuntime?: ModelRuntime;
	modelRuntimeSignal?: AbortSignal;
	extensionFlagValues?: Map<string, boolean | string>;
	resourceLoaderOptions?: Omit<DefaultResourceLoaderOptions, "cwd" | "agentDir" | "settingsManager">;
	resourceLoaderReloadOptions?: Parameters<DefaultResourceLoader["reload"]>[0];
}

export interface AgentSessionServices {
	cwd: string;
	agentDir: string;
	modelRuntime: ModelRuntime;
	settingsManager: SettingsManager;
	resourceLoader: DefaultResourceLoader;
	diagnostics: AgentSessionRuntimeDiagnostic[];
}

export async function createAgentSessionServices(
	options: CreateAgentSessionServicesOptions,
	modules: ExtensionModules,
): Promise<AgentSessionServices> {
	const cwd = resolve(options.cwd);
	const agentDir = options.agentDir ? resolve(options.agentDir) : getAgentDir();
	const modelRuntime =
		options.modelRuntime ??
		(await ModelRuntime.create({
			authPath: join(agentDir, "auth.json"),
			modelsPath: join(agentDir, "models.json"),
			...(options.modelRuntimeSignal ? { signal: options.modelRuntimeSignal } : {}),
		}));
	const settingsManager = options.settingsManager ?? SettingsManager.create(cwd, agentDir);
	const resourceLoader = new DefaultResourceLoader(
		{ ...options.resourceLoaderOptions, cwd, agentDir, settingsManager },
		modules,
	);
	await resourceLoader.reload(options.resourceLoaderReloadOptions);
	const diagnostics: AgentSessionRuntimeDiagnostic[] = [];
	const extensions = resourceLoader.getExtensions();
	for (const { name, config, extensionPath } of extensions.runtime.pendingProviderRegistrations) {
		try {
			modelRuntime.registerProvider(name, config as ProviderConfig);
		} catch (error) {
			diagnostics.push({ type: "error", message: `Extension "${extensionPath}" error: ${(error as Error).message}` });
		}
	}
	extensions.runtime.pendingProviderRegistrations = [];
	await modelRuntime.refresh();
	diagnostics.push(...applyFlagValues(extensions, options.extensionFlagValues));
	return { cwd, agentDir, modelRuntime, settingsManager, resourceLoader, diagnostics };
}

/** Gives declared extension flags their values; unknown flags and string flags without a value are errors. */
function applyFlagValues(
	extensions: LoadExtensionsResult,
	values: Map<string, boolean | string> | undefined,
): AgentSessionRuntimeDiagnostic[] {
	if (!values) return [];
	const declared = new Map<string, string>();
	for (const extension of extensions.extensions) {
		for (const [name, flag] of extension.flags) declared.set(name, (flag as { type?: string }).type ?? "boolean");
	}
	const diagnostics: AgentSessionRuntimeDiagnostic[] = [];
	const unknown: string[] = [];
	for (const [name, value] of values) {
		const type = declared.get(name);
		if (type === undefined) unknown.push(name);
		else if (type === "boolean") extensions.runtime.flagValues.set(name, true);
		else if (typeof value === "string") extensions.runtime.flagValues.set(name, value);
		else diagnostics.push({ type: "error", message: `Extension flag "--${name}" requires a value` });
	}
	if (unknown.length > 0) {
		const list = unknown.map((name) => `--${name}`).join(", ");
		diagnostics.push({ type: "error", message: `Unknown option${unknown.length === 1 ? "" : "s"}: ${list}` });
	}
	return diagnostics;
}
