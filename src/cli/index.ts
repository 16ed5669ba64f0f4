/**
 * The command line: parse options, start the extension host, give extension flags their values, then hand over to
 * a mode. Returns the exit code; user errors are thrown as `UserError` and printed by `main`.
 */
import { getAgentDir } from "../config/index.ts";
import { runPrintMode } from "../modes/index.ts";
import { startExtensionHost } from "../runtime/index.ts";
import { HOST_PACKAGES, VIRTUAL_MODULES } from "../sdk/index.ts";
import { UserError, VERSION } from "../util/index.ts";
import { type ExtensionFlagSpec, parseArgs, resolveExtensionFlags } from "./args.ts";
import { renderHelp } from "./help.ts";

export async function main(argv: readonly string[]): Promise<number> {
	const args = parseArgs(argv);
	if (args.flags.get("version")) {
		process.stdout.write(`${VERSION}\n`);
		return 0;
	}
	const cwd = process.cwd();
	const agentDir = getAgentDir();
	const host = await startExtensionHost({
		cwd,
		agentDir,
		cliPaths: (args.flags.get("extension") as string[] | undefined) ?? [],
		noDiscovery: args.flags.get("no-extensions") === true,
		virtualModules: VIRTUAL_MODULES,
		isHostPackage: (name) => HOST_PACKAGES.has(name),
	});
	for (const line of host.diagnostics) process.stderr.write(`${line}\n`);

	if (args.flags.get("help")) {
		const flags = [...host.flags].map(([name, { extension, flag }]) => ({
			name,
			type: flag.type,
			...(flag.description ? { description: flag.description } : {}),
			extensionPath: extension.entry.path,
		}));
		process.stdout.write(renderHelp(flags));
		return 0;
	}

	const specs = new Map<string, ExtensionFlagSpec>([...host.flags].map(([name, r]) => [name, { type: r.flag.type }]));
	const values = resolveExtensionFlags(args, specs);
	for (const [name, value] of values) host.flags.get(name)?.extension.handle.flagValues.set(name, value);

	const mode = args.flags.get("mode");
	if (mode !== undefined && mode !== "text" && mode !== "json" && mode !== "rpc") {
		throw new UserError(`Error: --mode must be text, json or rpc (got "${mode}")`);
	}
	if (mode === "json" || mode === "rpc") throw new UserError(`Error: --mode ${mode} is not available yet`);
	const print = args.flags.get("print") === true || !process.stdin.isTTY || !process.stdout.isTTY;
	if (!print) throw new UserError('Error: the interactive terminal UI is not available yet; use pi -p "prompt"');
	return runPrintMode({ cwd, messages: args.messages, findCommand: (name) => host.findCommand(name) });
}
