/**
 * `pi install|remove|uninstall|list|update` in process, with a fake package manager over real settings files in a
 * temp agent dir and project: pi 0.87.1's usage errors and messages (stderr, exit 1), project trust for `-l`,
 * progress lines, `pi list`'s extra lines (version, provides), `pi update`'s plan, and the routing of update targets
 * between the package manager and pi's own self-update.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type PackageCommandDeps, runPackageCommand } from "../../../src/cli/packages/index.ts";
import { packageProvides } from "../../../src/cli/packages/provides.ts";
import type { InstallRecord, UpdatePlanItem } from "../../../src/packages/index.ts";
import { createFakeManager, type FakeManager, type FakeManagerOptions } from "../../helpers/fake-package-manager.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

interface Run {
	code: number;
	out: string[];
	err: string[];
	manager?: FakeManager;
	selfUpdates: unknown[];
}

function setup() {
	const home = makeTempDir("pi-pkgcmd-");
	const agentDir = join(home, "agent");
	const cwd = join(home, "project");
	writeTree(home, { "agent/.keep": "", "project/.keep": "" });
	const run = async (argv: string[], extra: Partial<FakeManagerOptions> = {}): Promise<Run> => {
		const result: Run = { code: -1, out: [], err: [], selfUpdates: [] };
		const deps: PackageCommandDeps = {
			cwd,
			agentDir,
			terminal: false,
			out: (line) => result.out.push(line),
			err: (line) => result.err.push(line),
			createManager: (options) => {
				result.manager = createFakeManager({ ...options, ...extra });
				return result.manager;
			},
			provides: packageProvides,
			selfUpdate: async (options) => {
				result.selfUpdates.push(options);
				return 0;
			},
		};
		result.code = await runPackageCommand(argv, deps);
		return result;
	};
	const settings = (file = join(agentDir, "settings.json")) => JSON.parse(readFileSync(file, "utf8"));
	return { home, agentDir, cwd, run, settings };
}

describe("usage errors, as pi words them", () => {
	test.each([
		[["install"], "Missing install source.", "Usage: pi install <source> [-l] [--trust] [--approve|--no-approve]"],
		[["remove"], "Missing remove source.", "Usage: pi remove <source> [-l] [--approve|--no-approve]"],
		[["uninstall", "a", "b"], "Unexpected argument b.", "Usage: pi remove <source> [-l] [--approve|--no-approve]"],
		[["list", "-l"], 'Unknown option -l for "list".', 'Use "pi --help" or "pi list [--approve|--no-approve]".'],
		[["install", "x", "--force"], 'Unknown option --force for "install".', undefined],
		[["update", "--extension"], "Missing value for --extension.", undefined],
		[["update", "--extension", "a", "--extension", "b"], "--extension can only be provided once", undefined],
		[["update", "--all", "npm:x"], "--all cannot be combined with a positional source", undefined],
		[
			["update", "--all", "--self"],
			"--all cannot be combined with --self, --extensions, --models, or --extension",
			undefined,
		],
		[
			["update", "npm:x", "--extensions"],
			"positional update targets cannot be combined with --self, --extensions, or --all",
			undefined,
		],
		[["update", "--extension", "a", "npm:b"], "--extension cannot be combined with a positional source", undefined],
	])("%p", async (argv, first, second) => {
		const { run } = setup();
		const result = await run(argv);
		expect(result.code).toBe(1);
		expect(result.err[0]).toBe(first);
		if (second) expect(result.err[1]).toBe(second);
		expect(result.out).toEqual([]);
		expect(result.manager).toBeUndefined();
	});

	test("-h prints the command's page and wins over other problems", async () => {
		const { run } = setup();
		const result = await run(["install", "--bogus", "-h"]);
		expect(result.code).toBe(0);
		expect(result.out[0]?.split("\n").slice(0, 2)).toEqual([
			"Usage:",
			"  pi install <source> [-l] [--trust] [--approve|--no-approve]",
		]);
		expect(result.out[0]).toContain("--trust");
		expect((await run(["uninstall", "--help"])).out[0]).toContain("Alias: pi uninstall <source> [-l]");
	});
});

describe("install and remove", () => {
	test("a local path: progress lines, Installed <source>, the settings entry; remove takes it out", async () => {
		const { run, home, settings } = setup();
		writeTree(home, { "project/pkg/extensions/hello.ts": "export default () => {}" });
		const installed = await run(["install", "./pkg"]);
		expect(installed.code).toBe(0);
		expect(installed.out).toEqual(["Resolving ./pkg...", "Linking ./pkg...", "Installed ./pkg"]);
		expect(settings().packages).toEqual(["../project/pkg"]);
		expect(installed.manager?.calls).toEqual(["install ./pkg user"]);
		const removed = await run(["uninstall", "./pkg"]);
		expect(removed.out).toEqual(["Removed ./pkg"]);
		expect(settings().packages).toEqual([]);
		const again = await run(["remove", "npm:nope"]);
		expect(again.code).toBe(1);
		expect(again.err).toEqual(["No matching package found for npm:nope"]);
	});

	test("--trust reaches the manager; its warnings (blocked scripts) go to stderr", async () => {
		const { run } = setup();
		const result = await run(["install", "npm:foo", "--trust"], {
			warning: "npm:foo: install scripts not run for esbuild; to run them: pi install --trust npm:foo",
		});
		expect(result.manager?.calls).toEqual(["install npm:foo user trust"]);
		expect(result.out).toEqual(["Resolving npm:foo...", "Linking npm:foo...", "Installed npm:foo"]);
		expect(result.err).toEqual([
			"Warning: npm:foo: install scripts not run for esbuild; to run them: pi install --trust npm:foo",
		]);
	});

	test("a manager failure is one Error: line and exit 1", async () => {
		const { run } = setup();
		const result = await run(["install", "npm:foo"], {
			failWith: new Error("npm:foo: registry answered 404 (not found)"),
		});
		expect(result.code).toBe(1);
		expect(result.err).toEqual(["Error: npm:foo: registry answered 404 (not found)"]);
		const missing = await run(["install", "./nowhere"]);
		expect(missing.err[0]).toMatch(/^Error: Path does not exist: .*nowhere$/);
	});

	test("-l needs project trust when the project has protected files; --approve gives it for this command", async () => {
		const { run, home, cwd, settings } = setup();
		writeTree(home, { "project/.pi/settings.json": "{}", "project/pkg/prompts/p.md": "hi" });
		const refused = await run(["install", "./pkg", "-l"]);
		expect(refused.code).toBe(1);
		expect(refused.err).toEqual(["Project is not trusted. Use --approve to modify local package config."]);
		expect(refused.manager).toBeUndefined();
		const approved = await run(["install", "./pkg", "-l", "--approve"]);
		expect(approved.code).toBe(0);
		expect(settings(join(cwd, ".pi", "settings.json")).packages).toEqual(["../pkg"]);
		expect((await run(["remove", "./pkg", "-l", "-na"])).err[0]).toContain("Project is not trusted");
		// A project with nothing protected needs no approval.
		const fresh = setup();
		writeTree(fresh.home, { "project/pkg/prompts/p.md": "hi" });
		expect((await fresh.run(["install", "./pkg", "-l"])).code).toBe(0);
	});
});

describe("pi list", () => {
	test("nothing configured", async () => {
		const { run } = setup();
		expect((await run(["list"])).out).toEqual(["No packages installed."]);
	});

	test("each scope's packages with path, version and what they provide", async () => {
		const { run, home, agentDir, cwd } = setup();
		writeTree(home, {
			"agent/settings.json": JSON.stringify({
				packages: ["npm:mermaid", { source: "../tools", skills: ["-skills/b/SKILL.md"] }, "npm:gone@1.0.0"],
			}),
			"agent/npm/node_modules/mermaid/package.json": JSON.stringify({
				name: "mermaid",
				pi: { extensions: ["./ext.ts"], themes: ["./themes"] },
			}),
			"agent/npm/node_modules/mermaid/ext.ts": "",
			"agent/npm/node_modules/mermaid/themes/dark.json": "{}",
			"tools/skills/a/SKILL.md": "---\nname: a\n---",
			"tools/skills/b/SKILL.md": "---\nname: b\n---",
			"tools/prompts/fix.md": "fix",
			"project/.pi/settings.json": JSON.stringify({ packages: ["git:github.com/o/r@v1"] }),
			"project/.pi/git/github.com/o/r/extensions/r.ts": "",
		});
		const record: InstallRecord = {
			identity: "npm:mermaid",
			source: "npm:mermaid",
			version: "1.4.2",
			integrity: "sha512-x",
			installedPath: join(agentDir, "npm", "node_modules", "mermaid"),
			installedAt: "2026-01-01T00:00:00.000Z",
		};
		const gitRecord: InstallRecord = {
			identity: "git:github.com/o/r",
			source: "git:github.com/o/r@v1",
			commit: "0123456789abcdef0123",
			ref: "v1",
			installedPath: join(cwd, ".pi", "git", "github.com", "o", "r"),
			installedAt: "2026-01-01T00:00:00.000Z",
		};
		const untrusted = await run(["list"], { records: { user: [record] } });
		expect(untrusted.out).toEqual([
			"User packages:",
			"  npm:mermaid",
			`    ${join(agentDir, "npm", "node_modules", "mermaid")}`,
			"    npm 1.4.2",
			"    provides 1 extension (ext), 1 theme (dark)",
			"  ../tools (filtered)",
			`    ${join(home, "tools")}`,
			"    provides 1 skill (a), 1 prompt template (fix)",
			"  npm:gone@1.0.0",
			"    not installed (pi install npm:gone@1.0.0)",
		]);
		const trusted = await run(["list", "-a"], { records: { user: [record], project: [gitRecord] } });
		expect(trusted.out.slice(10)).toEqual([
			"",
			"Project packages:",
			"  git:github.com/o/r@v1",
			`    ${gitRecord.installedPath}`,
			"    git 0123456789ab at v1 · pinned",
			"    provides 1 extension (r)",
		]);
	});
});

test("pi list in an untrusted project says how many project packages it leaves out", async () => {
	const { run, home } = setup();
	writeTree(home, { "project/.pi/settings.json": JSON.stringify({ packages: ["npm:a", "npm:b"] }) });
	const result = await run(["list"]);
	expect(result.out).toEqual(["No packages installed."]);
	expect(result.err).toEqual([
		"2 project packages are not listed: the project is not trusted (pi list --approve shows them)",
	]);
	expect((await run(["list", "--approve"])).out[0]).toBe("Project packages:");
});

describe("pi update", () => {
	const plan: UpdatePlanItem[] = [
		{ identity: "npm:foo", source: "npm:foo", scope: "user", from: "1.0.0", to: "1.2.0", status: "update" },
		{ identity: "npm:bar", source: "npm:bar@2.0.0", scope: "user", from: "2.0.0", status: "pinned" },
		{
			identity: "git:github.com/o/r",
			source: "git:github.com/o/r",
			scope: "project",
			from: "abc1234",
			status: "current",
		},
	];

	test("--extensions prints the plan, applies it, and says Updated packages", async () => {
		const { run } = setup();
		const result = await run(["update", "--extensions"], { plan });
		expect(result.code).toBe(0);
		expect(result.out).toEqual([
			"Update plan for every package:",
			"  npm:foo 1.0.0 → 1.2.0",
			"  npm:bar@2.0.0 2.0.0 (pinned; change the version or ref in settings to move it)",
			"  git:github.com/o/r (project) abc1234 (up to date)",
			"Updated packages",
		]);
		expect(result.manager?.calls).toEqual([
			"plan *",
			"apply npm:foo:update,npm:bar@2.0.0:pinned,git:github.com/o/r:current",
		]);
		expect(result.selfUpdates).toEqual([]);
	});

	test("<source> and --extension <source> update one package; an unknown one is an error", async () => {
		const { run } = setup();
		for (const argv of [
			["update", "npm:foo"],
			["update", "--extension", "npm:foo"],
		]) {
			const result = await run(argv, { plan });
			expect(result.out).toEqual(["Update plan:", "  npm:foo 1.0.0 → 1.2.0", "Updated npm:foo"]);
		}
		const unknown = await run(["update", "npm:nope"], { plan });
		expect(unknown.code).toBe(1);
		expect(unknown.err).toEqual(["Error: No matching package found for npm:nope"]);
	});

	test("project trust for update is the saved decision or the flag, never a guess", async () => {
		const { run, home, agentDir, cwd } = setup();
		writeTree(home, { "project/.pi/settings.json": "{}" });
		const stores: boolean[] = [];
		const capture = async (argv: string[]) => {
			const result = await run(argv, { plan });
			stores.push(result.manager?.projectTrusted === true);
		};
		await capture(["update", "--extensions"]);
		await capture(["update", "--extensions", "--approve"]);
		writeTree(agentDir, { "trust.json": JSON.stringify({ [cwd]: true }) });
		await capture(["update", "--extensions"]);
		await capture(["update", "--extensions", "-na"]);
		expect(stores).toEqual([false, true, true, false]);
	});

	test("nothing to apply leaves the packages alone", async () => {
		const { run } = setup();
		const result = await run(["update", "--extensions"], { plan: plan.slice(1) });
		expect(result.manager?.calls).toEqual(["plan *"]);
		expect(result.out.at(-1)).toBe("Updated packages");
	});

	test("pi itself: plain update (with pi's note), self, pi, --self; --all = packages then pi", async () => {
		const { run } = setup();
		const plain = await run(["update"]);
		expect(plain.out).toEqual(["Extensions are skipped. Run pi update --extensions to update extensions."]);
		expect(plain.selfUpdates).toEqual([{ force: false, rollback: false }]);
		expect(plain.manager).toBeUndefined();
		for (const argv of [
			["update", "self"],
			["update", "pi", "--force"],
			["update", "--self", "--version", "v1.2.3"],
		]) {
			const result = await run(argv);
			expect(result.out).toEqual([]);
			expect(result.selfUpdates).toHaveLength(1);
		}
		expect((await run(["update", "--self", "--version", "v1.2.3"])).selfUpdates).toEqual([
			{ force: false, rollback: false, version: "1.2.3" },
		]);
		for (const argv of [
			["update", "--all"],
			["update", "--self", "--extensions"],
			["update", "self", "--extensions"],
		]) {
			const all = await run(argv, { plan });
			expect(all.manager?.calls[0]).toBe("plan *");
			expect(all.out.at(-1)).toBe("Updated packages");
			expect(all.selfUpdates).toHaveLength(1);
		}
	});
});
