/**
 * In RPC mode stdout carries the protocol only. `takeOverStdout` keeps a private writer to the real stdout and
 * sends everything else that would reach it — `process.stdout.write` and the console methods that print to stdout
 * (Bun's console does not go through `process.stdout.write`) — to stderr, as pi does, so an extension's
 * `console.log` can neither corrupt nor impersonate protocol records. `restore` puts everything back.
 */
import { Console } from "node:console";

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

export function takeOverStdout(): StdoutTakeover {
	const stdout = process.stdout;
	const realWrite = stdout.write;
	const raw = realWrite.bind(stdout);
	const saved = new Map(STDOUT_CONSOLE_METHODS.map((name) => [name, console[name]]));
	const toStderr = new Console({ stdout: process.stderr, stderr: process.stderr }) as unknown as ConsoleMethods;
	const target = console as unknown as ConsoleMethods;
	for (const name of STDOUT_CONSOLE_METHODS) target[name] = toStderr[name].bind(toStderr);
	stdout.write = ((...args: Parameters<typeof process.stderr.write>) =>
		process.stderr.write(...args)) as typeof stdout.write;
	return {
		write: (text) => {
			raw(text);
		},
		restore: () => {
			stdout.write = realWrite;
			for (const [name, method] of saved) target[name] = method as ConsoleMethods[typeof name];
		},
	};
}
