/**
 * The one place that knows where pi keeps things. Everything else asks here.
 *
 * Agent dir: `PI_CODING_AGENT_DIR` (with `~` expanded) or `~/.pi/agent`.
 * Project config dir: `<cwd>/.pi`.
 */
import { join, resolve } from "node:path";
import { expandHome, homeDir } from "../util/index.ts";

/** Name of the per-project config folder and of the folder under $HOME. */
export const CONFIG_DIR_NAME = ".pi";

export const ENV_AGENT_DIR = "PI_CODING_AGENT_DIR";
export const ENV_SESSION_DIR = "PI_CODING_AGENT_SESSION_DIR";

export const SYSTEM_PROMPT_FILE = "SYSTEM.md";
export const APPEND_SYSTEM_PROMPT_FILE = "APPEND_SYSTEM.md";

export function getAgentDir(env: NodeJS.ProcessEnv = process.env): string {
	const override = env[ENV_AGENT_DIR];
	if (override && override.trim() !== "") return resolve(expandHome(override.trim(), env));
	return join(homeDir(env), CONFIG_DIR_NAME, "agent");
}

export function getProjectConfigDir(cwd: string): string {
	return join(cwd, CONFIG_DIR_NAME);
}

/** Files and folders inside the agent dir (global scope). */
export const agentPaths = {
	settings: (agentDir: string) => join(agentDir, "settings.json"),
	auth: (agentDir: string) => join(agentDir, "auth.json"),
	models: (agentDir: string) => join(agentDir, "models.json"),
	trust: (agentDir: string) => join(agentDir, "trust.json"),
	keybindings: (agentDir: string) => join(agentDir, "keybindings.json"),
	extensions: (agentDir: string) => join(agentDir, "extensions"),
	skills: (agentDir: string) => join(agentDir, "skills"),
	prompts: (agentDir: string) => join(agentDir, "prompts"),
	themes: (agentDir: string) => join(agentDir, "themes"),
	sessions: (agentDir: string) => join(agentDir, "sessions"),
	bin: (agentDir: string) => join(agentDir, "bin"),
	cache: (agentDir: string) => join(agentDir, "cache"),
	systemPrompt: (agentDir: string) => join(agentDir, SYSTEM_PROMPT_FILE),
	appendSystemPrompt: (agentDir: string) => join(agentDir, APPEND_SYSTEM_PROMPT_FILE),
} as const;

/** Files and folders inside `<cwd>/.pi` (project scope). */
export const projectPaths = {
	settings: (cwd: string) => join(getProjectConfigDir(cwd), "settings.json"),
	extensions: (cwd: string) => join(getProjectConfigDir(cwd), "extensions"),
	skills: (cwd: string) => join(getProjectConfigDir(cwd), "skills"),
	prompts: (cwd: string) => join(getProjectConfigDir(cwd), "prompts"),
	themes: (cwd: string) => join(getProjectConfigDir(cwd), "themes"),
	systemPrompt: (cwd: string) => join(getProjectConfigDir(cwd), SYSTEM_PROMPT_FILE),
	appendSystemPrompt: (cwd: string) => join(getProjectConfigDir(cwd), APPEND_SYSTEM_PROMPT_FILE),
} as const;

/** Entries of `<cwd>/.pi` whose presence makes project trust matter (a bare `.pi` folder does not). */
export const TRUST_GATED_PROJECT_ENTRIES = [
	"settings.json",
	"extensions",
	"skills",
	"prompts",
	"themes",
	SYSTEM_PROMPT_FILE,
	APPEND_SYSTEM_PROMPT_FILE,
] as const;

/**
 * Context-file names looked up in each folder, best first; only the first one present in a folder is used
 * (`AGENTS.override.md` shadows the others in its own folder only).
 */
export const CONTEXT_FILE_NAMES = ["AGENTS.override.md", "AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"] as const;

/** The Agent Skills folder under a directory: `<dir>/.agents/skills`. */
export function agentsSkillsDir(dir: string): string {
	return join(dir, ".agents", "skills");
}

/** `~/.agents/skills`: the user's Agent Skills folder (a user resource, never trust-gated). */
export function userAgentsSkillsDir(env: NodeJS.ProcessEnv = process.env): string {
	return agentsSkillsDir(homeDir(env));
}
