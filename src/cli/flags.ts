/**
 * The built-in command-line options, as one table. `value`: takes the next argument; `list`: repeatable, collects
 * values; `optional`: takes the next argument only when it is not an option. The help text is generated from here.
 */
export type FlagKind = "boolean" | "value" | "list" | "optional";

export interface FlagSpec {
	name: string;
	alias?: string;
	kind: FlagKind;
	arg?: string;
	help: string;
	group: "Modes" | "Models" | "Sessions" | "Tools" | "Resources" | "Prompts and process";
}

export const FLAGS: readonly FlagSpec[] = [
	{
		name: "print",
		alias: "p",
		kind: "boolean",
		help: "Run the prompts once, print the final answer, exit",
		group: "Modes",
	},
	{ name: "mode", kind: "value", arg: "text|json|rpc", help: "Output interface", group: "Modes" },
	{
		name: "export",
		kind: "value",
		arg: "<file> [out]",
		help: "Export a session file to HTML and exit",
		group: "Modes",
	},
	{ name: "provider", kind: "value", arg: "<name>", help: "Restrict --model lookup to one provider", group: "Models" },
	{
		name: "model",
		kind: "value",
		arg: "<pattern>",
		help: "Model id or pattern; provider/id and :thinking allowed",
		group: "Models",
	},
	{ name: "api-key", kind: "value", arg: "<key>", help: "API key for this run only (not saved)", group: "Models" },
	{
		name: "thinking",
		kind: "value",
		arg: "<level>",
		help: "off, minimal, low, medium, high, xhigh or max",
		group: "Models",
	},
	{
		name: "models",
		kind: "value",
		arg: "<patterns>",
		help: "Comma-separated models to start from and cycle",
		group: "Models",
	},
	{ name: "list-models", kind: "optional", arg: "[search]", help: "List available models and exit", group: "Models" },
	{
		name: "continue",
		alias: "c",
		kind: "boolean",
		help: "Continue the newest session of this folder",
		group: "Sessions",
	},
	{ name: "resume", alias: "r", kind: "boolean", help: "Choose a session to resume", group: "Sessions" },
	{ name: "session", kind: "value", arg: "<path|id>", help: "Open a session file or id (prefix)", group: "Sessions" },
	{
		name: "session-id",
		kind: "value",
		arg: "<id>",
		help: "Open or create the session with this exact id",
		group: "Sessions",
	},
	{ name: "fork", kind: "value", arg: "<path|id>", help: "Fork a session into a new one", group: "Sessions" },
	{
		name: "session-dir",
		kind: "value",
		arg: "<dir>",
		help: "Where sessions are stored and looked up",
		group: "Sessions",
	},
	{ name: "no-session", kind: "boolean", help: "Keep the session in memory only", group: "Sessions" },
	{ name: "name", alias: "n", kind: "value", arg: "<name>", help: "Session display name", group: "Sessions" },
	{
		name: "tools",
		alias: "t",
		kind: "value",
		arg: "<list>",
		help: "Comma-separated allowlist of tools",
		group: "Tools",
	},
	{
		name: "exclude-tools",
		alias: "xt",
		kind: "value",
		arg: "<list>",
		help: "Comma-separated tools to disable",
		group: "Tools",
	},
	{ name: "no-builtin-tools", alias: "nbt", kind: "boolean", help: "Disable the built-in tools", group: "Tools" },
	{ name: "no-tools", alias: "nt", kind: "boolean", help: "Start with every tool disabled", group: "Tools" },
	{
		name: "extension",
		alias: "e",
		kind: "list",
		arg: "<path>",
		help: "Load an extension file or folder (repeatable)",
		group: "Resources",
	},
	{
		name: "no-extensions",
		alias: "ne",
		kind: "boolean",
		help: "Skip discovered and configured extensions",
		group: "Resources",
	},
	{ name: "skill", kind: "list", arg: "<path>", help: "Load a skill file or folder (repeatable)", group: "Resources" },
	{
		name: "no-skills",
		alias: "ns",
		kind: "boolean",
		help: "Skip discovered and configured skills",
		group: "Resources",
	},
	{
		name: "prompt-template",
		kind: "list",
		arg: "<path>",
		help: "Load a prompt template (repeatable)",
		group: "Resources",
	},
	{
		name: "no-prompt-templates",
		alias: "np",
		kind: "boolean",
		help: "Skip discovered and configured templates",
		group: "Resources",
	},
	{ name: "theme", kind: "list", arg: "<path>", help: "Load a theme file or folder (repeatable)", group: "Resources" },
	{ name: "use-theme", kind: "value", arg: "<name>", help: "Theme for this run", group: "Resources" },
	{ name: "no-themes", kind: "boolean", help: "Skip discovered and configured themes", group: "Resources" },
	{
		name: "no-context-files",
		alias: "nc",
		kind: "boolean",
		help: "Do not read AGENTS.md / CLAUDE.md",
		group: "Resources",
	},
	{
		name: "system-prompt",
		kind: "value",
		arg: "<text|file>",
		help: "Replace the system prompt",
		group: "Prompts and process",
	},
	{
		name: "append-system-prompt",
		kind: "list",
		arg: "<text|file>",
		help: "Append to the system prompt (repeatable)",
		group: "Prompts and process",
	},
	{ name: "tui-mode", kind: "value", arg: "<mode>", help: "regular or fullscreen", group: "Prompts and process" },
	{ name: "verbose", kind: "boolean", help: "Verbose start-up output", group: "Prompts and process" },
	{
		name: "approve",
		alias: "a",
		kind: "boolean",
		help: "Trust this project's .pi resources for this run",
		group: "Prompts and process",
	},
	{
		name: "no-approve",
		alias: "na",
		kind: "boolean",
		help: "Ignore this project's .pi resources for this run",
		group: "Prompts and process",
	},
	{
		name: "offline",
		kind: "boolean",
		help: "No automatic network activity (PI_OFFLINE=1)",
		group: "Prompts and process",
	},
	{ name: "help", alias: "h", kind: "boolean", help: "Show this help and exit", group: "Prompts and process" },
	{ name: "version", alias: "v", kind: "boolean", help: "Show the version and exit", group: "Prompts and process" },
];

export const FLAG_BY_NAME: ReadonlyMap<string, FlagSpec> = new Map(FLAGS.map((f) => [f.name, f]));
export const FLAG_BY_ALIAS: ReadonlyMap<string, FlagSpec> = new Map(
	FLAGS.filter((f) => f.alias).map((f) => [f.alias as string, f]),
);
