/**
 * The soak run (issue 23 item 8), shared by `soak.test.ts` and the reliability bench: one pi process in RPC mode
 * against the mock LLM, prompts sent one after another. Every turn the model calls a tool (bash `echo` or `read`
 * of a small file), gets its result and answers; every `turns / compactions` turns an RPC `compact` follows, the
 * last one after the last turn. From outside it samples RSS, threads, open descriptors and the `get_state` round
 * trip. At the end it takes the context (`get_messages`), closes stdin and times the exit, then opens the session
 * file in a second process (`--session`), compares its `get_messages` and measures its RSS: what the session tree
 * itself costs in memory, the one thing that may grow with turns. Runs our binary or pi 0.87.1 (`command` is the
 * argv before `--mode rpc`).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MockLlmServer, type MockStep, type RecordedRequest, startMockLlm } from "../support/mock-llm/index.ts";
import { type ProcSample, type SoakProc, sampleProc, slope, spawnRpc } from "./soak-process.ts";

export type SoakTool = "bash" | "read";

export interface SoakOptions {
	/** argv that starts pi, e.g. `[dist/pi]` or `[node, cli.js]`; `--mode rpc` is appended. */
	command: string[];
	turns: number;
	compactions: number;
	/** Turns between samples. */
	sampleEvery: number;
	/** Samples before this turn are warm-up and stay out of the slope. */
	warmupTurns: number;
	/** Extra environment. */
	env?: Record<string, string>;
	log?: (line: string) => void;
	/** Called after each sample with the process id (a probe, e.g. a heap dump on a signal while hunting a leak). */
	onSample?: (pid: number, turn: number) => Promise<void>;
	/** The tools the model calls, in turn (default bash and read). */
	tools?: readonly SoakTool[];
}

export interface SoakResult {
	turns: number;
	compactions: number;
	samples: ProcSample[];
	/** Least-squares slope of RSS over turns, samples after warm-up (KiB per turn). */
	slopeKiBPerTurn: number;
	/**
	 * What the session tree costs in memory per turn: RSS of a second process that loaded the whole session, less
	 * that of one that loaded the session as it was after turn 1, over the turns between.
	 */
	sessionKiBPerTurn: number;
	/** The session file's growth per turn (bytes). */
	sessionBytesPerTurn: number;
	msPerTurn: number;
	/** Wall and CPU time per turn over the first and the last tenth of the run (a turn must not get slower). */
	firstTenth: { wall: number; cpu: number };
	lastTenth: { wall: number; cpu: number };
	/** Time from stdin EOF to exit (ms); undefined when the process had to be killed after 10 s. */
	exitMs: number | undefined;
	exitCode: number | undefined;
	/** The second process's `get_messages` equals the first's after the last compaction. */
	reopenEqual: boolean;
	reopenDiff?: string;
	messagesAfterCompaction: number;
	stderr: string;
}

/** The file the `read` turns read. */
const NOTES = "notes.txt";

/**
 * Answers by what was asked: a summary request (no tools) gets a summary, a tool result an answer, anything else a
 * call of the next of `tools`.
 */
export function soakResponder(request: RecordedRequest, tools: readonly SoakTool[] = ["bash", "read"]): MockStep {
	const body = request.body as { tools?: unknown[]; messages?: { role: string; content: unknown }[] };
	const usage = { input: 50, output: 10 };
	if (!body.tools || body.tools.length === 0) {
		return { kind: "reply", text: "## Goal\nSoak.\n\n## Progress\n- turns ran", usage, chunkSize: 4096 };
	}
	const last = body.messages?.at(-1);
	const content = Array.isArray(last?.content) ? (last.content as { type: string }[]) : [];
	if (content.some((block) => block.type === "tool_result")) {
		return { kind: "reply", text: "Done.", usage, chunkSize: 4096 };
	}
	const n = body.messages?.length ?? 0;
	const call =
		tools[n % tools.length] === "bash"
			? { name: "bash", arguments: { command: `echo turn-${n}` } }
			: { name: "read", arguments: { path: NOTES } };
	return { kind: "reply", toolCalls: [call], usage, chunkSize: 4096 };
}

/** One prompt, then its `agent_end` (a prompt refused because the last run is still settling is sent again). */
async function turn(proc: SoakProc, i: number): Promise<void> {
	for (let attempt = 0; ; attempt++) {
		const ended = proc.next((r) => r.type === "agent_end", 30_000);
		try {
			await proc.request({ type: "prompt", message: `Turn ${i}: run the tool, then say done.` });
		} catch (error) {
			ended.catch(() => {});
			if (attempt < 20 && /stream|busy|running/i.test(String(error))) {
				await Bun.sleep(5);
				continue;
			}
			throw error;
		}
		await ended;
		return;
	}
}

