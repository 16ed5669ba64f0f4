/**
 * Compaction end to end through the binary against the mock LLM: a 2000-entry session file, compacted by an
 * extension command (`ctx.compact()`), compared with the same run doing nothing (`/noop`). Reports what compaction
 * adds beyond the mock's own time for the summary request (target ≤ 20 ms). Median of N runs (default 10).
 * The floor next to it: a minimal compiled Bun program that turns the same messages into the transcript, sends
 * the summary request and reads the reply, timed from messages in memory to reply read, less the mock's time.
 * Usage: npm run build && bun scripts/bench/compact-e2e.ts [runs]
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { uuidv7 } from "../../src/util/index.ts";
import { startMockLlm } from "../../test/support/mock-llm/index.ts";
import { BINARY, compileFloor, median, tempHome } from "./lib.ts";

const runs = Number(process.argv[2] ?? 10);
/** PI_BENCH_BINARY measures another build (e.g. a before/after comparison) instead of dist/pi. */
const binary = process.env.PI_BENCH_BINARY ?? BINARY;
if (!existsSync(binary)) {
	console.error(`bench: ${binary} is missing; run npm run build first`);
	process.exit(1);
}
const server = startMockLlm();
const { home, dispose } = tempHome();
const agent = join(home, ".pi", "agent");
mkdirSync(agent, { recursive: true });
writeFileSync(
	join(agent, "models.json"),
	JSON.stringify({
		providers: { mock: { baseUrl: server.url, api: "anthropic-messages", apiKey: "k", models: [{ id: "mock-1" }] } },
	}),
);
writeFileSync(join(agent, "settings.json"), JSON.stringify({ compaction: { keepRecentTokens: 2000 } }));
const ext = join(home, "compact.ts");
writeFileSync(
	ext,
	`export default function (pi) {
	pi.registerCommand("noop", { handler: async () => {} });
	pi.registerCommand("compactnow", { handler: async (_a, ctx) => { await new Promise((resolve, reject) => ctx.compact({ onComplete: resolve, onError: reject })); } });
}\n`,
);

/** A v3 session of `count` entries: alternating user/assistant messages of about 500 characters. */
function writeSession(path: string, count: number): void {
	const text = "the quick brown fox jumps over the lazy dog ".repeat(11);
	const lines = [
		JSON.stringify({ type: "session", version: 3, id: uuidv7(), timestamp: new Date().toISOString(), cwd: home }),
	];
	let parent: string | null = null;
	for (let i = 0; i < count; i++) {
		const id = i.toString(16).padStart(8, "0");
		const message =
			i % 2 === 0
				? { role: "user", content: `q${i} ${text}`, timestamp: i }
				: {
						role: "assistant",
						content: [{ type: "text", text: `a${i} ${text}` }],
						api: "anthropic-messages",
						provider: "mock",
						model: "mock-1",
						usage: {
							input: 10,
							output: 10,
							cacheRead: 0,
							cacheWrite: 0,
							totalTokens: 20,
							cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
						},
						stopReason: "stop",
						timestamp: i,
					};
		lines.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date().toISOString(), message }));
		parent = id;
	}
	writeFileSync(path, `${lines.join("\n")}\n`);
}

const source = join(home, "source.jsonl");
writeSession(source, 2000);
const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
if (process.env.PI_TIMING) env.PI_TIMING = process.env.PI_TIMING;

