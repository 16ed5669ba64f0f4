/**
 * Extension host types: discovery results, the loading seam, registrations, and the public contract extensions
 * are written against (`ExtensionAPI`, `ctx.ui`, tool definitions, and structural copies of shapes other layers
 * own), following pi 0.87.1. Event payloads live in events.ts, `ctx` in context.ts.
 */
import type { Static as Static034, TSchema as TSchema034 } from "@sinclair/typebox";
import type { Static as Static1, TSchema as TSchema1 } from "typebox";
import type {
	AgentMessage,
	AgentToolResult,
	AgentToolUpdateCallback,
	ThinkingLevel,
	ToolExecutionMode,
} from "../agent/index.ts";
import type {
	Api,
	AssistantMessageEventStream,
	ImageContent,
	Model,
	SimpleStreamOptions,
	TextContent,
	Usage,
} from "../ai/index.ts";
import type { ExtensionCommandContext, ExtensionContext } from "./context.ts";
import type { EventBus } from "./event-bus.ts";
import type { EventHandler, ExtensionEventName } from "./events.ts";

/** Where an extension came from; decides load order (global → project → settings → cli). */
export type ExtensionScope = "global" | "project" | "settings" | "cli";

/** One extension entry file to load. `path` is absolute and real (symlinks resolved). */
export interface ExtensionEntry {
	path: string;
	scope: ExtensionScope;
	/** The module to import when `path` names a folder loaded as one extension (pi reports the folder). */
	file?: string;
	/** For an extension of a package from settings `packages`: the source as written, its scope and root. */
	package?: { source: string; scope: "user" | "project"; baseDir: string };
}

/** A problem found while discovering or loading; printed as `extension <path>: <message>`. */
export interface ExtensionDiagnostic {
	level: "error" | "warning";
	path: string;
	message: string;
}

export function formatDiagnostic(d: ExtensionDiagnostic): string {
	return `extension ${d.path}: ${d.level === "warning" ? "warning: " : ""}${d.message}`;
}

/** Specifier → module namespace. Built once at the top (sdk/) and handed down; the loader never imports upward. */
export type VirtualModuleTable = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/**
 * The seam between extension loading and the JS runtime. `load` imports a file fresh after `reset`;
 * it may throw (syntax error, missing import), which the loader reports per extension.
 */
export interface ModuleLoader {
	readonly kind: "bun" | "jiti";
	load(path: string): Promise<Record<string, unknown>>;
	/** Forget every extension module (entries and their local imports) so the next `load` re-imports them. */
	reset(): void;
}

// ---- shapes owned by other layers, declared structurally (this layer may not import them) ------------------

/** Fields every session entry has; entries form a tree through `parentId`. */
interface EntryBase {
	id: string;
	parentId: string | null;
	timestamp: string;
}
export interface CompactionEntry<T = unknown> extends EntryBase {
	type: "compaction";
	summary: string;
	firstKeptEntryId: string;
	tokensBefore: number;
	details?: T;
	usage?: Usage;
	/** True when an extension produced the summary. */
	fromHook?: boolean;
	systemMessage?: unknown;
}
export interface BranchSummaryEntry<T = unknown> extends EntryBase {
	type: "branch_summary";
	fromId: string;
	summary: string;
	details?: T;
	usage?: Usage;
	fromHook?: boolean;
}
/**
 * A session entry as extensions read it (structural copy of the session format; the session layer owns the
 * writing side). Narrow on `type`.
 */
export type SessionEntry =
	| (EntryBase & { type: "message"; message: AgentMessage })
	| (EntryBase & { type: "thinking_level_change"; thinkingLevel: string })
	| (EntryBase & { type: "model_change"; provider: string; modelId: string })
	| (EntryBase & { type: "usage"; kind: string; provider: string; model: string; usage: Usage; note?: string })
	| CompactionEntry
	| BranchSummaryEntry
	| (EntryBase & { type: "custom"; customType: string; data?: unknown })
	| (EntryBase & {
			type: "custom_message";
			customType: string;
			content: string | (TextContent | ImageContent)[];
			details?: unknown;
			display: boolean;
	  })
	| (EntryBase & { type: "context_edit"; targetId: string; replacement: { content: unknown } | null })
	| (EntryBase & { type: "label"; targetId: string; label: string | undefined })
	| (EntryBase & { type: "session_info"; name?: string });
