/**
 * The interactive benchmark's table: per case the figure for pi 0.87.1 and ours, the ratio pi ÷ ours (higher = ours
 * faster or cheaper) and the goal for ours with a verdict (✓/✗) when ours has a figure.
 */
import type { StreamSample } from "./interactive-cases.ts";
import { summarize } from "./pty-timing.ts";

export interface Results {
	/** Per `case/side`: why the side could not run the case (ours without an interactive mode, a timeout…). */
	unavailable: Record<string, string>;
	/** Per `case/side`: ms samples (first frame and resume: one per run; keystrokes: one per key). */
	samples: Record<string, number[]>;
	/** Per keystroke `case/side`: the first (warm-up) key's ms, one per run. */
	firsts: Record<string, number[]>;
	/** Per `case/side`: one sample per run. */
	streams: Record<string, StreamSample[]>;
}

interface Row {
	label: string;
	pi?: number;
	ours?: number;
	digits: number;
	goal: string;
}

const LABELS: Record<string, string> = {
	empty: "empty session",
	"1000": "1,000-message session",
	"10000": "10,000-entry session",
};

export function renderTable(results: Results, options: { cases: readonly string[]; tokens: number }): string {
	const rows: Row[] = [];
	const value = (key: string, pick: (s: ReturnType<typeof summarize>) => number) => {
		const samples = results.samples[key];
		return samples && samples.length > 0 ? pick(summarize(samples)) : undefined;
	};
	const streamValue = (key: string, pick: (s: StreamSample) => number) => {
		const samples = results.streams[key];
		return samples && samples.length > 0 ? summarize(samples.map(pick)).median : undefined;
	};
	const both = (pick: (side: "pi" | "ours") => number | undefined) => ({
		pi: pick("pi"),
		ours: pick("ours"),
	});
	const verdict = (ok: boolean | undefined, text: string) => (ok === undefined ? text : `${text} ${ok ? "✓" : "✗"}`);

	for (const c of options.cases) {
		if (c === "first-frame") {
			const v = both((s) => value(`${c}/${s}`, (x) => x.median));
			const ratio = v.pi !== undefined && v.ours ? v.pi / v.ours : undefined;
			rows.push({
				label: "first frame: spawn → editor + footer (ms, median)",
				...v,
				digits: 0,
				goal: verdict(ratio === undefined ? undefined : ratio >= 10, "ours ≥ 10× faster"),
			});
		} else if (c.startsWith("keys-")) {
			const which = c.slice("keys-".length);
			const median = both((s) => value(`${c}/${s}`, (x) => x.median));
			const p99 = both((s) => value(`${c}/${s}`, (x) => x.p99));
			let goal = "";
			if (which === "10000") {
				const growth = (s: "pi" | "ours") => {
					const big = value(`keys-10000/${s}`, (x) => x.median);
					const empty = value(`keys-empty/${s}`, (x) => x.median);
					return big !== undefined && empty ? big / empty : undefined;
				};
				const [pi, ours] = [growth("pi"), growth("ours")];
				const shown = `pi ${fmtRatio(pi)}, ours ${fmtRatio(ours)}`;
				goal = verdict(ours === undefined ? undefined : ours <= 1.2, `median ≤ 1.2× empty's (${shown})`);
			}
			rows.push({ label: `keystroke → frame, ${LABELS[which]} (ms, median)`, ...median, digits: 2, goal });
			rows.push({ label: `keystroke → frame, ${LABELS[which]} (ms, p99)`, ...p99, digits: 2, goal: "" });
			const first = both((s) => {
				const runs = results.firsts[`${c}/${s}`];
				return runs && runs.length > 0 ? summarize(runs).median : undefined;
			});
			rows.push({
				label: `first key once settled, ${LABELS[which]} (ms, warm-up, median)`,
				...first,
				digits: 1,
				goal: "",
			});
		} else if (c.startsWith("stream-")) {
			const which = c.slice("stream-".length);
			const label = which === "empty" ? "empty session" : "after 1,000 messages";
			const pick = (f: (s: StreamSample) => number) => both((s) => streamValue(`${c}/${s}`, f));
			const cpu = pick((s) => (100 * s.cpuMs) / s.wallMs);
			const perToken = pick((s) => s.bytes / options.tokens);
			rows.push({
				label: `stream ${options.tokens} tokens, ${label}: CPU (% of a core)`,
				...cpu,
				digits: 1,
				goal: verdict(cpu.ours === undefined ? undefined : cpu.ours < 10, "< 10 %"),
			});
			rows.push({ label: `stream, ${label}: CPU ms`, ...pick((s) => s.cpuMs), digits: 0, goal: "" });
			rows.push({ label: `stream, ${label}: wall ms`, ...pick((s) => s.wallMs), digits: 0, goal: "" });
			rows.push({ label: `stream, ${label}: frames`, ...pick((s) => s.frames), digits: 0, goal: "" });
			rows.push({ label: `stream, ${label}: bytes written`, ...pick((s) => s.bytes), digits: 0, goal: "" });
			let goal = "";
			if (which === "1000") {
				const growth = (s: "pi" | "ours") => {
					const after = streamValue(`stream-1000/${s}`, (x) => x.bytes);
					const empty = streamValue(`stream-empty/${s}`, (x) => x.bytes);
					return after !== undefined && empty ? after / empty : undefined;
				};
				const [pi, ours] = [growth("pi"), growth("ours")];
				goal = verdict(
					ours === undefined ? undefined : ours >= 0.9 && ours <= 1.1,
					`within ±10 % of the empty session's (pi ${fmtRatio(pi)}, ours ${fmtRatio(ours)})`,
				);
			}
			rows.push({ label: `stream, ${label}: bytes per token`, ...perToken, digits: 1, goal });
		} else if (c === "resume-100mb") {
			const v = both((s) => value(`${c}/${s}`, (x) => x.median));
			rows.push({
				label: "resume 100 MB session → typed char shows (ms, median)",
				...v,
				digits: 0,
				goal: verdict(v.ours === undefined ? undefined : v.ours < 1000, "< 1000 ms"),
			});
		}
	}

	const cell = (n: number | undefined, digits: number) => (n === undefined ? "n/a" : n.toFixed(digits));
	const lines = ["| case | pi 0.87.1 | ours | ratio pi ÷ ours | goal (ours) |", "|---|---:|---:|---:|---|"];
	for (const row of rows) {
		const ratio = row.pi !== undefined && row.ours ? fmtRatio(row.pi / row.ours) : "—";
		lines.push(
			`| ${row.label} | ${cell(row.pi, row.digits)} | ${cell(row.ours, row.digits)} | ${ratio} | ${row.goal} |`,
		);
	}
	const notes = Object.entries(results.unavailable).map(([key, reason]) => {
		const [name, side] = key.split("/");
		return `${name}: ${side}: not available (${reason})`;
	});
	return [...lines, ...(notes.length > 0 ? ["", ...notes] : [])].join("\n");
}

function fmtRatio(n: number | undefined): string {
	return n === undefined || !Number.isFinite(n) ? "—" : `${n.toFixed(n >= 10 ? 0 : 1)}×`;
}
