/**
 * Changing the session's model and thinking level, from wherever the change comes (an extension, an RPC client,
 * a restore): the agent state, the session file (`model_change` / `thinking_level_change`), the
 * `thinking_level_changed` session event, and the extension events `model_select` / `thinking_level_select`.
 */
import type { ThinkingLevel } from "../agent/index.ts";
import { getSupportedThinkingLevels, type Model, type ModelRegistry } from "../ai/index.ts";
import type { ExtensionRunner } from "../extensions/index.ts";
import type { SessionManager } from "../session/index.ts";
import type { AgentSession } from "./agent-session.ts";
import { clampThinking } from "./model-resolver.ts";

export interface SettingsTarget {
	session: AgentSession;
	manager: SessionManager;
	registry: ModelRegistry;
	/** Fires the extension events; absent in tests without extensions. */
	runner?: ExtensionRunner;
	/** Builds the `ctx` for extension events. */
	context?: () => unknown;
}

/** Whether the model can be used now (credentials, or a keyless local provider). */
export function isUsable(registry: ModelRegistry, model: Model): boolean {
	return registry.getApiKey(model) !== undefined || registry.getAvailable().includes(model);
}

/** Switches the model; the thinking level is clamped to what the new model supports. */
export async function applyModel(
	t: SettingsTarget,
	model: Model,
	source: "set" | "cycle" | "restore" = "set",
): Promise<void> {
	const state = t.session.agent.state;
	const previousModel = state.model;
	state.model = model;
	t.manager.appendModelChange(model.provider, model.id);
	await applyThinkingLevel(t, clampThinking(model, state.thinkingLevel), { onlyIfChanged: true });
	if (t.runner?.hasHandlers("model_select")) {
		await t.runner.emit("model_select", { model, previousModel, source } as never, t.context?.() as never);
	}
}

/** Sets the thinking level (clamped to the model), records it and tells listeners. */
export async function applyThinkingLevel(
	t: SettingsTarget,
	requested: ThinkingLevel,
	options: { onlyIfChanged?: boolean } = {},
): Promise<ThinkingLevel> {
	const state = t.session.agent.state;
	const previousLevel = state.thinkingLevel;
	const level = clampThinking(state.model, requested);
	if (options.onlyIfChanged && level === previousLevel) return level;
	state.thinkingLevel = level;
	t.manager.appendThinkingLevelChange(level);
	await t.session.emitEvent({ type: "thinking_level_changed", level });
	if (t.runner?.hasHandlers("thinking_level_select")) {
		await t.runner.emit("thinking_level_select", { level, previousLevel } as never, t.context?.() as never);
	}
	return level;
}

/** The next thinking level the model supports, or undefined for a model without reasoning. */
export function nextThinkingLevel(model: Model, current: ThinkingLevel): ThinkingLevel | undefined {
	if (!model.reasoning) return undefined;
	const levels = getSupportedThinkingLevels(model) as ThinkingLevel[];
	const index = levels.indexOf(current);
	return levels[(index + 1) % levels.length];
}

/** The next usable model after the current one (in `scoped` order when given), or undefined when there is none. */
export function nextModel(registry: ModelRegistry, current: Model, scoped: Model[] = []): Model | undefined {
	const pool = scoped.length > 0 ? scoped : registry.getAvailable();
	if (pool.length < 2) return undefined;
	const index = pool.findIndex((m) => m.provider === current.provider && m.id === current.id);
	return pool[(index + 1) % pool.length];
}
