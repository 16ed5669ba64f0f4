/**
 * `pi --mode rpc`: the session chosen as for other modes (`--session`, `-c`, `--no-session`, …), extension UI
 * over the protocol (`ctx.hasUI` true, `ctx.mode` "rpc"), extension errors as `extension_error` records, then
 * the JSON-lines loop until stdin ends or a signal arrives. Stdout carries only the protocol (other writes to it,
 * an extension's console.log included, go to stderr, from the first extension load to exit). `@file` arguments are refused: prompts arrive as `prompt`
 * commands.
 */
import { llamaConnection, loadLlama } from "../ai/index.ts";
import type { ExtensionError } from "../extensions/index.ts";
import {
	createRpcUi,
	runRpcMode,
	type StdoutTakeover,
	streamLineInput,
	takeOverStdout,
	webStreamLineInput,
} from "../modes/index.ts";
import { UserError } from "../util/index.ts";
import { runWithSession, type SessionRunOptions } from "./session-run.ts";

export interface RpcRunOptions extends SessionRunOptions {
	/** Stdout already taken over (before extensions loaded); else taken over here. */
	stdout?: StdoutTakeover | undefined;
}

export async function runRpc(o: RpcRunOptions): Promise<number> {
	if (o.args.files.length > 0) {
		throw new UserError("Error: @file arguments are not accepted in RPC mode; send prompts with the prompt command");
	}
	// From here on only the protocol reaches stdout; an extension's console.log or process.stdout.write goes to
	// stderr. Without extensions no other code writes to process.stdout, so it is left alone (touching it is costly).
	const stdout = o.stdout ?? takeOverStdout({ guardProcessStdout: o.host.extensions.length > 0 });
	const send = (record: object) => stdout.write(`${JSON.stringify(record)}\n`);
	const ui = createRpcUi(send);
	// As pi: a llama.cpp router's models refresh in the background unless offline.
	if (!process.env.PI_OFFLINE && llamaConnection(o.credentials.authStorage)) {
		void loadLlama().then((m) =>
			m.refreshConfiguredRouter(o.credentials.registry, o.credentials.authStorage, o.agentDir),
		);
	}
	let shutdownHook: (() => void) | undefined;
	const binding = {
		mode: "rpc" as const,
		hasUI: true,
		ui: ui.ui,
		onExtensionError: (e: ExtensionError) =>
			send({
				type: "extension_error",
				extensionPath: e.extensionPath,
				event: e.event,
				error: e.error,
				...(e.location ? { location: e.location } : {}),
			}),
		requestShutdown: () => shutdownHook?.(),
	};
	try {
		return await runWithSession(o, binding, ({ host, resources, scopedModels }) =>
			runRpcMode({
				context: {
					host,
					extensions: o.host,
					registry: o.credentials.registry,
					resources,
					cwd: o.cwd,
					scopedModels: scopedModels.map((entry) => entry.model),
					...(o.settings.shellPath ? { shellPath: o.settings.shellPath } : {}),
				},
				ui,
				input: typeof Bun !== "undefined" ? webStreamLineInput(Bun.stdin.stream()) : streamLineInput(process.stdin),
				write: stdout.write,
				onShutdownRequest: (request) => {
					shutdownHook = request;
				},
			}),
		);
	} finally {
		stdout.restore();
	}
}
