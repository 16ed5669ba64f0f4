/**
 * The `pi` object's session actions (sendMessage, appendEntry, setActiveTools, setModel, …) for one session. Bound
 * to every loaded extension once the session exists; before that the api throws "not available while loading".
 */
import type { AgentTool, ThinkingLevel } from "../agent/index.ts";
import type { ImageContent, Model, ModelRegistry, TextContent } from "../ai/index.ts";
import type { ExtensionActions, ExtensionError, ToolDefinition } from "../extensions/index.ts";
import type { SessionManager } from "../session/index.ts";
import { errorMessage } from "../util/index.ts";
import type { AgentSession } from "./agent-session.ts";
import type { ExtensionHost } from "./extension-host.ts";
import type { StreamingBehavior } from "./prompt-input.ts";
import { applyModel, applyThinkingLevel, isUsable, type SettingsTarget } from "./session-settings.ts";

export interface ActionContext {
	session: AgentSession;
	manager: SessionManager;
	registry: ModelRegistry;
	host: Pick<ExtensionHost, "commands">;
	/** Every tool the session could activate (built-in and extension). */
	allTools: AgentTool<any>[];
	/** Wraps a tool registered after start-up for the agent. */
	wrapTool?: (definition: ToolDefinition) => AgentTool<any>;
	/** Extension events for model/thinking changes (`model_select`, `thinking_level_select`). */
	settings?: Pick<SettingsTarget, "runner" | "context">;
	/** Where failures of detached actions (message sends) are reported. */
	reportError?: (error: ExtensionError) => void;
}

type Content = string | (TextContent | ImageContent)[];

export function createExtensionActions(c: ActionContext): ExtensionActions {
	const agent = c.session.agent;
	const target: SettingsTarget = { session: c.session, manager: c.manager, registry: c.registry, ...c.settings };
	/** Message sends run on their own; a failure (e.g. busy without `deliverAs`) is reported, as pi reports it. */
	const detached = (event: string, work: Promise<void>) => {
		work.catch((error: unknown) => c.reportError?.({ extensionPath: "<runtime>", event, error: errorMessage(error) }));
	};
	return {
		sendMessage(
			message: { customType: string; content: Content; display?: boolean; details?: unknown },
			options?: { triggerTurn?: boolean; deliverAs?: string },
		) {
			detached("send_message", c.session.sendCustomMessage(message, options as never));
		},
		sendUserMessage(content: Content, options?: { deliverAs?: string }) {
			detached("send_user_message", c.session.sendUserMessage(content, options?.deliverAs as StreamingBehavior));
		},
		appendEntry(customType: string, data?: unknown) {
			const id = c.manager.appendCustomEntry(customType, data);
			void c.session.emitEvent({ type: "entry_appended", entry: c.manager.getEntry(id) });
			return id;
		},
		setSessionName(name: string) {
			const id = c.manager.appendSessionInfo(name);
			const current = c.manager.getSessionName();
			void c.session.emitEvent({ type: "session_info_changed", ...(current ? { name: current } : {}) });
			return id;
		},
		getSessionName: () => c.manager.getSessionName(),
		setLabel: (entryId: string, label: string | undefined) => c.manager.appendLabelChange(entryId, label),
		getActiveTools: () => agent.state.tools.map((t) => t.name),
		getAllTools: () => c.allTools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
		setActiveTools(names: string[]) {
			// In the order given (it is the order the transcript declares them in); unknown names are ignored.
			const byName = new Map(c.allTools.map((t) => [t.name, t]));
			agent.state.tools = names.flatMap((name) => byName.get(name) ?? []);
		},
		toolRegistered(definition: ToolDefinition) {
			if (!c.wrapTool) return;
			const tool = c.wrapTool(definition);
			const index = c.allTools.findIndex((t) => t.name === tool.name);
			if (index >= 0) c.allTools[index] = tool;
			else c.allTools.push(tool);
			const active = agent.state.tools.findIndex((t) => t.name === tool.name);
			if (active >= 0) agent.state.tools[active] = tool;
			else agent.state.tools = [...agent.state.tools, tool];
		},
		getCommands: () =>
			[...c.host.commands()].map(([name, { extensionPath, command }]) => ({
				name,
				description: command.description,
				source: "extension",
				path: extensionPath,
			})),
		async setModel(model: Model) {
			const found = c.registry.find(model.provider, model.id) ?? model;
			if (!isUsable(c.registry, found)) return false;
			await applyModel(target, found, "set");
			return true;
		},
		getThinkingLevel: () => agent.state.thinkingLevel,
		setThinkingLevel(level: ThinkingLevel) {
			void applyThinkingLevel(target, level);
		},
		registerProvider: (name: string, config: unknown) => c.registry.registerProvider(name, config as never),
		unregisterProvider: (name: string) => c.registry.unregisterProvider(name),
	};
}
