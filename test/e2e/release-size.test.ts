/**
 * Release size against pi's own release, for linux-x64: our binary built as the release builds it (without the
 * start-up order, which moves bytecode but adds none), archived as the release archives it, beside pi 0.87.1's
 * release archive rebuilt from its npm package (scripts/release/pi-reference.ts) on the same Bun runtime. Our
 * archive must not be larger. `bun scripts/bench/release-size.ts <release dir>` does this for every target.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tarGz } from "../../scripts/release/archive.ts";
import { piPackage, piReference } from "../../scripts/release/pi-reference.ts";
import { bunVersion, cachedRuntime } from "../../scripts/release/runtimes.ts";
import { compareSize, sizeTable } from "../../scripts/release/size-report.ts";
import { TARGETS } from "../../scripts/release/targets.ts";
import { makeTempDir } from "../helpers/tmp.ts";

const root = join(import.meta.dir, "..", "..");
const target = TARGETS.find((t) => t.name === "linux-x64");
if (!target) throw new Error("no linux-x64 release target");

/** The pinned linux-x64 runtime when cached; else this Bun, which is that runtime when it is a linux-x64 Bun of the pinned version. */
function runtime(): { path?: string } | { skip: string } {
	const cached = cachedRuntime(target as (typeof TARGETS)[number]);
	if (cached) return { path: cached };
	if (process.platform === "linux" && process.arch === "x64" && Bun.version === bunVersion()) return {};
	return { skip: `no cached ${target?.runtimePackage} runtime and this Bun is not a linux-x64 ${bunVersion()}` };
}

const pkg = piPackage();
const rt = runtime();
const skip = "error" in pkg ? pkg.error : "skip" in rt ? rt.skip : undefined;
if (skip) console.log(`release-size: skipped: ${skip}`);

describe("release size (linux-x64)", () => {
	test.skipIf(skip !== undefined)(
		"our release archive is no larger than pi 0.87.1's",
		() => {
			const exe = "path" in rt ? rt.path : undefined;
			const outfile = join(makeTempDir("pi-release-size-"), "pi");
			const build = Bun.spawnSync([process.execPath, join(root, "scripts", "build-binary.ts")], {
				cwd: root,
				env: {
					...process.env,
					PI_BUILD_TARGET: target.bunTarget,
					...(exe ? { PI_BUILD_EXECUTABLE: exe } : {}),
					PI_BUILD_OUTFILE: outfile,
					PI_BUILD_NO_ORDER: "1",
				},
				stdout: "pipe",
				stderr: "pipe",
			});
			expect(build.stderr.toString()).toBe("");
			expect(build.exitCode).toBe(0);
			const binary = readFileSync(outfile);
			const archive = tarGz([{ name: "pi", data: binary, mode: 0o755 }], 1_700_000_000);
			const row = compareSize(
				{ target: target.name, binarySize: binary.length, archiveSize: archive.length },
				piReference(target, exe),
			);
			for (const line of sizeTable([row])) console.log(`release-size: ${line}`);
			expect(row.pi.binarySize).toBeGreaterThan(50 * 1024 * 1024); // a whole pi, not a stub
			expect(row.ok).toBe(true);
		},
		120_000,
	);
});
