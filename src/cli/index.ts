/**
 * The command line: parse options, start the extension host, give extension flags their values, then hand over to
 * a mode. Returns the exit code; user errors are thrown as `UserError` and printed by `main`.
 */
import { getAgentDir, SettingsStore } from "../config/index.ts";
import { reportExtensionExits } from "../extensions/index.ts";
import { exportSessionFileHtml, type StdoutTakeover, takeOverStdout } from "../modes/index.ts";
import { startExtensionHost } from "../runtime/index.ts";
import {
	HOST_PACKAGES,
	loadInteractiveStyles,
	loadVirtualModules,
	type MainOptions,
	provideCliEntry,
} from "../sdk/index.ts";
import { SessionManager } from "../session/index.ts";
import { errorMessage, timing, UserError, VERSION, verboseVersion, writeStderr, writeStdout } from "../util/index.ts";
import { type ExtensionFlagSpec, parseArgs, resolveExtensionFlags } from "./args.ts";
import { debugRegistrationsRequested, renderRegistrationReports } from "./debug-registrations.ts";
import { renderHelp } from "./help.ts";
import { buildInputs, readFileArguments, readPipedStdin } from "./inputs.ts";
import { runInteractive } from "./interactive.ts";
import { renderModelList } from "./list-models.ts";
import { lazyInstaller } from "./package-installer.ts";
import { toPiArgs } from "./pi-args.ts";
import { runRpc } from "./rpc.ts";
import { runNonInteractive } from "./run.ts";
import { renderSessionList } from "./session-choice.ts";
import { createCredentials } from "./setup.ts";
import { decideTrust } from "./trust.ts";

/** Built-in commands of print and JSON modes (the terminal UI has many more). */
const PRINT_MODE_COMMANDS: ReadonlySet<string> = new Set(["compact", "reload", "llama"]);
/** Built-in commands of the interactive mode (extension commands of the same name are skipped). */
const INTERACTIVE_COMMANDS: ReadonlySet<string> = new Set(
	"settings model tree thinking scoped-models export import share bug copy name session changelog hotkeys fork clone trust login logout new compact resume reload quit llama".split(
		" ",
	),
);

/** pi's package commands (and `update`), handled before the usual arguments as pi does; loaded on first use. */
const PACKAGE_COMMANDS: ReadonlySet<string> = new Set(["install", "remove", "uninstall", "update", "list", "config"]);

const out = writeStdout;
const err = writeStderr;

// The SDK's `main` and `parseArgs` (pi's exports) are this command line.
provideCliEntry({ run: (argv, options) => main(argv, options), parseArgs: toPiArgs });

