/**
 * Conformance corpus: every example extension of the pinned pi releases (0.87.1, 0.73.1, 0.58.4) loads through
 * the compiled binary with no node_modules. The releases are fetched once into the git-ignored
 * `.cache/conformance` with `npm pack` (the npm registry); without it the test is skipped, saying why.
 * Examples with third-party dependencies (they need an `npm install`) are only listed here;
 * conformance-registrations.test.ts installs and loads them, and checks what every example registers.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ensurePackage, PINNED } from "../../scripts/conformance-cache.ts";
import { runPi } from "../helpers/binary.ts";
import { makeTempDir } from "../helpers/tmp.ts";

/** Examples that do not load yet, with the reason (shrinks as the TUI and other surfaces land). */
const KNOWN_FAILURES: Record<string, string> = {};

function exampleUnits(dir: string): { name: string; path: string; deps: boolean }[] {
	return readdirSync(dir)
		.filter((name) => name.endsWith(".ts") || statSync(join(dir, name)).isDirectory())
		.map((name) => {
			const path = join(dir, name);
			const manifest = join(path, "package.json");
			const deps =
				existsSync(manifest) && Object.keys(JSON.parse(readFileSync(manifest, "utf8")).dependencies ?? {}).length > 0;
			return { name, path, deps };
		});
}

describe("pi example extensions load in the binary", () => {
	for (const spec of PINNED) {
		test(spec, () => {
			const pkg = ensurePackage(spec);
			if ("error" in pkg) {
				console.warn(`conformance: skipped ${spec}: ${pkg.error}`);
				return;
			}
			const home = makeTempDir("pi-conf-");
			const units = exampleUnits(join(pkg.dir, "examples", "extensions"));
			const failures: string[] = [];
			let loaded = 0;
			const withDeps = units.filter((u) => u.deps).map((u) => u.name);
			for (const unit of units.filter((u) => !u.deps)) {
				const run = runPi(["-e", unit.path, "--help"], { home });
				const problem = run.stderr.split("\n").find((line) => line.startsWith("extension "));
				if (run.exitCode === 0 && !problem) loaded++;
				else if (!KNOWN_FAILURES[unit.name]) failures.push(`${unit.name}: ${problem ?? run.stderr.trim()}`);
			}
			console.log(
				`conformance ${spec}: ${loaded}/${units.length - withDeps.length} load (needs npm install: ${withDeps.join(", ")})`,
			);
			expect(failures).toEqual([]);
		}, 120_000);
	}
});
