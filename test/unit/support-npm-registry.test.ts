/**
 * The test support that package-manager tests stand on: the loopback npm registry (packuments, tarballs, integrity,
 * auth, outages) as real clients (Bun's package manager, npm) see it, and the local bare git repositories.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTgz } from "../../src/util/tgz.ts";
import { createBareRepo, gitMissingReason, isolatedGitEnv } from "../support/git-repos.ts";
import { type FakeRegistry, npmrcTokenLine, registryEnv, startRegistry } from "../support/npm-registry.ts";
import { distOf } from "../support/npm-tarball.ts";

const root = mkdtempSync(join(tmpdir(), "pi-support-registry-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const BUN = process.execPath;
const OUR_BINARY = join(import.meta.dir, "..", "..", "dist", "pi");
const LONG = `${"deep/".repeat(30)}file.txt`;

let reg: FakeRegistry;
beforeAll(async () => {
	reg = await startRegistry([
		{ name: "alpha", version: "1.0.0", dependencies: { beta: "^1.0.0" }, files: { "index.js": "module.exports='a1'" } },
		{
			name: "alpha",
			version: "1.2.0",
			dependencies: { beta: "^1.0.0" },
			files: { "index.js": "module.exports='a12'" },
		},
		{
			name: "alpha",
			version: "2.0.0-rc.1",
			files: { "index.js": "module.exports='a2rc'" },
			tags: { next: "2.0.0-rc.1" },
		},
		{ name: "beta", version: "1.0.0", files: { "index.js": "module.exports='b'", [LONG]: "long" } },
		{ name: "gamma", version: "2.0.0", files: { "index.js": "module.exports='g'" } },
		{
			name: "@scope/delta",
			version: "0.1.0",
			dependencies: { gamma: "2" },
			scripts: { postinstall: "node -e \"require('fs').writeFileSync('ran','')\"" },
			pi: { extensions: ["./index.js"] },
			files: { "index.js": "module.exports='d'" },
		},
	]);
});
afterAll(() => reg.stop());

/** Runs a client to completion without blocking the loop the registry answers on. */
async function run(cmd: string[], cwd: string, env: Record<string, string>) {
	const child = Bun.spawn(cmd, {
		cwd,
		// Under `npm test` the parent holds npm's own npm_config_* settings, which would change what npm writes.
		env: {
			...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_"))),
			HTTP_PROXY: "http://127.0.0.1:9",
			HTTPS_PROXY: "http://127.0.0.1:9",
			...env,
		},
		stdout: "pipe",
		stderr: "pipe",
	});
	const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
	return { code: await child.exited, out: `${stdout}\n${stderr}` };
}

function project(name: string, dependencies: Record<string, string>): { dir: string; home: string } {
	const dir = join(root, name);
	const home = join(dir, "home");
	mkdirSync(home, { recursive: true });
	writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true, dependencies }));
	return { dir, home };
}

const THREE_AND_SCOPED = { alpha: "^1.0.0", gamma: "*", "@scope/delta": "0.1.0" };