/** A private HOME and project folder with the mock model, compaction by command only, and the file to read. */
function setUp(mockUrl: string): { home: string; cwd: string } {
	const home = mkdtempSync(join(tmpdir(), "pi-soak-home-"));
	const cwd = mkdtempSync(join(tmpdir(), "pi-soak-cwd-"));
	const agentDir = join(home, ".pi", "agent");
	mkdirSync(join(home, ".tmp"), { recursive: true });
	mkdirSync(agentDir, { recursive: true });
	const model = { id: "mock-1", contextWindow: 200_000, maxTokens: 4096 };
	const mock = { baseUrl: mockUrl, api: "anthropic-messages", apiKey: "mock-key", models: [model] };
	writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { mock } }));
	// Compactions come from RPC `compact` only, so the run is the same on every pi; little is kept after each.
	const settings = { compaction: { enabled: false, keepRecentTokens: 1000 }, retry: { enabled: false } };
	writeFileSync(join(agentDir, "settings.json"), JSON.stringify(settings));
	writeFileSync(join(cwd, NOTES), "soak notes: one line to read\n");
	return { home, cwd };
}

/** Runs the soak; its folders (a 10,000-turn session is 16 MB) are removed at the end. */
export async function runSoak(o: SoakOptions): Promise<SoakResult> {
	const server = startMockLlm({ respond: (request) => soakResponder(request, o.tools), idleTimeoutMs: 600_000 });
	const { home, cwd } = setUp(server.url);
	try {
		return await soak(o, home, cwd, server);
	} finally {
		server.stop();
		rmSync(home, { recursive: true, force: true });
		rmSync(cwd, { recursive: true, force: true });
	}
}

async function soak(o: SoakOptions, home: string, cwd: string, server: MockLlmServer): Promise<SoakResult> {
	const log = o.log ?? (() => {});
	const env = o.env ?? {};
	const args = ["--provider", "mock", "--model", "mock-1"];
	const first = spawnRpc(o.command, args, home, cwd, env);
	const samples: ProcSample[] = [];
	const every = Math.max(1, Math.floor(o.turns / o.compactions));
	let compactions = 0;
	let messages: unknown[] = [];
	let sessionFile = "";
	let sessionStartBytes = 0;
	const oneTurnFile = join(home, "one-turn.jsonl");
	const started = performance.now();
	try {
		await first.request({ type: "get_state" }, 60_000);
		samples.push(await sampleProc(first, 0));
		for (let i = 1; i <= o.turns; i++) {
			await turn(first, i);
			server.requests.length = 0;
			if (i === 1) {
				sessionFile = String((await first.request({ type: "get_state" })).data?.sessionFile ?? "");
				sessionStartBytes = sessionFile ? statSync(sessionFile).size : 0;
				if (sessionFile) copyFileSync(sessionFile, oneTurnFile);
			}
			if (i % every === 0 && compactions < o.compactions) {
				await first.request({ type: "compact" }, 60_000);
				compactions++;
				server.requests.length = 0;
			}
			if (i % o.sampleEvery === 0 || i === o.turns) {
				const s = await sampleProc(first, i);
				samples.push(s);
				await o.onSample?.(first.pid, i);
				const rate = ((performance.now() - started) / i).toFixed(1);
				log(
					`turn ${i}: RSS ${(s.rssKiB / 1024).toFixed(1)} MiB, fds ${s.fds}, threads ${s.threads}, lag ${s.lagMs.toFixed(1)} ms, ${compactions} compactions, ${rate} ms/turn`,
				);
			}
		}
		messages = (await first.request({ type: "get_messages" })).data?.messages ?? [];
	} catch (error) {
		first.end();
		await first.exit(2_000);
		throw error;
	}
	const msPerTurn = (performance.now() - started) / o.turns;
	const sessionBytes = sessionFile ? statSync(sessionFile).size : 0;
	const eof = performance.now();
	first.end();
	const exitCode = await first.exit(10_000);
	const exitMs = exitCode === undefined ? undefined : performance.now() - eof;

	const reopenFull = sessionFile
		? await reopen(o.command, [...args, "--session", sessionFile], home, cwd, env)
		: undefined;
	const reopenOne = sessionFile
		? await reopen(o.command, [...args, "--session", oneTurnFile], home, cwd, env)
		: undefined;
	const reopened = reopenFull?.messages ?? [];
	const a = JSON.stringify(messages);
	const b = JSON.stringify(reopened);
	const reopenEqual = sessionFile !== "" && messages.length > 0 && a === b;
	return {
		turns: o.turns,
		compactions,
		samples,
		slopeKiBPerTurn: windowSlope(samples, o.warmupTurns, o.turns),
		sessionKiBPerTurn:
			((reopenFull?.rssKiB ?? Number.NaN) - (reopenOne?.rssKiB ?? Number.NaN)) / Math.max(1, o.turns - 1),
		sessionBytesPerTurn: (sessionBytes - sessionStartBytes) / Math.max(1, o.turns - 1),
		msPerTurn,
		firstTenth: windowMsPerTurn(samples, 0, Math.ceil(o.turns / 10)),
		lastTenth: windowMsPerTurn(samples, o.turns - Math.floor(o.turns / 10), o.turns),
		exitMs,
		exitCode,
		reopenEqual,
		...(reopenEqual ? {} : { reopenDiff: firstDifference(a, b) }),
		messagesAfterCompaction: messages.length,
		stderr: first.stderr(),
	};
}