export interface CompactionPreparation {
	firstKeptEntryId: string;
	messagesToSummarize: AgentMessage[];
	turnPrefixMessages: AgentMessage[];
	isSplitTurn: boolean;
	tokensBefore: number;
	previousSummary?: string;
	fileOps: unknown;
	settings: unknown;
}
export interface CompactionResult<T = unknown> {
	summary: string;
	firstKeptEntryId: string;
	tokensBefore: number;
	estimatedTokensAfter?: number;
	usage?: Usage;
	details?: T;
}
/** Inputs of the system prompt builder; handlers of `before_agent_start` edit them in place. */
export interface SystemPromptOptions {
	customPrompt?: string;
	/** Whole-prompt replacement; set by the runner when a handler returns `systemPrompt`. */
	forceSystemPrompt?: string;
	selectedTools?: string[];
	toolSnippets?: Record<string, string>;
	toolGuidelines?: Record<string, string[]>;
	promptGuidelines?: string[];
	appendSystemPrompt?: string;
	sections?: Record<string, string>;
	cwd: string;
	contextFiles?: Array<{ path: string; content: string }>;
	skills?: unknown[];
}
/** The options as `before_agent_start` handlers get them: every collection present, so they can edit in place. */
export type NormalizedSystemPromptOptions = SystemPromptOptions &
	Required<
		Pick<
			SystemPromptOptions,
			| "selectedTools"
			| "toolSnippets"
			| "toolGuidelines"
			| "promptGuidelines"
			| "appendSystemPrompt"
			| "sections"
			| "contextFiles"
			| "skills"
		>
	>;
/** Remote or replacement execution for `!` commands (same shape as the bash tool's operations). */
export interface BashOperations {
	exec(
		command: string,
		cwd: string,
		options: { onData: (data: Buffer) => void; signal?: AbortSignal; timeout?: number; env?: NodeJS.ProcessEnv },
	): Promise<{ exitCode: number | null }>;
}
export interface BashResult {
	output: string;
	exitCode: number | undefined;
	cancelled: boolean;
	truncated: boolean;
	fullOutputPath?: string;
}
/** A custom message as `pi.sendMessage()` and `before_agent_start` take it. */
export interface CustomMessageInput<T = unknown> {
	customType: string;
	content: string | (TextContent | ImageContent)[];
	display: boolean;
	details?: T;
}
export type CacheWarmingAction = "warm" | "stop";

// ---- registrations collected during the factory ---------------------------------------------------------

export type ExtensionHandler = (event: any, ctx: any) => unknown;

export interface FlagDefinition {
	description?: string;
	type: "boolean" | "string";
	default?: boolean | string;
}

export interface CommandDefinition {
	description?: string;
	getArgumentCompletions?: (prefix: string) => unknown;
	handler: (args: string, ctx: any) => unknown;
}

export interface ShortcutDefinition {
	description?: string;
	handler: (ctx: any) => unknown;
}

export interface ExtensionRegistrations {
	handlers: Map<string, ExtensionHandler[]>;
	tools: Map<string, ToolDefinition>;
	commands: Map<string, CommandDefinition>;
	flags: Map<string, FlagDefinition>;
	shortcuts: Map<string, ShortcutDefinition>;
	messageRenderers: Map<string, unknown>;
	entryRenderers: Map<string, unknown>;
	markdownTransformers: unknown[];
	/** Provider registrations wait here until the runtime is bound. */
	pendingProviders: Array<{ name: string; config: unknown }>;
}

/** An extension whose factory completed. */
export interface LoadedExtension {
	path: string;
	scope: ExtensionScope;
	registrations: ExtensionRegistrations;
}

export interface ExecOptions {
	cwd?: string;
	signal?: AbortSignal;
	timeout?: number;
}

export interface ExecResult {
	stdout: string;
	stderr: string;
	code: number;
	killed: boolean;
}

// ---- the `pi` object and `ctx.ui` as extensions see them (pi 0.87.1) ----------------------------------------------

/** A rendered piece of terminal UI (the TUI layer's component contract, kept structural here). */
export interface UIComponent {
	render(width: number): string[];
	handleInput?(data: string): void;
	invalidate?(): void;
	dispose?(): void;
}
/** TUI objects (`tui`, `theme`, `keybindings`) are opaque to this layer. */
type Tui = any;
type Theme = any;
type ComponentFactory = (tui: Tui, theme: Theme) => UIComponent;

export interface UIDialogOptions {
	signal?: AbortSignal;
	/** Milliseconds until the dialog dismisses itself (with a visible countdown). */
	timeout?: number;
}

