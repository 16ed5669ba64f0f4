/**
 * The compiled binary in RPC mode as a raw child process: records every stdout line as parsed JSON, writes lines
 * to its stdin, and can close stdin (EOF) and time the exit. Lower level than `RpcClient`, so a test sees exactly
 * what a client reads and when.
 */
import { join } from "node:path";
import { JsonlLineSplitter } from "../../src/modes/rpc/index.ts";
import { ensureBinary, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";

export interface RpcProcess {
	readonly home: string;
	readonly cwd: string;
	readonly pid: number;
	/** Every record read from stdout so far, in order. */
	readonly records: Record<string, any>[];
	readonly stderr: () => string;
	/** A record (sent as one JSON line), or raw text or bytes as they are. */
	send(record: object | string | Uint8Array): void;
	/** Resolves with the first record (from `from` on) matching `match`, or rejects after `ms`. */
	waitFor(match: (record: Record<string, any>) => boolean, ms?: number, from?: number): Promise<Record<string, any>>;
	/** Closes stdin. */
	end(): void;
	/**
	 * Resolves with the exit code, or `undefined` if the process is still running after `ms` (then it is killed), once
	 * its stdout and stderr were read to the end.
	 */
	exit(ms: number): Promise<number | undefined>;
}

export interface RpcProcessOptions {
	mockUrl: string;
	files?: Record<string, string>;
	args?: string[];
	home?: string;
	cwd?: string;
	/** Files under HOME (paths relative to it); when given, no mock models.json is written for you. */
	homeFiles?: Record<string, string>;
	/** The command instead of our binary, e.g. pi 0.87.1 as `[node, cli]`. */
	command?: string[];
	/** Extra environment variables. */
	env?: Record<string, string>;
}

/** A child in RPC mode with its output being read (see `spawnRpcChild`). */
export interface RpcChild {
	child: Bun.Subprocess<"pipe", "pipe", "pipe">;
	/** What it wrote to stderr (the last `stderrLimit` characters). */
	stderr(): string;
	/** Settle once stdout (every line handed over) and stderr are read to the end. */
	stdoutDone: Promise<void>;
	stderrDone: Promise<void>;
}

/**
 * `command --mode rpc args` with HOME, TMPDIR and the agent dir in `home` (and `env` over them), as a client runs
 * it: each stdout line goes to `onRecord` parsed (a line that is not JSON as `{ type: "<not json>", line }`).
 */
export function spawnRpcChild(
	command: string[],
	args: string[],
	where: { home: string; cwd: string; env?: Record<string, string> },
	onRecord: (record: Record<string, any>) => void,
	stderrLimit = Number.POSITIVE_INFINITY,
): RpcChild {
	const { home, cwd } = where;
	const env: Record<string, string> = {
		PATH: process.env.PATH ?? "/usr/bin:/bin",
		HOME: home,
		TMPDIR: join(home, ".tmp"),
		PI_CODING_AGENT_DIR: join(home, ".pi/agent"),
		...where.env,
	};
	const child = Bun.spawn([...command, "--mode", "rpc", ...args], {
		cwd,
		env,
		stdin: "pipe",
		stdout: "pipe",
		stderr: "pipe",
	});
	const splitter = new JsonlLineSplitter((line) => {
		let record: Record<string, any>;
		try {
			record = JSON.parse(line);
		} catch {
			record = { type: "<not json>", line };
		}
		onRecord(record);
	});
	const stdoutDone = (async () => {
		for await (const chunk of child.stdout) splitter.push(chunk);
		splitter.end();
	})();
	let stderr = "";
	const stderrDone = (async () => {
		const decoder = new TextDecoder();
		for await (const chunk of child.stderr) {
			stderr += decoder.decode(chunk, { stream: true });
			if (stderr.length > stderrLimit) stderr = stderr.slice(-stderrLimit);
		}
	})();
	return { child, stderr: () => stderr, stdoutDone, stderrDone };
}

export function startRpcProcess(o: RpcProcessOptions): RpcProcess {
	const home = o.home ?? makeTempDir("pi-rel-home-");
	if (o.homeFiles) writeTree(home, o.homeFiles);
	else writeMockModels(home, o.mockUrl);
	const cwd = o.cwd ?? makeTempDir("pi-rel-cwd-");
	writeTree(cwd, o.files ?? {});
	writeTree(home, { ".tmp/.keep": "" });
	const records: Record<string, any>[] = [];
	const { child, stderr, stdoutDone, stderrDone } = spawnRpcChild(
		o.command ?? [ensureBinary()],
		o.args ?? [],
		{ home, cwd, ...(o.env ? { env: o.env } : {}) },
		(record) => records.push(record),
	);
	return {
		home,
		cwd,
		pid: child.pid,
		records,
		stderr,
		send(record) {
			// A process that already exited (the case under test may end it) just does not read what follows.
			try {
				child.stdin.write(
					typeof record === "string" || record instanceof Uint8Array ? record : `${JSON.stringify(record)}\n`,
				);
				void Promise.resolve(child.stdin.flush()).catch(() => undefined);
			} catch {}
		},
		async waitFor(match, ms = 10_000, from = 0) {
			const end = Date.now() + ms;
			for (;;) {
				const found = records.slice(from).find(match);
				if (found) return found;
				if (Date.now() > end) {
					throw new Error(`no matching record within ${ms} ms; seen: ${records.map((r) => r.type).join(", ")}`);
				}
				await Bun.sleep(5);
			}
		},
		end() {
			child.stdin.end();
		},
		async exit(ms) {
			const code = await Promise.race([child.exited, Bun.sleep(ms).then(() => undefined)]);
			if (code === undefined) {
				child.kill("SIGKILL");
				await child.exited;
			}
			// Everything the process wrote is read before the exit is reported (a child holding the pipes open is
			// not waited for beyond a second).
			await Promise.race([Promise.allSettled([stdoutDone, stderrDone]), Bun.sleep(1_000)]);
			return code;
		},
	};
}
