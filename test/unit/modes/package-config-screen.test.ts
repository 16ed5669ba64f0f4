/**
 * `pi config`'s screen on a headless terminal: pi 0.87.1's layout (title and hints, settings file, `source (scope)`
 * groups, type headings, `[x]`/`[ ]` rows with the cursor on rows only), Space toggling a row through the caller
 * (here the real settings write over a real package folder), Tab switching to the project's packages with the
 * user's shown as inherited (Space cycling the project's `autoload: false` override), Escape closing.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageProvides } from "../../../src/cli/packages/provides.ts";
import { SettingsStore } from "../../../src/config/index.ts";
import {
	buildConfigPackages,
	type ConfigInput,
	type ConfigPackage,
	type ConfigResource,
	projectConfigPackages,
	runPackageConfigScreen,
	toggleResource,
} from "../../../src/modes/interactive/index.ts";
import { type ConfiguredPackage, PACKAGE_RESOURCE_TYPES, type PackageFilters } from "../../../src/packages/index.ts";
import { VirtualTerminal } from "../../helpers/screen.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

/** The screen's rows once one of them is `row` (the screen redraws on a timer; the machine may be busy). */
async function screenWith(term: VirtualTerminal, row: string | RegExp): Promise<string[]> {
	let lines: string[] = [];
	for (let i = 0; i < 100; i++) {
		lines = (await term.screen()).lines.map((l) => l.trimEnd());
		if (lines.some((l) => (typeof row === "string" ? l === row : row.test(l)))) return lines;
		await settle();
	}
	return lines;
}

function setup() {
	const home = makeTempDir("pi-config-screen-");
	const agentDir = join(home, "agent");
	const cwd = join(home, "project");
	writeTree(home, {
		"agent/settings.json": JSON.stringify({ packages: ["../tools"] }),
		"project/.pi/settings.json": JSON.stringify({ packages: ["../lib"] }),
		"tools/extensions/hello.ts": "",
		"tools/skills/pdf/SKILL.md": "---\nname: pdf\n---",
		"tools/prompts/fix.md": "fix",
		"project/lib/themes/night.json": "{}",
	});
	const store = new SettingsStore({ agentDir, cwd, projectTrusted: true });
	const configured = (): ConfiguredPackage[] =>
		(["user", "project"] as const).flatMap((scope) => {
			const list = (store.getScope(scope === "user" ? "global" : "project").packages ?? []) as (
				| string
				| ({ source: string; autoload?: boolean } & Record<string, unknown>)
			)[];
			const baseDir = scope === "user" ? agentDir : join(cwd, ".pi");
			return list.map((entry): ConfiguredPackage => {
				if (typeof entry === "string") return { source: entry, scope, baseDir };
				const filters: PackageFilters = {};
				for (const type of PACKAGE_RESOURCE_TYPES)
					if (Array.isArray(entry[type])) filters[type] = entry[type] as string[];
				return {
					source: entry.source,
					scope,
					baseDir,
					filters,
					...(entry.autoload === false ? { autoload: false } : {}),
				};
			});
		});
	const input = (): ConfigInput => ({
		configured: configured(),
		locate: (pkg) => ({ root: join(pkg.baseDir, pkg.source) }),
		provides: packageProvides,
	});
	const packages = (scope: "user" | "project") =>
		scope === "project" ? projectConfigPackages(input()) : buildConfigPackages(input(), scope);
	const toggle = async (pkg: ConfigPackage, resource: ConfigResource) => {
		await toggleResource({ store, input: input(), projectBaseDir: join(cwd, ".pi") }, pkg, resource);
		return packages(pkg.inherited ? "project" : pkg.scope);
	};
	return { home, agentDir, cwd, store, packages, toggle };
}

test("draws the packages, toggles a row into settings, switches scope, closes on Escape", async () => {
	const { agentDir, cwd, packages, toggle } = setup();
	const term = new VirtualTerminal(90, 24);
	let closed = false;
	const done = runPackageConfigScreen({
		scope: "user",
		projectAvailable: true,
		packages,
		toggle,
		terminal: term,
	}).then(() => {
		closed = true;
	});
	const first = await screenWith(term, /^Global Resources/);
	expect(first[3]).toMatch(/^Global Resources +tab switch mode · space toggle · esc close$/);
	expect(first.slice(4, 14)).toEqual([
		"~/.pi/agent/settings.json",
		"",
		"  ../tools (user)",
		"    Extensions",
		">     [x] hello.ts",
		"    Skills",
		"      [x] pdf",
		"    Prompts",
		"      [x] fix.md",
		"",
	]);

	term.send("\x1b[B"); // down: the skill row
	term.send(" ");
	const second = await screenWith(term, ">     [ ] pdf");
	expect(second).toContain(">     [ ] pdf");
	const toggled = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8"));
	expect(toggled.packages).toEqual([{ source: "../tools", skills: ["-skills/pdf/SKILL.md"] }]);

	term.send("\t");
	const project = await screenWith(term, /^Project Local Resources/);
	expect(project[3]).toMatch(/^Project Local Resources/);
	expect(project).toContain("  ../lib (project)");
	expect(project).toContain(">     [x] night.json");
	expect(project).toContain("  ../tools (user) · inherited global");
	expect(project).toContain("      [x] hello.ts  inherited global");
	expect(project).toContain("      [ ] pdf  inherited global");

	// An inherited resource cycles the project's override: unload, load, back to inheriting.
	const projectPackages = () => JSON.parse(readFileSync(join(cwd, ".pi", "settings.json"), "utf8")).packages;
	term.send("\x1b[B");
	term.send(" ");
	await screenWith(term, ">     [-] hello.ts  project unload");
	expect(projectPackages()).toEqual([
		"../lib",
		{ source: "../../tools", autoload: false, extensions: ["-extensions/hello.ts"] },
	]);
	term.send(" ");
	await screenWith(term, ">     [+] hello.ts  project load");
	expect(projectPackages()[1]).toEqual({
		source: "../../tools",
		autoload: false,
		extensions: ["+extensions/hello.ts"],
	});
	term.send(" ");
	await screenWith(term, ">     [x] hello.ts  inherited global");
	expect(projectPackages()).toEqual(["../lib"]);

	expect(closed).toBe(false);
	term.send("\x1b");
	await done;
	expect(closed).toBe(true);
	term.dispose();
});
