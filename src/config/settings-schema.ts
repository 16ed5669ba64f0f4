/**
 * The settings schema: every key of pi 0.87.1's settings reference with its type and default, as one TypeBox
 * object. Validation, the defaults table, the editor JSON Schema (`docs/settings.schema.json`) and the resolved
 * settings type all come from here. Keys without a fixed default (chosen at run time, e.g. the model) carry none.
 *
 * Run time does not build it: building this schema with TypeBox takes 2–3 ms of every start on a slow machine, so
 * scripts/gen-settings-schema.ts writes it out as a plain object (settings-schema.generated.ts, with the defaults
 * table) and only types are imported from here. A test fails when the generated file is stale.
 */
import {
	type SchemaOptions,
	type Static,
	type TLiteral,
	type TLiteralValue,
	type TSchema,
	type TUnion,
	Type,
} from "@sinclair/typebox";

const literals = <const T extends readonly TLiteralValue[]>(values: T, options: SchemaOptions = {}) =>
	Type.Union(
		values.map((v) => Type.Literal(v)),
		options,
	) as TUnion<TLiteral<T[number]>[]>;

const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;
const ThinkingLevel = literals(THINKING_LEVELS);
const StringList = (description: string, defaults?: string[]) =>
	Type.Array(Type.String(), { description, ...(defaults ? { default: defaults } : {}) });
const Tokens = (description: string, fallback?: number) =>
	Type.Integer({
		minimum: 0,
		maximum: Number.MAX_SAFE_INTEGER,
		description,
		...(fallback !== undefined ? { default: fallback } : {}),
	});
const Millis = (description: string, fallback?: number) => Tokens(description, fallback);
const Flag = (description: string, fallback: boolean) => Type.Boolean({ description, default: fallback });
const Text = (description: string) => Type.String({ description });
const Opt = <T extends TSchema>(schema: T) => Type.Optional(schema);

const ResourceFilter = StringList("Paths or globs; `!pattern` excludes, `+path` forces in, `-path` forces out.");

const PackageSource = Type.Union([
	Type.String({ description: "npm:, git: or local path source" }),
	Type.Object(
		{
			source: Type.String({ description: "npm:, git: or local path source" }),
			autoload: Opt(Type.Boolean({ description: "false: a project entry only filters the user's package" })),
			extensions: Opt(ResourceFilter),
			skills: Opt(ResourceFilter),
			prompts: Opt(ResourceFilter),
			themes: Opt(ResourceFilter),
		},
		{ additionalProperties: true },
	),
]);

const CompactionOverride = Type.Object(
	{
		reserveTokens: Opt(Tokens("Tokens kept free for the reply")),
		keepRecentTokens: Opt(Tokens("Recent tokens kept verbatim")),
	},
	{ additionalProperties: true },
);

