/**
 * `pi --mode rpc`: the session chosen as for other modes (`--session`, `-c`, `--no-session`, …), extension UI
 * over the protocol (`ctx.hasUI` true, `ctx.mode` "rpc"), extension errors as `extension_error` records, then
 * the JSON-lines loop until stdin ends or a signal arrives. `@file` arguments are refused: prompts arrive as
 * `prompt` commands.
 */
import type { Model } from "../ai/index.ts";
import { createRpcUi, runRpcMode } from "../modes/index.ts";
import { formatResourceDiagnostic } from "../resources/index.ts";
import { RuntimeHost, resolveModel } from "../runtime/index.ts";
import { UserError } from "../util/index.ts";
import { createResources, discoverExtensionResources, type RunOptions } from "./run.ts";
import { createRuntimeFactory } from "./runtime-factory.ts";
import { chooseSession } from "./session-choice.ts";

export type RpcRunOptions = Omit<RunOptions, "inputs" | "json">;

export async function runRpc(o: RpcRunOptions): Promise<number> {
	const { cwd, agentDir, args, settings, err } = o;
	if (args.files.length > 0) {
		throw new UserError("Error: @file arguments are not accepted in RPC mode; send prompts with the prompt command");
	}
	const write = (text: string) => process.stdout.write(text);
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
		const factory = createRuntimeFactory({
			cwd,
			agentDir,
			args,
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
		host = await RuntimeHost.start(factory, manager, o.host, (line) => err(`${line}\n`));
		await discoverExtensionResources(host.current.bridge, resources, cwd, err);
		host.current.refreshSystemPrompt?.();
		const shellPath = settings.shellPath;
		const code = await runRpcMode({
			context: {
				host,
				extensions: o.host,
				registry: o.credentials.registry,
				resources,
				cwd,
				scopedModels: scopedModels(o),
				...(shellPath ? { shellPath } : {}),
			},
			ui,
			input: process.stdin,
			write,
			onShutdownRequest: (request) => {
				shutdownHook = request;
			},
		});
		return code;
	} finally {
		if (host) await host.dispose();
		else manager.close();
	}
}

/** `--models a,b,c`: the models `cycle_model` goes through, in that order. */
function scopedModels(o: RpcRunOptions): Model[] {
	const spec = o.args.flags.get("models") as string | undefined;
	if (!spec) return [];
	const registry = o.credentials.registry;
	const out: Model[] = [];
	for (const pattern of spec.split(",").map((p) => p.trim())) {
		if (!pattern) continue;
		const found = resolveModel(registry, { model: pattern });
		if (found.ok && !out.includes(found.model)) out.push(found.model);
		else if (!found.ok) o.err(`Warning: --models: ${found.error}\n`);
	}
	return out;
}
