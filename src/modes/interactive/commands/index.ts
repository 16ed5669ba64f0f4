/**
 * The built-in slash commands, in the order the `/` menu lists them (pi 0.87.1's order), and their dispatcher.
 * A command group is one file exporting a `BuiltinCommand[]`; add it here.
 */
import type { SlashCommand } from "../../../tui/index.ts";
import { errorMessage } from "../../../util/index.ts";
import { AUTH_COMMANDS } from "./auth.ts";
import { BASIC_COMMANDS } from "./basic.ts";
import { CONTEXT_COMMANDS } from "./context.ts";
import { EXPORT_COMMANDS } from "./export.ts";
import { INFO_COMMANDS } from "./info.ts";
import { LLAMA_COMMANDS } from "./llama.ts";
import { MODEL_COMMANDS } from "./models.ts";
import { SESSION_COMMANDS } from "./sessions.ts";
import { SETTINGS_COMMANDS } from "./settings.ts";
import { TREE_COMMANDS } from "./tree.ts";
import type { BuiltinCommand, CommandContext } from "./types.ts";

export { dimLine } from "./basic.ts";
export { openResumePicker } from "./sessions.ts";
export { settingsTarget } from "./target.ts";
export type { BuiltinCommand, CommandContext } from "./types.ts";

/** pi 0.87.1's menu order; a name without an implementation yet is skipped. */
const MENU_ORDER = [
	"settings",
	"model",
	"tree",
	"thinking",
	"scoped-models",
	"export",
	"import",
	"share",
	"bug",
	"copy",
	"name",
	"session",
	"changelog",
	"hotkeys",
	"fork",
	"clone",
	"trust",
	"login",
	"logout",
	"new",
	"compact",
	"resume",
	"reload",
	"quit",
];

const GROUPS: readonly (readonly BuiltinCommand[])[] = [
	BASIC_COMMANDS,
	CONTEXT_COMMANDS,
	EXPORT_COMMANDS,
	INFO_COMMANDS,
	MODEL_COMMANDS,
	AUTH_COMMANDS,
	SETTINGS_COMMANDS,
	SESSION_COMMANDS,
	TREE_COMMANDS,
	LLAMA_COMMANDS,
];

function byName(): Map<string, BuiltinCommand> {
	const map = new Map<string, BuiltinCommand>();
	for (const group of GROUPS) for (const command of group) map.set(command.name, command);
	return map;
}

const COMMANDS = byName();

/** The built-in commands in menu order. */
export function builtinCommands(): BuiltinCommand[] {
	const ordered = MENU_ORDER.flatMap((name) => {
		const command = COMMANDS.get(name);
		return command ? [command] : [];
	});
	for (const command of COMMANDS.values()) if (!MENU_ORDER.includes(command.name)) ordered.push(command);
	return ordered;
}

/** The `/` menu entries of the built-in commands. */
export function builtinSlashCommands(c: CommandContext): SlashCommand[] {
	return builtinCommands().map((command) => {
		const entry: SlashCommand = { name: command.name, description: command.description };
		if (command.argumentHint) entry.argumentHint = command.argumentHint;
		const complete = command.complete;
		if (complete) entry.getArgumentCompletions = (prefix) => complete(c, prefix);
		return entry;
	});
}

/** Binds each command's app action (its key) on `editor` to run the command without arguments. */
export function bindCommandKeys(
	c: CommandContext,
	editor: { onAction(action: string, handler: () => void): void },
): void {
	for (const command of builtinCommands()) {
		if (command.action) editor.onAction(command.action, () => void runBuiltin(c, `/${command.name}`));
	}
}

/** Runs `text` when it names a built-in command (`/name` or `/name args`); true when it did. */
export async function runBuiltin(c: CommandContext, text: string): Promise<boolean> {
	if (!text.startsWith("/")) return false;
	const space = text.search(/\s/);
	const name = space === -1 ? text.slice(1) : text.slice(1, space);
	const command = COMMANDS.get(name);
	if (!command) return false;
	const args = space === -1 ? "" : text.slice(space + 1).trim();
	try {
		await command.run(c, args);
	} catch (error) {
		c.app.chat.showError(`/${name}: ${errorMessage(error)}`);
	}
	c.app.tui.requestRender();
	return true;
}
