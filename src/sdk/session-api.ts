/**
 * pi's session factories for SDK users: `createAgentSession(options)` (every service defaulted as pi does: model
 * runtime over `<agentDir>/auth.json` and `models.json`, file-backed settings, a persistent session in the cwd's
 * session folder, a reloaded `DefaultResourceLoader`), `createAgentSessionFromServices({ services, … })`, the
 * `AgentSessionRuntime` that replaces sessions, and `runPrintMode(runtime, options)`. Each resolves to pi's
 * `{ session, extensionsResult, modelFallbackMessage }`.
 */
import { join, resolve } from "node:path";
import type { ThinkingLevel } from "../agent/index.ts";
import type { Model } from "../ai/index.ts";
import { getAgentDir, SettingsManager } from "../config/index.ts";
import type { ToolDefinition } from "../extensions/index.ts";
import { type RuntimePrintModeOptions, runRuntimePrintMode } from "../modes/index.ts";
import {
	type AgentSessionRuntime,
	type AgentSessionServices,
	createSdkSession,
	ModelRuntime,
	type SdkResourceLoader,
	type SdkSessionOptions,
	type SdkSessionResult,
} from "../runtime/index.ts";
import { getDefaultSessionDir, SessionManager } from "../session/index.ts";
import { DefaultResourceLoader } from "./resource-loader.ts";

/** pi's `CreateAgentSessionOptions`. */
export interface CreateAgentSessionOptions {
	cwd?: string;
	agentDir?: string;
	modelRuntime?: ModelRuntime;
	model?: Model;
	thinkingLevel?: ThinkingLevel;
	scopedModels?: { model: Model; thinkingLevel?: ThinkingLevel }[];
	noTools?: "all" | "builtin";
	tools?: string[];
	excludeTools?: string[];
	customTools?: ToolDefinition[];
	resourceLoader?: SdkResourceLoader;
	sessionManager?: SessionManager;
	settingsManager?: SettingsManager;
	sessionStartEvent?: SdkSessionOptions["sessionStartEvent"];
}

export type CreateAgentSessionResult = SdkSessionResult;

/** pi's `CreateAgentSessionFromServicesOptions`. */
export interface CreateAgentSessionFromServicesOptions
	extends Pick<
		CreateAgentSessionOptions,
		| "model"
		| "thinkingLevel"
		| "scopedModels"
		| "tools"
		| "excludeTools"
		| "noTools"
		| "customTools"
		| "sessionStartEvent"
	> {
	services: AgentSessionServices;
	sessionManager: SessionManager;
}

export async function createAgentSession(options: CreateAgentSessionOptions = {}): Promise<CreateAgentSessionResult> {
	const cwd = resolve(options.cwd ?? options.sessionManager?.getCwd() ?? process.cwd());
	const agentDir = options.agentDir ? resolve(options.agentDir) : getAgentDir();
	const modelRuntime =
		options.modelRuntime ??
		(await ModelRuntime.create(
			options.agentDir ? { authPath: join(agentDir, "auth.json"), modelsPath: join(agentDir, "models.json") } : {},
		));
	const settingsManager = options.settingsManager ?? SettingsManager.create(cwd, agentDir);
	const sessionManager = options.sessionManager ?? SessionManager.create(cwd, getDefaultSessionDir(cwd, agentDir));
	let resourceLoader = options.resourceLoader;
	if (!resourceLoader) {
		const loader = new DefaultResourceLoader({ cwd, agentDir, settingsManager });
		await loader.reload();
		resourceLoader = loader;
	}
	return createSdkSession({
		...pick(options),
		cwd,
		modelRuntime,
		settingsManager,
		resourceLoader,
		sessionManager,
	});
}

export function createAgentSessionFromServices(
	options: CreateAgentSessionFromServicesOptions,
): Promise<CreateAgentSessionResult> {
	const { services } = options;
	return createSdkSession({
		...pick(options),
		cwd: services.cwd,
		modelRuntime: services.modelRuntime,
		settingsManager: services.settingsManager,
		resourceLoader: services.resourceLoader,
		sessionManager: options.sessionManager,
	});
}

/** The session choices both factories pass on, without undefined values. */
function pick(options: CreateAgentSessionFromServicesOptions | CreateAgentSessionOptions): Partial<SdkSessionOptions> {
	const keys = [
		"model",
		"thinkingLevel",
		"scopedModels",
		"tools",
		"excludeTools",
		"noTools",
		"customTools",
		"sessionStartEvent",
	] as const;
	const picked: Record<string, unknown> = {};
	for (const key of keys) if (options[key] !== undefined) picked[key] = options[key];
	return picked as Partial<SdkSessionOptions>;
}

/** pi's `runPrintMode(runtime, { mode, messages, initialMessage, initialImages })`; resolves to the exit code. */
export function runPrintMode(runtime: AgentSessionRuntime, options: RuntimePrintModeOptions): Promise<number> {
	return runRuntimePrintMode(runtime, options);
}
