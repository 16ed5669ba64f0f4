import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadSettingsFiles } from "../../../src/config/index.ts";
import { applyPatterns, enabledByOverrides, ResourceLoader } from "../../../src/resources/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const skill = (name: string) => `---\nname: ${name}\ndescription: ${name} skill\n---\nUse ${name}.`;
const theme = (name: string) => JSON.stringify({ name, colors: {} });

function world(globalSettings: object = {}, projectSettings?: object) {
	const home = makeTempDir();
	const agentDir = join(home, "agent");
	const cwd = join(home, "project");
	writeTree(agentDir, { "settings.json": JSON.stringify(globalSettings) });
	if (projectSettings) writeTree(cwd, { ".pi/settings.json": JSON.stringify(projectSettings) });
	writeTree(cwd, { "README.md": "x" });
	return { home, agentDir, cwd };
}

function loaderFor(w: ReturnType<typeof world>, projectTrusted = true, extra: object = {}) {
	return new ResourceLoader({
		cwd: w.cwd,
		agentDir: w.agentDir,
		projectTrusted,
		settingsFiles: loadSettingsFiles({ agentDir: w.agentDir, cwd: w.cwd, projectTrusted }).files,
		env: { HOME: w.home },
		...extra,
	});
}

const skillNames = (l: ResourceLoader) => l.getSkills().skills.map((s) => s.name);
const promptNames = (l: ResourceLoader) => l.getPrompts().prompts.map((p) => p.name);

describe("settings pattern entries", () => {
	const base = "/base";
	const files = ["/base/p/a.md", "/base/p/b.md", "/base/p/sub/c.md", "/base/s/pdf/SKILL.md"];

	test("plain lists keep everything; globs keep only matches", () => {
		expect([...applyPatterns(files, ["p"], base)]).toEqual(files);
		expect([...applyPatterns(files, ["p/*.md"], base)]).toEqual(["/base/p/a.md", "/base/p/b.md"]);
		expect([...applyPatterns(files, ["**/c.md"], base)]).toEqual(["/base/p/sub/c.md"]);
	});

	test("!pattern excludes, +path puts an exact path back, -path removes an exact path last", () => {
		expect([...applyPatterns(files, ["!p/*.md"], base)]).toEqual(["/base/p/sub/c.md", "/base/s/pdf/SKILL.md"]);
		expect([...applyPatterns(files, ["!*.md", "+p/b.md"], base)]).toEqual(["/base/p/b.md"]);
		expect([...applyPatterns(files, ["+./p/a.md", "-p/a.md"], base)]).not.toContain("/base/p/a.md");
		expect([...applyPatterns(files, ["-/base/p/b.md"], base)]).not.toContain("/base/p/b.md");
	});

	test("a SKILL.md also matches by its folder", () => {
		expect(enabledByOverrides("/base/s/pdf/SKILL.md", ["-s/pdf"], base)).toBe(false);
		expect(enabledByOverrides("/base/s/pdf/SKILL.md", ["!pdf"], base)).toBe(false);
		expect(enabledByOverrides("/base/s/pdf/SKILL.md", ["!other"], base)).toBe(true);
	});

	test("override entries in a scope's settings filter that scope's folders", () => {
		const w = world({ skills: ["-skills/off"], prompts: ["!draft-*"] }, { prompts: ["-prompts/hidden.md"] });
		writeTree(w.agentDir, {
			"skills/on/SKILL.md": skill("on"),
			"skills/off/SKILL.md": skill("off"),
			"prompts/draft-x.md": "d",
			"prompts/final.md": "f",
		});
		writeTree(w.cwd, { ".pi/prompts/hidden.md": "h", ".pi/prompts/shown.md": "s", ".pi/prompts/draft-p.md": "p" });
		const l = loaderFor(w);
		expect(skillNames(l)).toEqual(["on"]);
		expect(promptNames(l)).toEqual(["draft-p", "shown", "final"]);
	});

	test("listed folders are filtered by the list's own patterns; missing entries are reported", () => {
		const w = world({ prompts: ["lib", "!lib/old/**", "gone"] });
		writeTree(w.agentDir, { "lib/new.md": "n", "lib/old/legacy.md": "l" });
		const l = loaderFor(w);
		expect(promptNames(l)).toEqual(["new"]);
		expect(l.getPrompts().diagnostics.map((d) => d.message)).toEqual(['"prompts" entry "gone" does not exist']);
	});
});

