/**
 * An agent (our binary, or pi 0.87.1 under Node) in RPC mode against the mock LLM, driven one scripted tool call at
 * a time: the mock answers a prompt with the tool call, then with "done", and records the request that carries the
 * tool result back to the model. Each call reports what the model got, how long the tool took (start to end event),
 * and the agent's peak RSS growth while it ran (VmHWM, reset before the call, read from /proc). Used by the
 * reliability tests and by `scripts/bench/reliability/tools.ts`.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { JsonlLineSplitter } from "../../src/modes/rpc/index.ts";
import { writeMockModels } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { type MockLlmServer, type MockToolCall, startMockLlm } from "../support/mock-llm/index.ts";

export interface ToolCallOutcome {
	/** The tool result text as the model got it (from the next request; from the end event after an abort). */
	text: string;
	isError: boolean;
	/** From `tool_execution_start` to `tool_execution_end`. */
	ms: number;
	/** From sending `abort` to `tool_execution_end` (when the call was aborted). */
	afterAbortMs?: number;
	/** Peak resident memory during the call minus resident memory just before it (MB); NaN off Linux. */
	rssGrowthMb: number;
}

export interface ToolAgent {
	readonly pid: number;
	readonly cwd: string;
	readonly server: MockLlmServer;
	/**
	 * Runs one tool call; with `abortAfterMs`, sends RPC `abort` that long after the tool started. Rejects when the
	 * tool gives no result within `timeoutMs`, or when the agent's RSS passes `rssLimitMb` (the agent is then killed).
	 */
	call(call: MockToolCall, options?: CallOptions): Promise<ToolCallOutcome>;
	/** Ends the agent (stdin EOF, SIGKILL after 3 s, or at once with `kill`) and the mock. */
	stop(kill?: boolean): Promise<void>;
}

export interface CallOptions {
	abortAfterMs?: number;
	timeoutMs?: number;
	rssLimitMb?: number;
}

/** No network beyond loopback: proxies that go nowhere. */
const OFFLINE = {
	HTTP_PROXY: "http://127.0.0.1:9",
	HTTPS_PROXY: "http://127.0.0.1:9",
	NO_PROXY: "127.0.0.1,localhost",
};

function status(pid: number, field: "VmRSS" | "VmHWM"): number {
	try {
		const match = readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
		return match ? Number(match[1]) / 1024 : Number.NaN;
	} catch {
		// Not Linux, or the process is gone.
		return Number.NaN;
	}
}

/** Resets the peak RSS counter of `pid` (Linux: writing 5 to clear_refs); false when that is not possible. */
function resetPeak(pid: number): boolean {
	try {
		writeFileSync(`/proc/${pid}/clear_refs`, "5");
		return true;
	} catch {
		// Older kernel or not permitted: the caller samples instead.
		return false;
	}
}

