import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { loadSettingsFiles } from "../../../src/config/index.ts";
import {
	expandSkillCommand,
	formatSkillsForPrompt,
	loadSkillFile,
	ResourceLoader,
	type ResourceLoaderOptions,
	type Skill,
	validateSkillName,
} from "../../../src/resources/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const skill = (name: string, description = `does ${name}`) =>
	`---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
const info = { path: "", source: "test", scope: "user" as const, origin: "top-level" as const };

function world() {
	const home = makeTempDir();
	const agentDir = join(home, ".pi", "agent");
	const repo = join(home, "work", "repo");
	const cwd = join(repo, "pkg", "app");
	mkdirSync(cwd, { recursive: true });
	return { home, agentDir, repo, cwd };
}

function load(
	w: ReturnType<typeof world>,
	extra: Partial<ResourceLoaderOptions> = {},
): { names: string[]; loader: ResourceLoader } {
	const projectTrusted = extra.projectTrusted ?? true;
	const settingsFiles = loadSettingsFiles({ agentDir: w.agentDir, cwd: w.cwd, projectTrusted }).files;
	const loader = new ResourceLoader({
		cwd: w.cwd,
		agentDir: w.agentDir,
		projectTrusted,
		settingsFiles,
		env: { HOME: w.home },
		...extra,
	});
	return { names: loader.getSkills().skills.map((s) => s.name), loader };
}

function loadOne(dir: string, rel: string, text: string) {
	writeTree(dir, { [rel]: text });
	const path = join(dir, rel);
	return loadSkillFile({ path, sourceInfo: { ...info, path } });
}

describe("skill discovery", () => {
	test("agent dir, .pi/skills, ~/.agents/skills, and .agents/skills from cwd up to the git root", () => {
		const w = world();
		writeTree(w.agentDir, { "skills/global-one/SKILL.md": skill("global-one") });
		writeTree(w.cwd, { ".pi/skills/project-one/SKILL.md": skill("project-one") });
		writeTree(w.home, { ".agents/skills/user-agents/SKILL.md": skill("user-agents") });
		writeTree(w.cwd, { ".agents/skills/here/SKILL.md": skill("here") });
		writeTree(w.repo, { ".git/HEAD": "ref", ".agents/skills/at-root/SKILL.md": skill("at-root") });
		writeTree(join(w.repo, ".."), { ".agents/skills/above-root/SKILL.md": skill("above-root") });
		const { names } = load(w);
		expect(names).toEqual(["project-one", "here", "at-root", "global-one", "user-agents"]);
	});

	test("without a git root the walk goes up to the filesystem root", () => {
		const w = world();
		writeTree(join(w.repo, ".."), { ".agents/skills/above/SKILL.md": skill("above") });
		expect(load(w).names).toContain("above");
	});

	test("root .md files are skills in pi skill folders but not in .agents/skills; SKILL.md folders are not searched deeper", () => {
		const w = world();
		writeTree(w.agentDir, {
			"skills/loose.md": skill("loose"),
			"skills/outer/SKILL.md": skill("outer"),
			"skills/outer/inner/SKILL.md": skill("inner"),
			"skills/group/nested/deep/SKILL.md": skill("deep"),
			"skills/group/not-root.md": skill("not-root"),
			"skills/.hidden/SKILL.md": skill("hidden"),
			"skills/node_modules/x/SKILL.md": skill("nm"),
		});
		writeTree(w.home, { ".agents/skills/loose-agents.md": skill("loose-agents") });
		expect(load(w).names.sort()).toEqual(["deep", "loose", "outer"]);
	});

	test("settings `skills` paths (relative to their file) and --skill paths (relative to cwd)", () => {
		const w = world();
		writeTree(w.agentDir, { "settings.json": JSON.stringify({ skills: ["../extra/g"] }) });
		writeTree(join(w.agentDir, ".."), { "extra/g/SKILL.md": skill("from-global-settings") });
		writeTree(w.cwd, {
			".pi/settings.json": JSON.stringify({ skills: ["../local-skills"] }),
			"local-skills/p/SKILL.md": skill("from-project-settings"),
			"cli/c/SKILL.md": skill("from-cli"),
			"one.md": skill("single-file"),
		});
		const { names } = load(w, { skillPaths: ["cli", "one.md"] });
		expect(names).toEqual(["from-project-settings", "from-global-settings", "from-cli", "single-file"]);
	});

	test("noSkills drops discovered and configured skills; explicit --skill paths still load", () => {
		const w = world();
		writeTree(w.agentDir, { "skills/a/SKILL.md": skill("a"), "settings.json": JSON.stringify({ skills: ["x"] }) });
		writeTree(w.agentDir, { "x/b/SKILL.md": skill("b") });
		writeTree(w.cwd, { "c/SKILL.md": skill("c") });
		expect(load(w, { noSkills: true, skillPaths: ["c"] }).names).toEqual(["c"]);
	});

	test("untrusted projects contribute no .pi or .agents skills", () => {
		const w = world();
		writeTree(w.cwd, { ".pi/skills/p/SKILL.md": skill("p"), ".agents/skills/q/SKILL.md": skill("q") });
		writeTree(w.home, { ".agents/skills/u/SKILL.md": skill("u") });
		expect(load(w, { projectTrusted: false }).names).toEqual(["u"]);
	});

	test("a missing --skill path is reported", () => {
		const w = world();
		const { loader } = load(w, { skillPaths: ["nope"] });
		expect(loader.getSkills().diagnostics[0]?.message).toBe("skill path does not exist");
	});

	test("name collisions: the first wins and the second is reported", () => {
		const w = world();
		writeTree(w.cwd, { ".pi/skills/dup/SKILL.md": skill("dup", "project") });
		writeTree(w.agentDir, { "skills/dup/SKILL.md": skill("dup", "global") });
		const { skills, diagnostics } = load(w).loader.getSkills();
		expect(skills.map((s) => s.description)).toEqual(["project"]);
		expect(diagnostics).toHaveLength(1);
		expect(diagnostics[0]).toMatchObject({
			type: "collision",
			path: join(w.agentDir, "skills/dup/SKILL.md"),
			collision: { resourceType: "skill", name: "dup", winnerPath: join(w.cwd, ".pi/skills/dup/SKILL.md") },
		});
	});

	test("the same file reached twice loads once, without a collision", () => {
		const w = world();
		writeTree(w.agentDir, {
			"skills/a/SKILL.md": skill("a"),
			"settings.json": JSON.stringify({ skills: ["skills/a"] }),
		});
		const { skills, diagnostics } = load(w, { skillPaths: [join(w.agentDir, "skills")] }).loader.getSkills();
		expect(skills.map((s) => s.name)).toEqual(["a"]);
		expect(diagnostics).toEqual([]);
	});
});

describe("skill validation", () => {
	test("name rules", () => {
		expect(validateSkillName("pdf-tools2")).toEqual([]);
		expect(validateSkillName("PDF_tools")).toEqual(["name may contain only lowercase letters a-z, digits and hyphens"]);
		expect(validateSkillName("-x-")).toEqual(["name may not start or end with a hyphen"]);
		expect(validateSkillName("a--b")).toEqual(["name may not contain two hyphens in a row"]);
		expect(validateSkillName("a".repeat(65))).toEqual(["name is longer than 64 characters (65)"]);
	});

	test("a valid skill with every standard field", () => {
		const dir = makeTempDir();
		const text =
			"---\nname: pdf\ndescription: Reads PDFs.\nlicense: MIT\ncompatibility: needs poppler\nmetadata:\n  author: me\nallowed-tools: Read Bash\ndisable-model-invocation: true\nextra-field: ignored\n---\nBody";
		const { skill: s, diagnostics } = loadOne(dir, "pdf/SKILL.md", text);
		expect(diagnostics).toEqual([]);
		expect(s).toMatchObject({
			name: "pdf",
			description: "Reads PDFs.",
			baseDir: join(dir, "pdf"),
			license: "MIT",
			compatibility: "needs poppler",
			metadata: { author: "me" },
			allowedTools: ["Read", "Bash"],
			disableModelInvocation: true,
		});
	});

	test("missing name falls back to the folder (SKILL.md) or the file name (loose .md); a different name is accepted", () => {
		const dir = makeTempDir();
		expect(loadOne(dir, "folder-name/SKILL.md", "---\ndescription: d\n---\n").skill?.name).toBe("folder-name");
		expect(loadOne(dir, "loose-file.md", "---\ndescription: d\n---\n").skill?.name).toBe("loose-file");
		const other = loadOne(dir, "folder/SKILL.md", skill("other-name"));
		expect(other.skill?.name).toBe("other-name");
		expect(other.diagnostics).toEqual([]);
	});

	test("bad names and long descriptions only warn", () => {
		const dir = makeTempDir();
		const result = loadOne(dir, "x/SKILL.md", skill("Bad--Name", "d".repeat(1025)));
		expect(result.skill?.name).toBe("Bad--Name");
		expect(result.diagnostics.map((d) => d.message)).toEqual([
			'skill "Bad--Name": name may contain only lowercase letters a-z, digits and hyphens',
			'skill "Bad--Name": name may not contain two hyphens in a row',
			'skill "Bad--Name": description is longer than 1024 characters (1025)',
		]);
	});

	test("a SKILL.md without description or with broken frontmatter is not loaded (warning)", () => {
		const dir = makeTempDir();
		const none = loadOne(dir, "a/SKILL.md", "---\nname: a\n---\nbody");
		expect(none.skill).toBeUndefined();
		expect(none.diagnostics.map((d) => d.message)).toEqual(['skill "a" not loaded: "description" is required']);
		const broken = loadOne(dir, "b/SKILL.md", "---\nname: b\nname: c\n---\n");
		expect(broken.skill).toBeUndefined();
		expect(broken.diagnostics[0]?.message).toMatch(
			/^skill not loaded: invalid frontmatter: YAML line 2: duplicate key/,
		);
	});

	test("loose .md files that are not skills are skipped quietly", () => {
		const dir = makeTempDir();
		expect(loadOne(dir, "README.md", "# Just notes")).toEqual({ diagnostics: [] });
		expect(loadOne(dir, "broken.md", "---\na: [\n---\n")).toEqual({ diagnostics: [] });
	});

	test("badly typed optional fields warn and are ignored", () => {
		const dir = makeTempDir();
		const text =
			"---\nname: t\ndescription: d\nlicense: 3\nmetadata: text\nallowed-tools: {a: 1}\ndisable-model-invocation: yes\n---\n";
		const result = loadOne(dir, "t/SKILL.md", text);
		expect(result.skill?.disableModelInvocation).toBe(false);
		expect(result.diagnostics.map((d) => d.message)).toEqual([
			'skill "t": "disable-model-invocation" must be true or false; ignored',
			'skill "t": "license" must be a string; ignored',
			'skill "t": "metadata" must be a mapping of keys to values; ignored',
			'skill "t": "allowed-tools" must be a space-separated string or a list of strings; ignored',
		]);
	});
});

describe("skills in prompts and commands", () => {
	const make = (name: string, hidden = false): Skill => ({
		name,
		description: `${name} <&> "work"`,
		filePath: `/s/${name}/SKILL.md`,
		baseDir: `/s/${name}`,
		sourceInfo: info,
		disableModelInvocation: hidden,
	});

	test("the system-prompt block lists name, description and location, escaped, without hidden skills", () => {
		const block = formatSkillsForPrompt([make("a"), make("b", true)]);
		expect(block).toContain("<available_skills>\n  <skill>\n    <name>a</name>");
		expect(block).toContain("<description>a &lt;&amp;&gt; &quot;work&quot;</description>");
		expect(block).toContain("<location>/s/a/SKILL.md</location>");
		expect(block).not.toContain("<name>b</name>");
		expect(formatSkillsForPrompt([make("b", true)])).toBe("");
	});

	test("/skill:name args expands to the wrapped body followed by the arguments", () => {
		const dir = makeTempDir();
		writeTree(dir, { "pdf/SKILL.md": "---\nname: pdf\ndescription: d\n---\n\nDo the thing.\n" });
		const s: Skill = { ...make("pdf"), filePath: join(dir, "pdf/SKILL.md"), baseDir: join(dir, "pdf") };
		const expected = `<skill name="pdf" location="${s.filePath}">\nReferences are relative to ${s.baseDir}.\n\nDo the thing.\n</skill>`;
		expect(expandSkillCommand("/skill:pdf", [s])).toBe(expected);
		expect(expandSkillCommand("/skill:pdf  extract report.pdf ", [s])).toBe(`${expected}\n\nextract report.pdf`);
		expect(expandSkillCommand("/skill:unknown x", [s])).toBe("/skill:unknown x");
		expect(expandSkillCommand("hello", [s])).toBe("hello");
		const errors: string[] = [];
		const gone = { ...s, filePath: join(dir, "missing.md") };
		expect(expandSkillCommand("/skill:pdf", [gone], (_s, m) => errors.push(m))).toBe("/skill:pdf");
		expect(errors).toHaveLength(1);
	});
});
