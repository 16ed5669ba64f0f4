/**
 * Agent benchmark against the mock LLM (loopback, in this process), binary spawned per run:
 * - `pi -p hello`: wall time and peak RSS (targets ≤ 60 ms, ≤ 80 MiB);
 * - a 20-tool-call loop (21 requests, one `bash` call per turn): wall time, and what it adds over `-p hello`
 *   (target ≤ 40 ms over the mock's own time).
 * Median of N runs (default 15) after a warm-up. The machine's floors are measured alongside: a one-line Bun binary
 * compiled like pi (start-up), and 20 spawns of `bash -c true` (what the loop's bash calls cost by themselves).
 * Usage: npm run build && bun scripts/bench/agent.ts [runs]
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeCwd, uuidv7 } from "../../src/session/index.ts";
import { type MockStep, startMockLlm } from "../../test/support/mock-llm/index.ts";
import { BINARY, compileFloor, HELLO_FLOOR_SOURCE, median, tempHome } from "./lib.ts";

const runs = Number(process.argv[2] ?? 15);
/** PI_BENCH_BINARY measures another build (e.g. a before/after comparison) instead of dist/pi. */
const binary = process.env.PI_BENCH_BINARY ?? BINARY;
if (!existsSync(binary)) {
	console.error(`bench: ${binary} is missing; run npm run build first`);
	process.exit(1);
}
const server = startMockLlm();
const { home, dispose } = tempHome();
mkdirSync(join(home, ".pi", "agent"), { recursive: true });
writeFileSync(
	join(home, ".pi", "agent", "models.json"),
	JSON.stringify({
		providers: { mock: { baseUrl: server.url, api: "anthropic-messages", apiKey: "k", models: [{ id: "mock-1" }] } },
	}),
);
const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
/** PI_TIMING=1 is passed on: pi prints its start-up phases to stderr, shown for each run. */
if (process.env.PI_TIMING) env.PI_TIMING = process.env.PI_TIMING;

