/**
 * git installs from local bare repositories over file://: checkout at a ref, a missing ref as one line, dependencies
 * without devDependencies and without scripts unless trusted, update plans, remove, and git missing from PATH.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseSource } from "../../src/packages/index.ts";
import { fixture } from "../helpers/packages-fixtures.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { type FakeRegistry, startRegistry } from "../support/npm-registry.ts";

const gitEnv = {
	...process.env,
	GIT_AUTHOR_NAME: "t",
	GIT_AUTHOR_EMAIL: "t@example.invalid",
	GIT_COMMITTER_NAME: "t",
	GIT_COMMITTER_EMAIL: "t@example.invalid",
	GIT_CONFIG_NOSYSTEM: "1",
};
function sh(cwd: string, ...args: string[]): string {
	const r = Bun.spawnSync(["git", ...args], { cwd, env: gitEnv });
	if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
	return r.stdout.toString().trim();
}

/** A bare repo with a commit per step (each step's files written then committed, tagged when asked). */
function bareRepo(steps: { files: Record<string, string>; tag?: string }[]): {
	url: string;
	work: string;
	bare: string;
} {
	const root = makeTempDir("pi-pkg-git-");
	const work = join(root, "work");
	const bare = join(root, "ext.git");
	sh(root, "init", "--quiet", "-b", "main", work);
	for (const step of steps) commit(work, step.files, step.tag);
	sh(root, "clone", "--quiet", "--bare", work, bare);
	sh(work, "remote", "add", "origin", bare);
	return { url: `file://${bare}`, work, bare };
}
function commit(work: string, files: Record<string, string>, tag?: string): string {
	writeTree(work, files);
	sh(work, "add", "-A");
	sh(work, "commit", "--quiet", "-m", "step");
	if (tag) sh(work, "tag", tag);
	return sh(work, "rev-parse", "HEAD");
}

let reg: FakeRegistry;
beforeAll(async () => {
	reg = await startRegistry([
		{
			name: "runtime-dep",
			version: "1.0.0",
			scripts: { postinstall: "node -e \"require('fs').writeFileSync(process.env.HOME + '/ran-runtime-dep', '')\"" },
		},
		{ name: "dev-only", version: "1.0.0" },
	]);
});
afterAll(() => reg.stop());