export interface ExtensionUIContext {
	select(title: string, options: string[], opts?: UIDialogOptions): Promise<string | undefined>;
	confirm(title: string, message: string, opts?: UIDialogOptions): Promise<boolean>;
	input(title: string, placeholder?: string, opts?: UIDialogOptions): Promise<string | undefined>;
	notify(message: string, type?: "info" | "warning" | "error"): void;
	onTerminalInput(handler: (data: string) => { consume?: boolean; data?: string } | undefined): () => void;
	setStatus(key: string, text: string | undefined): void;
	setWorkingMessage(message?: string): void;
	setWorkingVisible(visible: boolean): void;
	setWorkingIndicator(options?: { frames?: string[]; intervalMs?: number }): void;
	setHiddenThinkingLabel(label?: string): void;
	setWidget(
		key: string,
		content: string[] | ComponentFactory | undefined,
		options?: { placement?: "aboveEditor" | "belowEditor" },
	): void;
	setFooter(factory: ((tui: Tui, theme: Theme, footerData: any) => UIComponent) | undefined): void;
	setHeader(factory: ComponentFactory | undefined): void;
	setTitle(title: string): void;
	custom<T>(
		factory: (
			tui: Tui,
			theme: Theme,
			keybindings: unknown,
			done: (result: T) => void,
		) => UIComponent | Promise<UIComponent>,
		options?: { overlay?: boolean; overlayOptions?: unknown; onHandle?: (handle: unknown) => void },
	): Promise<T>;
	pasteToEditor(text: string): void;
	setEditorText(text: string): void;
	getEditorText(): string;
	editor(title: string, prefill?: string): Promise<string | undefined>;
	addAutocompleteProvider(factory: (current: any) => any): void;
	setEditorComponent(factory: ((tui: Tui, theme: Theme, keybindings: unknown) => UIComponent) | undefined): void;
	getEditorComponent(): ((tui: Tui, theme: Theme, keybindings: unknown) => UIComponent) | undefined;
	readonly theme: Theme;
	getAllThemes(): { name: string; path: string | undefined }[];
	getTheme(name: string): Theme | undefined;
	setTheme(theme: string | Theme): { success: boolean; error?: string };
	getToolsExpanded(): boolean;
	setToolsExpanded(expanded: boolean): void;
}

/** Context handed to a tool's renderers. */
export interface ToolRenderContext<TState = any, TArgs = any> {
	args: TArgs;
	toolCallId: string;
	invalidate(): void;
	lastComponent: UIComponent | undefined;
	state: TState;
	cwd: string;
	executionStarted: boolean;
	argsComplete: boolean;
	isPartial: boolean;
	expanded: boolean;
	showImages: boolean;
	isError: boolean;
}

/** Tool parameter schemas: TypeBox 0.34 (`@sinclair/typebox`) or TypeBox 1.x (`typebox`, as pi 0.87.1 maps it). */
export type TSchema = TSchema034 | TSchema1;
/** The value type a tool parameter schema of either TypeBox line describes. */
export type Static<T extends TSchema> = T extends TSchema034 ? Static034<T> : T extends TSchema1 ? Static1<T> : unknown;

/** A tool as extensions define it: `execute(toolCallId, params, signal, onUpdate, ctx)`. */
export interface ToolDefinition<TParams extends TSchema = TSchema, TDetails = unknown, TState = any> {
	name: string;
	label: string;
	/** What the model reads. */
	description: string;
	/** One line for the default prompt's tool list; tools without it are left out of that list. */
	promptSnippet?: string;
	promptGuidelines?: string[];
	parameters: TParams;
	constrainedSampling?: false | Record<string, unknown>;
	renderShell?: "default" | "self";
	/** Adapts raw arguments before validation (should return a `Static<TParams>`; typed loosely so built-in tool
	 * definitions, whose shim returns `unknown`, can be spread into an extension tool). */
	prepareArguments?: (args: unknown) => unknown;
	executionMode?: ToolExecutionMode;
	execute(
		toolCallId: string,
		params: Static<TParams>,
		signal: AbortSignal | undefined,
		onUpdate: AgentToolUpdateCallback<TDetails> | undefined,
		ctx: ExtensionContext,
	): Promise<AgentToolResult<TDetails>>;
	renderCall?(args: Static<TParams>, theme: Theme, context: ToolRenderContext<TState, Static<TParams>>): UIComponent;
	renderResult?(
		result: AgentToolResult<TDetails>,
		options: { expanded: boolean; isPartial: boolean },
		theme: Theme,
		context: ToolRenderContext<TState, Static<TParams>>,
	): UIComponent;
}

export interface AutocompleteItem {
	value: string;
	label: string;
	description?: string;
}

/** Options of `pi.registerCommand(name, options)`. */
export interface CommandOptions {
	description?: string;
	getArgumentCompletions?: (argumentPrefix: string) => AutocompleteItem[] | null | Promise<AutocompleteItem[] | null>;
	handler: (args: string, ctx: ExtensionCommandContext) => Promise<void> | void;
}

