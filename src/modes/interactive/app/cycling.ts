/**
 * The cycling keys: model cycling through the scope (`app.model.cycleForward/Backward`) and thinking-level
 * cycling (`app.thinking.cycle`).
 */
import type { Model } from "../../../ai/index.ts";
import { applyModel, applyThinkingLevel, isUsable, nextThinkingLevel } from "../../../runtime/index.ts";
import { errorMessage } from "../../../util/index.ts";
import { type CommandContext, settingsTarget as target } from "../commands/index.ts";

export async function cycleModel(c: CommandContext, direction: "forward" | "backward"): Promise<void> {
	const t = target(c);
	if (!t) {
		c.app.chat.showError(c.host.current.noModelReason ?? "No model available");
		return;
	}
	const pool = (c.scopedModels.length > 0 ? c.scopedModels : c.registry.getAvailable()).filter((m) =>
		isUsable(c.registry, m),
	);
	if (pool.length < 2) {
		c.app.chat.showStatus(c.scopedModels.length > 0 ? "Only one model in scope" : "Only one model available");
		return;
	}
	const current = t.session.agent.state.model;
	const index = pool.findIndex((m) => m.provider === current.provider && m.id === current.id);
	const step = direction === "forward" ? 1 : -1;
	const next = pool[(index + step + pool.length) % pool.length] as Model;
	try {
		await applyModel(t, next, "cycle");
		const level = t.session.agent.state.thinkingLevel;
		const thinking = next.reasoning && level !== "off" ? ` (thinking: ${level})` : "";
		c.view.updateBorderColor();
		c.app.chat.showStatus(`Switched to ${next.name || next.id}${thinking}`);
	} catch (error) {
		c.app.chat.showError(errorMessage(error));
	}
}

export async function cycleThinking(c: CommandContext): Promise<void> {
	const t = target(c);
	if (!t) return;
	const next = nextThinkingLevel(t.session.agent.state.model, t.session.agent.state.thinkingLevel);
	if (!next) {
		c.app.chat.showStatus("Current model does not support thinking");
		return;
	}
	const level = await applyThinkingLevel(t, next);
	c.view.updateBorderColor();
	c.app.chat.showStatus(`Thinking level: ${level}`);
}
