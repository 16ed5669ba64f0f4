/**
 * Print mode (`pi -p`): runs each message in turn and exits. For now a message that names an extension command
 * (`/name args`) runs that command; anything else needs the agent, which is not wired up yet.
 */
import { type CommandDefinition, createNoopUi } from "../extensions/index.ts";
import { UserError } from "../util/index.ts";

export interface PrintModeOptions {
	cwd: string;
	messages: string[];
	findCommand(name: string): CommandDefinition | undefined;
}

export async function runPrintMode(options: PrintModeOptions): Promise<number> {
	if (options.messages.length === 0) throw new UserError('Error: no prompt given (pi -p "your prompt")');
	const ctx = createPrintCommandContext(options.cwd);
	for (const message of options.messages) {
		const command = parseSlashCommand(message);
		const definition = command && options.findCommand(command.name);
		if (!command || !definition) {
			throw new UserError(
				"Error: no model is available yet in this build; only extension commands (/name) can run in print mode",
			);
		}
		await definition.handler(command.args, ctx);
	}
	return 0;
}

export function parseSlashCommand(text: string): { name: string; args: string } | undefined {
	const match = /^\/([^\s/][^\s]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
	if (!match) return undefined;
	return { name: match[1] as string, args: (match[2] ?? "").trim() };
}

function createPrintCommandContext(cwd: string): Record<string, unknown> {
	return {
		cwd,
		mode: "print",
		hasUI: false,
		ui: createNoopUi(),
		signal: undefined,
		isIdle: () => true,
		abort: () => {},
		hasPendingMessages: () => false,
		isProjectTrusted: () => false,
		waitForIdle: async () => {},
	};
}
