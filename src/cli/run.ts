/**
 * A print or JSON run: the session file, resources, the runtime host (which builds the session runtime and
 * replaces it when a command asks for a new session, a fork or a switch), then the mode. `session_start` fires
 * before the first prompt and `session_shutdown` after the last; the session file is closed (lock released) at
 * the end, whatever happened.
 */

import { createNoopUi, type ExtensionError } from "../extensions/index.ts";
import { type PromptInput, runJsonMode, runPrintMode } from "../modes/index.ts";
import { NothingToCompactError, type RuntimeHost, type SessionRuntime } from "../runtime/index.ts";
import { errorMessage, UserError } from "../util/index.ts";
import { runWithSession, type SessionRunOptions } from "./session-run.ts";

export interface RunOptions extends SessionRunOptions {
	inputs: PromptInput[];
	json: boolean;
	out: (text: string) => void;
}

export function runNonInteractive(o: RunOptions): Promise<number> {
	const { err } = o;
	const binding = {
		mode: o.json ? ("json" as const) : ("print" as const),
		hasUI: false,
		ui: createNoopUi(),
		onExtensionError: (e: ExtensionError) =>
			err(`Extension error (${e.extensionPath}, ${e.event}): ${e.error}${e.location ? ` (at ${e.location})` : ""}\n`),
	};
	return runWithSession(o, binding, ({ host }) => {
		const common = {
			session: () => host.session,
			inputs: o.inputs,
			findCommand: (commandName: string) => builtinCommand(host, commandName, o.out) ?? o.host.findCommand(commandName),
			commandContext: () => host.current.bridge.scope.commandContext() as unknown as Record<string, unknown>,
			reportCommandError: (commandName: string, error: unknown) =>
				err(`Extension command /${commandName} failed: ${errorMessage(error).split("\n")[0]}\n`),
			noSession: (): never => {
				throw new UserError(host.current.noModelReason ?? "Error: no model available");
			},
		};
		return o.json
			? runJsonMode({
					...common,
					header: host.manager.getHeader() as unknown as Record<string, unknown>,
					subscribe: (listener) => host.subscribe(listener),
					stdout: o.out,
				})
			: runPrintMode({ ...common, stdout: o.out, stderr: err });
	});
}

/** Built-in commands of print and JSON modes: `/compact [instructions]`, `/reload` and `/llama` (a no-op here). */
function builtinCommand(host: RuntimeHost, name: string, out: (text: string) => void) {
	if (name === "compact" && host.current.compact) {
		return {
			description: "Compact the session",
			handler: (instructions: string) => runCompact(host, instructions, out),
		};
	}
	if (name === "reload") {
		return { description: "Reload extensions, skills, prompts and themes", handler: () => host.reload() };
	}
	// pi's /llama runs only in its terminal UI; elsewhere it only warns through the UI (nothing in print mode).
	if (name === "llama") return { description: "Manage llama.cpp router models", handler: async () => {} };
	return undefined;
}

/** Built-in `/compact [instructions]`: compacts now and says what it did. */
async function runCompact(host: RuntimeHost, instructions: string, out: (text: string) => void): Promise<void> {
	let result: Awaited<ReturnType<NonNullable<SessionRuntime["compact"]>>>;
	try {
		result = await host.current.compact?.(instructions || undefined);
	} catch (error) {
		if (!(error instanceof NothingToCompactError)) throw error;
		result = undefined;
	}
	out(
		result
			? `Compacted: ${result.tokensBefore} tokens of context summarised; kept from entry ${result.firstKeptEntryId}\n`
			: "Nothing to compact\n",
	);
}