describe("extension resources", () => {
	test("paths from resources_discover are added after the others and re-merged; names still collide", () => {
		const w = world();
		writeTree(w.agentDir, { "skills/base/SKILL.md": skill("base") });
		writeTree(w.home, {
			"ext/SKILL.md": skill("dynamic"),
			"ext/dup/SKILL.md": skill("base"),
			"ext/dynamic.md": "Dynamic prompt",
			"ext/dynamic.json": theme("dynamic-theme"),
		});
		const l = loaderFor(w);
		l.addExtensionResources("/ext/index.ts", {
			skillPaths: [join(w.home, "ext/SKILL.md"), join(w.home, "ext/dup")],
			promptPaths: [join(w.home, "ext/dynamic.md")],
			themePaths: [join(w.home, "ext/dynamic.json")],
		});
		const { skills, diagnostics } = l.getSkills();
		expect(skills.map((s) => s.name)).toEqual(["base", "dynamic"]);
		// pi's label: the extension's file name without .ts/.js; its folder is the base dir
		expect(skills[1]?.sourceInfo).toMatchObject({
			source: "extension:index",
			scope: "temporary",
			origin: "top-level",
			baseDir: "/ext",
		});
		expect(diagnostics.map((d) => d.type)).toEqual(["collision"]);
		expect(promptNames(l)).toEqual(["dynamic"]);
		expect(l.getTheme("dynamic-theme")).toBeDefined();

		l.addExtensionResources("/ext/index.ts", { promptPaths: [] });
		expect(skillNames(l)).toEqual(["base"]);
		l.addExtensionResources("/ext/index.ts", { skillPaths: [join(w.home, "ext/SKILL.md")] });
		l.clearExtensionResources();
		expect(skillNames(l)).toEqual(["base"]);
	});
});

describe("project trust gates every project resource", () => {
	function project() {
		const w = world({ skills: [] }, { skills: ["../team-skills"], prompts: ["../team-prompts"] });
		writeTree(w.cwd, {
			".pi/skills/p/SKILL.md": skill("p"),
			".agents/skills/q/SKILL.md": skill("q"),
			"team-skills/t/SKILL.md": skill("t"),
			"team-prompts/tp.md": "tp",
			".pi/prompts/pp.md": "pp",
			".pi/themes/pt.json": theme("pt"),
			".pi/SYSTEM.md": "project system",
			".pi/APPEND_SYSTEM.md": "project append",
			"AGENTS.md": "context",
		});
		writeTree(w.agentDir, { "skills/g/SKILL.md": skill("g"), "prompts/gp.md": "gp" });
		return w;
	}

	test("untrusted: only user resources and context files; trusting (reload) brings the project in", () => {
		const w = project();
		const l = loaderFor(w, false);
		expect(skillNames(l)).toEqual(["g"]);
		expect(promptNames(l)).toEqual(["gp"]);
		expect(l.getThemes().themes.map((t) => t.name)).toEqual(["dark", "light"]);
		expect(l.getSystemPromptFiles()).toEqual({});
		expect(l.getContextFiles().map((f) => f.content)).toEqual(["context"]);

		const trustedFiles = loadSettingsFiles({ agentDir: w.agentDir, cwd: w.cwd, projectTrusted: true }).files;
		l.reload({ projectTrusted: true, settingsFiles: trustedFiles });
		expect(skillNames(l)).toEqual(["t", "p", "q", "g"]);
		expect(promptNames(l)).toEqual(["tp", "pp", "gp"]);
		expect(l.getThemes().themes.map((t) => t.name)).toEqual(["dark", "light", "pt"]);
		expect(l.getSystemPromptFiles().systemPrompt?.content).toBe("project system");
		expect(l.getSystemPromptFiles().appendSystemPrompt?.content).toBe("project append");
	});

	test("a trusted project file list is ignored when the loader itself is told the project is untrusted", () => {
		const w = project();
		const trustedFiles = loadSettingsFiles({ agentDir: w.agentDir, cwd: w.cwd, projectTrusted: true }).files;
		const l = loaderFor(w, false, { settingsFiles: trustedFiles });
		expect(skillNames(l)).toEqual(["g"]);
	});
});

describe("input expansion and diagnostics", () => {
	test("expandInput handles /skill:name and /template; getDiagnostics gathers everything", () => {
		const w = world();
		writeTree(w.agentDir, {
			"skills/s/SKILL.md": skill("s"),
			"skills/broken/SKILL.md": "---\nname: broken\n---\n",
			"prompts/hi.md": "Hello $1",
		});
		const l = loaderFor(w);
		expect(l.expandInput("/hi there")).toBe("Hello there");
		expect(l.expandInput("/skill:s now")).toContain("Use s.\n</skill>\n\nnow");
		expect(l.expandInput("plain")).toBe("plain");
		expect(l.getDiagnostics().map((d) => d.message)).toEqual(['skill "broken" not loaded: "description" is required']);
	});
});

describe("resources of a -e package folder", () => {
	test("come before every other source (their names win) and stay with --no-prompt-templates", () => {
		const w = world();
		writeTree(w.agentDir, { "prompts/review.md": "user review", "prompts/other.md": "other" });
		writeTree(w.home, { "pkg/prompts/review.md": "package review" });
		const path = join(w.home, "pkg/prompts/review.md");
		const packaged = {
			prompts: [
				{
					path,
					sourceInfo: {
						path,
						source: "./pkg",
						scope: "temporary" as const,
						origin: "package" as const,
						baseDir: join(w.home, "pkg"),
					},
				},
			],
		};
		const l = loaderFor(w, true, { packaged });
		expect(l.getPrompts().prompts.map((p) => [p.name, p.filePath])).toEqual([
			["review", path],
			["other", join(w.agentDir, "prompts/other.md")],
		]);
		expect(l.getPrompts().prompts[0]?.sourceInfo).toMatchObject({ source: "./pkg", origin: "package" });
		expect(promptNames(loaderFor(w, true, { packaged, noPromptTemplates: true }))).toEqual(["review"]);
	});
});
