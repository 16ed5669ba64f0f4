/**
 * `/resume` benchmark (issue 20 item 8), side by side: pi 0.87.1 under Node 22 and our binary, each in a pseudo-
 * terminal (100×30) in its own temp HOME whose cwd's session folder holds the same 5,000 generated session files
 * (pi's JSONL v3, 12 messages each). Runs are interleaved, alternating which app goes first. Per run and app:
 * - open: Enter on a typed `/resume` → the end of the first frame that shows the picker's title (both apps draw the
 *   picker at once and list the folder after it);
 * - rows: Enter → the first frame with a session row (the selection cursor `›`) on screen;
 * - listed: Enter → the first frame after which the header no longer says `Loading` (every file read);
 * - keys: once listed and quiet, a search is typed one key at a time (the next key once the app has been quiet for
 *   20 ms): key written → end of the first frame begun after it that holds the key (median and p99 over all keys).
 *
 * pi 0.87.1 reads every line of every file and redraws as it goes: in a pseudo-terminal on a slow machine its list
 * of 5,000 files takes minutes, so one run is the practical default.
 *
 * Usage: bun scripts/bench/resume-picker.ts [--runs N] [--files N] [--ours <binary>] [--only pi|ours]
 *   (defaults: 1 run, 5000 files, dist/pi; --only measures one app, for quick checks)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startMockLlm } from "../../test/support/mock-llm/index.ts";
import { ensureRunnablePi } from "../conformance-cache.ts";
import { benchHome } from "./bench-home.ts";
import { seeded } from "./interactive-sessions.ts";
import { BINARY } from "./lib.ts";
import { PtyApp } from "./pty-app.ts";
import { editorWithFooter, summarize } from "./pty-timing.ts";

function option(name: string): string | undefined {
	const i = process.argv.indexOf(name);
	return i === -1 ? undefined : process.argv[i + 1];
}
const runs = Number(option("--runs") ?? 1);
const only = option("--only");
const fileCount = Number(option("--files") ?? 5000);
const ours = resolve(option("--ours") ?? process.env.PI_BENCH_BINARY ?? BINARY);
const pi = ensureRunnablePi();
if ("error" in pi) {
	console.error(`resume bench: pi 0.87.1 unavailable: ${pi.error}`);
	process.exit(2);
}

const COLUMNS = 100;
const ROWS = 30;
const QUERY = "render loop frames";
const WORDS =
	"the a render loop frame session editor picker search files tool result change value error path cache model token stream screen key".split(
		" ",
	);

const root = mkdtempSync(join(tmpdir(), "pi-bench-resume-"));
const server = startMockLlm({ idleTimeoutMs: 24 * 3600_000 });
const cwd = join(root, "work");
mkdirSync(cwd);

function sentence(rand: () => number, words: number): string {
	const out: string[] = [];
	for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)] as string);
	return out.join(" ");
}

/** The session files, as text, generated once (the same for both apps). */
function sessionFiles(): { name: string; text: string }[] {
	const rand = seeded(42);
	const files: { name: string; text: string }[] = [];
	const base = Date.parse("2026-01-01T00:00:00.000Z");
	for (let f = 0; f < fileCount; f++) {
		const id = `0190${f.toString(16).padStart(4, "0")}-0000-7000-8000-${f.toString(16).padStart(12, "0")}`;
		const at = base + f * 60_000;
		const lines: unknown[] = [{ type: "session", version: 3, id, timestamp: new Date(at).toISOString(), cwd }];
		let parent: string | null = null;
		for (let m = 0; m < 12; m++) {
			const entryId = `${f.toString(16).padStart(4, "0")}${m.toString(16).padStart(4, "0")}`;
			const role = m % 2 === 0 ? "user" : "assistant";
			const message =
				role === "user"
					? { role, content: [{ type: "text", text: sentence(rand, 12) }], timestamp: at + m * 1000 }
					: {
							role,
							content: [{ type: "text", text: sentence(rand, 60) }],
							api: "anthropic-messages",
							provider: "mock",
							model: "mock-1",
							usage: { input: 100, output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: 150, cost: { total: 0 } },
							stopReason: "stop",
							timestamp: at + m * 1000,
						};
			lines.push({
				type: "message",
				id: entryId,
				parentId: parent,
				timestamp: new Date(at + m * 1000).toISOString(),
				message,
			});
			parent = entryId;
		}
		files.push({
			name: `${new Date(at).toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`,
			text: `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
		});
	}
	return files;
}

function sideEnv(name: string, files: { name: string; text: string }[]): Record<string, string> {
	const { env, agent } = benchHome(root, name, server.url);
	const dir = join(agent, "sessions", `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`);
	mkdirSync(dir, { recursive: true });
	for (const file of files) writeFileSync(join(dir, file.name), file.text);
	return env;
}

interface Sample {
	open: number;
	rows: number;
	listed: number;
	keys: number[];
}

async function measure(cmd: string[], env: Record<string, string>): Promise<Sample> {
	const app = PtyApp.start({
		cmd: [...cmd, "--provider", "mock", "--model", "mock-1"],
		env,
		cwd,
		columns: COLUMNS,
		rows: ROWS,
	});
	try {
		await app.screenShows((rows) => editorWithFooter(rows, COLUMNS), 120_000, "the editor");
		await app.quiet(500, 60_000);
		for (const key of "/resume") {
			const at = app.type(key);
			await app.nextFrame(at, (content) => content.includes(key), 10_000);
		}
		await app.quiet(300, 10_000);
		const at = app.type("\r");
		const opened = await app.nextFrame(at, (content) => content.includes("Resume Session"), 120_000);
		// The selected row's cursor: the first session row is on screen.
		const rowsAt = await app.screenShows((rows) => rows.some((r) => r.includes("› ")), 600_000, "a session row");
		const listedAt = await app.screenShows(
			(rows) => rows.some((r) => r.includes("Resume Session")) && !rows.some((r) => r.includes("Loading")),
			1_200_000,
			"the whole list",
		);
		await app.quiet(300, 60_000);
		const keys: number[] = [];
		for (const key of QUERY) {
			const t = app.type(key);
			const frame = await app.nextFrame(t, (content) => content.includes(key), 60_000);
			keys.push(frame.endedAt - t);
			await app.quiet(20, 60_000);
		}
		return { open: opened.endedAt - at, rows: rowsAt - at, listed: listedAt - at, keys };
	} finally {
		await app.stop();
	}
}

try {
	const files = sessionFiles();
	const sides = [
		{ name: "pi", cmd: [pi.node, pi.cli], env: sideEnv("pi", files) },
		{ name: "ours", cmd: [ours], env: sideEnv("ours", files) },
	].filter((side) => !only || side.name === only);
	if (process.env.GEN_ONLY) {
		console.log(root);
		process.exit(0);
	}
	console.log(
		`resume bench: ${fileCount} session files, ${runs} interleaved runs, ${COLUMNS}×${ROWS}; load ${loadavg()[0]?.toFixed(2)}`,
	);
	const results: Record<string, Sample[]> = { pi: [], ours: [] };
	for (let run = 0; run < runs; run++) {
		for (const side of run % 2 === 0 ? sides : [...sides].reverse()) {
			const sample = await measure(side.cmd, side.env);
			results[side.name]?.push(sample);
			console.error(
				`run ${run + 1} ${side.name}: open ${sample.open.toFixed(1)} ms, rows ${sample.rows.toFixed(1)} ms, listed ${sample.listed.toFixed(1)} ms, keys median ${summarize(sample.keys).median.toFixed(1)} ms`,
			);
		}
	}
	const row = (label: string, get: (s: Sample[]) => number, goal: string) => {
		const p = results.pi?.length ? get(results.pi) : Number.NaN;
		const o = results.ours?.length ? get(results.ours) : Number.NaN;
		console.log(`| ${label} | ${p.toFixed(1)} | ${o.toFixed(1)} | ${(p / o).toFixed(1)}× | ${goal} |`);
	};
	const median = (xs: number[]) => summarize(xs).median;
	console.log(`load after: ${loadavg()[0]?.toFixed(2)}\n`);
	console.log("| measure (ms) | pi 0.87.1 | ours | pi ÷ ours | goal |\n| --- | --- | --- | --- | --- |");
	row("open: Enter → picker's first frame (median)", (s) => median(s.map((x) => x.open)), "≤ 100 ms, ≥ 5×");
	row("rows: Enter → first session row on screen (median)", (s) => median(s.map((x) => x.rows)), "≤ 100 ms, ≥ 5×");
	row("listed: Enter → every file listed (median)", (s) => median(s.map((x) => x.listed)), "≥ 5×");
	row("search keystroke → frame, median", (s) => summarize(s.flatMap((x) => x.keys)).median, "≥ 5×");
	row("search keystroke → frame, p99", (s) => summarize(s.flatMap((x) => x.keys)).p99, "≥ 5×");
} finally {
	server.stop();
	if (process.env.KEEP) console.log(`kept ${root}`);
	else rmSync(root, { recursive: true, force: true });
}
