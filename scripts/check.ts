/**
 * `npm run check`: format + lint (biome), type-check (tsc), layer rules. `--write` lets biome fix what it can.
 * Exits non-zero when any step fails.
 */
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const bin = (name: string) => join(root, "node_modules", ".bin", name);
const write = process.argv.includes("--write");

const steps: Array<[string, string[]]> = [
	["biome", [bin("biome"), "check", ...(write ? ["--write"] : []), "--error-on-warnings", "."]],
	["tsc", [bin("tsc"), "-p", ".", "--noEmit"]],
	["layers", [process.execPath, join(root, "scripts", "check-layers.ts")]],
];

let failed = 0;
for (const [name, cmd] of steps) {
	const run = Bun.spawnSync(cmd, { cwd: root, stdout: "inherit", stderr: "inherit" });
	if (run.exitCode !== 0) {
		console.error(`check: ${name} failed`);
		failed++;
	}
}
if (failed > 0) process.exit(1);
console.log("check: ok");
