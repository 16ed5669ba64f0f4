/**
 * Entry point of the `pi` binary. `--version` answers before anything else is loaded; everything else goes through
 * the CLI. This is the one top-level catch: user errors print their one line, anything else is a bug and prints
 * its stack. Both exit non-zero.
 */
import {
	exitProcess,
	flushStdio,
	printTimings,
	timing,
	UserError,
	VERSION,
	verboseVersion,
	writeStderr,
	writeStdout,
} from "./util/index.ts";

const argv = process.argv.slice(2);

// `BUN_BE_BUN=1` turns this binary into Bun; only our own package-install child gets it (packages/npm-tree.ts).
// Inherited by a tool, bash or extension subprocess, it would make a nested `pi` run Bun instead of pi.
delete process.env.BUN_BE_BUN;

// The binary starts with JIT tier-up thresholds scaled up (scripts/build-binary.ts): start-up code runs once, and
// compiling it costs more than interpreting it. A run that lasts (RPC, a long turn) gets the normal policy back.
if (typeof Bun !== "undefined") setTimeout(() => Bun.unsafe.setJITPolicy?.(1), 1000).unref();

async function run(): Promise<number> {
	if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
		writeStdout(`${VERSION}\n`);
		return 0;
	}
	if (argv.length === 2 && argv.includes("--verbose") && (argv.includes("--version") || argv.includes("-v"))) {
		writeStdout(verboseVersion());
		return 0;
	}
	timing("entry module");
	const { main } = await import("./cli/index.ts");
	timing("cli modules loaded");
	return main(argv);
}

try {
	process.exitCode = await run();
} catch (error) {
	if (error instanceof UserError) {
		writeStderr(`${error.message}\n`);
		process.exitCode = error.exitCode;
	} else {
		writeStderr(`pi: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		process.exitCode = 2;
	}
}
timing("done");
printTimings();
// Output written through Bun's sinks may still wait on a full pipe; the process must not end before it leaves.
await flushStdio();
// The run is over: a timer or a handle an extension left behind must not keep the process alive.
exitProcess();
