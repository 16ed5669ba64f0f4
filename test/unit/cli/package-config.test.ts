/**
 * `pi config`: the scriptable form (list, list --json, enable, disable) in process with a fake manager over real
 * settings files and real package folders, writing what pi 0.87.1's config screen writes (`+path`/`-path` in the
 * package's object-form entry); and the toggle write on its own.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PackageCommandDeps } from "../../../src/cli/packages/index.ts";
import { runPackageCommand } from "../../../src/cli/packages/index.ts";
import { packageProvides } from "../../../src/cli/packages/provides.ts";
import { withResourceToggled } from "../../../src/modes/package-config/write.ts";
import { createFakeManager } from "../../helpers/fake-package-manager.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

function setup(userPackages: unknown[] = ["../tools"]) {
	const home = makeTempDir("pi-pkgconfig-");
	const agentDir = join(home, "agent");
	const cwd = join(home, "project");
	writeTree(home, {
		"agent/settings.json": JSON.stringify({ theme: "dark", packages: userPackages }),
		"project/.keep": "",
		"tools/extensions/hello.ts": "",
		"tools/extensions/multi/index.ts": "",
		"tools/skills/pdf/SKILL.md": "---\nname: pdf\n---",
		"tools/prompts/fix.md": "fix",
		"tools/themes/dark.json": "{}",
	});
	const run = async (argv: string[]) => {
		const out: string[] = [];
		const err: string[] = [];
		const deps: PackageCommandDeps = {
			cwd,
			agentDir,
			terminal: false,
			out: (line) => out.push(line),
			err: (line) => err.push(line),
			createManager: (options) => createFakeManager(options),
			provides: packageProvides,
			selfUpdate: async () => 0,
		};
		const code = await runPackageCommand(argv, deps);
		return { code, out, err };
	};
	const settings = () => JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8"));
	return { home, agentDir, cwd, run, settings };
}

describe("pi config list / enable / disable", () => {
	test("list shows every resource by type with its state", async () => {
		const { run } = setup();
		const result = await run(["config", "list"]);
		expect(result.code).toBe(0);
		expect(result.out).toEqual([
			"../tools (user)",
			"  [x] extensions extensions/hello.ts",
			"  [x] extensions extensions/multi/index.ts",
			"  [x] skills skills/pdf/SKILL.md",
			"  [x] prompts prompts/fix.md",
			"  [x] themes themes/dark.json",
		]);
	});

	test("disable then enable write -path then +path into the package's object form, keeping other keys", async () => {
		const { run, settings } = setup();
		const off = await run(["config", "disable", "../tools", "skill", "pdf"]);
		expect(off.out).toEqual(["Disabled skills skills/pdf/SKILL.md of ../tools (user settings)"]);
		expect(settings()).toEqual({ theme: "dark", packages: [{ source: "../tools", skills: ["-skills/pdf/SKILL.md"] }] });
		expect((await run(["config", "list"])).out).toContain("  [ ] skills skills/pdf/SKILL.md");
		await run(["config", "disable", "../tools", "extensions", "multi/index.ts"]);
		await run(["config", "enable", "../tools", "skills", "skills/pdf/SKILL.md"]);
		expect(settings().packages).toEqual([
			{ source: "../tools", skills: ["+skills/pdf/SKILL.md"], extensions: ["-extensions/multi/index.ts"] },
		]);
		const json = JSON.parse((await run(["config", "list", "--json"])).out.join("\n"));
		expect(json[0].source).toBe("../tools");
		expect(json[0].resources.map((r: { pattern: string; enabled: boolean }) => `${r.pattern}:${r.enabled}`)).toEqual([
			"extensions/hello.ts:true",
			"extensions/multi/index.ts:false",
			"skills/pdf/SKILL.md:true",
			"prompts/fix.md:true",
			"themes/dark.json:true",
		]);
	});

	test("a package named by another spelling of the same source is found", async () => {
		const { run, settings, home } = setup();
		const result = await run(["config", "disable", join(home, "tools"), "prompts", "fix"]);
		expect(result.code).toBe(0);
		expect(settings().packages).toEqual([{ source: "../tools", prompts: ["-prompts/fix.md"] }]);
	});

	test("mistakes are one line and exit 1", async () => {
		const { run } = setup();
		const cases: [string[], string][] = [
			[["config", "disable", "npm:nope", "skills", "x"], "No matching package found for npm:nope in user settings"],
			[
				["config", "disable", "../tools", "widgets", "x"],
				'Unknown resource type "widgets": use extensions, skills, prompts or themes.',
			],
			[
				["config", "disable", "../tools", "skills", "nope"],
				'../tools has no skills resource "nope"; it has: skills/pdf/SKILL.md',
			],
			[["config", "disable", "../tools"], 'Missing type for "config disable".'],
			[["config", "frobnicate"], "Unexpected argument frobnicate."],
			[["config", "--bogus"], 'Unknown option --bogus for "config".'],
			[["config", "--json"], "--json goes with pi config list."],
		];
		for (const [argv, line] of cases) {
			const result = await run(argv);
			expect(result.code).toBe(1);
			expect(result.err[0]).toBe(line);
		}
	});

	test("-l needs a trusted project; -h prints the page", async () => {
		const { run, home } = setup();
		writeTree(home, { "project/.pi/settings.json": JSON.stringify({ packages: ["../../tools"] }) });
		const refused = await run(["config", "list", "-l"]);
		expect(refused.err).toEqual(["Project is not trusted. Use --approve to modify local resource config."]);
		const approved = await run(["config", "disable", "../../tools", "themes", "dark", "-l", "--approve"]);
		expect(approved.out).toEqual(["Disabled themes themes/dark.json of ../../tools (project settings)"]);
		const project = JSON.parse(readFileSync(join(home, "project", ".pi", "settings.json"), "utf8"));
		expect(project.packages).toEqual([{ source: "../../tools", themes: ["-themes/dark.json"] }]);
		const help = await run(["config", "-h"]);
		expect(help.out[0]).toContain("pi config enable|disable <source> <type> <resource> [-l]");
	});

	test("a package that is not installed says so", async () => {
		const { run } = setup(["npm:absent"]);
		expect((await run(["config", "list"])).out).toEqual(["npm:absent (user)", "  not installed"]);
	});
});

describe("withResourceToggled", () => {
	test("string form becomes object form; earlier entries for the path are replaced; others stay", () => {
		expect(withResourceToggled(["npm:a", "npm:b"], "npm:b", "skills", "skills/x", false)).toEqual([
			"npm:a",
			{ source: "npm:b", skills: ["-skills/x"] },
		]);
		expect(
			withResourceToggled(
				[{ source: "npm:b", skills: ["!skills/*", "-skills/x", "+skills/y"], autoload: false }],
				"npm:b",
				"skills",
				"skills/x",
				true,
			),
		).toEqual([{ source: "npm:b", skills: ["!skills/*", "+skills/y", "+skills/x"], autoload: false }]);
		expect(withResourceToggled(["npm:a"], "npm:c", "skills", "x", true)).toBeUndefined();
	});
});

test("pi config without a subcommand needs a terminal and says what to use instead", async () => {
	const { run } = setup();
	const result = await run(["config"]);
	expect(result.code).toBe(1);
	expect(result.err).toEqual([
		"pi config needs a terminal; in scripts use pi config list / enable / disable (see pi config -h)",
	]);
});

test("-l on a user package writes the project's autoload:false override, and inheriting again removes it", async () => {
	const { run, home } = setup();
	writeTree(home, { "project/.pi/settings.json": "{}" });
	const projectFile = join(home, "project", ".pi", "settings.json");
	const off = await run(["config", "disable", "../tools", "prompts", "fix", "-l", "-a"]);
	expect(off.out).toEqual(["Disabled prompts prompts/fix.md of ../tools (project settings)"]);
	expect(JSON.parse(readFileSync(projectFile, "utf8")).packages).toEqual([
		{ source: "../../tools", autoload: false, prompts: ["-prompts/fix.md"] },
	]);
	const listed = (await run(["config", "list", "-l", "-a"])).out;
	expect(listed[0]).toBe("../tools (user) · inherited global");
	expect(listed).toContain("  [ ] prompts prompts/fix.md (project unload)");
	// Enabling what the user's entry enables anyway is inheriting: the override goes.
	await run(["config", "enable", "../tools", "prompts", "fix", "-l", "-a"]);
	expect(JSON.parse(readFileSync(projectFile, "utf8")).packages).toEqual([]);
});