async function runOnce(args: string[], steps: MockStep[]): Promise<{ wallMs: number; rssMiB: number; mockMs: number }> {
	const first = server.requests.length;
	server.push(...steps);
	const started = performance.now();
	const proc = Bun.spawn([binary, ...args], { env, cwd: home, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
	const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
	await proc.exited;
	const wallMs = performance.now() - started;
	if (proc.exitCode !== 0) throw new Error(`pi ${args.join(" ")} exited ${proc.exitCode}: ${err}${out}`);
	if (process.env.PI_TIMING) process.stderr.write(`--- pi ${args.join(" ")}\n${err}`);
	const mockMs = server.requests.slice(first).reduce((sum, r) => sum + (r.serverMs ?? 0), 0);
	return { wallMs, rssMiB: (proc.resourceUsage()?.maxRSS ?? 0) / 1024 / 1024, mockMs };
}

const hello: MockStep[] = [{ kind: "reply", text: "Hello!" }];
const loop: MockStep[] = [
	...Array.from(
		{ length: 20 },
		(_, i): MockStep => ({
			kind: "reply",
			toolCalls: [{ id: `call_${i}`, name: "bash", arguments: { command: "true" } }],
		}),
	),
	{ kind: "reply", text: "done" },
];

/**
 * Median of `runs` runs after one warm-up. With `floor`, each run is paired with a run of the floor command right
 * before it, so both see the machine in the same state (its speed drifts by tens of percent over minutes), and
 * `beyond` is the median of the per-pair differences.
 */
async function measure(label: string, args: string[], steps: MockStep[], floor?: { cmd: string[]; count: number }) {
	await runOnce(args, steps);
	const samples = [];
	const floors: number[] = [];
	const beyond: number[] = [];
	for (let i = 0; i < runs; i++) {
		const floorMs = floor ? await spawnOnce(floor.cmd, floor.count) : 0;
		const sample = await runOnce(args, steps);
		samples.push(sample);
		floors.push(floorMs);
		beyond.push(sample.wallMs - floorMs);
	}
	const walls = samples.map((s) => s.wallMs).sort((a, b) => a - b);
	const rss = samples.map((s) => s.rssMiB).sort((a, b) => a - b);
	const mock = samples.map((s) => s.mockMs).sort((a, b) => a - b);
	return {
		label,
		wall: median(walls),
		min: walls[0] as number,
		rss: median(rss),
		mock: median(mock),
		floor: median(floors.sort((a, b) => a - b)),
		beyond: median(beyond.sort((a, b) => a - b)),
	};
}

/** 1000 small session files for `pi -c`: the newest must be found without reading them all. */
function writeSessions(count: number): void {
	const dir = join(home, ".pi", "agent", "sessions", encodeCwd(home));
	mkdirSync(dir, { recursive: true });
	const start = Date.now() - count * 1000;
	for (let i = 0; i < count; i++) {
		const id = uuidv7(start + i * 1000);
		const time = new Date(start + i * 1000).toISOString();
		const lines = [
			{ type: "session", version: 3, id, timestamp: time, cwd: home },
			{
				type: "message",
				id: "a0000001",
				parentId: null,
				timestamp: time,
				message: { role: "user", content: `session ${i}`, timestamp: 0 },
			},
		];
		writeFileSync(
			join(dir, `${time.replace(/[:.]/g, "-")}_${id}.jsonl`),
			`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
		);
	}
}

/** Wall time of `count` sequential runs of `cmd` (output piped, as pi's bash tool does). */
async function spawnOnce(cmd: string[], count: number): Promise<number> {
	const started = performance.now();
	for (let i = 0; i < count; i++) {
		const proc = Bun.spawn(cmd, { env, cwd: home, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
		await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
		await proc.exited;
	}
	return performance.now() - started;
}

/**
 * What `pi -c -p hello` cannot avoid, in a minimal program: list the session folder, stat every file for the
 * newest, read it, one request to the mock, print the reply.
 */
const CONTINUE_FLOOR_SOURCE = `
import { readdirSync, statSync } from "node:fs";
const [dir, url] = [process.argv[2], process.argv[3]];
let newest = "";
let mtime = -1;
for (const name of readdirSync(dir)) {
	if (!name.endsWith(".jsonl")) continue;
	const info = statSync(dir + "/" + name, { throwIfNoEntry: false });
	if (info && info.mtimeMs > mtime) [newest, mtime] = [name, info.mtimeMs];
}
const text = await Bun.file(dir + "/" + newest).text();
const headers = { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" };
const body = JSON.stringify({ model: "mock-1", max_tokens: 100, stream: true, messages: [{ role: "user", content: "hello " + text.length }] });
await (await fetch(url + "/v1/messages", { method: "POST", headers, body })).text();
const out = Bun.stdout.writer();
out.write("Hello!\\n");
out.flush();
`;

const floor = compileFloor("hello", HELLO_FLOOR_SOURCE);
const continueFloor = compileFloor("continue", CONTINUE_FLOOR_SOURCE);
try {
	const oneLine = { cmd: [floor.binary], count: 1 };
	await spawnOnce(oneLine.cmd, 1);
	const a = await measure("pi -p hello", ["-p", "hello"], hello, oneLine);
	const b = await measure("20 bash tool calls (21 requests)", ["-p", "go"], loop, {
		cmd: ["bash", "-c", "true"],
		count: 20,
	});
	writeSessions(1000);
	// The floor's request takes a scripted reply too: each pair pushes two.
	const sessions = join(home, ".pi", "agent", "sessions", encodeCwd(home));
	const c = await measure("pi -c -p hello (1000 session files)", ["-c", "-p", "hello"], [...hello, ...hello], {
		cmd: [continueFloor.binary, sessions, server.url],
		count: 1,
	});
	console.log(`median of ${runs} runs (after one warm-up); mock LLM on 127.0.0.1 in the bench process`);
	console.log("| case | median wall ms | min ms | median peak RSS MiB | mock's own time ms | target |");
	console.log("|---|---:|---:|---:|---:|---|");
	console.log(
		`| ${a.label} | ${a.wall.toFixed(1)} | ${a.min.toFixed(1)} | ${a.rss.toFixed(1)} | ${a.mock.toFixed(1)} | ≤ 60 ms, ≤ 80 MiB |`,
	);
	console.log(
		`| ${b.label} | ${b.wall.toFixed(1)} | ${b.min.toFixed(1)} | ${b.rss.toFixed(1)} | ${b.mock.toFixed(1)} | |`,
	);
	console.log(
		`| ${c.label} | ${c.wall.toFixed(1)} | ${c.min.toFixed(1)} | ${c.rss.toFixed(1)} | ${c.mock.toFixed(1)} | ≤ 50 ms |`,
	);
	const added = b.wall - a.wall - (b.mock - a.mock);
	console.log(
		`loop adds ${(b.wall - a.wall).toFixed(1)} ms over -p hello, ${added.toFixed(1)} ms beyond the mock's own extra time ` +
			`(${(added / 20).toFixed(2)} ms per tool round trip; target ≤ 40 ms)`,
	);
	console.log(
		`floors on this machine, each run paired with the pi run after it: a one-line Bun binary ${a.floor.toFixed(1)} ms; ` +
			`20 × bash -c true ${b.floor.toFixed(1)} ms; a minimal program doing what -c -p hello cannot avoid ` +
			`(list and stat 1000 files, read the newest, one request) ${c.floor.toFixed(1)} ms`,
	);
	const loopBeyond = b.beyond - a.wall - (b.mock - a.mock);
	console.log(
		`beyond the floors (median of per-pair differences): -p hello ${a.beyond.toFixed(1)} ms, -c -p hello ${c.beyond.toFixed(1)} ms (its own floor), ` +
			`loop ${loopBeyond.toFixed(1)} ms (${(loopBeyond / 20).toFixed(2)} ms per round trip besides the shell)`,
	);
	const ok = a.wall <= 60 && a.rss <= 80 && added <= 40 && c.wall <= 50;
	console.log(ok ? "bench: targets met" : "bench: a target was missed");
} finally {
	server.stop();
	dispose();
	floor.dispose();
	continueFloor.dispose();
}
