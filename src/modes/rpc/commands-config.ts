/**
 * RPC commands about state and configuration: get_state, models and thinking levels (set, cycle, list), queue
 * modes, the automatic compaction / retry switches, and get_commands (extension commands, prompt templates,
 * skills).
 */
import { getSupportedThinkingLevels } from "../../ai/index.ts";
import {
	applyModel,
	applyThinkingLevel,
	isUsable,
	nextModel,
	nextThinkingLevel,
	type SettingsTarget,
} from "../../runtime/index.ts";
import { type RpcContext, type RpcHandler, requireSession } from "./context.ts";
import type { RpcSessionState, RpcSlashCommand } from "./types.ts";

function target(ctx: RpcContext): SettingsTarget {
	const runtime = ctx.host.current;
	return {
		session: requireSession(ctx),
		manager: runtime.manager,
		registry: ctx.registry,
		runner: runtime.bridge.runner,
		context: () => runtime.bridge.scope.context(),
	};
}

export const configHandlers = {
	get_state: (_c, ctx) => sessionState(ctx),
	set_model: async (c, ctx) => {
		const model = ctx.registry.find(c.provider, c.modelId);
		if (!model || !isUsable(ctx.registry, model)) throw new Error(`Model not found: ${c.provider}/${c.modelId}`);
		await applyModel(target(ctx), model, "set");
		return model;
	},
	cycle_model: async (_c, ctx) => {
		const session = requireSession(ctx);
		const next = nextModel(ctx.registry, session.agent.state.model, ctx.scopedModels);
		if (!next) return null;
		await applyModel(target(ctx), next, "cycle");
		return { model: next, thinkingLevel: session.agent.state.thinkingLevel, isScoped: ctx.scopedModels.length > 0 };
	},
	get_available_models: (_c, ctx) => ({ models: ctx.registry.getAvailable() }),
	set_thinking_level: async (c, ctx) => {
		await applyThinkingLevel(target(ctx), c.level);
	},
	cycle_thinking_level: async (_c, ctx) => {
		const session = requireSession(ctx);
		const next = nextThinkingLevel(session.agent.state.model, session.agent.state.thinkingLevel);
		if (!next) return null;
		return { level: await applyThinkingLevel(target(ctx), next) };
	},
	get_available_thinking_levels: (_c, ctx) => {
		const model = ctx.host.session?.agent.state.model;
		return { levels: model ? getSupportedThinkingLevels(model) : ["off"] };
	},
	set_steering_mode: (c, ctx) => {
		requireSession(ctx).agent.steeringMode = c.mode;
	},
	set_follow_up_mode: (c, ctx) => {
		requireSession(ctx).agent.followUpMode = c.mode;
	},
	set_auto_compaction: (c, ctx) => {
		const settings = ctx.host.current.compactionSettings;
		if (settings) settings.enabled = c.enabled;
	},
	set_auto_retry: (c, ctx) => {
		requireSession(ctx).retry.enabled = c.enabled;
	},
	abort_retry: (_c, ctx) => {
		ctx.host.session?.abortRetry();
	},
	get_commands: (_c, ctx) => ({ commands: slashCommands(ctx) }),
} satisfies {
	[K in
		| "get_state"
		| "set_model"
		| "cycle_model"
		| "get_available_models"
		| "set_thinking_level"
		| "cycle_thinking_level"
		| "get_available_thinking_levels"
		| "set_steering_mode"
		| "set_follow_up_mode"
		| "set_auto_compaction"
		| "set_auto_retry"
		| "abort_retry"
		| "get_commands"]: RpcHandler<K>;
};

function sessionState(ctx: RpcContext): RpcSessionState {
	const { manager, session, compactionSettings } = ctx.host.current;
	const agent = session?.agent;
	const sessionFile = manager.getSessionFile();
	const sessionName = manager.getSessionName();
	const queued = agent?.queuedMessages;
	return {
		...(agent ? { model: agent.state.model } : {}),
		thinkingLevel: agent?.state.thinkingLevel ?? "off",
		isStreaming: session?.isStreaming ?? false,
		isCompacting: (session?.compacting ?? 0) > 0,
		steeringMode: agent?.steeringMode ?? "one-at-a-time",
		followUpMode: agent?.followUpMode ?? "one-at-a-time",
		...(sessionFile ? { sessionFile } : {}),
		sessionId: manager.getSessionId(),
		...(sessionName ? { sessionName } : {}),
		autoCompactionEnabled: compactionSettings?.enabled ?? false,
		messageCount: session?.messages.length ?? 0,
		pendingMessageCount: queued ? queued.steering.length + queued.followUp.length : 0,
	};
}

function slashCommands(ctx: RpcContext): RpcSlashCommand[] {
	const commands: RpcSlashCommand[] = [];
	const entries = new Map(ctx.extensions.extensions.map((e) => [e.entry.path, e.entry]));
	for (const [name, { extensionPath, command }] of ctx.extensions.commands()) {
		const entry = entries.get(extensionPath);
		commands.push({
			name,
			...(command.description ? { description: command.description } : {}),
			source: "extension",
			sourceInfo: (entry?.package
				? {
						path: extensionPath,
						source: entry.package.source,
						scope: entry.package.scope,
						origin: "package",
						baseDir: entry.package.baseDir,
					}
				: {
						path: extensionPath,
						source: entry?.scope === "cli" ? "cli" : "local",
						scope: entry?.scope === "cli" ? "temporary" : entry?.scope === "project" ? "project" : "user",
						origin: "top-level",
					}) as never,
		});
	}
	for (const template of ctx.resources.getPrompts().prompts) {
		commands.push({
			name: template.name,
			description: template.description,
			source: "prompt",
			sourceInfo: template.sourceInfo as never,
		});
	}
	for (const skill of ctx.resources.getSkills().skills) {
		commands.push({
			name: `skill:${skill.name}`,
			description: skill.description,
			source: "skill",
			sourceInfo: skill.sourceInfo as never,
		});
	}
	return commands;
}
