/**
 * RPC mode (`pi --mode rpc`): JSON lines on stdin, responses and session events on stdout. Commands are handled
 * concurrently, each answered by one response carrying its `id`; a malformed line gets a `parse` (or unknown
 * command) response and never stops the loop. Extension dialogs travel as `extension_ui_request` /
 * `extension_ui_response`. Lifecycle: stdin EOF shuts down in order (the run is aborted, `session_shutdown`
 * fires, the session file is closed) and resolves 0 (a command or `session_shutdown` handler that never settles is
 * given up on after 3 s); SIGTERM and SIGHUP do the same with 143 and 129; an
 * extension's `ctx.shutdown()` ends the process after the current command, or once the run has settled.
 */
import { toWireEvent } from "../../runtime/index.ts";
import { errorMessage, timing } from "../../util/index.ts";
import { configHandlers } from "./commands-config.ts";
import { handlePrompt, runHandlers } from "./commands-run.ts";
import { sessionHandlers } from "./commands-session.ts";
import type { RpcContext, RpcHandler } from "./context.ts";
import type { LineInput } from "./jsonl.ts";
import { errorResponse, parseCommandLine, successResponse } from "./protocol.ts";
import type { RpcCommand, RpcCommandType } from "./types.ts";
import type { RpcUi } from "./ui.ts";

export interface RpcModeOptions {
	context: Omit<RpcContext, "send" | "bash">;
	ui: RpcUi;
	input: LineInput;
	/** Writes raw text to stdout. */
	write: (text: string) => void;
	/** Registers the `ctx.shutdown()` hook of extensions. */
	onShutdownRequest?: (request: () => void) => void;
	/** Listen for SIGTERM / SIGHUP (off in in-process tests). */
	handleSignals?: boolean;
}

const HANDLERS = { ...runHandlers, ...sessionHandlers, ...configHandlers } as Record<
	Exclude<RpcCommandType, "prompt">,
	RpcHandler
>;

/** How long shutdown waits for commands already read to be answered. */
const COMMAND_DRAIN_MS = 3_000;

/** Waits for `running` to settle, at most `ms`; `onLate` gets how many were still running then. */
async function settledWithin(running: Promise<unknown>[], ms: number, onLate: (left: number) => void): Promise<void> {
	if (running.length === 0) return;
	let left = running.length;
	const settle = () => {
		left--;
	};
	for (const one of running) one.then(settle, settle);
	let timer: ReturnType<typeof setTimeout> | undefined;
	const late = new Promise<void>((resolve) => {
		timer = setTimeout(() => {
			if (left > 0) onLate(left);
			resolve();
		}, ms);
	});
	await Promise.race([Promise.allSettled(running), late]);
	clearTimeout(timer);
}

export function runRpcMode(o: RpcModeOptions): Promise<number> {
	const send = (record: object) => o.write(`${JSON.stringify(record)}\n`);
	const ctx: RpcContext = { ...o.context, send, bash: undefined };
	const host = ctx.host;
	let shuttingDown = false;
	const inFlight = new Set<Promise<void>>();
	let shutdownRequested = false;
	let finish: (code: number) => void = () => {};
	const done = new Promise<number>((resolve) => {
		finish = resolve;
	});

	const unsubscribe = host.subscribe((event) => {
		send(toWireEvent(event as { type: string }));
		if (event.type === "agent_settled" && shutdownRequested) void shutdown(0);
	});

	const shutdown = async (code: number) => {
		if (shuttingDown) return;
		shuttingDown = true;
		detach();
		for (const off of signalHandlers) off();
		o.ui.cancelAll();
		ctx.bash?.abort();
		// Commands already read get their responses first (a piped last line, then EOF), but one that never ends (an
		// extension command whose promise never settles) must not keep the process alive after its input ended.
		await settledWithin([...inFlight], COMMAND_DRAIN_MS, (left) =>
			process.stderr.write(
				`pi: shutdown: ${left} command(s) still running after ${COMMAND_DRAIN_MS} ms; not waiting\n`,
			),
		);
		try {
			await host.dispose();
		} catch (error) {
			process.stderr.write(`pi: shutdown: ${errorMessage(error)}\n`);
		}
		unsubscribe();
		finish(code);
	};

	o.onShutdownRequest?.(() => {
		shutdownRequested = true;
		if (!host.session?.isStreaming) void shutdown(0);
	});

	const afterCommand = () => {
		if (shutdownRequested && !host.session?.isStreaming) void shutdown(0);
	};
	const track = (running: Promise<void>) => {
		inFlight.add(running);
		void running.finally(() => inFlight.delete(running));
	};

	const runPrompt = async (command: RpcCommand & { type: "prompt" }) => {
		const { id } = command;
		try {
			let answered = false;
			await handlePrompt(command, ctx, () => {
				answered = true;
				send(successResponse(id, "prompt"));
			});
			if (!answered) send(successResponse(id, "prompt"));
		} catch (error) {
			send(errorResponse(id, "prompt", errorMessage(error)));
		}
		afterCommand();
	};

	/**
	 * Every other command. A handler that returns a plain value (the state queries) is answered at once, in the
	 * same tick and without promise bookkeeping; one that returns a promise is answered when it settles.
	 */
	const answer = (command: Exclude<RpcCommand, { type: "prompt" }>) => {
		const { id, type } = command;
		let result: unknown;
		try {
			result = HANDLERS[type](command as never, ctx);
		} catch (error) {
			send(errorResponse(id, type, errorMessage(error)));
			afterCommand();
			return;
		}
		if (result instanceof Promise) {
			track(
				result
					.then(
						(data) => {
							send(successResponse(id, type as never, data as never));
						},
						(error) => {
							send(errorResponse(id, type, errorMessage(error)));
						},
					)
					.then(afterCommand),
			);
			return;
		}
		send(successResponse(id, type as never, result as never));
		afterCommand();
	};

	let lines = 0;
	const onLine = (line: string) => {
		if (shuttingDown) return;
		if (lines++ === 0) timing("rpc: first line read");
		const parsed = parseCommandLine(line);
		if (lines === 1) timing("rpc: first line parsed");
		if (!parsed.ok) {
			send(parsed.response);
			return;
		}
		const inbound = parsed.command;
		if (inbound.type === "extension_ui_response") {
			o.ui.handleResponse(inbound);
			return;
		}
		if (inbound.type === "prompt") track(runPrompt(inbound));
		else answer(inbound);
	};
	timing("rpc: listening");
	const detach = o.input.listen(onLine, () => void shutdown(0));

	const signalHandlers: (() => void)[] = [];
	if (o.handleSignals !== false) {
		for (const [signal, code] of [
			["SIGTERM", 143],
			["SIGHUP", 129],
		] as const) {
			const handler = () => void shutdown(code);
			process.on(signal, handler);
			signalHandlers.push(() => process.off(signal, handler));
		}
	}
	return done;
}
