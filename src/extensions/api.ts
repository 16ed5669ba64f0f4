/**
 * The `pi` object handed to an extension factory.
 *
 * Two phases: while the factory runs only registration works (plus `exec` and `events`); every action method
 * throws a clear "not available while loading" error. `bind(actions)` switches the object to the live session:
 * the runtime supplies the actions. Registrations made after binding take effect at once (the runtime reads the
 * same maps). `invalidate()` retires the object when the runtime is replaced (new session, fork, switch, reload):
 * every member then throws the "stale extension context" error and its `pi.events` subscriptions are dropped.
 */

import { STALE_CONTEXT_MESSAGE } from "./context.ts";
import type { EventBus } from "./event-bus.ts";
import { execCommand } from "./exec.ts";
import type {
	CommandDefinition,
	ExecOptions,
	ExtensionHandler,
	ExtensionRegistrations,
	FlagDefinition,
	ShortcutDefinition,
	ToolDefinition,
} from "./types.ts";

/** Names of the `pi` methods that act on a live session; the runtime implements them. */
export const ACTION_METHODS = [
	"sendMessage",
	"sendUserMessage",
	"appendEntry",
	"setSessionName",
	"getSessionName",
	"setLabel",
	"getActiveTools",
	"getAllTools",
	"setActiveTools",
	"getCommands",
	"setModel",
	"getThinkingLevel",
	"setThinkingLevel",
	"unregisterProvider",
] as const;
export type ActionMethod = (typeof ACTION_METHODS)[number];
export type ExtensionActions = Record<ActionMethod, (...args: any[]) => unknown> & {
	registerProvider(name: string, config: unknown): void;
	/** A tool registered after binding: the session makes it available and active. */
	toolRegistered?(tool: ToolDefinition): void;
};

export interface ExtensionApiHandle {
	/** The object the factory receives. */
	api: Record<string, unknown>;
	registrations: ExtensionRegistrations;
	/** Values parsed from the command line for this extension's flags. */
	flagValues: Map<string, boolean | string>;
	bind(actions: ExtensionActions): void;
	/** Makes every member of `api` throw from now on (idempotent; the first message sticks). */
	invalidate(message?: string): void;
}

export function emptyRegistrations(): ExtensionRegistrations {
	return {
		handlers: new Map(),
		tools: new Map(),
		commands: new Map(),
		flags: new Map(),
		shortcuts: new Map(),
		messageRenderers: new Map(),
		entryRenderers: new Map(),
		markdownTransformers: [],
		pendingProviders: [],
	};
}

export interface ExtensionApiOptions {
	/** Flag values shared with other extensions (pi's `runtime.flagValues`); default: this extension's own. */
	flagValues?: Map<string, boolean | string>;
}

export function createExtensionApi(
	extensionPath: string,
	events: EventBus,
	options: ExtensionApiOptions = {},
): ExtensionApiHandle {
	const registrations = emptyRegistrations();
	const flagValues = options.flagValues ?? new Map<string, boolean | string>();
	let actions: ExtensionActions | undefined;
	let staleMessage: string | undefined;
	const subscriptions = new Set<() => void>();

	const requireActions = (method: string): ExtensionActions => {
		if (!actions) {
			throw new Error(
				`pi.${method}() is not available while the extension is loading (${extensionPath}); call it from an event handler, command or tool`,
			);
		}
		return actions;
	};

	const api: Record<string, unknown> = {
		on(event: string, handler: ExtensionHandler) {
			if (typeof handler !== "function") throw new TypeError(`pi.on("${event}"): handler must be a function`);
			const list = registrations.handlers.get(event) ?? [];
			list.push(handler);
			registrations.handlers.set(event, list);
			return () => {
				const current = registrations.handlers.get(event);
				const index = current?.indexOf(handler) ?? -1;
				if (index >= 0) current?.splice(index, 1);
			};
		},
		registerTool(tool: ToolDefinition) {
			if (!tool || typeof tool.name !== "string" || tool.name === "") {
				throw new TypeError("pi.registerTool(): the tool needs a non-empty name");
			}
			registrations.tools.set(tool.name, tool);
			// After start-up the live session takes the tool at once (no reload needed).
			actions?.toolRegistered?.(tool);
		},
		registerCommand(name: string, options: CommandDefinition) {
			if (typeof options?.handler !== "function") {
				throw new TypeError(`pi.registerCommand("${name}"): handler must be a function`);
			}
			registrations.commands.set(name.replace(/^\//, ""), options);
		},
		registerShortcut(key: string, options: ShortcutDefinition) {
			registrations.shortcuts.set(key, options);
		},
		registerFlag(name: string, options: FlagDefinition) {
			const flag: FlagDefinition = { ...options, type: options?.type === "string" ? "string" : "boolean" };
			registrations.flags.set(name.replace(/^--/, ""), flag);
		},
		getFlag(name: string) {
			const key = name.replace(/^--/, "");
			const flag = registrations.flags.get(key);
			if (!flag) return undefined;
			return flagValues.has(key) ? flagValues.get(key) : flag.default;
		},
		registerMessageRenderer(customType: string, renderer: unknown) {
			registrations.messageRenderers.set(customType, renderer);
		},
		registerEntryRenderer(customType: string, renderer: unknown) {
			registrations.entryRenderers.set(customType, renderer);
		},
		registerMarkdownTransformer(transformer: unknown) {
			registrations.markdownTransformers.push(transformer);
		},
		registerProvider(name: string, config: unknown) {
			if (actions) actions.registerProvider(name, config);
			else registrations.pendingProviders.push({ name, config });
		},
		exec(command: string, args: string[] = [], options?: ExecOptions) {
			return execCommand(command, args, options);
		},
		events: {
			on(channel: string, listener: (data: unknown) => unknown) {
				const off = events.on(channel, listener);
				subscriptions.add(off);
				return () => {
					subscriptions.delete(off);
					off();
				};
			},
			emit: (channel: string, data?: unknown) => events.emit(channel, data),
		} satisfies EventBus,
	};
	for (const method of ACTION_METHODS) {
		api[method] = (...args: unknown[]) => requireActions(method)[method](...args);
	}
	// Every member checks first that this object has not been retired.
	const guard = (target: Record<string, unknown>) => {
		for (const [name, member] of Object.entries(target)) {
			if (typeof member === "function") {
				target[name] = (...args: unknown[]) => {
					if (staleMessage !== undefined) throw new Error(staleMessage);
					return member(...args);
				};
			}
		}
	};
	guard(api);
	guard(api.events as Record<string, unknown>);

	return {
		api,
		registrations,
		flagValues,
		bind(next) {
			actions = next;
			for (const { name, config } of registrations.pendingProviders.splice(0)) next.registerProvider(name, config);
		},
		invalidate(message = STALE_CONTEXT_MESSAGE) {
			if (staleMessage !== undefined) return;
			staleMessage = message;
			for (const off of subscriptions) off();
			subscriptions.clear();
		},
	};
}
