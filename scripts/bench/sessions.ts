/**
 * Session benchmark.
 * 1. Synthetic v3 sessions of 1k / 10k / 100k entries (~900 bytes per entry on average: user prompts, assistant
 *    text + tool calls, tool results of varied size, a compaction every ~10k entries, some model and thinking
 *    changes). For each, a fresh `bun` process runs `SessionManager.open` + `buildSessionContext` (median of
 *    RUNS processes): the time is measured inside the child around those two calls; peak RSS is the child's
 *    maxRSS from the OS (whole process, runtime included), and "RSS Δ" subtracts the child's RSS just before open.
 *    Targets: 100k in ≤ 400 ms, peak RSS ≤ 2× the file size, cost growing linearly.
 * 2. `continueRecent` over a folder of 1000 session files (mtimes + one header read): median of in-process runs,
 *    target ≤ 50 ms.
 * 3. For information only: 100k entries without any compaction (every message is parsed into the context).
 * Usage: bun scripts/bench/sessions.ts [runs]   (child mode: bun scripts/bench/sessions.ts --child <file>;
 * KEEP=1 keeps the generated files and prints their folder)
 */
import {
	closeSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	rmSync,
	statSync,
	utimesSync,
	writeFileSync,
	writeSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "../../src/session/index.ts";
import { median } from "./lib.ts";

if (process.argv[2] === "--child") {
	const file = process.argv[3]!;
	const before = process.memoryUsage().rss;
	const cpu = process.cpuUsage();
	const started = performance.now();
	const manager = SessionManager.open(file, undefined, undefined, { readOnly: true });
	const context = manager.buildSessionContext();
	const ms = performance.now() - started;
	const used = process.cpuUsage(cpu);
	const cpuMs = (used.user + used.system) / 1000;
	console.log(JSON.stringify({ ms, cpuMs, before, messages: context.messages.length }));
	process.exit(0);
}

const RUNS = Number(process.argv[2] ?? 5);
const loadAverage = () => loadavg()[0]!.toFixed(2);
const WORDS = (
	"the a function const return import export await async class interface type value error file path " +
	"session entry parse buffer line index tree node leaf branch compaction summary token model résumé naïve"
).split(" ");

let seed = 42;
function rand(): number {
	seed = (seed * 1103515245 + 12345) & 0x7fffffff;
	return seed / 0x7fffffff;
}
function words(bytes: number): string {
	const out: string[] = [];
	let n = 0;
	while (n < bytes) {
		const w = WORDS[Math.floor(rand() * WORDS.length)]!;
		out.push(w);
		n += w.length + 1;
	}
	return out.join(" ");
}
const idOf = (i: number) => ((i * 2654435761) >>> 0).toString(16).padStart(8, "0");
const usage = {
	input: 1200,
	output: 300,
	cacheRead: 50000,
	cacheWrite: 0,
	totalTokens: 51500,
	cost: { input: 0.0036, output: 0.0045, cacheRead: 0.015, cacheWrite: 0, total: 0.0231 },
};

/** Writes a synthetic linear v3 session of `count` entries; returns its size in bytes. */
function generate(path: string, count: number, compactions = true): number {
	const fd = openSync(path, "w");
	let batch: string[] = [];
	let size = 0;
	const put = (value: unknown) => {
		batch.push(`${JSON.stringify(value)}\n`);
		if (batch.length >= 2000) flush();
	};
	const flush = () => {
		const bytes = Buffer.from(batch.join(""), "utf8");
		writeSync(fd, bytes);
		size += bytes.length;
		batch = [];
	};
	const start = Date.UTC(2025, 0, 1);
	put({
		type: "session",
		version: 3,
		id: "0190a000-0000-7000-8000-000000000000",
		timestamp: new Date(start).toISOString(),
		cwd: "/projects/demo",
	});
	let parentId: string | null = null;
	let call = 0;
	for (let i = 0; i < count; i++) {
		const id = idOf(i + 1);
		const ts = start + i * 1000;
		const base = { id, parentId, timestamp: new Date(ts).toISOString() };
		const phase = i % 10;
		if (compactions && i > 0 && i % 10000 === 5000) {
			const firstKeptEntryId = idOf(i + 1 - 1000);
			put({
				type: "compaction",
				...base,
				summary: words(3000),
				firstKeptEntryId,
				tokensBefore: 180000,
				details: { readFiles: [], modifiedFiles: [] },
			});
		} else if (i % 997 === 500) {
			put({ type: "thinking_level_change", ...base, thinkingLevel: rand() < 0.5 ? "high" : "medium" });
		} else if (i % 4999 === 2500) {
			put({ type: "model_change", ...base, provider: "anthropic", modelId: "claude-sonnet-4-5" });
		} else if (phase === 0) {
			put({ type: "message", ...base, message: { role: "user", content: words(120 + rand() * 440), timestamp: ts } });
		} else if (phase % 2 === 1) {
			const content = [
				{ type: "text", text: words(80 + rand() * 340) },
				{ type: "toolCall", id: `toolu_${++call}`, name: "bash", arguments: { command: words(40 + rand() * 80) } },
			];
			put({
				type: "message",
				...base,
				message: {
					role: "assistant",
					content,
					api: "anthropic-messages",
					provider: "anthropic",
					model: "claude-sonnet-4-5",
					usage,
					stopReason: "toolUse",
					timestamp: ts,
				},
			});
		} else {
			const text = words(rand() < 0.08 ? 3000 + rand() * 3000 : 140 + rand() * 600);
			put({
				type: "message",
				...base,
				message: {
					role: "toolResult",
					toolCallId: `toolu_${call}`,
					toolName: "bash",
					content: [{ type: "text", text }],
					isError: false,
					timestamp: ts,
				},
			});
		}
		parentId = id;
	}
	flush();
	closeSync(fd);
	return size;
}

interface Row {
	label: string;
	entries: number;
	fileMiB: number;
	ms: number;
	cpuMs: number;
	peakMiB: number;
	deltaMiB: number;
	messages: number;
}

function measureOpen(label: string, path: string, entries: number, fileBytes: number): Row {
	const samples: { ms: number; cpuMs: number; peak: number; delta: number; messages: number }[] = [];
	for (let i = 0; i <= RUNS; i++) {
		const proc = Bun.spawnSync([process.execPath, import.meta.path, "--child", path], {
			stdout: "pipe",
			stderr: "pipe",
		});
		if (proc.exitCode !== 0) throw new Error(`child failed: ${proc.stderr.toString()}`);
		const out = JSON.parse(proc.stdout.toString()) as { ms: number; cpuMs: number; before: number; messages: number };
		const peak = proc.resourceUsage?.maxRSS ?? 0;
		if (i > 0) samples.push({ ms: out.ms, cpuMs: out.cpuMs, peak, delta: peak - out.before, messages: out.messages }); // run 0 warms the page cache
	}
	const mib = (b: number) => b / 1024 / 1024;
	return {
		label,
		entries,
		fileMiB: mib(fileBytes),
		ms: median(samples.map((s) => s.ms).sort((a, b) => a - b)),
		cpuMs: median(samples.map((s) => s.cpuMs).sort((a, b) => a - b)),
		peakMiB: mib(median(samples.map((s) => s.peak).sort((a, b) => a - b))),
		deltaMiB: mib(median(samples.map((s) => s.delta).sort((a, b) => a - b))),
		messages: samples[0]!.messages,
	};
}

function benchContinueRecent(root: string): number {
	const dir = join(root, "many");
	mkdirSync(dir);
	const base = Date.now() / 1000 - 100000;
	for (let i = 0; i < 1000; i++) {
		const path = join(dir, `2025-01-01T00-00-00-${String(i).padStart(3, "0")}Z_s${i}.jsonl`);
		generate(path, 20);
		utimesSync(path, base + i * 7, base + i * 7);
	}
	const times: number[] = [];
	for (let i = 0; i < 9; i++) {
		const started = performance.now();
		const manager = SessionManager.continueRecent("/projects/demo", dir, { readOnly: true });
		times.push(performance.now() - started);
		if (!manager.getSessionFile()?.endsWith("_s999.jsonl")) throw new Error("continueRecent picked the wrong file");
		manager.close();
	}
	return median(times.sort((a, b) => a - b));
}

/**
 * The same files through the compiled binary: `pi --session <file> -e <noop> -p /noop` opens the file, builds the
 * context (the run's setup always does) and exits without a model. Includes the binary's own start-up.
 */
function measureBinary(dir: string, rows: Row[]): { label: string; ms: number; peakMiB: number }[] {
	// PI_BENCH_BINARY measures another build (a before/after comparison) instead of dist/pi.
	const binary = process.env.PI_BENCH_BINARY ?? join(import.meta.dir, "..", "..", "dist", "pi");
	if (!existsSync(binary)) {
		console.log("(binary rows skipped: run npm run build first)");
		return [];
	}
	const home = mkdtempSync(join(tmpdir(), "pi-bench-home-"));
	const ext = join(home, "noop.ts");
	writeFileSync(ext, 'export default function (pi) { pi.registerCommand("noop", { handler: async () => {} }); }\n');
	const out: { label: string; ms: number; peakMiB: number }[] = [];
	for (const row of rows) {
		const file = join(dir, `s${row.entries}.jsonl`);
		const times: number[] = [];
		const peaks: number[] = [];
		for (let i = 0; i < RUNS; i++) {
			const started = performance.now();
			const run = Bun.spawnSync([binary, "--session", file, "-e", ext, "-p", "/noop"], {
				env: { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin" },
				cwd: home,
				stdout: "ignore",
				stderr: "pipe",
			});
			times.push(performance.now() - started);
			peaks.push((run.resourceUsage?.maxRSS ?? 0) / 1024 / 1024);
			if (run.exitCode !== 0) throw new Error(`binary run failed: ${run.stderr.toString()}`);
		}
		out.push({
			label: row.label,
			ms: median(times.sort((a, b) => a - b)),
			peakMiB: median(peaks.sort((a, b) => a - b)),
		});
	}
	rmSync(home, { recursive: true, force: true });
	console.log("\nthrough the binary (pi --session <file> -p /noop: start-up + open + context), median of", RUNS);
	console.log("| case | wall ms | peak RSS MiB |");
	console.log("|---:|---:|---:|");
	for (const r of out) console.log(`| ${r.label} | ${r.ms.toFixed(1)} | ${r.peakMiB.toFixed(1)} |`);
	return out;
}

const root = mkdtempSync(join(tmpdir(), "pi-bench-sessions-"));
try {
	const rows: Row[] = [];
	for (const entries of [1_000, 10_000, 100_000]) {
		const path = join(root, `s${entries}.jsonl`);
		const bytes = generate(path, entries);
		if (statSync(path).size !== bytes) throw new Error("generator size mismatch");
		rows.push(measureOpen(`${entries / 1000}k`, path, entries, bytes));
	}
	// Worst case, for information (no target): no compaction, so every message of the file is in the context.
	const worst = join(root, "worst.jsonl");
	const worstRow = measureOpen("100k, no compaction (info)", worst, 100_000, generate(worst, 100_000, false));
	rmSync(worst);
	console.log(`open + buildSessionContext, fresh bun process per run, median of ${RUNS} (load: ${loadAverage()})`);
	console.log(
		"| case | file MiB | bytes/entry | wall ms | CPU ms | µs/entry (wall) | peak RSS MiB | RSS Δ MiB | peak/file | context msgs |",
	);
	console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
	for (const r of [...rows, worstRow]) {
		const cells = [
			r.label,
			r.fileMiB.toFixed(1),
			((r.fileMiB * 1024 * 1024) / r.entries).toFixed(0),
			r.ms.toFixed(1),
			r.cpuMs.toFixed(1),
			((r.ms * 1000) / r.entries).toFixed(2),
			r.peakMiB.toFixed(1),
			r.deltaMiB.toFixed(1),
			(r.peakMiB / r.fileMiB).toFixed(2),
			r.messages,
		];
		console.log(`| ${cells.join(" | ")} |`);
	}
	const binaryRows = measureBinary(root, rows);
	const big = rows.at(-1)!;
	const recent = benchContinueRecent(root);
	console.log(`\ncontinueRecent over 1000 session files: ${recent.toFixed(1)} ms (median of 9)`);
	const checks = [
		[`100k open+context ${big.ms.toFixed(0)} ms ≤ 400 ms`, big.ms <= 400],
		[
			`100k peak RSS ${big.peakMiB.toFixed(0)} MiB ≤ 2× file (${(2 * big.fileMiB).toFixed(0)} MiB)`,
			big.peakMiB <= 2 * big.fileMiB,
		],
		[`continueRecent ${recent.toFixed(1)} ms ≤ 50 ms`, recent <= 50],
		...binaryRows
			.filter((r) => r.label === "100k")
			.map(
				(r) =>
					[
						`binary 100k ${r.ms.toFixed(0)} ms ≤ 400 ms, ${r.peakMiB.toFixed(0)} MiB ≤ 2× file`,
						r.ms <= 400 && r.peakMiB <= 2 * big.fileMiB,
					] as const,
			),
	] as const;
	for (const [label, ok] of checks) console.log(`${ok ? "✓" : "✗"} ${label}`);
	console.log(checks.every(([, ok]) => ok) ? "bench: targets met" : "bench: a target was missed");
} finally {
	if (!process.env.KEEP) rmSync(root, { recursive: true, force: true });
	else console.log(root);
}