export interface SourceInfo {
	path: string;
	source: string;
	scope: "user" | "project" | "temporary";
	origin: "package" | "top-level";
	baseDir?: string;
}
export interface ToolInfo {
	name: string;
	description: string;
	parameters: unknown;
	promptGuidelines?: string[];
	sourceInfo: SourceInfo;
}
export interface SlashCommandInfo {
	name: string;
	description?: string;
	source: string;
	sourceInfo: SourceInfo;
}

export interface ProviderModelConfig {
	id: string;
	name: string;
	api?: Api;
	baseUrl?: string;
	reasoning: boolean;
	thinkingLevelMap?: Model["thinkingLevelMap"];
	input: ("text" | "image")[];
	cost: Model["cost"];
	contextWindow: number;
	maxTokens: number;
	headers?: Record<string, string>;
	compat?: Model["compat"];
	[field: string]: unknown;
}
export interface ProviderConfig {
	name?: string;
	baseUrl?: string;
	apiKey?: string;
	api?: Api;
	streamSimple?: (model: Model, context: unknown, options?: SimpleStreamOptions) => AssistantMessageEventStream;
	headers?: Record<string, string>;
	authHeader?: boolean;
	models?: ProviderModelConfig[];
	refreshModels?(context: unknown): Promise<ProviderModelConfig[]>;
	oauth?: {
		name: string;
		isSubscription?: boolean;
		usesCallbackServer?: boolean;
		login(callbacks: unknown): Promise<unknown>;
		refreshToken(credentials: any, signal: AbortSignal): Promise<unknown>;
		getApiKey(credentials: any): string;
		modifyModels?(models: Model[], credentials: any): Model[];
	};
}

export type MessageRenderer<T = unknown> = (
	message: CustomMessageInput<T> & { role: "custom"; timestamp: number },
	options: { expanded: boolean; outputPad: number },
	theme: Theme,
) => UIComponent | undefined;
export type EntryRenderer<T = unknown> = (
	entry: Extract<SessionEntry, { type: "custom" }> & { data?: T },
	options: { expanded: boolean },
	theme: Theme,
) => UIComponent | undefined;
export type MarkdownTransformer = (
	markdown: string,
	context: { messageType: "user" | "assistant" | "assistant-thinking"; isStreaming: boolean; availableWidth: number },
) => string;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/**
 * `pi.on`: one overload per event of the table (an intersection of call signatures is an overload set). A single
 * generic signature would lose the literal types of async handlers' results (`{ action: "transform" }` would
 * widen to `string`). Returns a function that removes the handler.
 */
export type OnEvent = UnionToIntersection<
	{ [K in ExtensionEventName]: (event: K, handler: EventHandler<K>) => () => void }[ExtensionEventName]
>;

/** The `pi` object an extension factory receives. */
export interface ExtensionAPI {
	on: OnEvent;
	registerTool<TParams extends TSchema = TSchema, TDetails = unknown, TState = any>(
		tool: ToolDefinition<TParams, TDetails, TState>,
	): void;
	registerCommand(name: string, options: CommandOptions): void;
	registerShortcut(
		shortcut: string,
		options: { description?: string; handler: (ctx: ExtensionContext) => Promise<void> | void },
	): void;
	registerFlag(
		name: string,
		options:
			| { description?: string; type: "boolean"; default?: boolean }
			| { description?: string; type: "string"; default?: string },
	): void;
	getFlag(name: string): boolean | string | undefined;
	registerMessageRenderer<T = unknown>(customType: string, renderer: MessageRenderer<T>): void;
	registerMarkdownTransformer(transformer: MarkdownTransformer): void;
	registerEntryRenderer<T = unknown>(customType: string, renderer: EntryRenderer<T>): void;
	sendMessage<T = unknown>(
		message: CustomMessageInput<T>,
		options?: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" },
	): void;
	/** Always starts a turn; while the agent runs, `deliverAs` says how to queue it. */
	sendUserMessage(
		content: string | (TextContent | ImageContent)[],
		options?: { deliverAs?: "steer" | "followUp"; expandPromptTemplates?: boolean },
	): void;
	appendEntry<T = unknown>(customType: string, data?: T): void;
	setSessionName(name: string): void;
	getSessionName(): string | undefined;
	setLabel(entryId: string, label: string | undefined): void;
	exec(command: string, args?: string[], options?: ExecOptions): Promise<ExecResult>;
	getActiveTools(): string[];
	getAllTools(): ToolInfo[];
	setActiveTools(toolNames: string[]): void;
	getCommands(): SlashCommandInfo[];
	setModel(model: Model): Promise<boolean>;
	getThinkingLevel(): ThinkingLevel;
	setThinkingLevel(level: ThinkingLevel): void;
	registerProvider(name: string, config: ProviderConfig): void;
	unregisterProvider(name: string): void;
	events: EventBus;
}

export type ExtensionFactory = (pi: ExtensionAPI) => void | Promise<void>;
