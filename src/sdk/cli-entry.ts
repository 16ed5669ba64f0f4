/**
 * pi's `main(args, options?)` and `parseArgs(args)` as SDK exports. The command line sits above the SDK in the
 * layer order, so it hands itself in here when it loads (`provideCliEntry`, from `cli/index.ts`); in the binary
 * that happens before any extension can import the SDK. A process that never loaded the CLI gets a clear error.
 */
import type { InlineExtension } from "../runtime/index.ts";
import { UserError, writeStderr } from "../util/index.ts";

/** pi's `MainOptions`. */
export interface MainOptions {
	extensionFactories?: InlineExtension[];
}

export interface PiArgsDiagnostic {
	type: "warning" | "error";
	message: string;
}

/** pi's `Args` (dist/cli/args.d.ts). */
export interface PiArgs {
	provider?: string;
	model?: string;
	apiKey?: string;
	systemPrompt?: string;
	appendSystemPrompt?: string[];
	thinking?: string;
	continue?: boolean;
	resume?: boolean;
	help?: boolean;
	version?: boolean;
	mode?: "text" | "json" | "rpc";
	name?: string;
	noSession?: boolean;
	session?: string;
	sessionId?: string;
	fork?: string;
	sessionDir?: string;
	models?: string[];
	tools?: string[];
	excludeTools?: string[];
	noTools?: boolean;
	noBuiltinTools?: boolean;
	extensions?: string[];
	noExtensions?: boolean;
	print?: boolean;
	export?: string;
	noSkills?: boolean;
	skills?: string[];
	promptTemplates?: string[];
	noPromptTemplates?: boolean;
	themes?: string[];
	useTheme?: string;
	noThemes?: boolean;
	noContextFiles?: boolean;
	listModels?: string | true;
	offline?: boolean;
	tuiMode?: "regular" | "fullscreen";
	verbose?: boolean;
	projectTrustOverride?: boolean;
	messages: string[];
	fileArgs: string[];
	unknownFlags: Map<string, boolean | string>;
	diagnostics: PiArgsDiagnostic[];
}

/** What the command line provides: its run (exit code; user errors thrown) and pi's `Args` reading. */
export interface CliEntry {
	run(argv: readonly string[], options?: MainOptions): Promise<number>;
	parseArgs(argv: readonly string[]): PiArgs;
}

let entry: CliEntry | undefined;

export function provideCliEntry(cli: CliEntry): void {
	entry = cli;
}

function cli(): CliEntry {
	if (!entry) throw new Error("pi's command line is not loaded in this process (import it before calling main)");
	return entry;
}

/**
 * Runs the command line as pi does with these arguments (not `process.argv`). Like pi's, it resolves when the
 * run is over and reports failure through `process.exitCode`; it never ends the process itself.
 */
export async function main(args: string[], options?: MainOptions): Promise<void> {
	try {
		const code = await cli().run(args, options);
		if (code !== 0) process.exitCode = code;
	} catch (error) {
		if (!(error instanceof UserError)) throw error;
		writeStderr(`${error.message}\n`);
		process.exitCode = error.exitCode;
	}
}

/** pi's `parseArgs(args)`: its `Args` object (fields, messages, fileArgs, unknownFlags, diagnostics). */
export function parseArgs(args: string[]): PiArgs {
	return cli().parseArgs(args);
}
