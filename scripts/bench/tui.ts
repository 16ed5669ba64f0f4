/**
 * Terminal UI benchmark, side by side: the same workload (scripts/bench/tui-workload.mjs: a 1,000-message transcript
 * in a regular-mode TUI on a byte-counting terminal) runs on pi-tui 0.87.1 under Node 22 from the conformance cache
 * and on our toolkit under Bun, interleaved in one run. Reports ms and bytes per frame for the cold first frame, a
 * forced full redraw and a one-token append, with the ratio pi ÷ ours (higher = ours faster) of the medians and of the
 * minimums over the runs (the machine's load drifts; the minimums show each side undisturbed).
 * Goals (issue 18 item 7): append ≥ 10× faster, full render ≥ 3× faster, append bytes O(changed lines).
 *
 * Usage: bun scripts/bench/tui.ts [--runs N] [--messages N] [--tokens N]
 */
import { dirname, join } from "node:path";
import { ensureRunnablePi } from "../conformance-cache.ts";
import { median, ROOT } from "./lib.ts";

interface Result {
	firstMs: number;
	firstBytes: number;
	fullMs: number;
	fullBytes: number;
	appendMs: number;
	appendBytes: number;
}

function flag(name: string, fallback: number): number {
	const i = process.argv.indexOf(name);
	return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const runs = flag("--runs", 5);
const messages = flag("--messages", 1000);
const tokens = flag("--tokens", 200);
const pi = ensureRunnablePi();
if ("error" in pi) {
	console.error(`tui bench: pi 0.87.1 unavailable: ${pi.error}`);
	process.exit(1);
}
const workload = join(ROOT, "scripts", "bench", "tui-workload.mjs");
const piTui = join(pi.modules, "@earendil-works", "pi-tui", "dist", "index.js");
const ourTui = join(ROOT, "src", "tui", "index.ts");

function run(cmd: string[], cwd: string): Result {
	const proc = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
	if (proc.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${proc.stderr.toString()}`);
	const last = proc.stdout.toString().trim().split("\n").pop() ?? "";
	return JSON.parse(last) as Result;
}

const theirs: Result[] = [];
const ours: Result[] = [];
for (let i = 0; i < runs; i++) {
	theirs.push(run([pi.node, workload, piTui, String(messages), String(tokens)], dirname(pi.modules)));
	ours.push(run([process.execPath, workload, ourTui, String(messages), String(tokens)], ROOT));
}

const med = (rs: Result[], key: keyof Result) => median(rs.map((r) => r[key]).sort((a, b) => a - b));
console.log(`tui bench: ${messages} messages, ${tokens} appended tokens, ${runs} interleaved runs each (medians)`);
const least = (rs: Result[], key: keyof Result) => Math.min(...rs.map((r) => r[key]));
console.log("| frame | pi-tui 0.87.1 ms | ours ms | ratio | min ratio | pi bytes | our bytes |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const [label, ms, bytes] of [
	["first (cold)", "firstMs", "firstBytes"],
	["full redraw", "fullMs", "fullBytes"],
	["token append", "appendMs", "appendBytes"],
] as const) {
	const a = med(theirs, ms);
	const b = med(ours, ms);
	console.log(
		`| ${label} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(a / b).toFixed(1)}× | ${(least(theirs, ms) / least(ours, ms)).toFixed(1)}× | ${med(theirs, bytes)} | ${med(ours, bytes)} |`,
	);
}
