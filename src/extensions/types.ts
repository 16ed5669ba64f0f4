/**
 * Extension host types. The full `ExtensionAPI` contract grows with the extension-system issue; what is here is
 * the part start-up needs: discovery results, the loading seam, registrations and the loading-phase API.
 */

/** Where an extension came from; decides load order (global → project → settings → cli). */
export type ExtensionScope = "global" | "project" | "settings" | "cli";

/** One extension entry file to load. `path` is absolute and real (symlinks resolved). */
export interface ExtensionEntry {
	path: string;
	scope: ExtensionScope;
	/** Package or folder the entry came from, when it is part of one. */
	packageDir?: string;
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

/** A tool as extensions define it (`execute(toolCallId, params, signal, onUpdate, ctx)`). */
export interface ToolDefinition {
	name: string;
	label?: string;
	description: string;
	parameters: unknown;
	execute: (...args: any[]) => unknown;
	[key: string]: unknown;
}

export interface ExtensionRegistrations {
	handlers: Map<string, ExtensionHandler[]>;
	tools: Map<string, ToolDefinition>;
	commands: Map<string, CommandDefinition>;
	flags: Map<string, FlagDefinition>;
	shortcuts: Map<string, ShortcutDefinition>;
	messageRenderers: Map<string, unknown>;
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

/**
 * The `pi` object an extension factory receives (first cut: registration, flags, exec, events and the session
 * actions by name). The extension-system issue completes the event and context types.
 */
export interface ExtensionAPI {
	on(event: string, handler: ExtensionHandler): void;
	registerTool(tool: ToolDefinition): void;
	registerCommand(name: string, options: CommandDefinition): void;
	registerShortcut(key: string, options: ShortcutDefinition): void;
	registerFlag(name: string, options: FlagDefinition): void;
	getFlag(name: string): boolean | string | undefined;
	registerMessageRenderer(customType: string, renderer: unknown): void;
	registerProvider(name: string, config: unknown): void;
	exec(command: string, args?: string[], options?: ExecOptions): Promise<ExecResult>;
	events: import("./event-bus.ts").EventBus;
	sendMessage(message: unknown, options?: unknown): void;
	sendUserMessage(content: unknown, options?: unknown): void;
	appendEntry(customType: string, data?: unknown): void;
	setSessionName(name: string): void;
	getSessionName(): string | undefined;
	setLabel(entryId: string, label: string | undefined): void;
	getActiveTools(): string[];
	getAllTools(): unknown[];
	setActiveTools(names: string[]): void;
	getCommands(): unknown[];
	setModel(model: unknown): Promise<boolean>;
	getThinkingLevel(): string;
	setThinkingLevel(level: string): void;
	unregisterProvider(name: string): void;
}

export type ExtensionFactory = (pi: ExtensionAPI) => void | Promise<void>;
