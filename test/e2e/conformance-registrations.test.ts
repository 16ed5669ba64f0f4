/**
 * Every example extension of the pinned pi releases, loaded in the compiled binary one at a time, registers
 * exactly what its source says (`conformance-table.ts`, written by reading the examples): tools, commands, flags,
 * `pi.on` events, shortcuts and providers. The binary reports them with the hidden `PI_DEBUG_REGISTRATIONS=1`.
 *
 * Examples with npm dependencies (a package.json `dependencies`, or a bare import the host does not provide) are
 * copied and `npm install`ed once into `.cache/conformance/deps/<version>/<example>` (redone when their
 * package.json changes), then loaded from there. Without the release cache (no registry) a release is skipped,
 * saying why; likewise the dependency examples when npm cannot reach the registry.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { ensureExampleDeps, ensurePackage, PINNED } from "../../scripts/conformance-cache.ts";
import { VIRTUAL_SPECIFIERS } from "../../src/sdk/index.ts";
import { runPiAsync } from "../helpers/binary.ts";
import {
	bareImports,
	entryFiles,
	exampleUnits,
	isNodeBuiltin,
	npmDependencies,
	packageName,
} from "../helpers/conformance.ts";
import { makeTempDir } from "../helpers/tmp.ts";
import { type ExampleRegistrations, REGISTRATION_TABLE } from "./conformance-table.ts";

const KINDS = ["tools", "commands", "flags", "events", "shortcuts", "providers"] as const;
type Kind = (typeof KINDS)[number];
type Report = Record<Kind, string[]> & { path: string };

const CONCURRENCY = 4;

async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
	const queue = [...items];
	await Promise.all(
		Array.from({ length: Math.min(limit, queue.length) }, async () => {
			for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
		}),
	);
}

const sorted = (names: readonly string[] = []) => [...new Set(names)].sort();

/** Runs the binary on one example; returns its one report, or why there is none. */
async function registrationsOf(path: string, home: string): Promise<{ report: Report } | { problem: string }> {
	const run = await runPiAsync(["-e", path], { home, env: { PI_DEBUG_REGISTRATIONS: "1" } });
	const lines = run.stderr.split("\n").filter((line) => line.trim() !== "");
	const problem = lines.find((line) => line.startsWith("extension "));
	if (problem) return { problem };
	const reports = lines.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Report);
	if (run.exitCode !== 0 || reports.length !== 1) {
		return { problem: `exit ${run.exitCode}, ${reports.length} reports: ${run.stderr.trim().slice(0, 400)}` };
	}
	return { report: reports[0] as Report };
}

function differences(expected: ExampleRegistrations, report: Report): string[] {
	return KINDS.flatMap((kind) => {
		const want = sorted(expected[kind]);
		const got = sorted(report[kind]);
		return JSON.stringify(want) === JSON.stringify(got)
			? []
			: [`${kind}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`];
	});
}

/**
 * The index file of a folder that pi loads as a package whose conventional folders hide it (pi's `subagent`
 * example: `-e subagent` loads its prompts/ and no extension): its registrations are checked through the file.
 */
function hiddenIndex(unitPath: string): string | undefined {
	if (!statSync(unitPath).isDirectory() || existsSync(join(unitPath, "package.json"))) return undefined;
	if (!["extensions", "skills", "prompts", "themes"].some((dir) => existsSync(join(unitPath, dir)))) return undefined;
	return entryFiles(unitPath)[0];
}

/** Bare imports of the example that neither the host nor Node provides: they need an npm install. */
function npmImports(unitPath: string): string[] {
	return [...bareImports(entryFiles(unitPath))].filter(
		(spec) => !VIRTUAL_SPECIFIERS.includes(spec) && !isNodeBuiltin(spec),
	);
}

describe("pi example extensions register what their source says", () => {
	for (const spec of PINNED) {
		test(spec, async () => {
			const pkg = ensurePackage(spec);
			if ("error" in pkg) {
				console.warn(`conformance registrations: skipped ${spec}: ${pkg.error}`);
				return;
			}
			const table = REGISTRATION_TABLE[spec] ?? {};
			const units = exampleUnits(join(pkg.dir, "examples", "extensions"));
			const failures: string[] = [];

			const names = new Set(units.map((u) => u.name));
			for (const unit of units) if (!table[unit.name]) failures.push(`${unit.name}: not in conformance-table.ts`);
			for (const name of Object.keys(table))
				if (!names.has(name)) failures.push(`${name}: in the table, not in ${spec}`);

			const home = makeTempDir("pi-conf-reg-");
			const counts = { checked: 0, loaded: 0, matched: 0, deps: 0, depsOk: 0, installed: 0 };
			const skipped: string[] = [];
			await pool(units, CONCURRENCY, async (unit) => {
				const expected = table[unit.name];
				if (!expected) return;
				if (expected.skip) {
					skipped.push(`${unit.name} (${expected.skip})`);
					return;
				}
				const declared = npmDependencies(unit.path);
				const imported = npmImports(unit.path);
				const undeclared = imported.filter((s) => !declared.includes(packageName(s)));
				if (undeclared.length > 0) {
					failures.push(
						`${unit.name}: imports ${undeclared.join(", ")}, which neither the host nor package.json provides`,
					);
					return;
				}
				const needsNpm = declared.length > 0 || imported.length > 0;
				if (needsNpm !== (expected.deps === true)) {
					failures.push(
						`${unit.name}: the table says deps: ${expected.deps === true}, the example ${needsNpm ? "has" : "has no"} npm dependencies`,
					);
				}
				let path = hiddenIndex(unit.path) ?? unit.path;
				if (needsNpm) {
					counts.deps++;
					const installed = ensureExampleDeps(spec, unit.path);
					if ("error" in installed) {
						if (installed.offline) skipped.push(`${unit.name} (npm registry unreachable: ${installed.error})`);
						else failures.push(`${unit.name}: ${installed.error}`);
						return;
					}
					if (installed.installed) counts.installed++;
					path = installed.dir;
				}
				counts.checked++;
				const result = await registrationsOf(path, home);
				if ("problem" in result) {
					failures.push(`${unit.name}: ${result.problem}`);
					return;
				}
				counts.loaded++;
				const diff = differences(expected, result.report);
				if (diff.length === 0) {
					counts.matched++;
					if (needsNpm) counts.depsOk++;
				} else failures.push(`${unit.name}: ${diff.join("; ")}`);
			});

			console.log(
				`conformance registrations ${spec}: ${counts.loaded}/${units.length} load, ` +
					`${counts.matched}/${units.length} match the table, ` +
					`npm examples ${counts.depsOk}/${counts.deps} (installed now: ${counts.installed})` +
					(skipped.length > 0 ? `; skipped: ${skipped.sort().join(", ")}` : ""),
			);
			expect(failures.sort()).toEqual([]);
		}, 600_000);
	}
});
