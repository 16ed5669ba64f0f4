/**
 * Reliability figures (issue 23 item 10): kills survived, entries lost, lost settings writes, stale-lock takeover
 * time, tool timeout overshoot, orphans, soak RSS slope … for our binary, next to pi 0.87.1's where the same case
 * runs on pi. The cases themselves live in `scripts/bench/reliability/<area>.ts`; CI runs short versions of them as
 * tests in `test/reliability/`.
 *
 * Usage: bun scripts/bench/reliability.ts [--long] [--only area,area]
 *   --long  the full counts (1,000 kills, 10,000 soak turns, 16 writers …); without it the short CI-sized versions
 *   --only  run just these areas (names as printed)
 * Builds nothing: run `npm run build` first (dist/pi).
 */
import { existsSync } from "node:fs";
import { ensureRunnablePi } from "../conformance-cache.ts";
import { BINARY } from "./lib.ts";
import { AREAS } from "./reliability/index.ts";
import type { Figure } from "./reliability/types.ts";

const args = process.argv.slice(2);
const long = args.includes("--long") || process.env.PI_RELIABILITY_LONG === "1";
const onlyAt = args.indexOf("--only");
const only = onlyAt >= 0 ? new Set((args[onlyAt + 1] ?? "").split(",").filter(Boolean)) : null;

if (!existsSync(BINARY)) {
	console.error(`reliability bench: ${BINARY} is missing; run npm run build first`);
	process.exit(1);
}
const runnable = ensureRunnablePi();
const pi = "error" in runnable ? null : runnable;
if ("error" in runnable) console.error(`reliability bench: pi 0.87.1 not available (${runnable.error}); ours only`);

const log = (line: string) => console.error(`  ${line}`);
const rows: Array<Figure & { area: string }> = [];
for (const area of AREAS) {
	if (only && !only.has(area.name)) continue;
	console.error(`${area.name} …`);
	const started = performance.now();
	try {
		for (const figure of await area.run({ bin: BINARY, pi, long, log })) rows.push({ ...figure, area: area.name });
	} catch (error) {
		rows.push({ area: area.name, figure: "area failed", ours: String((error as Error)?.message ?? error) });
	}
	console.error(`${area.name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const cell = (v: string | number | undefined) => (v === undefined ? "—" : String(v));
console.log(`| area | figure | ours | pi 0.87.1 | note |`);
console.log(`| --- | --- | --- | --- | --- |`);
for (const r of rows) console.log(`| ${r.area} | ${r.figure} | ${cell(r.ours)} | ${cell(r.pi)} | ${r.note ?? ""} |`);
console.log(`\n${long ? "long" : "short"} run, ${rows.length} figures`);
