/**
 * `npm test`: builds the binary (the end-to-end tests run it), runs every test with `bun test`, and ends with the
 * line `tests: N passed, N failed` taken from bun's JUnit report. Exits non-zero on any failure.
 * Extra arguments go to `bun test` (e.g. a path filter).
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const bun = process.execPath;
const report = join(root, ".cache", "junit.xml");
mkdirSync(join(root, ".cache"), { recursive: true });
rmSync(report, { force: true });

const build = Bun.spawnSync([bun, join(root, "scripts", "build-binary.ts")], {
	cwd: root,
	stdout: "inherit",
	stderr: "inherit",
});
if (build.exitCode !== 0) {
	console.log("tests: 0 passed, 1 failed");
	process.exit(1);
}

const run = Bun.spawnSync([bun, "test", "--reporter=junit", `--reporter-outfile=${report}`, ...process.argv.slice(2)], {
	cwd: root,
	stdout: "inherit",
	stderr: "inherit",
	env: { ...process.env, FORCE_COLOR: "0" },
});

let passed = 0;
let failed = 0;
try {
	const xml = readFileSync(report, "utf8");
	const top = /<testsuites\b[^>]*>/.exec(xml)?.[0] ?? "";
	const attr = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(top)?.[1] ?? 0);
	const total = attr("tests");
	failed = attr("failures") + attr("errors");
	passed = total - failed - attr("skipped");
} catch {
	// No report means bun test itself failed before running anything; count that as one failure.
	failed = Math.max(failed, 1);
}
if (run.exitCode !== 0 && failed === 0) failed = 1;
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
