/**
 * `/tree` on a 100k-entry session, side by side (issue 20 item 8): pi 0.87.1 under Node 22 and our binary, each in a
 * pseudo-terminal (100×30, a headless xterm) with its own temp HOME on the mock LLM, runs interleaved (the order
 * alternates). The session (pi's JSONL v3, ~100 MB: markdown replies, thinking, tool calls and results) is
 * generated once, with a few side branches, and opened with `--session`.
 *
 * Measured per run, once the transcript is on screen and the app has been quiet for 500 ms:
 * - open: Enter on a typed `/tree` → the end of the first frame showing "Session Tree";
 * - move: Up → the first frame after it that draws the selection marker `›` (30 keys);
 * - filter: the filter keys (Ctrl+U, Ctrl+T, Ctrl+L, Ctrl+A toggled on and off, Ctrl+O cycling) → the first frame
 *   that draws a count line `(`;
 * - search: typing and erasing a query → the first frame that draws the search line.
 * Each key waits for the app to be quiet 20 ms after the previous frame. The table shows medians (keys: median and
 * p99 over all keys of all runs) and pi ÷ ours.
 *
 * Usage: bun scripts/bench/interactive-tree.ts [--runs N] [--entries N] [--ours <binary>] [--only ours|pi]
 * (KEEP=1 keeps the temp dir; `--only ours` skips pi, which takes minutes per run at 100k entries)
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startMockLlm } from "../../test/support/mock-llm/index.ts";
import { ensureRunnablePi } from "../conformance-cache.ts";
import { benchHome } from "./bench-home.ts";
import { entryId, writeSession } from "./interactive-sessions.ts";
import { BINARY } from "./lib.ts";
import { PtyApp } from "./pty-app.ts";
import { editorWithFooter, summarize } from "./pty-timing.ts";

function option(name: string): string | undefined {
	const i = process.argv.indexOf(name);
	return i === -1 ? undefined : process.argv[i + 1];
}
const runs = Number(option("--runs") ?? 3);
const entries = Number(option("--entries") ?? 100_000);
const ours = resolve(option("--ours") ?? process.env.PI_BENCH_BINARY ?? BINARY);
const only = option("--only");
if (only !== undefined && only !== "ours" && only !== "pi") {
	console.error(`tree bench: --only takes "ours" or "pi", not "${only}"`);
	process.exit(2);
}
const pi = ensureRunnablePi();
if ("error" in pi && only !== "ours") {
	console.error(`tree bench: pi 0.87.1 unavailable: ${pi.error}`);
	process.exit(2);
}
if (!existsSync(ours)) {
	console.error(`tree bench: ${ours} is missing; run npm run build`);
	process.exit(2);
}

const COLUMNS = 100;
const ROWS = 30;
const MARKER = "END-OF-SESSION-7T4R";
const root = mkdtempSync(join(tmpdir(), "pi-bench-tree-"));
const server = startMockLlm({ idleTimeoutMs: 24 * 3600_000 });

/** Side branches off the main chain: user + assistant pairs hanging from earlier entries. */
function addBranches(file: string, total: number): void {
	const lines: string[] = [];
	for (let b = 1; b <= 20; b++) {
		const from = entryId(Math.floor((total * b) / 21));
		const user = `b${String(b).padStart(7, "0")}`;
		const reply = `c${String(b).padStart(7, "0")}`;
		const ts = "2026-01-01T00:00:00.000Z";
		lines.push(
			JSON.stringify({
				type: "message",
				id: user,
				parentId: from,
				timestamp: ts,
				message: { role: "user", content: `side question ${b}`, timestamp: 0 },
			}),
			JSON.stringify({
				type: "message",
				id: reply,
				parentId: user,
				timestamp: ts,
				message: {
					role: "assistant",
					content: [{ type: "text", text: `side answer ${b}` }],
					api: "anthropic-messages",
					provider: "mock",
					model: "mock-1",
					usage: {
						input: 1,
						output: 1,
						cacheRead: 0,
						cacheWrite: 0,
						totalTokens: 2,
						cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
					},
					stopReason: "stop",
					timestamp: 0,
				},
			}),
		);
	}
	appendFileSync(file, `${lines.join("\n")}\n`);
}

function sideEnv(name: string): Record<string, string> {
	return benchHome(root, name, server.url).env;
}

interface Sample {
	open: number;
	move: number[];
	filter: number[];
	search: number[];
}

async function key(app: PtyApp, bytes: string, test: (content: string) => boolean): Promise<number> {
	const at = app.type(bytes);
	const frame = await app.nextFrame(at, test, 120_000);
	await app.quiet(20, 60_000);
	return frame.endedAt - at;
}

