/**
 * `ctx`, the second argument of every event handler, tool and command: the types, and a factory that builds them
 * over a `ContextSource` the runtime implements. Every member is read through the source on each access (so
 * `ctx.model` is live) and is guarded: once the scope is invalidated (the session was replaced or the extensions
 * reloaded) any use of an old `ctx` throws a "stale extension context" error, as pi does since 0.73.
 */

import type { ThinkingLevel } from "../agent/index.ts";
import type { ImageContent, Model, ModelRegistry, TextContent } from "../ai/index.ts";
import type {
	CompactionResult,
	CustomMessageInput,
	ExtensionUIContext,
	SessionEntry,
	SystemPromptOptions,
} from "./types.ts";

export type ExtensionMode = "tui" | "rpc" | "json" | "print";

export interface ContextUsage {
	/** Null when unknown (e.g. right after a compaction, before the next response). */
	tokens: number | null;
	contextWindow: number;
	percent: number | null;
}

export interface CompactOptions {
	customInstructions?: string;
	onComplete?: (result: CompactionResult) => void;
	onError?: (error: Error) => void;
}

export interface ScopedModel {
	model: Model;
	thinkingLevel?: ThinkingLevel;
}

/** The session manager's read side, which is all extensions are promised. */
export interface ReadonlySessionManager {
	getCwd(): string;
	getSessionDir(): string;
	getSessionId(): string;
	getSessionFile(): string | undefined;
	getLeafId(): string | null;
	getLeafEntry(): SessionEntry | undefined;
	getEntry(id: string): SessionEntry | undefined;
	getLabel(id: string): string | undefined;
	getBranch(fromId?: string): SessionEntry[];
	buildContextEntries(): SessionEntry[];
	buildSessionProjection(): unknown;
	getHeader(): unknown;
	getEntries(): SessionEntry[];
	getTree(): unknown[];
	getSessionName(): string | undefined;
}

export interface ExtensionContext {
	ui: ExtensionUIContext;
	mode: ExtensionMode;
	/** Dialogs work (interactive and RPC). */
	hasUI: boolean;
	cwd: string;
	sessionManager: ReadonlySessionManager;
	modelRegistry: ModelRegistry;
	/** The current model, read at access time. */
	model: Model | undefined;
	scopedModels: readonly ScopedModel[];
	thinkingLevel?: ThinkingLevel;
	/** The active run's signal; undefined while idle. */
	signal: AbortSignal | undefined;
	isIdle(): boolean;
	isProjectTrusted(): boolean;
	abort(): void;
	hasPendingMessages(): boolean;
	shutdown(): void;
	getContextUsage(): ContextUsage | undefined;
	/** Starts a compaction without waiting for it. */
	compact(options?: CompactOptions): void;
	getSystemPrompt(): string;
}

export type SessionSetup = (sessionManager: unknown) => Promise<void>;
export type WithSession = (ctx: ReplacedSessionContext) => Promise<void>;

/** Only command handlers get these: calling them from an event handler could deadlock the run. */
export interface ExtensionCommandContext extends ExtensionContext {
	getSystemPromptOptions(): SystemPromptOptions;
	waitForIdle(): Promise<void>;
	newSession(options?: {
		parentSession?: string;
		setup?: SessionSetup;
		withSession?: WithSession;
	}): Promise<{ cancelled: boolean }>;
	fork(
		entryId: string,
		options?: { position?: "before" | "at"; withSession?: WithSession },
	): Promise<{ cancelled: boolean }>;
	navigateTree(
		targetId: string,
		options?: { summarize?: boolean; customInstructions?: string; replaceInstructions?: boolean; label?: string },
	): Promise<{ cancelled: boolean }>;
	switchSession(sessionPath: string, options?: { withSession?: WithSession }): Promise<{ cancelled: boolean }>;
	reload(): Promise<void>;
}

/** Given to `withSession` callbacks: a command context bound to the new session, with awaitable messaging. */
export interface ReplacedSessionContext extends ExtensionCommandContext {
	sendMessage<T = unknown>(
		message: CustomMessageInput<T>,
		options?: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" },
	): Promise<void>;
	sendUserMessage(
		content: string | (TextContent | ImageContent)[],
		options?: { deliverAs?: "steer" | "followUp"; expandPromptTemplates?: boolean },
	): Promise<void>;
}

/** What `project_trust` handlers get: they run before any session exists. */
export interface ProjectTrustContext {
	cwd: string;
	mode: ExtensionMode;
	hasUI: boolean;
	ui: Pick<ExtensionUIContext, "select" | "confirm" | "input" | "notify">;
}

