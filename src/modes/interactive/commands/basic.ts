/**
 * Commands that act at once, without a selector: `/new`, `/name [name]`, `/compact [instructions]`, `/reload` and
 * `/quit`.
 */
import { agentPaths } from "../../../config/index.ts";
import { currentTheme } from "../../../resources/index.ts";
import { NothingToCompactError } from "../../../runtime/index.ts";
import { getKeybindings, Spacer, Text } from "../../../tui/index.ts";
import { errorMessage } from "../../../util/index.ts";
import { reloadAppKeybindings } from "../app/keybindings.ts";
import type { BuiltinCommand, CommandContext } from "./types.ts";

export function dimLine(c: CommandContext, text: string): void {
	c.app.chat.addChild(new Spacer(1));
	c.app.chat.addChild(new Text(currentTheme().fg("dim", text), 1, 0));
}

async function newSession(c: CommandContext): Promise<void> {
	c.status.clear();
	const result = await c.host.newSession();
	if (!result.cancelled) {
		c.app.chat.addChild(new Spacer(1));
		c.app.chat.addChild(new Text(currentTheme().fg("accent", "✓ New session started"), 1, 1));
	}
}

async function compact(c: CommandContext, instructions: string): Promise<void> {
	c.status.clear();
	if (!c.host.current.compact) {
		c.app.chat.showError(c.host.current.noModelReason ?? "No model available");
		return;
	}
	try {
		await c.host.current.compact(instructions || undefined);
	} catch (error) {
		// Failures arrive as compaction_end events too; nothing to compact says so here.
		if (error instanceof NothingToCompactError) c.app.chat.showWarning("Nothing to compact");
	}
}

async function reload(c: CommandContext): Promise<void> {
	const session = c.host.session;
	if (session?.isStreaming) {
		c.app.chat.showWarning("Wait for the current response to finish before reloading.");
		return;
	}
	if ((session?.compacting ?? 0) > 0) {
		c.app.chat.showWarning("Wait for compaction to finish before reloading.");
		return;
	}
	try {
		// Keys first, so the extension shortcuts collected after the reload are checked against the new keys.
		const keyWarnings = reloadAppKeybindings(getKeybindings(), agentPaths.keybindings(c.agentDir));
		await c.host.reload();
		for (const line of keyWarnings) c.app.chat.showWarning(line);
		c.app.chat.showStatus("Reloaded keybindings, extensions, skills, prompts, themes, and context files");
	} catch (error) {
		c.app.chat.showError(`Reload failed: ${errorMessage(error)}`);
	}
}

async function name(c: CommandContext, name: string): Promise<void> {
	const manager = c.host.manager;
	if (!name) {
		const current = manager.getSessionName();
		if (current) dimLine(c, `Session name: ${current}`);
		else c.app.chat.showWarning("Usage: /name <name>");
		return;
	}
	manager.appendSessionInfo(name);
	const stored = manager.getSessionName();
	await c.host.session?.emitEvent({ type: "session_info_changed", ...(stored ? { name: stored } : {}) });
	if (stored !== name) {
		c.app.chat.showWarning(`Session name was normalized from ${JSON.stringify(name)} to ${JSON.stringify(stored)}`);
	}
	dimLine(c, `Session name set: ${stored ?? name}`);
}

export const BASIC_COMMANDS: readonly BuiltinCommand[] = [
	{ name: "name", description: "Name this session (no name: show it)", run: name },
	{ name: "new", description: "Start a new session", action: "app.session.new", run: newSession },
	{ name: "compact", description: "Compact the context now (optional instructions)", run: compact },
	{
		name: "reload",
		description: "Reload keybindings, extensions, skills, prompts, themes and context files",
		run: reload,
	},
	{ name: "quit", description: "Quit pi", run: (c) => c.app.quit(0) },
];
