/**
 * The installer's other modes: the compiled binary as Bun (BUN_BE_BUN=1), settings `npmCommand` (npm with pi's
 * arguments), and the one-line errors made from an installer's or git's output.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { SettingsStore } from "../../src/config/index.ts";
import { fsError, gitError, installError } from "../../src/packages/errors.ts";
import { createPackageManager, type PackageProgress } from "../../src/packages/index.ts";
import { childEnv, fixture } from "../helpers/packages-fixtures.ts";
import { type FakeRegistry, startRegistry } from "../support/npm-registry.ts";

let reg: FakeRegistry;
beforeAll(async () => {
	reg = await startRegistry([
		{
			name: "dep-a",
			version: "1.0.0",
			scripts: { postinstall: "node -e \"require('fs').writeFileSync(process.env.HOME + '/ran-dep-a', '')\"" },
		},
		{ name: "peer-x", version: "1.0.0" },
		{ name: "top", version: "1.1.0", dependencies: { "dep-a": "^1.0.0" }, peerDependencies: { "peer-x": "*" } },
	]);
});
afterAll(() => reg.stop());

const binary = join(import.meta.dir, "..", "..", "dist", "pi");

describe("install child", () => {
	test.skipIf(!existsSync(binary))(
		"the compiled binary installs as Bun (BUN_BE_BUN=1) with peers and scripts off",
		async () => {
			const f = fixture(reg);
			const manager = createPackageManager({
				agentDir: f.agentDir,
				cwd: f.cwd,
				store: f.store,
				binary,
				env: { ...childEnv(reg, f.home), BUN_BE_BUN: "1" },
			});
			const record = await manager.install("npm:top", { scope: "user" });
			expect(record.version).toBe("1.1.0");
			expect(record.blockedScripts).toEqual(["dep-a@1.0.0"]);
			expect(existsSync(join(f.agentDir, "npm", "node_modules", "peer-x"))).toBe(false);
			expect(existsSync(join(f.home, "ran-dep-a"))).toBe(false);
		},
		60_000,
	);

	test.skipIf(!Bun.which("npm"))(
		"npmCommand switches to npm with --prefix, --legacy-peer-deps and --ignore-scripts",
		async () => {
			const f = fixture(reg);
			const events: PackageProgress[] = [];
			await f.store.set("global", "npmCommand", ["npm", "--no-audit", "--no-fund"]);
			const store = new SettingsStore({ agentDir: f.agentDir, cwd: f.cwd, projectTrusted: true });
			const manager = createPackageManager({
				agentDir: f.agentDir,
				cwd: f.cwd,
				store,
				env: { ...childEnv(reg, f.home), npm_config_cache: join(f.home, ".npm") },
				onProgress: (p) => events.push(p),
			});
			const record = await manager.install("npm:top", { scope: "user" });
			const root = join(f.agentDir, "npm");
			expect(record.version).toBe("1.1.0");
			expect(record.integrity).toMatch(/^sha512-/);
			expect(existsSync(join(root, "package-lock.json"))).toBe(true);
			expect(existsSync(join(root, "node_modules", "peer-x"))).toBe(false);
			expect(existsSync(join(f.home, "ran-dep-a"))).toBe(false);
			expect(record.blockedScripts).toEqual(["dep-a@1.0.0"]);
			expect(events.some((e) => e.type === "warning" && e.message.includes("pi install --trust npm:top"))).toBe(true);
		},
		120_000,
	);
});

describe("error lines", () => {
	const cases: [string, string, RegExp][] = [
		["bun 404", "error: GET http://r/nope - 404", /not found in the registry/],
		["npm 404", "npm error code E404\nnpm error 404 Not Found - GET https://r/nope", /not found in the registry/],
		["bun 403", "error: GET http://r/sec - 403", /refused access \(403\)/],
		["bun 503", "error: GET http://r/top - 503", /registry failed \(HTTP 503\); try again later/],
		["npm 503", "npm error code E503", /registry failed \(HTTP 503\)/],
		["bun down", "error: ConnectionRefused downloading package manifest top", /cannot be reached/],
		["npm down", "npm error code ECONNREFUSED", /cannot be reached/],
		["integrity", "error: IntegrityCheckFailed extracting tarball from bad", /integrity mismatch/],
		["npm integrity", "npm error code EINTEGRITY", /integrity mismatch/],
		["disk full", "error: NoSpaceLeft: No space left on device", /disk is full/],
		[
			"corrupt json",
			"npm error code EJSONPARSE\nnpm error JSON.parse Invalid package.json",
			/package\.json is not valid JSON/,
		],
		["other", "error: something odd\nmore", /installer failed \(exit 1\): error: something odd$/],
	];
	for (const [name, output, expected] of cases) {
		test(name, () => {
			const error = installError("npm:x", output, 1);
			expect(error.message).toMatch(/^Cannot install npm:x: /);
			expect(error.message).toMatch(expected);
			expect(error.message).not.toContain("\n");
		});
	}
	test("filesystem and git", () => {
		expect(fsError("npm:x", Object.assign(new Error("write"), { code: "ENOSPC" })).message).toBe(
			"Cannot install npm:x: the disk is full (ENOSPC)",
		);
		expect(
			gitError("git:h/o/r", "fatal: unable to access 'https://h/o/r/': Could not resolve host: h").message,
		).toMatch(/cannot be reached/);
		expect(gitError("git:h/o/r", "remote: Repository not found.\nfatal: repository 'x' not found").message).toMatch(
			/repository was not found$/,
		);
	});
});
