/**
 * pi's `runPrintMode(runtime, options)`: print or JSON mode over an `AgentSessionRuntime`. The session is bound to
 * the mode (extension errors to stderr, `ctx.newSession` / `fork` / `switchSession` / `reload` through the runtime)
 * again after every replacement; JSON mode writes the session header and every event as a line; text mode writes
 * the last assistant message's text (an error or abort goes to stderr, exit code 1). The runtime is disposed at
 * the end (`session_shutdown`), and on SIGTERM/SIGHUP before the process ends with 143/129, as pi does.
 */
import type { ImageContent } from "../ai/index.ts";
import { type AgentSessionRuntime, type SdkAgentSession, toWireEvent } from "../runtime/index.ts";
import { errorMessage, exitProcess, flushStdio, writeStderr, writeStdout } from "../util/index.ts";

export interface RuntimePrintModeOptions {
	mode: "text" | "json";
	messages?: string[];
	initialMessage?: string;
	initialImages?: ImageContent[];
}

export async function runRuntimePrintMode(
	runtime: AgentSessionRuntime,
	options: RuntimePrintModeOptions,
): Promise<number> {
	const { mode, messages = [] } = options;
	let session: SdkAgentSession = runtime.session;
	let unsubscribe: (() => void) | undefined;
	let disposed = false;
	const dispose = async () => {
		if (disposed) return;
		disposed = true;
		unsubscribe?.();
		await runtime.dispose();
	};
	const signals: [NodeJS.Signals, number][] = [["SIGTERM", 143]];
	if (process.platform !== "win32") signals.push(["SIGHUP", 129]);
	const handlers = signals.map(([signal, code]) => {
		const handler = () => void dispose().finally(() => exitProcess(code));
		process.on(signal, handler);
		return () => process.off(signal, handler);
	});

	const rebind = async () => {
		session = runtime.session;
		await session.bindExtensions({
			mode: mode === "json" ? "json" : "print",
			commandContextActions: {
				waitForIdle: () => session.waitForIdle(),
				newSession: (o) => runtime.newSession(o as never),
				fork: async (entryId, o) => ({ cancelled: (await runtime.fork(entryId, o as never)).cancelled }),
				switchSession: (path, o) => runtime.switchSession(path, o as never),
				reload: () => runtime.reload(),
			},
			onError: (error) => writeStderr(`Extension error (${error.extensionPath}): ${error.error}\n`),
		});
		unsubscribe?.();
		unsubscribe =
			mode === "json"
				? session.subscribe((event) => writeStdout(`${JSON.stringify(toWireEvent(event as { type: string }))}\n`))
				: undefined;
	};
	runtime.setRebindSession(rebind);

	try {
		if (mode === "json") {
			const header = session.sessionManager.getHeader();
			if (header) writeStdout(`${JSON.stringify(header)}\n`);
		}
		await rebind();
		if (options.initialMessage) {
			await session.prompt(options.initialMessage, options.initialImages ? { images: options.initialImages } : {});
		}
		for (const message of messages) await session.prompt(message);
		if (mode === "text") return printLast(session);
		return 0;
	} catch (error) {
		writeStderr(`${errorMessage(error)}\n`);
		return 1;
	} finally {
		for (const off of handlers) off();
		await dispose();
		await flushStdio();
	}
}

/** The last message's text, if it is the assistant's; its error instead (exit 1) when it failed. */
function printLast(session: SdkAgentSession): number {
	const last = session.state.messages.at(-1) as
		| { role: string; stopReason?: string; errorMessage?: string; content: { type: string; text?: string }[] }
		| undefined;
	if (last?.role !== "assistant") return 0;
	if (last.stopReason === "error" || last.stopReason === "aborted") {
		writeStderr(`${last.errorMessage || `Request ${last.stopReason}`}\n`);
		return 1;
	}
	for (const part of last.content) if (part.type === "text") writeStdout(`${part.text}\n`);
	return 0;
}
