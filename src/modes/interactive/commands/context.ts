/**
 * `/copy` and its key (`app.message.copy`, Ctrl+X): the text of the last assistant message through the clipboard
 * (clipboard-copy.ts), one status line saying what happened.
 */
import type { AgentMessage } from "../../../agent/index.ts";
import { errorMessage } from "../../../util/index.ts";
import type { BuiltinCommand, CommandContext } from "./types.ts";

/** The text blocks of the last assistant message (an aborted one with nothing in it does not count). */
export function lastAssistantText(messages: readonly AgentMessage[]): string | undefined {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i] as { role?: string; stopReason?: string; content?: unknown };
		if (message.role !== "assistant" || !Array.isArray(message.content)) continue;
		if (message.stopReason === "aborted" && message.content.length === 0) continue;
		const text = (message.content as { type: string; text?: string }[])
			.filter((block) => block.type === "text")
			.map((block) => block.text ?? "")
			.join("")
			.trim();
		return text || undefined;
	}
	return undefined;
}

async function copy(c: CommandContext): Promise<void> {
	const text = lastAssistantText(c.host.session?.messages ?? []);
	if (!text) {
		c.app.chat.showError("No agent messages to copy yet.");
		return;
	}
	try {
		const { copyText } = await import("./clipboard-copy.ts");
		await copyText(text);
		c.app.chat.showStatus("Copied last agent message to clipboard");
	} catch (error) {
		c.app.chat.showError(errorMessage(error));
	}
}

export const CONTEXT_COMMANDS: readonly BuiltinCommand[] = [
	{
		name: "copy",
		description: "Copy the last agent message to the clipboard",
		action: "app.message.copy",
		run: copy,
	},
];
