/**
 * Start-up benchmark: wall time and peak RSS of `pi --version` and `pi --help` (median of N runs, default 20),
 * in a temp HOME with no extensions. Targets: --version ≤ 20 ms, --help ≤ 60 ms. The machine's floor is measured
 * alongside: a one-line program compiled the same way.
 * Usage: npm run build && bun scripts/bench/startup.ts [runs]
 */
import { existsSync } from "node:fs";
import { BINARY, compileFloor, HELLO_FLOOR_SOURCE, measure, printTable, tempHome } from "./lib.ts";

const runs = Number(process.argv[2] ?? 20);
if (!existsSync(BINARY)) {
	console.error(`bench: ${BINARY} is missing; run npm run build first`);
	process.exit(1);
}
const { home, dispose } = tempHome();
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
const floor = compileFloor("hello", HELLO_FLOOR_SOURCE);
try {
	const rows = [
		measure("pi --version", [BINARY, "--version"], env, home, runs),
		measure("pi --help", [BINARY, "--help"], env, home, runs),
		measure("floor: a one-line Bun binary", [floor.binary], env, home, runs),
	];
	const ok = printTable(rows, { "pi --version": 20, "pi --help": 60 });
	console.log(ok ? "bench: targets met" : "bench: a target was missed");
} finally {
	dispose();
	floor.dispose();
}
