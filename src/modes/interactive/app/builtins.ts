/**
 * The built-in commands and keys of this version that change the session without a selector: `/new`, `/name`,
 * model cycling (`app.model.cycleForward/Backward`) and thinking-level cycling (`app.thinking.cycle`). The rest
 * of pi's slash commands come with the selectors.
 */
import type { Model, ModelRegistry } from "../../../ai/index.ts";
import { currentTheme } from "../../../resources/index.ts";
import {
	applyModel,
	applyThinkingLevel,
	isUsable,
	NothingToCompactError,
	nextThinkingLevel,
	type RuntimeHost,
	type SettingsTarget,
} from "../../../runtime/index.ts";
import { Spacer, Text } from "../../../tui/index.ts";
import { errorMessage } from "../../../util/index.ts";
import type { InteractiveApp } from "./app.ts";
import type { SessionView } from "./session-view.ts";
import type { StatusArea } from "./status-area.ts";

export interface BuiltinContext {
	app: InteractiveApp;
	host: RuntimeHost;
	view: SessionView;
	status: StatusArea;
	registry: ModelRegistry;
	scopedModels: Model[];
}

export const BUILTIN_COMMAND_LIST = [
	{ name: "compact", description: "Compact the context now (optional instructions)" },
	{ name: "new", description: "Start a new session" },
	{ name: "name", description: "Name this session (no name: show it)" },
	{ name: "quit", description: "Quit pi" },
	{ name: "reload", description: "Reload keybindings, extensions, skills, prompts, themes and context files" },
];

function target(c: BuiltinContext): SettingsTarget | undefined {
	const runtime = c.host.current;
	if (!runtime.session) return undefined;
	return {
		session: runtime.session,
		manager: runtime.manager,
		registry: c.registry,
		runner: runtime.bridge.runner,
		context: () => runtime.bridge.scope.context(),
	};
}

function dimLine(c: BuiltinContext, text: string): void {
	c.app.chat.addChild(new Spacer(1));
	c.app.chat.addChild(new Text(currentTheme().fg("dim", text), 1, 0));
}

/** Runs `text` when it is one of these commands; true when it was. */
export async function runBuiltin(c: BuiltinContext, text: string): Promise<boolean> {
	if (text === "/new") {
		c.status.clear();
		const result = await c.host.newSession();
		if (!result.cancelled) {
			c.app.chat.addChild(new Spacer(1));
			c.app.chat.addChild(new Text(currentTheme().fg("accent", "✓ New session started"), 1, 1));
		}
		return true;
	}
	if (text === "/compact" || text.startsWith("/compact ")) {
		const instructions = text.slice(8).trim();
		c.status.clear();
		if (!c.host.current.compact) {
			c.app.chat.showError(c.host.current.noModelReason ?? "No model available");
			return true;
		}
		try {
			await c.host.current.compact(instructions || undefined);
		} catch (error) {
			// Failures arrive as compaction_end events too; nothing to compact says so here.
			if (error instanceof NothingToCompactError) c.app.chat.showWarning("Nothing to compact");
		}
		return true;
	}
	if (text === "/reload") {
		const session = c.host.session;
		if (session?.isStreaming) {
			c.app.chat.showWarning("Wait for the current response to finish before reloading.");
			return true;
		}
		if ((session?.compacting ?? 0) > 0) {
			c.app.chat.showWarning("Wait for compaction to finish before reloading.");
			return true;
		}
		try {
			await c.host.reload();
			c.app.chat.showStatus("Reloaded keybindings, extensions, skills, prompts, themes, and context files");
		} catch (error) {
			c.app.chat.showError(`Reload failed: ${errorMessage(error)}`);
		}
		return true;
	}
	if (text === "/name" || text.startsWith("/name ")) {
		const name = text.slice(5).trim();
		const manager = c.host.manager;
		if (!name) {
			const current = manager.getSessionName();
			if (current) dimLine(c, `Session name: ${current}`);
			else c.app.chat.showWarning("Usage: /name <name>");
			return true;
		}
		manager.appendSessionInfo(name);
		const stored = manager.getSessionName();
		await c.host.session?.emitEvent({ type: "session_info_changed", ...(stored ? { name: stored } : {}) });
		if (stored !== name) {
			c.app.chat.showWarning(`Session name was normalized from ${JSON.stringify(name)} to ${JSON.stringify(stored)}`);
		}
		dimLine(c, `Session name set: ${stored ?? name}`);
		return true;
	}
	return false;
}

export async function cycleModel(c: BuiltinContext, direction: "forward" | "backward"): Promise<void> {
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

export async function cycleThinking(c: BuiltinContext): Promise<void> {
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
