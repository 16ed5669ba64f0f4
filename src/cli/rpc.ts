/**
 * `pi --mode rpc`: the session chosen as for other modes (`--session`, `-c`, `--no-session`, …), extension UI
 * over the protocol (`ctx.hasUI` true, `ctx.mode` "rpc"), extension errors as `extension_error` records, then
 * the JSON-lines loop until stdin ends or a signal arrives. Stdout carries only the protocol (other writes to it,
 * an extension's console.log included, go to stderr). `@file` arguments are refused: prompts arrive as `prompt`
 * commands.
 */
import { createRpcUi, runRpcMode, streamLineInput, takeOverStdout } from "../modes/index.ts";
import { formatResourceDiagnostic } from "../resources/index.ts";
import { RuntimeHost } from "../runtime/index.ts";
import { UserError } from "../util/index.ts";
import { createResources, discoverExtensionResources, type RunOptions } from "./run.ts";
import { createRuntimeFactory } from "./runtime-factory.ts";
import { resolveScopedModels } from "./scoped-models.ts";
import { chooseSession } from "./session-choice.ts";

export type RpcRunOptions = Omit<RunOptions, "inputs" | "json">;

export async function runRpc(o: RpcRunOptions): Promise<number> {
	const { cwd, agentDir, args, settings, err } = o;
	if (args.files.length > 0) {
		throw new UserError("Error: @file arguments are not accepted in RPC mode; send prompts with the prompt command");
	}
	// From here on only the protocol reaches stdout; an extension's console.log goes to stderr.
	const stdout = takeOverStdout();
	const write = stdout.write;
	const send = (record: object) => write(`${JSON.stringify(record)}\n`);
	const manager = chooseSession({
		cwd,
		agentDir,
		flags: args.flags,
		...(settings.sessionDir ? { settingsSessionDir: settings.sessionDir } : {}),
	});
	let host: RuntimeHost | undefined;
	try {
		for (const line of manager.getDiagnostics()) err(`${line}\n`);
		const name = args.flags.get("name") as string | undefined;
		if (name) manager.appendSessionInfo(name);
		const resources = createResources({ ...o, inputs: [], json: false });
		for (const d of resources.getDiagnostics()) err(`${formatResourceDiagnostic(d)}\n`);
		const ui = createRpcUi(send);
		let shutdownHook: (() => void) | undefined;
		const scoped = resolveScopedModels(args.flags.get("models") as string | undefined, o.credentials.registry, (line) =>
			err(`${line}\n`),
		);
		const factory = createRuntimeFactory({
			cwd,
			agentDir,
			args,
			scopedModels: scoped,
			settings,
			host: o.host,
			credentials: o.credentials,
			resources,
			trusted: o.trusted,
			mode: "rpc",
			hasUI: true,
			ui: ui.ui,
			onExtensionError: (e) =>
				send({ type: "extension_error", extensionPath: e.extensionPath, event: e.event, error: e.error }),
			warn: (line) => err(`${line}\n`),
			requestShutdown: () => shutdownHook?.(),
		});
		host = await RuntimeHost.start(
			factory,
			manager,
			o.host,
			(line) => err(`${line}\n`),
			(runtime, start) => discoverExtensionResources(runtime, resources, cwd, err, start.reason),
		);
		const shellPath = settings.shellPath;
		const code = await runRpcMode({
			context: {
				host,
				extensions: o.host,
				registry: o.credentials.registry,
				resources,
				cwd,
				scopedModels: scoped.map((entry) => entry.model),
				...(shellPath ? { shellPath } : {}),
			},
			ui,
			input: streamLineInput(process.stdin),
			write,
			onShutdownRequest: (request) => {
				shutdownHook = request;
			},
		});
		return code;
	} finally {
		if (host) await host.dispose();
		else manager.close();
		stdout.restore();
	}
}
