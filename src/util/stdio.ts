import { fstatSync } from "./fs.ts";

/**
 * Standard input and output without Node's stream layer. Under Bun, the first touch of `process.stdout`,
 * `process.stderr` or `process.stdin` builds Node-compatible stream objects, which costs ~30 ms per process start
 * on a slow machine (measured on the compiled binary), more than the rest of `pi --version`. Bun's own file sinks
 * write the same bytes to the same file descriptors. Every write is flushed at once, so output keeps its order
 * with what extensions print through `console`; `flushStdio()` waits for anything a full pipe held back. Under
 * Node (SDK use) the process streams are used.
 */

interface Sink {
	write(text: string): void;
	/** Resolves once everything written has reached the descriptor. */
	drain(): Promise<void>;
}

type Later = number | Promise<number>;

function bunSink(file: { writer(): { write(chunk: string): Later; flush(): Later } }): Sink {
	const writer = file.writer();
	let pending: Promise<unknown> = Promise.resolve();
	const hold = (result: Later) => {
		if (result instanceof Promise) pending = pending.then(() => result);
	};
	return {
		write(text) {
			hold(writer.write(text));
			hold(writer.flush());
		},
		drain: () => pending.then(() => undefined),
	};
}

function nodeSink(stream: NodeJS.WriteStream): Sink {
	return {
		write(text) {
			stream.write(text);
		},
		drain: () =>
			new Promise((resolve) => {
				if (stream.writableNeedDrain) stream.once("drain", () => resolve());
				else resolve();
			}),
	};
}

let stdout: Sink | undefined;
let stderr: Sink | undefined;

const isBun = typeof Bun !== "undefined";

export function writeStdout(text: string): void {
	stdout ??= isBun ? bunSink(Bun.stdout) : nodeSink(process.stdout);
	stdout.write(text);
}

export function writeStderr(text: string): void {
	stderr ??= isBun ? bunSink(Bun.stderr) : nodeSink(process.stderr);
	stderr.write(text);
}

/** Waits until everything written so far has left the process (call before exiting). */
export async function flushStdio(): Promise<void> {
	await Promise.all([stdout?.drain(), stderr?.drain()]);
}

/**
 * All of standard input as text when it is a pipe, a file or a socket (`echo x | pi -p`); undefined for a
 * terminal or a character device such as /dev/null, which are never read.
 */
export async function readStdinIfPiped(): Promise<string | undefined> {
	let piped: boolean;
	try {
		const stat = fstatSync(0);
		piped = stat.isFIFO() || stat.isFile() || stat.isSocket();
	} catch {
		// No standard input at all (closed descriptor): nothing to read.
		return undefined;
	}
	if (!piped) return undefined;
	let text: string;
	if (isBun) text = await Bun.stdin.text();
	else {
		const chunks: Buffer[] = [];
		for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
		text = Buffer.concat(chunks).toString("utf8");
	}
	return text === "" ? undefined : text;
}
