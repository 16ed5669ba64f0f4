/**
 * The command line: parse options, start the extension host, give extension flags their values, then hand over to
 * a mode. Returns the exit code; user errors are thrown as `UserError` and printed by `main`.
 */
import { randomUUID } from "node:crypto";
import { getAgentDir, loadStartupSettings, mergeSettings } from "../config/index.ts";
import { createNoopUi } from "../extensions/index.ts";
import { runJsonMode, runPrintMode } from "../modes/index.ts";
import { startExtensionHost } from "../runtime/index.ts";
import { HOST_PACKAGES, VIRTUAL_MODULES } from "../sdk/index.ts";
import { UserError, VERSION } from "../util/index.ts";
import { type ExtensionFlagSpec, parseArgs, resolveExtensionFlags } from "./args.ts";
import { renderHelp } from "./help.ts";
import { buildInputs, readFileArguments, readPipedStdin } from "./inputs.ts";
import { renderModelList } from "./list-models.ts";
import { createCredentials, setupSession } from "./setup.ts";

const out = (text: string) => process.stdout.write(text);
const err = (text: string) => process.stderr.write(text);

export async function main(argv: readonly string[]): Promise<number> {
	const args = parseArgs(argv);
	if (args.flags.get("version")) {
		out(`${VERSION}\n`);
		return 0;
	}
	const cwd = process.cwd();
	const agentDir = getAgentDir();
	const settingsLoad = loadStartupSettings(agentDir, cwd);
	for (const line of settingsLoad.diagnostics) err(`${line}\n`);
	const settings = mergeSettings(settingsLoad.files);
	const host = await startExtensionHost({
		settingsFiles: settingsLoad.files,
		cwd,
		agentDir,
		cliPaths: (args.flags.get("extension") as string[] | undefined) ?? [],
		noDiscovery: args.flags.get("no-extensions") === true,
		virtualModules: VIRTUAL_MODULES,
		isHostPackage: (name) => HOST_PACKAGES.has(name),
	});
	for (const line of host.diagnostics) err(`${line}\n`);

	if (args.flags.get("help")) {
		const flags = [...host.flags].map(([name, { extension, flag }]) => ({
			name,
			type: flag.type,
			...(flag.description ? { description: flag.description } : {}),
			extensionPath: extension.entry.path,
		}));
		out(renderHelp(flags));
		return 0;
	}

	const specs = new Map<string, ExtensionFlagSpec>([...host.flags].map(([name, r]) => [name, { type: r.flag.type }]));
	const values = resolveExtensionFlags(args, specs);
	for (const [name, value] of values) host.flags.get(name)?.extension.handle.flagValues.set(name, value);

	const mode = args.flags.get("mode");
	if (mode !== undefined && mode !== "text" && mode !== "json" && mode !== "rpc") {
		throw new UserError(`Error: --mode must be text, json or rpc (got "${mode}")`);
	}
	if (mode === "rpc") throw new UserError("Error: --mode rpc is not available yet");

	const credentials = createCredentials(agentDir, (line) => err(`${line}\n`));
	const listModels = args.flags.get("list-models");
	if (listModels !== undefined) {
		out(renderModelList(credentials.registry.getAvailable(), typeof listModels === "string" ? listModels : undefined));
		return 0;
	}

	const json = mode === "json";
	const print = json || args.flags.get("print") === true || !process.stdin.isTTY || !process.stdout.isTTY;
	if (!print) throw new UserError('Error: the interactive terminal UI is not available yet; use pi -p "prompt"');

	const stdin = await readPipedStdin();
	const inputs = buildInputs(stdin, readFileArguments(args.files, cwd), args.messages);
	if (inputs.length === 0) throw new UserError('Error: no prompt given (pi -p "your prompt")');

	const setup = setupSession(
		{ cwd, agentDir, flags: args.flags, settings, extensionTools: [], warn: (l) => err(`${l}\n`) },
		credentials,
	);
	const common = {
		session: setup.session,
		inputs,
		findCommand: (name: string) => host.findCommand(name),
		commandContext: { cwd, mode: json ? "json" : "print", hasUI: false, ui: createNoopUi() },
		noSession: (): never => {
			throw new UserError(setup.noModelReason ?? "Error: no model available");
		},
	};
	if (json) {
		const header = { type: "session", version: 3, id: randomUUID(), timestamp: new Date().toISOString(), cwd };
		return runJsonMode({ ...common, header, stdout: out });
	}
	return runPrintMode({ ...common, stdout: out, stderr: err });
}