describe("loopback npm registry", () => {
	test("serves a full packument with dist-tags, and the abbreviated form on request", async () => {
		const full = (await (await fetch(`${reg.url}alpha`)).json()) as Record<string, any>;
		expect(full["dist-tags"]).toEqual({ latest: "1.2.0", next: "2.0.0-rc.1" });
		expect(Object.keys(full.versions)).toEqual(["1.0.0", "1.2.0", "2.0.0-rc.1"]);
		const dist = full.versions["1.2.0"].dist;
		expect(dist.tarball).toBe(`${reg.url}alpha/-/alpha-1.2.0.tgz`);
		expect(dist.integrity).toMatch(/^sha512-[A-Za-z0-9+/]+=*$/);
		expect(dist.shasum).toMatch(/^[0-9a-f]{40}$/);

		const abbreviated = await fetch(`${reg.url}@scope%2fdelta`, {
			headers: { accept: "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8" },
		});
		expect(abbreviated.headers.get("content-type")).toBe("application/vnd.npm.install-v1+json");
		const doc = (await abbreviated.json()) as Record<string, any>;
		expect(doc.versions["0.1.0"].hasInstallScript).toBe(true);
		expect(doc.versions["0.1.0"].dependencies).toEqual({ gamma: "2" });
		expect(doc.versions["0.1.0"].dist.tarball).toBe(`${reg.url}@scope/delta/-/delta-0.1.0.tgz`);
		expect(reg.requests).toContain("GET /@scope/delta");
		const etag = abbreviated.headers.get("etag") as string;
		const again = await fetch(`${reg.url}@scope%2fdelta`, {
			headers: { accept: "application/vnd.npm.install-v1+json", "if-none-match": etag },
		});
		expect(again.status).toBe(304);
		expect((await fetch(`${reg.url}no-such-package`)).status).toBe(404);
	});

	test("tarballs are gzip tars under package/ whose bytes match the packument's integrity", async () => {
		const doc = (await (await fetch(`${reg.url}beta`)).json()) as Record<string, any>;
		const bytes = new Uint8Array(await (await fetch(doc.versions["1.0.0"].dist.tarball)).arrayBuffer());
		expect(distOf(bytes)).toEqual({
			integrity: doc.versions["1.0.0"].dist.integrity,
			shasum: doc.versions["1.0.0"].dist.shasum,
		});
		const files = readTgz(bytes);
		expect([...files.keys()].sort()).toEqual([`package/${LONG}`, "package/index.js", "package/package.json"]);
		expect(JSON.parse(new TextDecoder().decode(files.get("package/package.json")))).toEqual({
			name: "beta",
			version: "1.0.0",
		});
		const tar = Bun.spawnSync(["tar", "tzf", "-"], { stdin: bytes, stdout: "pipe" });
		if (tar.exitCode === 0) expect(tar.stdout.toString()).toContain(`package/${LONG}`);
	});

	test("a token requirement answers 401 without the bearer token", async () => {
		reg.requireToken("s3cret");
		try {
			expect((await fetch(`${reg.url}alpha`)).status).toBe(401);
			expect((await fetch(`${reg.url}alpha`, { headers: { authorization: "Bearer s3cret" } })).status).toBe(200);
		} finally {
			reg.requireToken(undefined);
		}
	});

	test("down: refused connections or 503, then back up on the same URL", async () => {
		reg.setDown(true);
		await expect(fetch(`${reg.url}alpha`)).rejects.toThrow();
		reg.setDown(true, "503");
		expect((await fetch(`${reg.url}alpha`)).status).toBe(503);
		reg.setDown(false);
		expect((await fetch(`${reg.url}alpha`)).status).toBe(200);
	});

	test("bun install resolves three dependencies and a scoped one, with a private cache", async () => {
		const { dir, home } = project("bun-ok", THREE_AND_SCOPED);
		const result = await run([BUN, "install"], dir, registryEnv(reg, home));
		expect(result.code, result.out).toBe(0);
		for (const name of ["alpha", "beta", "gamma", "@scope/delta"]) {
			expect(existsSync(join(dir, "node_modules", name, "package.json"))).toBe(true);
		}
		expect(readFileSync(join(dir, "node_modules", "alpha", "index.js"), "utf8")).toBe("module.exports='a12'");
		expect(readdirSync(join(home, ".bun", "install", "cache")).length).toBeGreaterThan(0);
		// Bun does not run an untrusted dependency's postinstall.
		expect(existsSync(join(dir, "node_modules", "@scope", "delta", "ran"))).toBe(false);
	}, 60_000);

	test("BUN_BE_BUN=1 <binary> install works like bun install (our dist/pi when built)", async () => {
		const binary = existsSync(OUR_BINARY) ? OUR_BINARY : BUN;
		const { dir, home } = project("bun-be-bun", { gamma: "2.0.0" });
		const result = await run([binary, "install"], dir, { ...registryEnv(reg, home), BUN_BE_BUN: "1" });
		expect(result.code, result.out).toBe(0);
		expect(existsSync(join(dir, "node_modules", "gamma", "index.js"))).toBe(true);
	}, 60_000);

	test("bun install refuses a tarball whose bytes do not match the integrity", async () => {
		const local = await startRegistry([{ name: "solo", version: "1.0.0", files: { "index.js": "1" } }]);
		try {
			local.corruptIntegrity("solo", "1.0.0");
			const { dir, home } = project("bun-corrupt", { solo: "1.0.0" });
			const result = await run([BUN, "install"], dir, registryEnv(local, home));
			expect(result.code).not.toBe(0);
			expect(result.out.toLowerCase()).toContain("integrity");
			expect(existsSync(join(dir, "node_modules", "solo", "index.js"))).toBe(false);
		} finally {
			local.stop();
		}
	}, 60_000);

	test("bun install authenticates with the token from ~/.npmrc, and fails without it", async () => {
		const local = await startRegistry([{ name: "private-pkg", version: "1.0.0", files: { "index.js": "1" } }]);
		local.requireToken("tok-123");
		try {
			const denied = project("bun-denied", { "private-pkg": "1.0.0" });
			const refused = await run([BUN, "install"], denied.dir, registryEnv(local, denied.home));
			expect(refused.code).not.toBe(0);
			expect(refused.out).toContain("401");

			const allowed = project("bun-token", { "private-pkg": "1.0.0" });
			writeFileSync(join(allowed.home, ".npmrc"), npmrcTokenLine(local, "tok-123"));
			const result = await run([BUN, "install"], allowed.dir, registryEnv(local, allowed.home));
			expect(result.code, result.out).toBe(0);
			expect(existsSync(join(allowed.dir, "node_modules", "private-pkg", "index.js"))).toBe(true);
		} finally {
			local.stop();
		}
	}, 60_000);

	test.skipIf(!Bun.which("npm"))(
		"npm install uses the registry through the same env",
		async () => {
			const { dir, home } = project("npm-ok", THREE_AND_SCOPED);
			const result = await run(["npm", "install", "--ignore-scripts"], dir, registryEnv(reg, home));
			expect(result.code, result.out).toBe(0);
			for (const name of ["alpha", "beta", "gamma", "@scope/delta"]) {
				expect(existsSync(join(dir, "node_modules", name, "package.json"))).toBe(true);
			}
			expect(readdirSync(join(home, ".npm")).length).toBeGreaterThan(0);
			const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8"));
			expect(lock.packages["node_modules/@scope/delta"].resolved).toBe(`${reg.url}@scope/delta/-/delta-0.1.0.tgz`);
		},
		120_000,
	);
});