/** Wall and CPU time per turn between the samples nearest turns `from` and `to`. */
export function windowMsPerTurn(samples: ProcSample[], from: number, to: number): { wall: number; cpu: number } {
	const a = samples.find((s) => s.turn >= from);
	const b = [...samples].reverse().find((s) => s.turn <= to);
	if (!a || !b || b.turn <= a.turn) return { wall: Number.NaN, cpu: Number.NaN };
	return { wall: (b.atMs - a.atMs) / (b.turn - a.turn), cpu: (b.cpuMs - a.cpuMs) / (b.turn - a.turn) };
}

/** RSS slope (KiB/turn) over the samples of turns `from` to `to`. */
export function windowSlope(samples: ProcSample[], from: number, to: number): number {
	return slope(samples.filter((s) => s.turn >= from && s.turn <= to).map((s) => ({ x: s.turn, y: s.rssKiB })));
}

/** A second process on `args` (`--session <file>`): its context, and its RSS once the session is loaded. */
async function reopen(
	command: string[],
	args: string[],
	home: string,
	cwd: string,
	env: Record<string, string>,
): Promise<{ messages: unknown[]; rssKiB: number }> {
	const proc = spawnRpc(command, args, home, cwd, env);
	try {
		const messages = (await proc.request({ type: "get_messages" }, 60_000)).data?.messages ?? [];
		await Bun.sleep(500);
		return { messages, rssKiB: (await sampleProc(proc, 0)).rssKiB };
	} finally {
		proc.end();
		await proc.exit(10_000);
	}
}

function firstDifference(a: string, b: string): string {
	let i = 0;
	while (i < a.length && a[i] === b[i]) i++;
	return `lengths ${a.length}/${b.length}; first difference at ${i}: ${a.slice(i, i + 120)} | ${b.slice(i, i + 120)}`;
}

/** How much RSS may grow per turn: the session tree's own cost times the GC heap's headroom, plus 1 KiB. */
export const HEAP_HEADROOM = 4;
export const LEAK_KIB_PER_TURN = 1;

export interface SoakVerdict {
	/** Empty when the run holds. */
	failures: string[];
	allowanceKiBPerTurn: number;
	fdsStart: number;
	fdsEnd: number;
	threadsStart: number;
	threadsEnd: number;
}

/**
 * Judges a run. Memory is judged only when `judgeMemory` (the long run: a short one is still warming up). Start
 * figures are those of the first sample after a turn ran (the first bash, fetch and session write open what they
 * keep open).
 */
export function judgeSoak(r: SoakResult, judgeMemory: boolean): SoakVerdict {
	const failures: string[] = [];
	const first = r.samples.find((s) => s.turn > 0) ?? r.samples[0];
	const last = r.samples.at(-1);
	const allowance = LEAK_KIB_PER_TURN + HEAP_HEADROOM * Math.max(0, r.sessionKiBPerTurn);
	if (!first || !last)
		return {
			failures: ["no samples"],
			allowanceKiBPerTurn: allowance,
			fdsStart: 0,
			fdsEnd: 0,
			threadsStart: 0,
			threadsEnd: 0,
		};
	if (judgeMemory && !(r.slopeKiBPerTurn <= allowance)) {
		failures.push(`RSS grows ${r.slopeKiBPerTurn.toFixed(2)} KiB/turn, allowed ${allowance.toFixed(2)}`);
	}
	if (last.fds > first.fds + 2) failures.push(`open descriptors ${first.fds} → ${last.fds}`);
	if (last.threads > first.threads + 2) failures.push(`threads ${first.threads} → ${last.threads}`);
	const half = Math.floor(r.samples.length / 2);
	const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? 0;
	const early = median(r.samples.slice(1, half).map((s) => s.lagMs));
	const late = median(r.samples.slice(half).map((s) => s.lagMs));
	if (late > 2 * early + 5) failures.push(`get_state round trip ${early.toFixed(1)} → ${late.toFixed(1)} ms`);
	if (r.lastTenth.cpu > 2 * r.firstTenth.cpu + 2) {
		failures.push(
			`CPU per turn ${r.firstTenth.cpu.toFixed(1)} → ${r.lastTenth.cpu.toFixed(1)} ms (first → last tenth)`,
		);
	}
	if (r.exitCode !== 0 || r.exitMs === undefined || r.exitMs > 1_000) {
		failures.push(`after stdin EOF: exit ${r.exitCode} after ${r.exitMs?.toFixed(0) ?? "> 10000"} ms`);
	}
	if (r.compactions < 1) failures.push("no compaction ran");
	if (!r.reopenEqual) failures.push(`the reopened session differs: ${r.reopenDiff}`);
	return {
		failures,
		allowanceKiBPerTurn: allowance,
		fdsStart: first.fds,
		fdsEnd: last.fds,
		threadsStart: first.threads,
		threadsEnd: last.threads,
	};
}
