/**
 * Counting what a soak run keeps alive: the soak of `test/reliability/soak.ts` on pi from source (bun, with a
 * preload that on SIGUSR2 runs a full GC and writes JavaScriptCore's heap statistics), a heap count every
 * `every` turns, then the growth per turn of each object type between the first and the last count. A leak shows
 * as a type growing per turn that the session's own entries do not explain (listeners, timers, promises, maps);
 * `Timeout` and `Promise` should stay flat.
 * Usage: bun scripts/bench/soak-heap.ts [turns=3000] [every=1000]
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runSoak } from "../../test/reliability/soak.ts";
import { ROOT } from "./lib.ts";

const turns = Number(process.argv[2] ?? 3000);
const every = Number(process.argv[3] ?? 1000);
const dir = mkdtempSync(join(tmpdir(), "pi-soak-heap-"));
const preload = join(dir, "probe.ts");
writeFileSync(
	preload,
	`import { heapStats } from "bun:jsc";
import { writeFileSync } from "node:fs";
let n = 0;
process.on("SIGUSR2", () => {
	Bun.gc(true);
	const s = heapStats();
	const m = process.memoryUsage();
	writeFileSync(${JSON.stringify(dir)} + "/count-" + n++ + ".json", JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, counts: s.objectTypeCounts }));
});
`,
);

interface Count {
	turn: number;
	rss: number;
	heapUsed: number;
	heapTotal: number;
	counts: Record<string, number>;
}
const counts: Count[] = [];
const result = await runSoak({
	command: [process.execPath, "--preload", preload, join(ROOT, "src", "main.ts")],
	turns,
	compactions: Math.max(1, Math.floor(turns / 500)),
	sampleEvery: every,
	warmupTurns: every,
	log: (line) => console.error(line),
	onSample: async (pid, turn) => {
		const file = join(dir, `count-${counts.length}.json`);
		process.kill(pid, "SIGUSR2");
		for (let i = 0; i < 100; i++) {
			try {
				counts.push({ turn, ...JSON.parse(readFileSync(file, "utf8")) });
				return;
			} catch {
				await Bun.sleep(50);
			}
		}
		throw new Error(`no heap count from ${pid} within 5 s`);
	},
});
const first = counts[0];
const last = counts.at(-1);
if (!first || !last || last.turn === first.turn) throw new Error("need at least two heap counts");
const span = last.turn - first.turn;
const per = (a: number, b: number) => ((b - a) / span).toFixed(2);
console.log(`turns ${first.turn} → ${last.turn} (after a full GC each time):`);
console.log(`  heap used: ${per(first.heapUsed / 1024, last.heapUsed / 1024)} KiB/turn`);
console.log(`  heap total: ${per(first.heapTotal / 1024, last.heapTotal / 1024)} KiB/turn`);
console.log(`  RSS: ${per(first.rss / 1024, last.rss / 1024)} KiB/turn`);
const types = new Set([...Object.keys(first.counts), ...Object.keys(last.counts)]);
const growth = [...types]
	.map((type) => ({ type, from: first.counts[type] ?? 0, to: last.counts[type] ?? 0 }))
	.filter((g) => g.to !== g.from || g.type === "Timeout" || g.type === "Promise")
	.sort((a, b) => b.to - b.from - (a.to - a.from));
console.log("  objects per turn by type (first → last count):");
for (const g of growth.slice(0, 12)) console.log(`    ${g.type}: ${per(g.from, g.to)} (${g.from} → ${g.to})`);
console.log(`reopen equal: ${result.reopenEqual}; session on disk ${result.sessionBytesPerTurn.toFixed(0)} B/turn`);