/** The text and error flag of the last tool result in an Anthropic-format request body. */
function toolResultOf(body: any): { text: string; isError: boolean } | undefined {
	const messages: any[] = body?.messages ?? [];
	for (let i = messages.length - 1; i >= 0; i--) {
		const content = messages[i]?.content;
		if (!Array.isArray(content)) continue;
		const block = content.findLast((b: any) => b?.type === "tool_result");
		if (!block) continue;
		const text =
			typeof block.content === "string"
				? block.content
				: (block.content ?? []).map((c: any) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
		return { text, isError: block.is_error === true };
	}
	return undefined;
}

function textOfResult(result: any): string {
	return (result?.content ?? []).map((c: any) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
}

/** Starts `command` (the program and its leading arguments, e.g. `[dist/pi]` or `[node, cli.js]`) in RPC mode. */
export async function startToolAgent(command: string[], options: { cwd?: string } = {}): Promise<ToolAgent> {
	const server = startMockLlm({ idleTimeoutMs: 600_000 });
	const home = makeTempDir("pi-rel-tools-home-");
	const cwd = options.cwd ?? makeTempDir("pi-rel-tools-cwd-");
	writeMockModels(home, server.url);
	const env: Record<string, string> = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (value !== undefined && !key.startsWith("PI_") && !key.endsWith("_API_KEY")) env[key] = value;
	}
	const tmp = join(home, ".tmp");
	mkdirSync(tmp, { recursive: true });
	Object.assign(env, OFFLINE, { HOME: home, TMPDIR: tmp, PI_CODING_AGENT_DIR: join(home, ".pi/agent") });
	const child = Bun.spawn([...command, "--mode", "rpc", "--provider", "mock", "--model", "mock-1"], {
		cwd,
		env,
		stdin: "pipe",
		stdout: "pipe",
		stderr: "ignore",
	});
	const records: Record<string, any>[] = [];
	const splitter = new JsonlLineSplitter((line) => {
		try {
			records.push({ ...JSON.parse(line), receivedAt: performance.now() });
		} catch {
			// A stray non-JSON line: not an event.
		}
	});
	void (async () => {
		for await (const chunk of child.stdout) splitter.push(chunk);
		splitter.end();
	})();
	const send = (record: object) => {
		child.stdin.write(`${JSON.stringify(record)}\n`);
		child.stdin.flush();
	};
	const waitFor = async (match: (r: Record<string, any>) => boolean, from: number, ms: number) => {
		const end = Date.now() + ms;
		for (;;) {
			const found = records.slice(from).find(match);
			if (found) return found;
			if (Date.now() > end) throw new Error(`nothing within ${ms} ms`);
			if (child.exitCode !== null) throw new Error(`the agent exited (${child.exitCode})`);
			await Bun.sleep(5);
		}
	};
	send({ id: "ready", type: "get_state" });
	await waitFor((r) => r.type === "response" && r.id === "ready", 0, 30_000);

	let turn = 0;
	return {
		pid: child.pid,
		cwd,
		server,
		async call(call, { abortAfterMs, timeoutMs = 120_000, rssLimitMb = 2048 } = {}) {
			turn++;
			const from = records.length;
			const requestsBefore = server.requests.length;
			server.push({ kind: "reply", toolCalls: [{ id: `call_${turn}`, ...call }] });
			if (abortAfterMs === undefined) server.push({ kind: "reply", text: "done" });
			const baseline = status(child.pid, "VmRSS");
			const canReset = resetPeak(child.pid);
			let sampledPeak = baseline;
			let overLimit = false;
			const sampler = setInterval(() => {
				sampledPeak = Math.max(sampledPeak, status(child.pid, "VmRSS"));
				if (sampledPeak - baseline > rssLimitMb && !overLimit) {
					overLimit = true;
					child.kill("SIGKILL");
				}
			}, 20);
			try {
				send({ id: `p${turn}`, type: "prompt", message: `run tool call ${turn}` });
				const start = await waitFor((r) => r.type === "tool_execution_start", from, 30_000);
				const startIndex = records.indexOf(start);
				let abortedAt: number | undefined;
				if (abortAfterMs !== undefined) {
					await Bun.sleep(abortAfterMs);
					abortedAt = performance.now();
					send({ id: `a${turn}`, type: "abort" });
				}
				const end = await waitFor((r) => r.type === "tool_execution_end", startIndex, timeoutMs).catch((error) => {
					throw overLimit ? new Error(`RSS grew past ${rssLimitMb} MB: agent killed`) : error;
				});
				const ms = end.receivedAt - start.receivedAt;
				await waitFor((r) => r.type === "agent_end", startIndex, 30_000);
				const peak = Math.max(sampledPeak, canReset ? status(child.pid, "VmHWM") : sampledPeak);
				const request = server.requests.slice(requestsBefore + 1).at(-1);
				const fromModel = request ? toolResultOf(request.body) : undefined;
				return {
					text: fromModel?.text ?? textOfResult(end.result),
					isError: fromModel?.isError ?? end.isError === true,
					ms,
					...(abortedAt !== undefined ? { afterAbortMs: end.receivedAt - abortedAt } : {}),
					rssGrowthMb: peak - baseline,
				};
			} finally {
				clearInterval(sampler);
			}
		},
		async stop(kill = false) {
			if (kill) child.kill("SIGKILL");
			else child.stdin.end();
			const exited = await Promise.race([child.exited, Bun.sleep(3_000).then(() => undefined)]);
			if (exited === undefined) {
				child.kill("SIGKILL");
				await child.exited;
			}
			server.stop();
		},
	};
}
