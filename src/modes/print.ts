/**
 * Print mode (`pi -p`, or any run whose stdin/stdout is not a terminal): runs the messages, then writes the text
 * of the final assistant message to stdout. A final message that ended in error or was aborted goes to stderr
 * with exit code 1.
 */
import type { AssistantMessage } from "../ai/index.ts";
import { type RunPromptsOptions, runPrompts } from "./prompts.ts";

export interface PrintModeOptions extends RunPromptsOptions {
	stdout: (text: string) => void;
	stderr: (text: string) => void;
}

export async function runPrintMode(options: PrintModeOptions): Promise<number> {
	const before = options.session()?.messages.at(-1);
	const commandsOk = await runPrompts(options);
	const last = options.session()?.messages.at(-1) as AssistantMessage | undefined;
	// Only a reply produced by this run is printed (a continued session's old reply is not).
	if (!last || last === before || last.role !== "assistant") return commandsOk ? 0 : 1;
	if (last.stopReason === "error" || last.stopReason === "aborted") {
		options.stderr(`${last.errorMessage ?? `Request ${last.stopReason}`}\n`);
		return 1;
	}
	for (const block of last.content) if (block.type === "text") options.stdout(`${block.text}\n`);
	return commandsOk ? 0 : 1;
}
