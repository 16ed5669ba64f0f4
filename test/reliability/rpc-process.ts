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
	/** Every record read from stdout so far, in order. */
	readonly records: Record<string, any>[];
	readonly stderr: () => string;
	send(record: object | string): void;
	/** Resolves with the first record (from `from` on) matching `match`, or rejects after `ms`. */
	waitFor(match: (record: Record<string, any>) => boolean, ms?: number, from?: number): Promise<Record<string, any>>;
	/** Closes stdin. */
	end(): void;
	/** Resolves with the exit code, or `undefined` if the process is still running after `ms` (then it is killed). */
	exit(ms: number): Promise<number | undefined>;
}

export interface RpcProcessOptions {
	mockUrl: string;
	files?: Record<string, string>;
	args?: string[];
	home?: string;
	cwd?: string;
	/** Another build of the binary than `dist/pi`. */
	binary?: string;
}

export function startRpcProcess(o: RpcProcessOptions): RpcProcess {
	const home = o.home ?? makeTempDir("pi-rel-home-");
	writeMockModels(home, o.mockUrl);
	const cwd = o.cwd ?? makeTempDir("pi-rel-cwd-");
	writeTree(cwd, o.files ?? {});
	const env: Record<string, string> = {
		PATH: process.env.PATH ?? "/usr/bin:/bin",
		HOME: home,
		TMPDIR: join(home, ".tmp"),
		PI_CODING_AGENT_DIR: join(home, ".pi/agent"),
	};
	writeTree(home, { ".tmp/.keep": "" });
	const child = Bun.spawn([o.binary ?? ensureBinary(), "--mode", "rpc", ...(o.args ?? [])], {
		cwd,
		env,
		stdin: "pipe",
		stdout: "pipe",
		stderr: "pipe",
	});
	const records: Record<string, any>[] = [];
	const splitter = new JsonlLineSplitter((line) => {
		try {
			records.push(JSON.parse(line));
		} catch {
			records.push({ type: "<not json>", line });
		}
	});
	void (async () => {
		for await (const chunk of child.stdout) splitter.push(chunk);
		splitter.end();
	})();
	let stderr = "";
	void (async () => {
		const decoder = new TextDecoder();
		for await (const chunk of child.stderr) stderr += decoder.decode(chunk, { stream: true });
	})();
	return {
		home,
		cwd,
		records,
		stderr: () => stderr,
		send(record) {
			child.stdin.write(typeof record === "string" ? record : `${JSON.stringify(record)}\n`);
			child.stdin.flush();
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
			return code;
		},
	};
}
