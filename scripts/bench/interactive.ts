/**
 * Interactive mode benchmark, side by side (issue 19 item 8): pi 0.87.1 under Node 22 from the conformance cache and
 * our binary, each started in a pseudo-terminal (100×30, TERM=xterm-256color, a headless xterm answering its
 * queries) in its own temp HOME whose models.json points at the mock LLM on loopback (HTTP(S)_PROXY at a closed port,
 * so nothing leaves the machine). Runs are interleaved: every run does each case on both apps, alternating which goes
 * first. Case definitions are in interactive-cases.ts. Session files (pi's JSONL v3: markdown, code, thinking, tool
 * calls and results) are generated deterministically into a temp dir once per invocation.
 *
 * The table shows medians over the runs (keystrokes: median and p99 over all keys of all runs), the ratio pi ÷ ours
 * (higher = ours faster or cheaper) and the goal for ours. The machine's load drifts 20–40 %, so read the
 * ratio, with the absolute figures as context. Today our binary may lack the interactive mode: each case then says
 * "ours: not available (<the first line it printed>)".
 *
 * Usage: bun scripts/bench/interactive.ts [--runs N] [--keys N] [--only case[,case]] [--ours <binary>] [--tps N]
 *   (defaults: 3 runs, 200 keys, 100 tokens/s; --ours defaults to $PI_BENCH_BINARY, else dist/pi)
 *   cases: first-frame, keys-empty, keys-1000, keys-10000, stream-empty, stream-1000, resume-100mb (a prefix such as
 *   `keys` or `stream` selects all of its cases). KEEP=1 keeps the temp dir (sessions, HOMEs) and prints it.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startMockLlm } from "../../test/support/mock-llm/index.ts";
import { ensureRunnablePi } from "../conformance-cache.ts";
import { benchHome } from "./bench-home.ts";
import {
	firstFrame,
	keystrokes,
	resume,
	type Side,
	type Stage,
	type StreamSample,
	stream,
} from "./interactive-cases.ts";
import { type Results, renderTable } from "./interactive-report.ts";
import { replyMarkdown, writeSession } from "./interactive-sessions.ts";
import { BINARY } from "./lib.ts";
import { AppExited } from "./pty-app.ts";

const CASES = [
	"first-frame",
	"keys-empty",
	"keys-1000",
	"keys-10000",
	"stream-empty",
	"stream-1000",
	"resume-100mb",
] as const;
type Case = (typeof CASES)[number];

function option(name: string): string | undefined {
	const i = process.argv.indexOf(name);
	if (i === -1) return undefined;
	const value = process.argv[i + 1];
	if (value === undefined || value.startsWith("--")) fail(`${name} needs a value`);
	return value;
}
function count(name: string, fallback: number): number {
	const text = option(name);
	if (text === undefined) return fallback;
	const n = Number(text);
	if (!Number.isInteger(n) || n < 1) fail(`${name} must be a positive whole number, got "${text}"`);
	return n;
}
function fail(message: string): never {
	console.error(`interactive bench: ${message}`);
	process.exit(2);
}

const runs = count("--runs", 3);
const keyCount = count("--keys", 200);
const tokensPerSecond = count("--tps", 100);
const only = (option("--only") ?? "").split(",").filter(Boolean);
for (const want of only)
	if (!CASES.some((c) => c.startsWith(want))) fail(`--only: unknown case "${want}" (cases: ${CASES.join(", ")})`);
// A case's full name selects it alone (keys-1000 is not keys-10000); a shorter prefix selects all it starts.
const picks = (want: string, c: string) => (CASES.some((k) => k === want) ? c === want : c.startsWith(want));
const selected = CASES.filter((c) => only.length === 0 || only.some((want) => picks(want, c)));
const ours = resolve(option("--ours") ?? process.env.PI_BENCH_BINARY ?? BINARY);
const pi = ensureRunnablePi();
if ("error" in pi) fail(`pi 0.87.1 unavailable: ${pi.error}`);

const COLUMNS = 100;
const ROWS = 30;
const REPLY_TOKENS = 2000;
const CHARS_PER_TOKEN = 4;
const CHUNK = 8; // characters per streamed delta: 2 tokens
const MARKER = "END-OF-REPLY-7Q2X";
const SESSION_MARKER = "END-OF-SESSION-3K9W";

const root = mkdtempSync(join(tmpdir(), "pi-bench-interactive-"));
const server = startMockLlm({ idleTimeoutMs: 24 * 3600_000 });
try {
	const cwd = join(root, "work");
	mkdirSync(cwd);
	writeFileSync(join(cwd, "README.md"), "# demo project\n");
	const stage: Stage = {
		cwd,
		sessionMarker: SESSION_MARKER,
		columns: COLUMNS,
		rows: ROWS,
		args: ["--provider", "mock", "--model", "mock-1"],
	};
	const sides: Side[] = [
		{ name: "pi", cmd: [pi.node, pi.cli], env: sideEnv("pi") },
		{ name: "ours", cmd: [ours], env: sideEnv("ours") },
	];

	const sessions = join(root, "sessions");
	mkdirSync(sessions);
	const base = { cwd, provider: "mock", model: "mock-1", endMarker: SESSION_MARKER };
	const want = (prefix: string) => selected.some((c) => c.endsWith(prefix));
	const files = {
		m1000: join(sessions, "messages-1000.jsonl"),
		e10000: join(sessions, "entries-10000.jsonl"),
		big: join(sessions, "size-100mb.jsonl"),
	};
	const described: string[] = [];
	const describe = (label: string, s: ReturnType<typeof writeSession>) =>
		described.push(
			`${label}: ${s.entries} entries, ${s.messages} messages, ${s.compactions} compactions, ${(s.bytes / 1048576).toFixed(1)} MiB`,
		);
	if (want("1000")) describe("1,000 messages", writeSession(files.m1000, { ...base, messages: 1000 }));
	if (want("10000")) describe("10,000 entries", writeSession(files.e10000, { ...base, entries: 10_000 }));
	if (want("100mb"))
		describe(
			"100 MB",
			writeSession(files.big, { ...base, bytes: 100 * 1024 * 1024, compactEvery: 1000, compactKeep: 200 }),
		);

	const text = replyMarkdown(REPLY_TOKENS * CHARS_PER_TOKEN, MARKER);
	const plan = {
		server,
		text,
		marker: MARKER,
		chunkSize: CHUNK,
		frameDelayMs: ((CHUNK / CHARS_PER_TOKEN) * 1000) / tokensPerSecond,
		outputTokens: REPLY_TOKENS,
	};
	let copies = 0;
	const sessionCopy = () => {
		const copy = join(sessions, `copy-${++copies}.jsonl`);
		copyFileSync(files.m1000, copy);
		return copy;
	};

	const keys = (side: Side, session?: string) => keystrokes(side, stage, keyCount, session);
	const measure: Record<Case, (side: Side) => Promise<{ samples: number[]; first?: number } | StreamSample>> = {
		"first-frame": async (side) => ({ samples: [await firstFrame(side, stage)] }),
		"keys-empty": (side) => keys(side),
		"keys-1000": (side) => keys(side, files.m1000),
		"keys-10000": (side) => keys(side, files.e10000),
		"stream-empty": (side) => stream(side, stage, plan),
		"stream-1000": (side) => stream(side, stage, plan, sessionCopy()),
		"resume-100mb": async (side) => ({ samples: [await resume(side, stage, files.big)] }),
	};

	console.log(
		`interactive bench: ${runs} interleaved runs, ${keyCount} keys, a ${REPLY_TOKENS}-token reply at ${tokensPerSecond} tokens/s, ${COLUMNS}×${ROWS}; load ${loadavg()[0]?.toFixed(2)}`,
	);
	console.log(`pi: ${pi.node} ${pi.cli}\nours: ${ours}`);
	for (const line of described) console.log(`session ${line}`);

	const results: Results = { unavailable: {}, samples: {}, firsts: {}, streams: {} };
	if (!existsSync(ours))
		for (const name of selected) results.unavailable[`${name}/ours`] = `${ours} is missing; run npm run build`;
	// Warm-up: one start of each app (page cache), not counted.
	for (const side of sides)
		if (!results.unavailable[`${selected[0]}/${side.name}`]) await firstFrame(side, stage).catch(() => undefined);
	for (let run = 0; run < runs; run++) {
		for (const name of selected) {
			const order = run % 2 === 0 ? sides : [...sides].reverse();
			for (const side of order) {
				const key = `${name}/${side.name}`;
				if (results.unavailable[key]) continue;
				const started = performance.now();
				try {
					const sample = await measure[name](side);
					if ("samples" in sample) {
						results.samples[key] = [...(results.samples[key] ?? []), ...sample.samples];
						if (sample.first !== undefined) results.firsts[key] = [...(results.firsts[key] ?? []), sample.first];
					} else results.streams[key] = [...(results.streams[key] ?? []), sample];
					console.error(`run ${run + 1}/${runs} ${key}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
				} catch (error) {
					// Ours without an interactive mode exits at once: its first line says why. Any other failure (a
					// timeout, an unexpected screen) is reported for that case too, and the other cases still run.
					const reason =
						error instanceof AppExited ? error.reason : `failed: ${error instanceof Error ? error.message : error}`;
					results.unavailable[key] = reason.split("\n")[0] as string;
					console.error(`run ${run + 1}/${runs} ${key}: not available (${reason})`);
				}
			}
		}
	}
	console.log(`load after: ${loadavg()[0]?.toFixed(2)}\n`);
	console.log(renderTable(results, { cases: selected, tokens: REPLY_TOKENS }));
	console.log(
		`\nkeystroke: key written → end (ESC[?2026l) of the first frame begun after it that holds the key; stream: a token is ${CHARS_PER_TOKEN} characters of the reply, CPU is the app process's utime+stime from Enter to 300 ms after the reply's last line showed, over the wall time from Enter to the last frame; frames are synchronized-output blocks.`,
	);
} finally {
	server.stop();
	if (process.env.KEEP) console.log(`kept ${root}`);
	else rmSync(root, { recursive: true, force: true });
}

function sideEnv(name: string): Record<string, string> {
	return benchHome(root, name, server.url).env;
}