describe("git installs", () => {
	test("installs at a ref; dependencies without devDependencies; scripts blocked; remove", async () => {
		const repo = bareRepo([
			{ files: { "extensions/a.ts": "export default () => {}\n" }, tag: "v1" },
			{ files: { "extensions/b.ts": "export default () => {}\n" } },
		]);
		const v1 = sh(repo.work, "rev-parse", "v1");
		const f = fixture(reg);
		const source = `${repo.url}@v1`;
		const record = await f.manager.install(source, { scope: "user" });
		expect(record.commit).toBe(v1);
		expect(record.installedPath.startsWith(join(f.agentDir, "git", "local"))).toBe(true);
		expect(existsSync(join(record.installedPath, "extensions", "a.ts"))).toBe(true);
		expect(existsSync(join(record.installedPath, "extensions", "b.ts"))).toBe(false);
		expect(f.settings("user").packages).toEqual([source]);
		expect(f.manager.records("user")[0]?.commit).toBe(v1);
		expect((await f.manager.planUpdate())[0]?.status).toBe("pinned");
		// settings now name another ref: start-up re-clones at it
		const head = sh(repo.work, "rev-parse", "HEAD");
		const moved = parseSource(`${repo.url}@main`, f.cwd);
		expect(await f.manager.ensureInstalled(moved, "user")).toBe(record.installedPath);
		expect(f.manager.records("user")[0]?.commit).toBe(head);
		expect(existsSync(join(record.installedPath, "extensions", "b.ts"))).toBe(true);

		expect(await f.manager.remove(repo.url, { scope: "user" })).toBe(true);
		expect(existsSync(record.installedPath)).toBe(false);
		expect(f.settings("user").packages).toEqual([]);
		expect(f.manager.records("user")).toEqual([]);
	}, 60_000);

	test("a package.json: runtime dependencies installed, devDependencies and every script not run", async () => {
		const repo = bareRepo([
			{
				files: {
					"package.json": JSON.stringify({
						name: "git-ext",
						dependencies: { "runtime-dep": "1.0.0" },
						devDependencies: { "dev-only": "1.0.0" },
						scripts: { prepare: "node -e \"require('fs').writeFileSync(process.env.HOME + '/ran-prepare', '')\"" },
					}),
					"index.ts": "export default () => {}\n",
				},
			},
		]);
		const f = fixture(reg);
		const record = await f.manager.install(repo.url, { scope: "user" });
		const dir = record.installedPath;
		expect(existsSync(join(dir, "node_modules", "runtime-dep"))).toBe(true);
		expect(existsSync(join(dir, "node_modules", "dev-only"))).toBe(false);
		expect(existsSync(join(f.home, "ran-prepare"))).toBe(false);
		expect(existsSync(join(f.home, "ran-runtime-dep"))).toBe(false);
		expect(record.blockedScripts).toEqual(["git-ext (prepare)", "runtime-dep@1.0.0"]);
		expect(f.warnings()).toEqual([
			`${repo.url}: install scripts not run for git-ext (prepare), runtime-dep@1.0.0; to run them: pi install --trust ${repo.url}`,
		]);
		// trusted: the scripts run, and the name is remembered
		const t = await f.manager.install(repo.url, { scope: "user", trust: true });
		expect(t.blockedScripts).toBeUndefined();
		expect(existsSync(join(f.home, "ran-prepare"))).toBe(true);
		expect(existsSync(join(f.home, "ran-runtime-dep"))).toBe(true);
		expect(f.settings("user").trustedPackageScripts).toEqual(["git-ext"]);
		expect(f.settings("user").packages).toEqual([repo.url]);
	}, 60_000);

	test("update plan of a git package without a ref follows the remote HEAD", async () => {
		const repo = bareRepo([{ files: { "index.ts": "export default () => {}\n" } }]);
		const f = fixture(reg);
		const first = await f.manager.install(repo.url, { scope: "project" });
		expect((await f.manager.planUpdate())[0]?.status).toBe("current");
		const next = commit(repo.work, { "skills/s/SKILL.md": "---\nname: s\ndescription: d\n---\n" });
		sh(repo.work, "push", "--quiet", "origin", "main");
		const plan = await f.manager.planUpdate(repo.url);
		expect(plan.map((p) => [p.scope, p.status, p.from, p.to])).toEqual([["project", "update", first.commit, next]]);
		const [updated] = await f.manager.applyUpdate(plan);
		expect(updated?.commit).toBe(next);
		expect(existsSync(join(first.installedPath, "skills", "s", "SKILL.md"))).toBe(true);
	}, 60_000);

	test("one-line errors: missing ref, corrupt package.json, no such repository, git not on PATH", async () => {
		const repo = bareRepo([{ files: { "index.ts": "x\n" }, tag: "v1" }]);
		const f = fixture(reg);
		await expect(f.manager.install(`${repo.url}@v9`, { scope: "user" })).rejects.toThrow(
			`Cannot install ${repo.url}@v9: git ref "v9" does not exist in ${repo.url}`,
		);
		expect(existsSync(join(f.agentDir, "git", "local"))).toBe(false);
		expect(existsSync(f.store.pathFor("global"))).toBe(false);

		const corrupt = bareRepo([{ files: { "package.json": "{ nope" } }]);
		await expect(f.manager.install(corrupt.url, { scope: "user" })).rejects.toThrow(
			/^Cannot install file:\/\/.*: .*package\.json is not valid JSON/,
		);
		await expect(
			f.manager.install(`file://${makeTempDir("pi-pkg-empty-")}/none.git`, { scope: "user" }),
		).rejects.toThrow(/: the repository was not found$/);
		const noGit = fixture(reg, { env: { PATH: "/nonexistent" } });
		await expect(noGit.manager.install(repo.url, { scope: "user" })).rejects.toThrow(
			`Cannot install ${repo.url}: git is required for git packages and was not found on PATH`,
		);
		expect(readdirSync(f.agentDir).filter((n) => n !== "git")).toEqual([]);
	}, 60_000);
});
