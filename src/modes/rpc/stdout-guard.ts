/**
 * In RPC mode stdout carries the protocol only. `takeOverStdout` keeps a private writer to the real stdout and
 * sends everything else that would reach it — `process.stdout.write` and the console methods that print to stdout
 * (Bun's console does not go through `process.stdout.write`) — to stderr, as pi does, so an extension's
 * `console.log` can neither corrupt nor impersonate protocol records. `restore` puts everything back.
 *
 * Under Bun, any property operation on `process.stdout` builds Node's stdout stream first (10–20 ms of start-up
 * on a slow machine), and pi's own code never writes to it: `guardProcessStdout` is false when no extension is
 * loaded, and then only the console methods are redirected.
 */
import { writeStdout } from "../../util/index.ts";

const STDOUT_CONSOLE_METHODS = [
	"log",
	"info",
	"debug",
	"dir",
	"dirxml",
	"table",
	"count",
	"countReset",
	"time",
	"timeEnd",
	"timeLog",
	"group",
	"groupCollapsed",
	"groupEnd",
] as const;

type ConsoleMethods = Record<(typeof STDOUT_CONSOLE_METHODS)[number], (...args: unknown[]) => void>;

export interface StdoutTakeover {
	/** Writes to the real stdout. */
	write(text: string): void;
	restore(): void;
}

export function takeOverStdout(
	options: { guardProcessStdout: boolean } = { guardProcessStdout: true },
): StdoutTakeover {
	const saved = new Map(STDOUT_CONSOLE_METHODS.map((name) => [name, console[name]]));
	const target = console as unknown as ConsoleMethods;
	// Built on first use: creating a Console over process.stderr costs start-up time most runs never need.
	let toStderr: ConsoleMethods | undefined;
	const redirected = (): ConsoleMethods => {
		const { Console } = process.getBuiltinModule("node:console");
		toStderr ??= new Console({ stdout: process.stderr, stderr: process.stderr }) as unknown as ConsoleMethods;
		return toStderr;
	};
	for (const name of STDOUT_CONSOLE_METHODS) target[name] = (...args: unknown[]) => redirected()[name](...args);
	const restoreConsole = () => {
		for (const [name, method] of saved) target[name] = method as ConsoleMethods[typeof name];
	};
	if (typeof Bun !== "undefined") {
		// Under Bun the protocol goes out through a file sink on descriptor 1, and `process.stdout` (built lazily,
		// at a cost) is never created: anyone who asks for it gets stderr. The override stays until exit.
		if (options.guardProcessStdout) {
			Object.defineProperty(process, "stdout", { configurable: true, enumerable: true, get: () => process.stderr });
		}
		return { write: writeStdout, restore: restoreConsole };
	}
	const stdout = process.stdout;
	const realWrite = stdout.write;
	const raw = realWrite.bind(stdout);
	stdout.write = ((...args: Parameters<typeof process.stderr.write>) =>
		process.stderr.write(...args)) as typeof stdout.write;
	return {
		write: (text) => {
			raw(text);
		},
		restore: () => {
			stdout.write = realWrite;
			restoreConsole();
		},
	};
}