export async function main(argv: readonly string[], options: MainOptions = {}): Promise<number> {
	if (argv[0] !== undefined && PACKAGE_COMMANDS.has(argv[0])) {
		const [packages, update] = await Promise.all([import("./packages/index.ts"), import("./update/index.ts")]);
		const selfUpdate = update.selfUpdateRunner({ say: (line) => out(`${line}\n`) });
		return packages.runPackageCommand(
			argv,
			packages.defaultPackageDeps({ cwd: process.cwd(), agentDir: getAgentDir(), selfUpdate }),
		);
	}
	if (argv[0] === "login" || argv[0] === "logout") {
		return (await import("./login/index.ts")).runLoginCommand(argv, { agentDir: getAgentDir(), out, err });
	}
	const args = parseArgs(argv);
	if (args.flags.get("version")) {
		out(args.flags.get("verbose") === true ? verboseVersion() : `${VERSION}\n`);
		return 0;
	}
	const cwd = process.cwd();
	const exportFrom = args.flags.get("export");
	if (typeof exportFrom === "string") return exportHtml(exportFrom, args.messages[0], cwd);
	const agentDir = getAgentDir();
	timing("args parsed");
	const store = new SettingsStore({ agentDir, cwd, projectTrusted: false });
	const shown = new Set(store.diagnostics);
	for (const line of shown) err(`${line}\n`);
	timing("settings read");
	// In RPC mode stdout carries only the protocol from the moment extension code can run (a console.log at the
	// top of an extension module or in its factory goes to stderr, as writes in its handlers do).
	let rpcStdout: StdoutTakeover | undefined;
	const rpc = args.flags.get("mode") === "rpc";
	const interactive =
		!rpc &&
		args.flags.get("mode") === undefined &&
		args.flags.get("print") !== true &&
		process.stdin.isTTY === true &&
		process.stdout.isTTY === true;
	const host = await startExtensionHost({
		settingsFiles: store.files.filter((f) => f.scope === "global"),
		cwd,
		agentDir,
		cliPaths: (args.flags.get("extension") as string[] | undefined) ?? [],
		noDiscovery: args.flags.get("no-extensions") === true,
		...(options.extensionFactories ? { factories: options.extensionFactories } : {}),
		virtualModules: loadVirtualModules,
		isHostPackage: (name) => HOST_PACKAGES.has(name),
		builtinCommands: rpc ? new Set() : interactive ? INTERACTIVE_COMMANDS : PRINT_MODE_COMMANDS,
		packages: { installer: lazyInstaller({ agentDir, cwd, store, err }) },
		beforeFirstLoad: () => {
			reportExtensionExits();
			if (rpc) rpcStdout ??= takeOverStdout({ guardProcessStdout: true });
		},
	});
	for (const line of host.diagnostics) err(`${line}\n`);

	timing("extensions loaded");
	const mode = args.flags.get("mode");
	if (mode !== undefined && mode !== "text" && mode !== "json" && mode !== "rpc") {
		throw new UserError(`Error: --mode must be text, json or rpc (got "${mode}")`);
	}
	const json = mode === "json";
	const trusted = await decideTrust({
		cwd,
		agentDir,
		args,
		host,
		store,
		mode: interactive ? "interactive" : json ? "json" : "print",
		warn: err,
		...(interactive
			? {
					ask: async () => {
						const [ui] = await Promise.all([import("../modes/interactive/index.ts"), loadInteractiveStyles()]);
						return ui.askProjectTrustAtStartup(cwd);
					},
				}
			: {}),
	});
	if (trusted) {
		store.setProjectTrusted(true);
		for (const line of store.diagnostics) if (!shown.has(line)) err(`${line}\n`);
		const lines = await host.loadProjectExtensions(store.files.filter((f) => f.scope === "project"));
		for (const line of lines) err(`${line}\n`);
	}
	if (debugRegistrationsRequested()) {
		err(renderRegistrationReports(host));
		return 0;
	}
	const settings = store.merged;

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

	timing("trust decided");
	const credentials = createCredentials(agentDir, (line) => err(`${line}\n`));
	timing("credentials and models");
	const listModels = args.flags.get("list-models");
	if (listModels !== undefined) {
		out(renderModelList(credentials.registry.getAvailable(), typeof listModels === "string" ? listModels : undefined));
		return 0;
	}

	if (mode === "rpc") {
		return runRpc({ cwd, agentDir, args, settings, store, host, credentials, trusted, err, stdout: rpcStdout });
	}
	if (args.flags.get("resume") === true && !interactive) {
		out(await renderSessionList({ cwd, agentDir, flags: args.flags, ...sessionDirSetting(settings) }));
		return 0;
	}
	if (interactive) {
		const inputs = buildInputs(undefined, await readFileArguments(args.files, cwd), args.messages);
		const verbose = args.flags.get("verbose") === true;
		return runInteractive({ cwd, agentDir, args, settings, store, host, credentials, trusted, err, inputs, verbose });
	}
	const stdin = await readPipedStdin();
	const inputs = buildInputs(stdin, await readFileArguments(args.files, cwd), args.messages);
	if (inputs.length === 0) throw new UserError('Error: no prompt given (pi -p "your prompt")');
	return runNonInteractive({
		cwd,
		agentDir,
		args,
		settings,
		store,
		host,
		credentials,
		trusted,
		inputs,
		json,
		out,
		err,
	});
}

function sessionDirSetting(settings: { sessionDir?: string }): { settingsSessionDir?: string } {
	return settings.sessionDir ? { settingsSessionDir: settings.sessionDir } : {};
}

/** `pi --export <session file> [output]`: writes the session's HTML page and exits, as pi does. */
function exportHtml(file: string, output: string | undefined, cwd: string): number {
	let path: string;
	try {
		path = exportSessionFileHtml(file, (p) => SessionManager.open(p, undefined, undefined, { readOnly: true }), {
			cwd,
			...(output ? { outputPath: output } : {}),
		});
	} catch (error) {
		throw new UserError(`Error: ${errorMessage(error)}`);
	}
	out(`Exported to: ${path}\n`);
	return 0;
}
