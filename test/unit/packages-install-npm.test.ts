/**
 * npm installs through Bun's package manager (the test runner's bun stands in for our binary with BUN_BE_BUN=1),
 * against a loopback registry: one tree per scope, peers left out, scripts blocked unless trusted, integrity
 * refused, interrupted installs leaving everything as it was, remove, and the update plan.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnRunner } from "../../src/packages/index.ts";
import { childEnv, fixture } from "../helpers/packages-fixtures.ts";
import { type FakeRegistry, startRegistry } from "../support/npm-registry.ts";

let reg: FakeRegistry;
const marker = (home: string, name: string) => join(home, `ran-${name}`);

beforeAll(async () => {
	reg = await startRegistry([
		{
			name: "dep-a",
			version: "1.0.0",
			scripts: { postinstall: "node -e \"require('fs').writeFileSync(process.env.HOME + '/ran-dep-a', '')\"" },
		},
		{
			name: "esbuild",
			version: "1.0.0",
			scripts: { postinstall: "node -e \"require('fs').writeFileSync(process.env.HOME + '/ran-esbuild', '')\"" },
		},
		{ name: "peer-x", version: "1.0.0" },
		{ name: "top", version: "1.0.0", dependencies: { "dep-a": "^1.0.0" }, peerDependencies: { "peer-x": "*" } },
		{
			name: "top",
			version: "1.1.0",
			dependencies: { "dep-a": "^1.0.0", esbuild: "1.0.0" },
			peerDependencies: { "peer-x": "*" },
		},
		{ name: "other", version: "2.0.0" },
		{ name: "bad", version: "1.0.0" },
		{ name: "@scope/tool", version: "0.1.0" },
	]);
	reg.corruptIntegrity("bad", "1.0.0");
});
afterAll(() => reg.stop());

describe("npm installs", () => {
	test("user scope: one tree, record with version and integrity, settings entry, no peers, scripts blocked", async () => {
		const f = fixture(reg);
		const record = await f.manager.install("npm:top", { scope: "user" });
		const root = join(f.agentDir, "npm");
		expect(record.version).toBe("1.1.0");
		expect(record.integrity).toMatch(/^sha512-/);
		expect(record.installedPath).toBe(join(root, "node_modules", "top"));
		expect(existsSync(join(root, "node_modules", "dep-a"))).toBe(true);
		expect(existsSync(join(root, "node_modules", "peer-x"))).toBe(false);
		expect(existsSync(join(root, "bun.lock"))).toBe(true);
		expect(f.settings("user").packages).toEqual(["npm:top"]);
		expect(f.manager.records("user").map((r) => [r.identity, r.version])).toEqual([["npm:top", "1.1.0"]]);
		// no script ran, not even esbuild's (Bun's default trusted list is off)
		expect(existsSync(marker(f.home, "dep-a"))).toBe(false);
		expect(existsSync(marker(f.home, "esbuild"))).toBe(false);
		expect(record.blockedScripts?.sort()).toEqual(["dep-a@1.0.0", "esbuild@1.0.0"]);
		expect(f.warnings().join("\n")).toContain("pi install --trust npm:top");
		expect(readdirSync(f.agentDir).filter((n) => n.includes("staging"))).toEqual([]);
		expect(f.events.filter((e) => e.type !== "warning").map((e) => e.type)).toEqual([
			"resolving",
			"downloading",
			"linking",
			"done",
		]);

		// a second package shares the tree; re-installing a pinned version replaces the entry in place
		await f.manager.install("npm:@scope/tool", { scope: "user" });
		await f.manager.install("npm:top@1.0.0", { scope: "user" });
		const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
		expect(Object.keys(manifest.dependencies).sort()).toEqual(["@scope/tool", "top"]);
		expect(f.settings("user").packages).toEqual(["npm:top@1.0.0", "npm:@scope/tool"]);
		expect(JSON.parse(readFileSync(join(root, "node_modules/top/package.json"), "utf8")).version).toBe("1.0.0");
	}, 60_000);

	test("re-installing a package configured in object form keeps its filters", async () => {
		const f = fixture(reg);
		await f.store.set("global", "packages", ["npm:other", { source: "npm:top", skills: [], extensions: ["!x.ts"] }]);
		await f.manager.install("npm:top@1.0.0", { scope: "user" });
		expect(f.settings("user").packages).toEqual([
			"npm:other",
			{ source: "npm:top@1.0.0", skills: [], extensions: ["!x.ts"] },
		]);
		expect(f.manager.configured().map((c) => [c.source, c.filters])).toEqual([
			["npm:other", undefined],
			["npm:top@1.0.0", { extensions: ["!x.ts"], skills: [] }],
		]);
	}, 60_000);

	test("project scope installs into .pi/npm and the project settings", async () => {
		const f = fixture(reg);
		await f.manager.install("npm:other", { scope: "project" });
		expect(existsSync(join(f.cwd, ".pi", "npm", "node_modules", "other", "package.json"))).toBe(true);
		expect(f.settings("project").packages).toEqual(["npm:other"]);
		expect(f.settings("user").packages).toBeUndefined();
		expect(f.manager.records("project")[0]?.version).toBe("2.0.0");
	}, 60_000);

	test("--trust runs the package's (and its dependencies') scripts and records the name", async () => {
		const f = fixture(reg);
		const record = await f.manager.install("npm:top", { scope: "user", trust: true });
		expect(existsSync(marker(f.home, "dep-a"))).toBe(true);
		expect(existsSync(marker(f.home, "esbuild"))).toBe(true);
		expect(record.blockedScripts).toBeUndefined();
		expect(f.settings("user").trustedPackageScripts).toEqual(["top"]);
	}, 60_000);

	test("an integrity mismatch is refused and leaves tree, records and settings as they were", async () => {
		const f = fixture(reg);
		await f.manager.install("npm:other", { scope: "user" });
		const root = join(f.agentDir, "npm");
		const before = [
			f.read(join(root, "package.json")),
			f.read(join(root, "bun.lock")),
			f.read(f.store.pathFor("global")),
		];
		await expect(f.manager.install("npm:bad", { scope: "user" })).rejects.toThrow(
			/^Cannot install npm:bad: integrity mismatch/,
		);
		expect([
			f.read(join(root, "package.json")),
			f.read(join(root, "bun.lock")),
			f.read(f.store.pathFor("global")),
		]).toEqual(before);
		expect(existsSync(join(root, "node_modules", "bad"))).toBe(false);
		expect(existsSync(join(root, "node_modules", "other"))).toBe(true);
		expect(f.manager.records("user").map((r) => r.identity)).toEqual(["npm:other"]);
	}, 60_000);

	test("an install child killed midway leaves everything as before; stale staging is cleaned next time", async () => {
		const f = fixture(reg);
		await f.manager.install("npm:other", { scope: "user" });
		const root = join(f.agentDir, "npm");
		const snapshot = () => [
			f.read(join(root, "package.json")),
			f.read(join(root, "bun.lock")),
			f.read(f.store.pathFor("global")),
			f.read(join(f.agentDir, "packages.lock.json")),
		];
		const before = snapshot();
		const killer = fixture(reg, {
			reuse: f,
			runner: {
				async run(command, args, options) {
					if (args[0] !== "install") return spawnRunner.run(command, args, options);
					// the child gets as far as writing part of the tree, then dies
					const child = Bun.spawn([command, ...args], {
						cwd: options.cwd,
						env: options.env as Record<string, string>,
						stdout: "ignore",
						stderr: "ignore",
					});
					await Bun.sleep(5);
					child.kill("SIGKILL");
					await child.exited;
					mkdirSync(join(options.cwd, "node_modules", "top"), { recursive: true });
					return { code: 137, stdout: "", stderr: "Killed" };
				},
			},
		});
		await expect(killer.manager.install("npm:top", { scope: "user" })).rejects.toThrow(/^Cannot install npm:top: /);
		expect(snapshot()).toEqual(before);
		expect(existsSync(join(root, "node_modules", "top"))).toBe(false);
		expect(readdirSync(f.agentDir).filter((n) => n.startsWith("npm."))).toEqual([]);
		// a staging folder of a run killed outright is removed by the next install
		mkdirSync(join(f.agentDir, "npm.staging-999999", "node_modules"), { recursive: true });
		await f.manager.install("npm:@scope/tool", { scope: "user" });
		expect(readdirSync(f.agentDir).filter((n) => n.startsWith("npm."))).toEqual([]);
	}, 60_000);

	test("remove deletes the files, the settings entry and the record", async () => {
		const f = fixture(reg);
		await f.manager.install("npm:other", { scope: "user" });
		await f.manager.install("npm:@scope/tool", { scope: "user" });
		expect(await f.manager.remove("npm:other@2", { scope: "user" })).toBe(true);
		const root = join(f.agentDir, "npm");
		expect(existsSync(join(root, "node_modules", "other"))).toBe(false);
		expect(existsSync(join(root, "node_modules", "@scope", "tool"))).toBe(true);
		expect(f.settings("user").packages).toEqual(["npm:@scope/tool"]);
		expect(f.manager.records("user").map((r) => r.identity)).toEqual(["npm:@scope/tool"]);
		expect(await f.manager.remove("npm:other", { scope: "user" })).toBe(false);
	}, 60_000);

	test("update plan: unpinned moves to the newest matching version, pinned stays", async () => {
		const f = fixture(reg);
		await f.manager.install("npm:top@^1.0.0", { scope: "user" });
		await f.manager.install("npm:other@2.0.0", { scope: "user" });
		reg.add({ name: "top", version: "1.2.0", dependencies: { "dep-a": "^1.0.0" } });
		reg.add({ name: "top", version: "2.0.0" });
		const plan = await f.manager.planUpdate();
		expect(plan.map((p) => [p.identity, p.status, p.from, p.to])).toEqual([
			["npm:top", "update", "1.1.0", "1.2.0"],
			["npm:other", "pinned", "2.0.0", undefined],
		]);
		const records = await f.manager.applyUpdate(plan);
		expect(records.map((r) => r.version)).toEqual(["1.2.0"]);
		expect(f.settings("user").packages).toEqual(["npm:top@^1.0.0", "npm:other@2.0.0"]);
		expect((await f.manager.planUpdate("npm:top"))[0]?.status).toBe("current");
		await expect(f.manager.planUpdate("npm:nothing")).rejects.toThrow("No matching package found for npm:nothing");
	}, 60_000);

	test("one-line errors: not found, registry down, auth, offline", async () => {
		const f = fixture(reg);
		await expect(f.manager.install("npm:nope-x", { scope: "user" })).rejects.toThrow(
			/^Cannot install npm:nope-x: not found in the registry/,
		);
		const flaky = await startRegistry([{ name: "top", version: "1.0.0" }]);
		try {
			const down = fixture(flaky);
			flaky.setDown(true);
			await expect(down.manager.install("npm:top", { scope: "user" })).rejects.toThrow(
				/^Cannot install npm:top: the registry cannot be reached/,
			);
			flaky.setDown(true, "503");
			await expect(down.manager.install("npm:top", { scope: "user" })).rejects.toThrow(
				/^Cannot install npm:top: the registry failed \(HTTP 503\)/,
			);
		} finally {
			flaky.stop();
		}
		const offline = fixture(reg, { env: { PI_OFFLINE: "1" } });
		await expect(offline.manager.install("npm:top", { scope: "user" })).rejects.toThrow(
			/offline \(PI_OFFLINE is set\)/,
		);
		const top = { type: "npm", raw: "npm:top", name: "top", spec: "top", pinned: false } as const;
		expect(await offline.manager.ensureInstalled(top, "user")).toBeUndefined();
		expect(offline.warnings()).toEqual(["npm:top: not installed and PI_OFFLINE is set; skipped"]);
		expect(f.settings("user").packages).toBeUndefined();
	}, 60_000);

	test("auth: a 401 is one line; a token in ~/.npmrc is used", async () => {
		const secure = await startRegistry([
			{ name: "sec", version: "1.0.0" },
			{ name: "sec2", version: "2.0.0" },
		]);
		secure.requireToken("s3cret");
		try {
			const f = fixture(secure);
			await expect(f.manager.install("npm:sec", { scope: "user" })).rejects.toThrow(
				/^Cannot install npm:sec: the registry refused access \(401\)/,
			);
			const host = new URL(secure.url).host;
			writeFileSync(join(f.home, ".npmrc"), `registry=${secure.url}\n//${host}/:_authToken=s3cret\n`);
			expect((await f.manager.install("npm:sec", { scope: "user" })).version).toBe("1.0.0");
			// an .npmrc put in the tree folder is read as well, and survives the next install's swap
			rmSync(join(f.home, ".npmrc"));
			writeFileSync(join(f.agentDir, "npm", ".npmrc"), `//${host}/:_authToken=s3cret\n`);
			expect((await f.manager.install("npm:sec2", { scope: "user" })).version).toBe("2.0.0");
			expect(readFileSync(join(f.agentDir, "npm", ".npmrc"), "utf8")).toContain("s3cret");
		} finally {
			secure.stop();
		}
	}, 60_000);

	test("ensureInstalled installs a missing package once, without touching settings", async () => {
		const f = fixture(reg);
		const other = { type: "npm", raw: "npm:other", name: "other", spec: "other", pinned: false } as const;
		const [a, b] = await Promise.all([
			f.manager.ensureInstalled(other, "temporary"),
			f.manager.ensureInstalled(other, "temporary"),
		]);
		expect(a).toBe(join(f.agentDir, "cache", "packages", "npm", "node_modules", "other"));
		expect(b).toBe(a);
		expect(existsSync(f.store.pathFor("global"))).toBe(false);
	}, 60_000);
});

describe("npm installs, concurrency and start-up", () => {
	test("two installs into one scope at once both land in the shared tree", async () => {
		const f = fixture(reg);
		const g = fixture(reg, { reuse: f });
		await Promise.all([
			f.manager.install("npm:other", { scope: "user" }),
			g.manager.install("npm:@scope/tool", { scope: "user" }),
		]);
		const manifest = JSON.parse(readFileSync(join(f.agentDir, "npm", "package.json"), "utf8"));
		expect(Object.keys(manifest.dependencies).sort()).toEqual(["@scope/tool", "other"]);
		expect(f.manager.records("user").map((r) => r.identity)).toEqual(["npm:@scope/tool", "npm:other"]);
		expect((f.settings("user").packages as string[]).sort()).toEqual(["npm:@scope/tool", "npm:other"]);
	}, 60_000);

	test("two processes installing into one scope take turns (scope lock)", async () => {
		const f = fixture(reg);
		const child = join(import.meta.dir, "..", "helpers", "packages-install-child.ts");
		const env = JSON.stringify(childEnv(reg, f.home));
		const runs = ["npm:other", "npm:top", "npm:@scope/tool"].map(
			(source) => Bun.spawn([process.execPath, child, f.agentDir, f.cwd, source, env], { stderr: "pipe" }).exited,
		);
		expect(await Promise.all(runs)).toEqual([0, 0, 0]);
		const manifest = JSON.parse(readFileSync(join(f.agentDir, "npm", "package.json"), "utf8"));
		expect(Object.keys(manifest.dependencies).sort()).toEqual(["@scope/tool", "other", "top"]);
		expect(f.manager.records("user").map((r) => r.identity)).toEqual(["npm:@scope/tool", "npm:other", "npm:top"]);
		expect((f.settings("user").packages as string[]).length).toBe(3);
	}, 60_000);

	test("ensureInstalled re-installs when the configured version no longer matches", async () => {
		const f = fixture(reg);
		await f.manager.install("npm:top@1.0.0", { scope: "user" });
		const pinned = {
			type: "npm",
			raw: "npm:top@1.1.0",
			name: "top",
			version: "1.1.0",
			spec: "top@1.1.0",
			pinned: true,
		} as const;
		const path = await f.manager.ensureInstalled(pinned, "user");
		expect(JSON.parse(readFileSync(join(path as string, "package.json"), "utf8")).version).toBe("1.1.0");
	}, 60_000);
});