async function once(command: string): Promise<{ wall: number; mock: number }> {
	const file = join(home, `run-${Math.random().toString(36).slice(2)}.jsonl`);
	copyFileSync(source, file);
	const first = server.requests.length;
	// Two replies: the summary, and the turn-prefix summary when the cut splits a turn.
	if (command === "/compactnow") {
		server.push({ kind: "reply", text: "## Goal\nSummary of the session." }, { kind: "reply", text: "prefix" });
	}
	const started = performance.now();
	const proc = Bun.spawn([binary, "--session", file, "-e", ext, "-p", command], {
		env,
		cwd: home,
		stdout: "pipe",
		stderr: "pipe",
	});
	const [, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
	await proc.exited;
	const wall = performance.now() - started;
	if (proc.exitCode !== 0) throw new Error(`pi ${command} failed: ${err}`);
	if (process.env.PI_TIMING) process.stderr.write(`--- ${command}\n${err}`);
	const mock = server.requests.slice(first).reduce((sum, r) => sum + (r.serverMs ?? 0), 0);
	return { wall, mock };
}

/**
 * The unavoidable part of a compaction: transcript text, JSON request body, the POST and the streamed reply, for
 * the messages of `argv[2]` (already parsed when the clock starts); prints the milliseconds.
 */
const FLOOR_SOURCE = `
const [file, url] = [process.argv[2], process.argv[3]];
const text = await Bun.file(file).text();
const messages = text.split("\\n").filter(Boolean).slice(1).map((l) => JSON.parse(l).message);
const t0 = performance.now();
const parts = ["<conversation>\\n"];
for (const [i, m] of messages.entries()) {
	if (i > 0) parts.push("\\n\\n");
	if (m.role === "user") parts.push("[User]: ", typeof m.content === "string" ? m.content : "");
	else parts.push("[Assistant]: ", m.content.map((c) => c.text ?? "").join("\\n"));
}
parts.push("\\n</conversation>\\n\\nSummarise.");
const body = JSON.stringify({ model: "mock-1", max_tokens: 1000, stream: true, messages: [{ role: "user", content: [{ type: "text", text: parts.join("") }] }] });
const headers = { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" };
const response = await fetch(url + "/v1/messages", { method: "POST", headers, body });
await response.text();
console.log((performance.now() - t0).toFixed(2));
`;

/** The floor: median of the program's time less the mock's, over `count` runs after one warm-up. */
async function floorMs(count: number): Promise<number> {
	const floor = compileFloor("compact", FLOOR_SOURCE);
	try {
		const beyond: number[] = [];
		for (let i = 0; i <= count; i++) {
			server.push({ kind: "reply", text: "## Goal\nSummary of the session." });
			const first = server.requests.length;
			const proc = Bun.spawn([floor.binary, source, server.url], { stdout: "pipe", stderr: "pipe" });
			const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
			if ((await proc.exited) !== 0) throw new Error(`compaction floor failed: ${err}`);
			if (i > 0) beyond.push(Number(out.trim()) - (server.requests[first]?.serverMs ?? 0));
		}
		return median(beyond.sort((a, b) => a - b));
	} finally {
		floor.dispose();
	}
}

try {
	await once("/noop");
	await once("/compactnow");
	const base: number[] = [];
	const compact: number[] = [];
	const mock: number[] = [];
	for (let i = 0; i < runs; i++) {
		base.push((await once("/noop")).wall);
		const c = await once("/compactnow");
		compact.push(c.wall);
		mock.push(c.mock);
	}
	const m = (xs: number[]) => median(xs.sort((a, b) => a - b));
	const added = m(compact) - m(base) - m(mock);
	console.log(`2000-entry session, median of ${runs} runs`);
	console.log("| run | median wall ms |");
	console.log("|---|---:|");
	console.log(`| pi --session <file> -p /noop | ${m(base).toFixed(1)} |`);
	console.log(`| pi --session <file> -p /compactnow | ${m(compact).toFixed(1)} |`);
	console.log(`| mock's own time for the summary request | ${m(mock).toFixed(1)} |`);
	console.log(`compaction adds ${added.toFixed(1)} ms beyond the mock's own time (target ≤ 20 ms)`);
	const floor = await floorMs(runs);
	console.log(
		`floor on this machine: serializing the same transcript, sending it and reading the reply (a minimal Bun program) adds ${floor.toFixed(1)} ms beyond the mock's own time`,
	);
	console.log(added <= 20 ? "bench: target met" : "bench: target missed");
} finally {
	server.stop();
	dispose();
}
