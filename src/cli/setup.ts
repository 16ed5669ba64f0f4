/**
 * Everything a non-interactive run needs before the first prompt: credentials and models (auth.json, env,
 * models.json, `--api-key`), the model and thinking level, the active tools and the system prompt.
 */

import { resolve } from "node:path";
import type { AgentTool, ThinkingLevel } from "../agent/index.ts";
import {
	AuthStorage,
	attachLlamaProvider,
	credentialHint,
	DEFAULT_HTTP_IDLE_TIMEOUT_MS,
	type Model,
	ModelRegistry,
	preconnect,
	setHttpIdleTimeout,
} from "../ai/index.ts";
import { agentPaths, type StartupSettings } from "../config/index.ts";
import type { ResourceLoader } from "../resources/index.ts";
import {
	type AgentSession,
	clampThinking,
	createAgentSession,
	DEFAULT_RETRY,
	resolveModel,
	type SystemPromptOptions,
	THINKING_LEVELS,
} from "../runtime/index.ts";
import type { SessionContext } from "../session/index.ts";
import { type BuiltinTool, createBuiltinTools, DEFAULT_ACTIVE_TOOLS, type ShellSessionInfo } from "../tools/index.ts";
import { existsSync, readFileSync, UserError } from "../util/index.ts";
import type { FlagValue } from "./args.ts";
import { assertAuthFileUsable } from "./auth-file.ts";

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
	/** The session's id and file, which bash commands see as `PI_SESSION_ID` / `PI_SESSION_FILE`. */
	sessionFile?: () => { sessionId: string; sessionFile?: string };
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
	/** Why there is no session (no credentials); shown when a prompt needs the model. */
	noModelReason?: string;
}

export function createCredentials(agentDir: string, warn: (line: string) => void): Credentials {
	const authStorage = new AuthStorage(agentPaths.auth(agentDir));
	assertAuthFileUsable(authStorage.path, authStorage.getIssues());
	const registry = new ModelRegistry({ modelsJsonPath: agentPaths.models(agentDir), authStorage });
	for (const error of registry.getErrors()) warn(error);
	for (const line of attachLlamaProvider(registry, authStorage, agentDir)) warn(line);
	return { registry, authStorage };
}