async function measure(cmd: string[], env: Record<string, string>, cwd: string, session: string): Promise<Sample> {
	const app = PtyApp.start({
		cmd: [...cmd, "--provider", "mock", "--model", "mock-1", "--session", session],
		env,
		cwd,
		columns: COLUMNS,
		rows: ROWS,
	});
	try {
		await app.screenShows((rows) => editorWithFooter(rows, COLUMNS), 600_000, "the editor");
		// The leaf is the last side branch (the last line of the file).
		await app.screenShows((rows) => rows.some((row) => row.includes("side answer 20")), 600_000, "the transcript");
		await app.quiet(500, 120_000);
		for (const ch of "/tree") await key(app, ch, (content) => content.includes(ch));
		await app.quiet(300, 30_000);
		const at = app.type("\r");
		const frame = await app.nextFrame(at, (content) => content.includes("Session Tree"), 120_000);
		const open = frame.endedAt - at;
		await app.quiet(500, 120_000);
		const move: number[] = [];
		for (let i = 0; i < 30; i++) move.push(await key(app, "\x1b[A", (c) => c.includes("›")));
		const filter: number[] = [];
		for (const k of [
			"\x15",
			"\x15",
			"\x14",
			"\x14",
			"\x0c",
			"\x0c",
			"\x01",
			"\x01",
			"\x0f",
			"\x0f",
			"\x0f",
			"\x0f",
			"\x0f",
		])
			filter.push(await key(app, k, (c) => c.includes("(")));
		const search: number[] = [];
		for (const k of [..."side", "\x7f", "\x7f", "\x7f", "\x7f"])
			search.push(await key(app, k, (c) => c.includes("Type to search")));
		return { open, move, filter, search };
	} finally {
		await app.stop();
	}
}

try {
	const cwd = join(root, "work");
	mkdirSync(cwd);
	const session = join(root, "tree.jsonl");
	const stats = writeSession(session, { cwd, entries, provider: "mock", model: "mock-1", endMarker: MARKER });
	addBranches(session, stats.entries);
	console.log(
		`tree bench: ${runs} interleaved runs, ${COLUMNS}×${ROWS}, session ${stats.entries + 40} entries ` +
			`(${(stats.bytes / 1048576).toFixed(1)} MiB, 20 side branches); load ${loadavg()[0]?.toFixed(2)}`,
	);
	const sides = [
		...("error" in pi || only === "ours" ? [] : [{ name: "pi", cmd: [pi.node, pi.cli], env: sideEnv("pi") }]),
		...(only === "pi" ? [] : [{ name: "ours", cmd: [ours], env: sideEnv("ours") }]),
	];
	const all: Record<string, Sample[]> = { pi: [], ours: [] };
	for (let run = 0; run < runs; run++) {
		for (const side of run % 2 === 0 ? sides : [...sides].reverse()) {
			const t = performance.now();
			all[side.name]?.push(await measure(side.cmd, side.env, cwd, session));
			console.error(`run ${run + 1}/${runs} ${side.name}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
		}
	}
	const fmt = (n: number) => (n < 10 ? n.toFixed(1) : n.toFixed(0));
	const row = (label: string, pick: (s: Sample) => number[]) => {
		const side = (name: string) => {
			const samples = (all[name] ?? []).flatMap(pick);
			return samples.length > 0 ? summarize(samples) : undefined;
		};
		const p = side("pi");
		const o = side("ours");
		const cell = (s: typeof p) => (s ? `${fmt(s.median)} / ${fmt(s.p99)}` : "–");
		const ratio = p && o ? `${(p.median / o.median).toFixed(1)}×` : "–";
		return `| ${label} | ${cell(p)} | ${cell(o)} | ${ratio} |`;
	};
	console.log(`load after: ${loadavg()[0]?.toFixed(2)}\n`);
	console.log("| ms (median / p99) | pi 0.87.1 | ours | pi ÷ ours |\n| --- | --- | --- | --- |");
	console.log(row("open: Enter on /tree → first frame", (s) => [s.open]));
	console.log(row("move (Up) → frame", (s) => s.move));
	console.log(row("filter key → frame", (s) => s.filter));
	console.log(row("search key → frame", (s) => s.search));
	console.log("\ngoal: open ≤ 100 ms, ≥ 5× faster than pi");
} finally {
	server.stop();
	if (process.env.KEEP) console.log(`kept ${root}`);
	else rmSync(root, { recursive: true, force: true });
}
