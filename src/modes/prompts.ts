/**
 * What print and JSON modes share: the messages to run, in order, each either an extension command (`/name args`)
 * or a prompt for the agent. The first message may carry images from `@file` arguments.
 */
import type { ImageContent } from "../ai/index.ts";
import type { CommandDefinition } from "../extensions/index.ts";
import type { AgentSession } from "../runtime/index.ts";

export interface PromptInput {
	text: string;
	images?: ImageContent[];
}

export interface RunPromptsOptions {
	/** The current session (a command may replace it: new session, fork, switch). */
	session(): AgentSession | undefined;
	inputs: PromptInput[];
	findCommand(name: string): CommandDefinition | undefined;
	commandContext(): Record<string, unknown>;
	/** Called when a prompt needs the agent but no session could be made (no model). */
	noSession(): never;
	/** Where a failing extension command is reported (one line). */
	reportCommandError?(name: string, error: unknown): void;
}

export function parseSlashCommand(text: string): { name: string; args: string } | undefined {
	const match = /^\/([^\s/][^\s]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
	if (!match) return undefined;
	return { name: match[1] as string, args: (match[2] ?? "").trim() };
}

/** Runs the inputs in order; resolves false when an extension command failed (it is reported, the rest still run). */
export async function runPrompts(options: RunPromptsOptions): Promise<boolean> {
	let ok = true;
	for (const input of options.inputs) {
		const command = parseSlashCommand(input.text);
		const definition = command && options.findCommand(command.name);
		if (command && definition) {
			try {
				await definition.handler(command.args, options.commandContext());
			} catch (error) {
				ok = false;
				options.reportCommandError?.(command.name, error);
			}
			continue;
		}
		const session = options.session();
		if (!session) options.noSession();
		await session.prompt(input.text, input.images ? { images: input.images } : {});
	}
	return ok;
}
