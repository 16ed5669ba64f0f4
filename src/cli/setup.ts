/**
 * Everything a non-interactive run needs before the first prompt: credentials and models (auth.json, env,
 * models.json, `--api-key`), the model and thinking level, the active tools and the system prompt.
 */

import { resolve } from "node:path";
import type { AgentTool, ThinkingLevel } from "../agent/index.ts";
import { AuthStorage, type Model, ModelRegistry, preconnect } from "../ai/index.ts";
import { agentPaths, type StartupSettings } from "../config/index.ts";
import { formatSkillsForPrompt, type ResourceLoader } from "../resources/index.ts";
import {
	type AgentSession,
	buildSystemPrompt,
	clampThinking,
	createAgentSession,
	DEFAULT_RETRY,
	describeSystemPrompt,
	resolveModel,
	type SystemPromptOptions,
	THINKING_LEVELS,
} from "../runtime/index.ts";
import type { SessionContext } from "../session/index.ts";
import { type BuiltinTool, createBuiltinTools, DEFAULT_ACTIVE_TOOLS } from "../tools/index.ts";
import { existsSync, readFileSync, UserError } from "../util/index.ts";
import type { FlagValue } from "./args.ts";

export interface SetupOptions {
	cwd: string;
	agentDir: string;
	flags: Map<string, FlagValue>;
	settings: StartupSettings;
	/** Tools registered by extensions, already wrapped as agent tools. */
	extensionTools: AgentTool<any>[];
	/** Context files, SYSTEM.md/APPEND_SYSTEM.md and skills for the system prompt. */
	resources?: ResourceLoader;
	/** The session being continued: its messages, model and thinking level. */
	sessionContext?: SessionContext;
	warn: (line: string) => void;
}

export interface Credentials {
	registry: ModelRegistry;
	authStorage: AuthStorage;
}

export interface Setup {
	registry: ModelRegistry;
	session?: AgentSession;
	/** Every tool the session could activate (built-in and extension), for `setActiveTools`. */
	allTools: AgentTool<any>[];
	/** Rebuilds the system prompt from the current tools and resources (after `resources_discover`). */
	rebuildSystemPrompt?: () => string;
	/** What the system prompt is built from, in pi's `BuildSystemPromptOptions` shape (for extensions). */
	systemPromptOptions?: () => Record<string, unknown>;
	/** Why there is no session (no credentials); shown when a prompt needs the model. */
	noModelReason?: string;
}

export function createCredentials(agentDir: string, warn: (line: string) => void): Credentials {
	const authStorage = new AuthStorage(agentPaths.auth(agentDir));
	const registry = new ModelRegistry({ modelsJsonPath: agentPaths.models(agentDir), authStorage });
	for (const error of registry.getErrors()) warn(error);
	return { registry, authStorage };
}

export function setupSession(options: SetupOptions, { registry, authStorage }: Credentials): Setup {
	const flag = (name: string) => options.flags.get(name) as string | undefined;
	const apiKey = flag("api-key");
	const { settings } = options;
	const explicit = flag("provider") !== undefined || flag("model") !== undefined;
	const saved = explicit ? undefined : options.sessionContext?.model;
	const savedModel = saved ? registry.find(saved.provider, saved.modelId) : undefined;
	const provider = flag("provider") ?? (explicit ? undefined : (savedModel?.provider ?? settings.defaultProvider));
	const modelPattern =
		flag("model") ??
		(explicit ? undefined : savedModel ? `${savedModel.provider}/${savedModel.id}` : settings.defaultModel);
	if (apiKey !== undefined && !modelPattern && !provider) {
		throw new UserError("Error: --api-key needs --model (or --provider) to know which provider the key is for");
	}
	if (apiKey !== undefined) {
		const target = resolveModel(
			{ getAll: () => registry.getAll(), getAvailable: () => registry.getAll() },
			{
				...(provider ? { provider } : {}),
				...(modelPattern ? { model: modelPattern } : {}),
			},
		);
		if (!target.ok) throw new UserError(target.error);
		authStorage.setRuntimeApiKey(target.model.provider, apiKey);
	}
	const resolution = resolveModel(registry, {
		...(provider ? { provider } : {}),
		...(modelPattern ? { model: modelPattern } : {}),
	});
	if (!resolution.ok) {
		// An explicitly named model that does not exist is an error at once; missing credentials only matter
		// when a prompt needs the model (extension commands still run).
		if (modelPattern || provider) {
			if (!resolution.error.startsWith("No API key")) throw new UserError(resolution.error);
		}
		return { registry, allTools: [], noModelReason: resolution.error };
	}
	const model = resolution.model;
	if (!registry.getApiKey(model) && !registry.authStorage.canRefresh(model.provider) && !isKeyless(registry, model)) {
		return {
			registry,
			allTools: [],
			noModelReason: `No API key found for ${model.provider}. Set its API key or pass --api-key.`,
		};
	}
	// The first request goes to this server: connecting now overlaps with building the session.
	preconnect(model);
	const restored = savedModel && options.sessionContext?.thinkingLevel;
	const requested = flag("thinking") ?? resolution.thinking ?? (restored || undefined) ?? settings.defaultThinkingLevel;
	const thinking = clampThinking(model, thinkingLevel(requested, options.warn));
	const builtins = createBuiltinTools(options.cwd, {
		...(settings.shellPath ? { shellPath: settings.shellPath } : {}),
		...(settings.shellCommandPrefix ? { commandPrefix: settings.shellCommandPrefix } : {}),
	});
	const tools = selectTools(options, builtins);
	// An extension tool named like a built-in one replaces it in place, as in pi.
	const allTools = [...toolsByName(options, builtins).values()];
	const systemPrompt = buildSystemPrompt(promptOptions(options, tools));
	const session = createAgentSession({
		model,
		thinkingLevel: thinking,
		tools,
		systemPrompt,
		getApiKey: (m) => registry.getApiKeyForRequest(m),
		getHeaders: (m) => registry.getRequestHeaders(m),
		retry: {
			enabled: settings.retry?.enabled ?? DEFAULT_RETRY.enabled,
			maxRetries: settings.retry?.maxRetries ?? DEFAULT_RETRY.maxRetries,
			baseDelayMs: settings.retry?.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
			maxDelayMs: settings.retry?.maxAgentDelayMs ?? DEFAULT_RETRY.maxDelayMs,
		},
	});
	if (options.sessionContext) session.agent.state.messages = [...options.sessionContext.messages];
	const rebuildSystemPrompt = () => buildSystemPrompt(promptOptions(options, session.agent.state.tools));
	const systemPromptOptions = () => describeSystemPrompt(promptOptions(options, session.agent.state.tools));
	return { registry, session, allTools, rebuildSystemPrompt, systemPromptOptions };
}