export function setupSession(options: SetupOptions, { registry, authStorage }: Credentials): Setup {
	const flag = (name: string) => options.flags.get(name) as string | undefined;
	const apiKey = flag("api-key");
	const { settings } = options;
	// Provider requests give up on a server that sends nothing for this long (pi's HTTP idle timeout).
	setHttpIdleTimeout(settings.httpIdleTimeoutMs ?? DEFAULT_HTTP_IDLE_TIMEOUT_MS);
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
	const sessionFile = options.sessionFile;
	const builtins = createBuiltinTools(options.cwd, {
		...(settings.shellPath ? { shellPath: settings.shellPath } : {}),
		...(settings.shellCommandPrefix ? { commandPrefix: settings.shellCommandPrefix } : {}),
		...(settings.images?.autoResize === false ? { autoResizeImages: false } : {}),
		modelAcceptsImages: () => session.agent.state.model.input.includes("image"),
		...(sessionFile ? { sessionInfo: () => shellSessionInfo(session, sessionFile) } : {}),
	});
	// An extension tool named like a built-in one replaces it in place, as in pi.
	const allTools = [...toolsByName(options, builtins).values()];
	const tools = selectTools(options, allTools);
	const session = createAgentSession({
		images: {
			autoResize: () => settings.images?.autoResize ?? true,
			block: () => settings.images?.blockImages ?? false,
		},
		model,
		thinkingLevel: thinking,
		tools,
		cwd: options.cwd,
		prompt: {
			base: () => promptOptions(options, session.agent.state.tools, allTools),
			registry: () => allTools,
		},
		getApiKey: (m) => registry.getApiKeyForRequest(m),
		credentialHint: (m) => credentialHint(registry, m),
		getHeaders: (m) => registry.getRequestHeaders(m),
		prepareRequest: (m) => registry.requestTarget(m),
		// Providers key prompt caches by it (OpenAI's prompt_cache_key), as pi does with its session id.
		...(sessionFile ? { sessionId: sessionFile().sessionId } : {}),
		retry: {
			enabled: settings.retry?.enabled ?? DEFAULT_RETRY.enabled,
			maxRetries: settings.retry?.maxRetries ?? DEFAULT_RETRY.maxRetries,
			baseDelayMs: settings.retry?.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
			maxDelayMs: settings.retry?.maxAgentDelayMs ?? DEFAULT_RETRY.maxDelayMs,
		},
	});
	if (options.sessionContext) session.agent.state.messages = [...options.sessionContext.messages];
	return { registry, session, allTools };
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

/** What a bash command is told about its session: id and file, and the model and thinking level in use now. */
function shellSessionInfo(session: AgentSession, file: NonNullable<SetupOptions["sessionFile"]>): ShellSessionInfo {
	const { sessionId, sessionFile } = file();
	const { model, thinkingLevel } = session.agent.state;
	return {
		sessionId,
		...(sessionFile ? { sessionFile } : {}),
		provider: model.provider,
		model: model.id,
		thinkingLevel,
	};
}

function toolsByName(options: SetupOptions, builtins: Map<string, BuiltinTool>): Map<string, AgentTool<any>> {
	return new Map<string, AgentTool<any>>([...builtins, ...options.extensionTools.map((t) => [t.name, t] as const)]);
}

/**
 * The active tools: `--tools` / `--no-tools` / `--no-builtin-tools` when given, otherwise the defaults plus every
 * extension tool; `--exclude-tools` applies to all of them. A continued session starts with these too (as in pi):
 * its first request declares whatever differs from the loadout its transcript last declared.
 */
function selectTools(options: SetupOptions, allTools: AgentTool<any>[]): AgentTool<any>[] {
	const flags = options.flags;
	const all = new Map<string, AgentTool<any>>(allTools.map((t) => [t.name, t] as const));
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

/** A tool snippet on one line (pi folds line breaks and runs of spaces). */
function oneLine(text: string | undefined): string | undefined {
	const line = text?.replace(/\s+/g, " ").trim();
	return line ? line : undefined;
}

/**
 * What the prompt is built from, in pi's shape: `--system-prompt` over SYSTEM.md, `--append-system-prompt` values
 * over APPEND_SYSTEM.md, AGENTS.md files, skills, the active tools, and every tool's snippet and guidelines.
 */
function promptOptions(options: SetupOptions, active: AgentTool<any>[], all: AgentTool<any>[]): SystemPromptOptions {
	const { cwd, flags, resources } = options;
	const files = resources?.getSystemPromptFiles();
	const custom = flags.get("system-prompt") as string | undefined;
	const appended = (flags.get("append-system-prompt") as string[] | undefined) ?? [];
	const customPrompt = custom !== undefined ? textOrFile(custom, cwd) : files?.systemPrompt?.content;
	const appendParts =
		appended.length > 0 ? appended.map((v) => textOrFile(v, cwd)) : [files?.appendSystemPrompt?.content ?? ""];
	const toolSnippets: Record<string, string> = {};
	const toolGuidelines: Record<string, string[]> = {};
	for (const tool of all as BuiltinTool[]) {
		const snippet = oneLine(tool.promptSnippet);
		if (snippet) toolSnippets[tool.name] = snippet;
		const lines = [...new Set((tool.promptGuidelines ?? []).map((line) => line.trim()).filter(Boolean))];
		if (lines.length > 0) toolGuidelines[tool.name] = lines;
	}
	return {
		cwd,
		...(customPrompt !== undefined ? { customPrompt } : {}),
		appendSystemPrompt: appendParts.filter((part) => part.trim() !== "").join("\n\n"),
		selectedTools: active.map((tool) => tool.name),
		toolSnippets,
		toolGuidelines,
		contextFiles: resources?.getContextFiles() ?? [],
		skills: resources?.getSkills().skills ?? [],
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
