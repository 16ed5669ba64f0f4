/**
 * Extension start-up benchmark (issue 7): `pi --no-session -p /noop` in the binary with one tiny extension that
 * owns `/noop` (the baseline) and with the 20 smallest of pi 0.87.1's example extensions added (those with no
 * npm dependencies and no start-up side effects on this machine). No model is called.
 * - cold: every run gets a fresh copy of the files at new paths and Bun's transpiler cache is off
 *   (BUN_RUNTIME_TRANSPILER_CACHE_PATH=0);
 * - warm: the same files every run, with a transpiler cache dir kept across runs (after one warm-up).
 * Per extension = (median with 20 − median baseline) / 20. Target: ≤ 2 ms per extension cold.
 * Usage: npm run build && bun scripts/bench/extensions.ts [runs]  (fetches pi 0.87.1 into .cache/conformance once)
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePackage } from "../conformance-cache.ts";
import { BINARY, median, tempHome } from "./lib.ts";

const runs = Number(process.argv[2] ?? 15);
const binary = process.env.PI_BENCH_BINARY ?? BINARY;
if (!existsSync(binary)) {
	console.error(`bench: ${binary} is missing; run npm run build first`);
	process.exit(1);
}
const pkg = ensurePackage("@earendil-works/pi-coding-agent@0.87.1");
if ("error" in pkg) {
	console.error(`bench: ${pkg.error}`);
	process.exit(1);
}
const examples = join(pkg.dir, "examples", "extensions");
/** Examples that act on the machine at start-up or exit (git, file watchers, macOS theme polling). */
const SIDE_EFFECTS = new Set(["mac-system-theme.ts", "file-trigger.ts", "auto-commit-on-exit.ts", "git-checkpoint.ts"]);
const chosen = readdirSync(examples)
	.filter((name) => name.endsWith(".ts") && !SIDE_EFFECTS.has(name))
	.map((name) => ({ name, size: statSync(join(examples, name)).size }))
	.sort((a, b) => a.size - b.size)
	.slice(0, 20)
	.map((e) => e.name);

const NOOP = `export default function (pi) { pi.registerCommand("noop", { handler: async () => {} }); }\n`;
const { home, dispose } = tempHome();
const cacheDir = join(home, "transpiler-cache");
mkdirSync(cacheDir, { recursive: true });

let copies = 0;
/** A folder with noop.ts and (optionally) the chosen examples; fresh paths every call. */
function extensionDir(withExamples: boolean): string {
	const dir = join(home, `set-${copies++}`);
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "noop.ts"), NOOP);
	if (withExamples) for (const name of chosen) copyFileSync(join(examples, name), join(dir, name));
	return dir;
}

function runOnce(dir: string, withExamples: boolean, cold: boolean): number {
	const args = ["--no-session", "-e", join(dir, "noop.ts")];
	if (withExamples) for (const name of chosen) args.push("-e", join(dir, name));
	args.push("-p", "/noop");
	const env: Record<string, string> = {
		PATH: process.env.PATH ?? "/usr/bin:/bin",
		HOME: home,
		BUN_RUNTIME_TRANSPILER_CACHE_PATH: cold ? "0" : cacheDir,
	};
	const started = performance.now();
	const proc = Bun.spawnSync([binary, ...args], { env, cwd: home, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
	const ms = performance.now() - started;
	if (proc.exitCode !== 0) throw new Error(`bench: pi exited ${proc.exitCode}: ${proc.stderr.toString()}`);
	return ms;
}

function series(withExamples: boolean, cold: boolean): number {
	const fixed = extensionDir(withExamples);
	runOnce(fixed, withExamples, cold); // warm-up: page cache (and, warm, the transpiler cache)
	const samples: number[] = [];
	for (let i = 0; i < runs; i++) samples.push(runOnce(cold ? extensionDir(withExamples) : fixed, withExamples, cold));
	return median(samples.sort((a, b) => a - b));
}

try {
	const rows: [string, number, number][] = [];
	for (const cold of [true, false]) {
		const base = series(false, cold);
		const loaded = series(true, cold);
		rows.push([cold ? "cold" : "warm", base, loaded]);
	}
	console.log(`extensions: ${chosen.join(", ")}`);
	console.log("| cache | baseline (noop only) ms | with 20 examples ms | per extension ms | target |");
	console.log("|---|---:|---:|---:|---|");
	let ok = true;
	for (const [label, base, loaded] of rows) {
		const per = (loaded - base) / chosen.length;
		if (label === "cold" && per > 2) ok = false;
		console.log(
			`| ${label} | ${base.toFixed(1)} | ${loaded.toFixed(1)} | ${per.toFixed(2)} | ${label === "cold" ? "≤ 2 ms" : ""} |`,
		);
	}
	console.log(ok ? "bench: targets met" : "bench: a target was missed");
} finally {
	dispose();
}