// ---- the factory ----------------------------------------------------------------------------------------------

/** Properties of `ctx`, each read from the source's zero-argument function of the same name. */
const PROPERTIES = [
	"ui",
	"mode",
	"hasUI",
	"cwd",
	"sessionManager",
	"modelRegistry",
	"model",
	"scopedModels",
	"thinkingLevel",
	"signal",
] as const;
const METHODS = [
	"isIdle",
	"isProjectTrusted",
	"abort",
	"hasPendingMessages",
	"shutdown",
	"getContextUsage",
	"compact",
	"getSystemPrompt",
] as const;
const COMMAND_METHODS = [
	"getSystemPromptOptions",
	"waitForIdle",
	"newSession",
	"fork",
	"navigateTree",
	"switchSession",
	"reload",
] as const;

type Property = (typeof PROPERTIES)[number];
type Method = (typeof METHODS)[number];
type CommandMethod = (typeof COMMAND_METHODS)[number];

/** Implemented by the runtime. Properties are functions so every read is current. */
export type ContextSource = { [P in Property]-?: () => ExtensionContext[P] } & Pick<ExtensionContext, Method>;
export type CommandContextSource = Pick<ExtensionCommandContext, CommandMethod>;
export type ReplacedSessionMessaging = Pick<ReplacedSessionContext, "sendMessage" | "sendUserMessage">;

export const STALE_CONTEXT_MESSAGE =
	"stale extension context: the session this ctx (or pi object) belonged to was replaced or reloaded. " +
	"After ctx.newSession(), ctx.fork() or ctx.switchSession(), do follow-up work in the withSession callback with " +
	"the ctx it receives; after `await ctx.reload()`, stop using the old ctx.";

export interface ContextScope {
	readonly stale: boolean;
	/** Throws the stale error once the scope is invalidated. */
	assertActive(): void;
	/** Marks every ctx built by this scope stale. Idempotent; the first message sticks. */
	invalidate(message?: string): void;
	context(): ExtensionContext;
	commandContext(): ExtensionCommandContext;
	replacedSessionContext(messaging: ReplacedSessionMessaging): ReplacedSessionContext;
}

export function createContextScope(source: ContextSource, commands?: CommandContextSource): ContextScope {
	let staleMessage: string | undefined;
	const assertActive = () => {
		if (staleMessage !== undefined) throw new Error(staleMessage);
	};
	const guard =
		<A extends unknown[], R>(fn: (...args: A) => R) =>
		(...args: A): R => {
			assertActive();
			return fn(...args);
		};
	const unavailable = (name: string) => () => {
		throw new Error(`ctx.${name}() is not available in this mode`);
	};

	const baseDescriptors = (): PropertyDescriptorMap => {
		const descriptors: PropertyDescriptorMap = {};
		for (const name of PROPERTIES) {
			descriptors[name] = { enumerable: true, get: guard(() => source[name]()) };
		}
		for (const name of METHODS) {
			const method = source[name] as (...args: unknown[]) => unknown;
			descriptors[name] = { enumerable: true, value: guard((...args: unknown[]) => method.apply(source, args)) };
		}
		return descriptors;
	};
	const commandDescriptors = (): PropertyDescriptorMap => {
		const descriptors = baseDescriptors();
		for (const name of COMMAND_METHODS) {
			const method = commands?.[name] as ((...args: unknown[]) => unknown) | undefined;
			const call = method ? (...args: unknown[]) => method.apply(commands, args) : unavailable(name);
			descriptors[name] = { enumerable: true, value: guard(call) };
		}
		return descriptors;
	};

	return {
		get stale() {
			return staleMessage !== undefined;
		},
		assertActive,
		invalidate(message = STALE_CONTEXT_MESSAGE) {
			staleMessage ??= message;
		},
		context: () => Object.defineProperties({}, baseDescriptors()) as ExtensionContext,
		commandContext: () => Object.defineProperties({}, commandDescriptors()) as ExtensionCommandContext,
		replacedSessionContext(messaging) {
			const descriptors = commandDescriptors();
			descriptors.sendMessage = { enumerable: true, value: guard(messaging.sendMessage.bind(messaging)) };
			descriptors.sendUserMessage = { enumerable: true, value: guard(messaging.sendUserMessage.bind(messaging)) };
			return Object.defineProperties({}, descriptors) as ReplacedSessionContext;
		},
	};
}
