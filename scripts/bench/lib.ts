/** Shared helpers for benchmarks: repeated runs of a command, median wall time and peak RSS. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Sample {
	wallMs: number;
	maxRssMiB: number;
}

export interface Summary {
	label: string;
	runs: number;
	medianMs: number;
	p90Ms: number;
	minMs: number;
	medianRssMiB: number;
	maxRssMiB: number;
}

export const ROOT = join(import.meta.dir, "..", "..");
export const BINARY = join(ROOT, "dist", "pi");

export function tempHome(): { home: string; dispose(): void } {
	const home = mkdtempSync(join(tmpdir(), "pi-bench-"));
	return { home, dispose: () => rmSync(home, { recursive: true, force: true }) };
}

export function runOnce(cmd: string[], env: Record<string, string>, cwd: string): Sample {
	const started = performance.now();
	const proc = Bun.spawnSync(cmd, { env, cwd, stdout: "ignore", stderr: "pipe", stdin: "ignore" });
	const wallMs = performance.now() - started;
	if (proc.exitCode !== 0) throw new Error(`${cmd.join(" ")} exited ${proc.exitCode}: ${proc.stderr.toString()}`);
	return { wallMs, maxRssMiB: (proc.resourceUsage?.maxRSS ?? 0) / 1024 / 1024 };
}

export function measure(label: string, cmd: string[], env: Record<string, string>, cwd: string, runs: number): Summary {
	runOnce(cmd, env, cwd); // warm-up: page cache
	const samples = Array.from({ length: runs }, () => runOnce(cmd, env, cwd));
	const walls = samples.map((s) => s.wallMs).sort((a, b) => a - b);
	const rss = samples.map((s) => s.maxRssMiB).sort((a, b) => a - b);
	return {
		label,
		runs,
		medianMs: median(walls),
		p90Ms: walls[Math.min(walls.length - 1, Math.floor(walls.length * 0.9))] as number,
		minMs: walls[0] as number,
		medianRssMiB: median(rss),
		maxRssMiB: rss[rss.length - 1] as number,
	};
}

export function median(sorted: number[]): number {
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function printTable(rows: Summary[], targets: Record<string, number> = {}): boolean {
	let ok = true;
	console.log("| case | runs | median ms | p90 ms | min ms | median RSS MiB | max RSS MiB | target ms |");
	console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
	for (const r of rows) {
		const target = targets[r.label];
		const verdict = target === undefined ? "" : r.medianMs <= target ? `≤ ${target} ✓` : `≤ ${target} ✗`;
		if (target !== undefined && r.medianMs > target) ok = false;
		console.log(
			`| ${r.label} | ${r.runs} | ${r.medianMs.toFixed(1)} | ${r.p90Ms.toFixed(1)} | ${r.minMs.toFixed(1)} | ${r.medianRssMiB.toFixed(1)} | ${r.maxRssMiB.toFixed(1)} | ${verdict} |`,
		);
	}
	return ok;
}

/**
 * The machine's floor for a target: a tiny program compiled exactly like pi (`bun build --compile --bytecode`),
 * so a figure can be read against what any Bun binary costs on this machine. `source` is the program; the binary
 * lands in a temp dir that `dispose` removes.
 */
export function compileFloor(name: string, source: string): { binary: string; dispose(): void } {
	const dir = mkdtempSync(join(tmpdir(), "pi-floor-"));
	const entry = join(dir, `${name}.ts`);
	const binary = join(dir, name);
	writeFileSync(entry, source);
	const proc = Bun.spawnSync(
		// The same start-up settings as dist/pi: no .env or bunfig.toml read from the folder it starts in.
		[
			process.execPath,
			"build",
			"--compile",
			"--bytecode",
			"--format=esm",
			"--minify",
			"--no-compile-autoload-dotenv",
			"--no-compile-autoload-bunfig",
			entry,
			"--outfile",
			binary,
		],
		{ cwd: dir, stdout: "pipe", stderr: "pipe" },
	);
	if (proc.exitCode !== 0) throw new Error(`bench: could not compile the ${name} floor: ${proc.stderr.toString()}`);
	return { binary, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A compiled program that prints one line and exits: what starting any Bun binary costs here. */
export const HELLO_FLOOR_SOURCE = 'const w = Bun.stdout.writer(); w.write("0.1.0\\n"); w.flush();\n';