const gitMissing = gitMissingReason();
if (gitMissing) console.log(`skipping git repository tests: ${gitMissing}`);

describe.skipIf(gitMissing !== undefined)("local bare git repositories", () => {
	test("clone over file:// at the branch, a tag and a later commit", () => {
		const repo = createBareRepo(root, "pkg", {
			"package.json": '{"name":"git-pkg","version":"1.0.0"}',
			"extensions/a.ts": "export default () => {};",
		});
		expect(repo.url).toBe(`file://${repo.path}`);
		const first = repo.sha();
		expect(repo.tag("v1")).toBe(first);
		const second = repo.commit({ "extensions/a.ts": null, "extensions/b.ts": "// b" }, "swap");
		expect(second).not.toBe(first);
		repo.tag("v2", undefined, "release 2");
		expect(repo.sha("v2")).toBe(second);
		expect(repo.sha("v1")).toBe(first);

		const clone = join(root, "clone");
		const env = isolatedGitEnv();
		expect(Bun.spawnSync(["git", "clone", "--quiet", repo.url, clone], { env }).exitCode).toBe(0);
		expect(existsSync(join(clone, "extensions", "b.ts"))).toBe(true);
		expect(Bun.spawnSync(["git", "checkout", "--quiet", "v1"], { cwd: clone, env }).exitCode).toBe(0);
		expect(existsSync(join(clone, "extensions", "a.ts"))).toBe(true);
		expect(existsSync(join(clone, "extensions", "b.ts"))).toBe(false);
	});
});
