/**
 * Before/after comparison of two builds on `pi -p hello` against the mock LLM, in interleaved runs (A, B, A, B, …)
 * so that machine noise (other processes, CPU frequency) falls on both alike. Prints the median, p90 and min wall
 * time of each, the median CPU time (user + system, less disturbed by a busy machine), and the differences.
 * Usage: bun scripts/bench/ab.ts <binary A> <binary B> [runs per binary, default 30]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startMockLlm } from "../../test/support/mock-llm/index.ts";
import { median, tempHome } from "./lib.ts";

const [a, b, runsArg] = process.argv.slice(2).map((arg, i) => (i < 2 ? resolve(arg) : arg));
if (!a || !b) {
	console.error("usage: bun scripts/bench/ab.ts <binary A> <binary B> [runs]");
	process.exit(1);
}
const runs = Number(runsArg ?? 30);
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
const args = ["-p", "--no-session", "--provider", "mock", "--model", "mock-1", "hello"];

/** One run of `binary` (asynchronous: the mock answers from this process). */
async function once(binary: string): Promise<{ wall: number; cpu: number }> {
	server.push({ kind: "reply", text: "Hello!" });
	const started = performance.now();
	const proc = Bun.spawn([binary, ...args], { env, cwd: home, stdout: "ignore", stderr: "pipe", stdin: "ignore" });
	const err = await new Response(proc.stderr).text();
	await proc.exited;
	if (proc.exitCode !== 0) throw new Error(`${binary} exited ${proc.exitCode}: ${err}`);
	const usage = proc.resourceUsage()?.cpuTime;
	return { wall: performance.now() - started, cpu: usage ? Number(usage.user + usage.system) / 1000 : 0 };
}

const times: Record<"A" | "B", number[]> = { A: [], B: [] };
const cpu: Record<"A" | "B", number[]> = { A: [], B: [] };
await once(a);
await once(b);
for (let i = 0; i < runs; i++) {
	for (const [label, binary] of [
		["A", a],
		["B", b],
	] as const) {
		const run = await once(binary);
		times[label].push(run.wall);
		cpu[label].push(run.cpu);
	}
}
server.stop();
dispose();
const row = (label: "A" | "B", binary: string) => {
	const sorted = [...times[label]].sort((x, y) => x - y);
	const p90 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))] as number;
	console.log(
		`${label} ${binary}: median ${median(sorted).toFixed(1)} ms, p90 ${p90.toFixed(1)} ms, min ${(sorted[0] as number).toFixed(1)} ms, CPU median ${cpuMedian(label).toFixed(1)} ms (${runs} runs)`,
	);
	return median(sorted);
};
const cpuMedian = (label: "A" | "B") => median([...cpu[label]].sort((x, y) => x - y));
const ma = row("A", a);
const mb = row("B", b);
console.log(`B - A: ${(mb - ma).toFixed(1)} ms wall, ${(cpuMedian("B") - cpuMedian("A")).toFixed(1)} ms CPU (medians)`);
