/**
 * RPC benchmark (issue 9): (1) spawn `pi --mode rpc --no-session` to the first `get_state` answer, written at
 * once on stdin, median of N starts (default 15); (2) `get_state` round trip, one command at a time, over 1000
 * calls in one process (after 100 warm-up calls): median and p99 from writing the line to reading its answer.
 * Targets: first answer ≤ 40 ms; round trip median ≤ 0.05 ms, p99 ≤ 0.5 ms. The machine's floor is measured the
 * same way: a minimal JSON-lines server compiled like pi (reads a line, parses it, writes a get_state-sized answer).
 * Usage: npm run build && bun scripts/bench/rpc.ts [starts] [calls]
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, compileFloor, median, tempHome } from "./lib.ts";

const starts = Number(process.argv[2] ?? 15);
const calls = Number(process.argv[3] ?? 1000);
const binary = process.env.PI_BENCH_BINARY ?? BINARY;
if (!existsSync(binary)) {
	console.error(`bench: ${binary} is missing; run npm run build first`);
	process.exit(1);
}

const { home, dispose } = tempHome();
// A configured model, as a real client has one; no request is ever sent to it.
mkdirSync(join(home, ".pi", "agent"), { recursive: true });
writeFileSync(
	join(home, ".pi", "agent", "models.json"),
	JSON.stringify({
		providers: {
			mock: { baseUrl: "http://127.0.0.1:9", api: "anthropic-messages", apiKey: "k", models: [{ id: "m" }] },
		},
	}),
);
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };

/** The floor: the least a Bun program answering JSON lines does per command. */
const ECHO_SOURCE = `const out = Bun.stdout.writer();
const decoder = new TextDecoder();
let rest = "";
for await (const chunk of Bun.stdin.stream()) {
	const lines = (rest + decoder.decode(chunk, { stream: true })).split("\\n");
	rest = lines.pop() ?? "";
	for (const line of lines) {
		const command = JSON.parse(line);
		const model = { id: "m", name: "m", api: "anthropic-messages", provider: "mock", baseUrl: "http://127.0.0.1:9", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128000, maxTokens: 16384 };
		const data = { model, thinkingLevel: "off", isStreaming: false, isCompacting: false, steeringMode: "one-at-a-time", followUpMode: "one-at-a-time", sessionId: "x", autoCompactionEnabled: true, messageCount: 0, pendingMessageCount: 0 };
		out.write(JSON.stringify({ id: command.id, type: "response", command: command.type, success: true, data }) + "\\n");
		out.flush();
	}
}
`;

/** A running `pi --mode rpc` (or the floor program) with a line reader on its stdout. */
function spawnRpc(cmd: string[] = [binary, "--mode", "rpc", "--no-session"]) {
	const proc = Bun.spawn(cmd, {
		env,
		cwd: home,
		stdin: "pipe",
		stdout: "pipe",
		stderr: "ignore",
	});
	const reader = proc.stdout.getReader();
	const decoder = new TextDecoder();
	let buffered = "";
	const nextLine = async (): Promise<string> => {
		while (true) {
			const newline = buffered.indexOf("\n");
			if (newline !== -1) {
				const line = buffered.slice(0, newline);
				buffered = buffered.slice(newline + 1);
				return line;
			}
			const chunk = await reader.read();
			if (chunk.done) throw new Error("bench: pi exited before answering");
			buffered += decoder.decode(chunk.value, { stream: true });
		}
	};
	return { proc, nextLine };
}

async function firstAnswerMs(cmd?: string[]): Promise<number> {
	const started = performance.now();
	const { proc, nextLine } = spawnRpc(cmd);
	proc.stdin.write('{"id":"1","type":"get_state"}\n');
	proc.stdin.flush();
	const line = await nextLine();
	const ms = performance.now() - started;
	if (!line.includes('"success":true')) throw new Error(`bench: unexpected answer ${line}`);
	proc.stdin.end();
	await proc.exited;
	return ms;
}

/** `calls` get_state round trips, one at a time, after 100 warm-up calls; sorted. */
async function roundTrips(cmd?: string[]): Promise<number[]> {
	const { proc, nextLine } = spawnRpc(cmd);
	const trips: number[] = [];
	for (let i = 0; i < calls + 100; i++) {
		const started = performance.now();
		proc.stdin.write(`{"id":"${i}","type":"get_state"}\n`);
		proc.stdin.flush();
		await nextLine();
		if (i >= 100) trips.push(performance.now() - started);
	}
	proc.stdin.end();
	await proc.exited;
	return trips.sort((a, b) => a - b);
}

const percentile = (sorted: number[], p: number) =>
	sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;

try {
	await firstAnswerMs(); // warm-up: page cache
	const firsts: number[] = [];
	for (let i = 0; i < starts; i++) firsts.push(await firstAnswerMs());
	firsts.sort((a, b) => a - b);

	const trips = await roundTrips();
	const p99 = percentile(trips, 0.99);

	const floor = compileFloor("rpc-echo", ECHO_SOURCE);
	const floorFirsts: number[] = [];
	let floorTrips: number[];
	try {
		await firstAnswerMs([floor.binary]);
		for (let i = 0; i < starts; i++) floorFirsts.push(await firstAnswerMs([floor.binary]));
		floorFirsts.sort((a, b) => a - b);
		floorTrips = await roundTrips([floor.binary]);
	} finally {
		floor.dispose();
	}

	const first = median(firsts);
	const trip = median(trips);
	console.log("| case | runs | median ms | p99 ms | min ms | target |");
	console.log("|---|---:|---:|---:|---:|---|");
	console.log(
		`| start to first get_state answer | ${starts} | ${first.toFixed(1)} | | ${(firsts[0] as number).toFixed(1)} | ≤ 40 ms |`,
	);
	console.log(
		`| get_state round trip | ${calls} | ${trip.toFixed(3)} | ${p99.toFixed(3)} | ${(trips[0] as number).toFixed(3)} | median ≤ 0.05 ms, p99 ≤ 0.5 ms |`,
	);
	console.log(
		`| floor: first answer of a minimal JSON-lines Bun program | ${starts} | ${median(floorFirsts).toFixed(1)} | | ${(floorFirsts[0] as number).toFixed(1)} | |`,
	);
	console.log(
		`| floor: its round trip | ${calls} | ${median(floorTrips).toFixed(3)} | ${percentile(floorTrips, 0.99).toFixed(3)} | ${(floorTrips[0] as number).toFixed(3)} | |`,
	);
	const ok = first <= 40 && trip <= 0.05 && p99 <= 0.5;
	console.log(ok ? "bench: targets met" : "bench: a target was missed");
} finally {
	dispose();
}