function isKeyless(registry: ModelRegistry, model: Model): boolean {
	return registry.getAvailable().includes(model);
}

function thinkingLevel(value: string | undefined, warn: (line: string) => void): ThinkingLevel {
	if (value === undefined) return "medium";
	if ((THINKING_LEVELS as readonly string[]).includes(value)) return value as ThinkingLevel;
	warn(`Warning: --thinking "${value}" is not one of ${THINKING_LEVELS.join(", ")}; using medium`);
	return "medium";
}

function toolsByName(options: SetupOptions, builtins: Map<string, BuiltinTool>): Map<string, AgentTool<any>> {
	return new Map<string, AgentTool<any>>([...builtins, ...options.extensionTools.map((t) => [t.name, t] as const)]);
}

function selectTools(options: SetupOptions, builtins: Map<string, BuiltinTool>): AgentTool<any>[] {
	const flags = options.flags;
	const all = toolsByName(options, builtins);
	let active: string[];
	const list = flags.get("tools") as string | undefined;
	if (flags.get("no-tools") === true) active = [];
	else if (list !== undefined) {
		active = list
			.split(",")
			.map((s) => s.trim())
			.filter(Boolean);
		for (const name of active) if (!all.has(name)) options.warn(`Warning: unknown tool "${name}" in --tools`);
	} else {
		const defaults = flags.get("no-builtin-tools") === true ? [] : [...DEFAULT_ACTIVE_TOOLS];
		active = [...defaults, ...options.extensionTools.map((t) => t.name)];
	}
	const excluded = new Set(((flags.get("exclude-tools") as string | undefined) ?? "").split(",").map((s) => s.trim()));
	// A name listed twice (an extension tool overriding a default one) is offered once.
	return [...new Set(active)].filter((n) => all.has(n) && !excluded.has(n)).map((n) => all.get(n) as AgentTool<any>);
}

/** `--system-prompt` over SYSTEM.md; `--append-system-prompt` values over APPEND_SYSTEM.md; AGENTS.md files; skills. */
function promptOptions(options: SetupOptions, tools: AgentTool<any>[]): SystemPromptOptions {
	const { cwd, flags, resources } = options;
	const files = resources?.getSystemPromptFiles();
	const custom = flags.get("system-prompt") as string | undefined;
	const appended = (flags.get("append-system-prompt") as string[] | undefined) ?? [];
	const customPrompt = custom !== undefined ? textOrFile(custom, cwd) : files?.systemPrompt?.content;
	const appendSystemPrompt =
		appended.length > 0 ? appended.map((v) => textOrFile(v, cwd)) : [files?.appendSystemPrompt?.content ?? ""];
	const hasRead = tools.some((t) => t.name === "read");
	const skills = resources && hasRead ? resources.getSkills().skills : [];
	const skillsBlock = skills.length > 0 ? formatSkillsForPrompt(skills) : "";
	return {
		cwd,
		tools: tools as BuiltinTool[],
		...(customPrompt !== undefined ? { customPrompt } : {}),
		appendSystemPrompt,
		contextFiles: resources?.getContextFiles() ?? [],
		...(skillsBlock ? { skillsBlock, skills } : {}),
	};
}

/** A flag value that names an existing file means its contents; anything else is the text itself. */
function textOrFile(value: string, cwd: string): string {
	const path = resolve(cwd, value);
	if (value.length < 4096 && existsSync(path)) {
		try {
			return readFileSync(path, "utf8");
		} catch {
			// A directory or unreadable path: treat the value as text, as pi does.
		}
	}
	return value;
}