export const SettingsSchema = Type.Object(
	{
		$schema: Opt(Text("JSON Schema reference for editors; ignored by pi")),
		// Model and thinking
		defaultProvider: Opt(Text("Provider chosen at start-up (default: automatic)")),
		defaultModel: Opt(Text("Model id chosen at start-up (default: automatic)")),
		defaultThinkingLevel: Opt(
			literals(THINKING_LEVELS, { description: "Thinking level at start-up", default: "medium" }),
		),
		modelThinkingLevels: Opt(
			Type.Record(Type.String(), ThinkingLevel, { description: "Start-up thinking level per `provider/modelId`" }),
		),
		thinkingBudgets: Opt(
			Type.Object(
				{
					minimal: Opt(Tokens("Token budget for `minimal`")),
					low: Opt(Tokens("Token budget for `low`")),
					medium: Opt(Tokens("Token budget for `medium`")),
					high: Opt(Tokens("Token budget for `high`")),
				},
				{ description: "Token budgets per thinking level (default: built-in budgets)", additionalProperties: true },
			),
		),
		enabledModels: Opt(StringList("Model patterns for start-up selection and cycling, as for --models")),
		hideThinkingBlock: Opt(Flag("Hide thinking blocks in the transcript", false)),
		showCacheMissNotices: Opt(Flag("Report cache misses, cache warming, compaction usage and recoveries", false)),
		cacheWarming: Opt(
			literals(["off", "streaming", "idle"], {
				description: "Keep prompt caches warm while running or also between runs (global only)",
				default: "streaming",
			}),
		),
		// Interaction
		steeringMode: Opt(
			literals(["all", "one-at-a-time"], {
				description: "Delivery of queued steering messages",
				default: "one-at-a-time",
			}),
		),
		followUpMode: Opt(
			literals(["all", "one-at-a-time"], { description: "Delivery of queued follow-ups", default: "one-at-a-time" }),
		),
		externalEditor: Opt(Text("Command for the external editor (default: $VISUAL, $EDITOR, platform editor)")),
		doubleEscapeAction: Opt(
			literals(["tree", "fork", "none"], { description: "Double Escape on an empty editor", default: "tree" }),
		),
		treeFilterMode: Opt(
			literals(["default", "no-tools", "user-only", "labeled-only", "all"], {
				description: "Initial /tree filter",
				default: "default",
			}),
		),
		defaultProjectTrust: Opt(
			literals(["ask", "always", "never"], {
				description: "Project trust when nothing else decides (global only)",
				default: "ask",
			}),
		),
		// Tools
		defaultTools: Opt(StringList("Built-in tools enabled at start-up", ["read", "bash", "edit", "write"])),
		// Sessions and context
		sessionDir: Opt(Text("Session folder; relative paths resolve from the working directory")),
		compaction: Opt(
			Type.Object(
				{
					enabled: Opt(Flag("Compact automatically", true)),
					reserveTokens: Opt(Tokens("Tokens kept free for the reply", 16384)),
					keepRecentTokens: Opt(Tokens("Recent tokens kept verbatim", 20000)),
					modelOverrides: Opt(
						Type.Record(Type.String(), CompactionOverride, { description: "Per `provider/modelId` token settings" }),
					),
				},
				{ additionalProperties: true },
			),
		),
		branchSummary: Opt(
			Type.Object(
				{
					reserveTokens: Opt(Tokens("Tokens kept free when summarizing a branch", 16384)),
					skipPrompt: Opt(Flag("Skip the branch-summary question and summarize nothing", false)),
				},
				{ additionalProperties: true },
			),
		),
		// Terminal and display
		theme: Opt(Text('Theme name, or "light/dark" to follow the terminal (default: detected)')),
		quietStartup: Opt(Flag("Hide the start-up header", false)),
		tuiMode: Opt(literals(["regular", "fullscreen"], { description: "Interactive UI mode", default: "regular" })),
		fullscreenExitOutput: Opt(
			literals(["transcript", "resume-hint"], {
				description: "What is printed when fullscreen mode exits",
				default: "transcript",
			}),
		),
		fullscreenScrollbar: Opt(
			literals(["auto", "always", "hidden"], { description: "Fullscreen scrollbar", default: "auto" }),
		),
		fullscreenCopyOnSelect: Opt(Flag("Copy selections in fullscreen mode", true)),
		editorPaddingX: Opt(
			Type.Integer({ minimum: 0, maximum: 3, description: "Editor side padding in cells", default: 0 }),
		),
		outputPad: Opt(literals([0, 1], { description: "Transcript side padding", default: 1 })),
		autocompleteMaxVisible: Opt(
			Type.Integer({ minimum: 3, maximum: 20, description: "Visible autocomplete rows", default: 5 }),
		),
		showHardwareCursor: Opt(Flag("Show the terminal cursor for input methods", false)),
		terminal: Opt(
			Type.Object(
				{
					showImages: Opt(Flag("Show inline images when the terminal can", true)),
					imageWidthCells: Opt(Type.Integer({ minimum: 1, description: "Inline image width in cells", default: 60 })),
					clearOnShrink: Opt(Flag("Clear rows left empty when output shrinks", false)),
					showTerminalProgress: Opt(Flag("Report progress with OSC 9;4", false)),
					hyperlinks: Opt(
						Type.Union([Type.Boolean(), Type.Literal("auto")], { description: "OSC 8 links", default: "auto" }),
					),
					images: Opt(
						Type.Union([literals(["kitty", "iterm2", "auto"]), Type.Literal(false)], {
							description: "Inline image protocol",
							default: "auto",
						}),
					),
					trueColor: Opt(
						Type.Union([Type.Boolean(), Type.Literal("auto")], { description: "24-bit colour", default: "auto" }),
					),
				},
				{ additionalProperties: true },
			),
		),
		images: Opt(
			Type.Object(
				{
					autoResize: Opt(Flag("Shrink images to at most 2000x2000 before sending", true)),
					blockImages: Opt(Flag("Never send images to models", false)),
				},
				{ additionalProperties: true },
			),
		),
		markdown: Opt(
			Type.Object(
				{
					codeBlockIndent: Opt(Type.String({ description: "Prefix of rendered code-block lines", default: "  " })),
					mermaid: Opt(
						literals(["off", "final", "streaming"], { description: "Mermaid rendering", default: "streaming" }),
					),
				},
				{ additionalProperties: true },
			),
		),
		// Network and retries
		transport: Opt(
			literals(["auto", "sse", "websocket", "websocket-cached"], {
				description: "Preferred provider transport",
				default: "auto",
			}),
		),
		httpProxy: Opt(Text("Proxy URL for pi's HTTP clients (global only)")),
		httpIdleTimeoutMs: Opt(Millis("HTTP idle timeout; 0 disables it", 300000)),
		websocketConnectTimeoutMs: Opt(Millis("WebSocket connect timeout; 0 disables it", 15000)),
		retry: Opt(
			Type.Object(
				{
					enabled: Opt(Flag("Retry transient failures", true)),
					maxRetries: Opt(Tokens("Agent-level retry attempts", 3)),
					baseDelayMs: Opt(Millis("First back-off delay", 2000)),
					maxAgentDelayMs: Opt(Millis("Longest agent-level back-off delay", 60000)),
					provider: Opt(
						Type.Object(
							{
								timeoutMs: Opt(Millis("Provider request timeout (default: httpIdleTimeoutMs)")),
								maxRetries: Opt(Tokens("Provider-level retry attempts", 0)),
								maxRetryDelayMs: Opt(Millis("Longest server-requested delay; 0 removes the cap", 60000)),
							},
							{ additionalProperties: true },
						),
					),
				},
				{ additionalProperties: true },
			),
		),
		// Shell
		shellPath: Opt(Text("Shell executable; a leading ~ is expanded")),
		shellCommandPrefix: Opt(Text("Text put before every shell command")),
		npmCommand: Opt(StringList("Command and arguments used for npm operations", ["npm"])),
		trustedPackageScripts: Opt(
			StringList("Package names whose install scripts (and those of their dependencies) may run", []),
		),
		// Resources
		packages: Opt(Type.Array(PackageSource, { description: "Pi packages (npm, git or local)", default: [] })),
		extensions: Opt(StringList("Extension files or folders", [])),
		skills: Opt(StringList("Skill files or folders", [])),
		prompts: Opt(StringList("Prompt-template files or folders", [])),
		themes: Opt(StringList("Theme files or folders", [])),
		enableSkillCommands: Opt(Flag("Offer skills as /skill:name commands", true)),
		// Updates, telemetry and warnings
		collapseChangelog: Opt(Flag("Show a short changelog after updates", false)),
		enableInstallTelemetry: Opt(Flag("Anonymous install/update reports and provider attribution headers", true)),
		enableAnalytics: Opt(Flag("Share analytics (first-run setup only)", false)),
		warnings: Opt(
			Type.Object(
				{ anthropicExtraUsage: Opt(Flag("Warn when Anthropic subscription use may cost extra", true)) },
				{ additionalProperties: true },
			),
		),
		// Written by pi itself
		lastChangelogVersion: Opt(Text("Last version whose changelog was shown (internal)")),
		trackingId: Opt(Text("Anonymous install id (internal)")),
	},
	{ additionalProperties: true, title: "pi settings", description: "pi settings.json (agent directory or .pi/)" },
);

export type Settings = Static<typeof SettingsSchema>;
export type ThinkingLevelSetting = (typeof THINKING_LEVELS)[number];
export type DefaultProjectTrust = NonNullable<Settings["defaultProjectTrust"]>;
export type PackageSourceSetting = NonNullable<Settings["packages"]>[number];

/** The schema as a JSON Schema document for editors (what `scripts/gen-settings-schema.ts` writes). */
export function renderSettingsJsonSchema(): string {
	const body = JSON.parse(JSON.stringify(SettingsSchema)) as Record<string, unknown>;
	const doc = { $schema: "http://json-schema.org/draft-07/schema#", ...body };
	return `${JSON.stringify(doc, null, "\t")}\n`;
}
