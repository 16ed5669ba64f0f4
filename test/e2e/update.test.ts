/**
 * `pi update` through the compiled binary: a copy of dist/pi in a temp folder updates itself from a loopback
 * release site (whose release binaries are stand-ins that answer --version), keeping itself as `.pi.previous`.
 * (The site runs in this process, so the binary is always run asynchronously.)
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { ensureBinary, runPiAsync } from "../helpers/binary.ts";
import { startReleaseSite } from "../helpers/release-server.ts";
import { makeTempDir } from "../helpers/tmp.ts";

const site = startReleaseSite();
site.publish("9.1.0");
afterAll(() => site.stop());

function installedCopy(): { home: string; binary: string } {
	const home = makeTempDir("pi-update-home-");
	const binary = join(makeTempDir("pi-update-bin-"), "pi");
	copyFileSync(ensureBinary(), binary);
	return { home, binary };
}

describe("pi update (compiled binary)", () => {
	test("updates itself from the release site and keeps the old binary", async () => {
		const { home, binary } = installedCopy();
		const original = readFileSync(binary);
		const run = await runPiAsync(["update"], { home, binary, env: { PI_BASE_URL: site.url } });
		expect(run.stderr).toBe("");
		// Plain `pi update` updates pi only and says so, as pi 0.87.1 does.
		expect(run.stdout).toBe(
			"Extensions are skipped. Run pi update --extensions to update extensions.\n" +
				`pi updated: ${pkg.version} → 9.1.0 (the previous one is kept for pi update --rollback)\n`,
		);
		expect(run.exitCode).toBe(0);
		expect(Bun.spawnSync([binary, "--version"]).stdout.toString()).toBe("9.1.0\n");
		expect(readFileSync(join(binary, "..", ".pi.previous"))).toEqual(original);
	}, 60_000);

	test("aliases; without a release site it says how to name one; a refused download changes nothing", async () => {
		const { home, binary } = installedCopy();
		const none = await runPiAsync(["update", "self"], { home, binary });
		expect(none.stderr).toBe("pi update: no release site is known for this build: set PI_BASE_URL to one\n");
		expect(none.exitCode).toBe(1);
		site.publish("9.2.0");
		site.tamper("9.2.0", "SHA256SUMS", "html");
		const html = await runPiAsync(["update", "--self", "--force"], { home, binary, env: { PI_BASE_URL: site.url } });
		expect(html.stderr).toContain("SHA256SUMS is an HTML page, not a checksum list");
		expect(html.exitCode).toBe(1);
		expect(existsSync(join(binary, "..", ".pi.previous"))).toBe(false);
		expect((await runPiAsync(["--version"], { home, binary })).stdout).toBe(`${pkg.version}\n`);
	}, 60_000);
});
