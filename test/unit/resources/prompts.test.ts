// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are template placeholders under test, not JS templates
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadSettingsFiles } from "../../../src/config/index.ts";
import {
	expandPromptTemplate,
	loadPromptFile,
	type PromptTemplate,
	parseCommandArgs,
	ResourceLoader,
	substituteArgs,
} from "../../../src/resources/index.ts";
import { makeTempDir, writeTree } from "../../helpers/tmp.ts";

const info = { path: "", source: "test", scope: "user" as const, origin: "top-level" as const };

describe("argument parsing", () => {
	test.each([
		["a b  c", ["a", "b", "c"]],
		['"API compatibility" next', ["API compatibility", "next"]],
		["'single quoted' x", ["single quoted", "x"]],
		[`say "it's" 'a "b"'`, ["say", "it's", 'a "b"']],
		['pre"fix mid"post', ["prefix midpost"]],
		["tab\tsep\nline", ["tab", "sep", "line"]],
		['empty "" dropped', ["empty", "dropped"]],
		['"unterminated rest', ["unterminated rest"]],
		["back\\slash", ["back\\slash"]],
		["", []],
	])("%j", (input, expected) => {
		expect(parseCommandArgs(input)).toEqual(expected);
	});
});

describe("substitution", () => {
	const args = ["one", "two", "three", "four"];
	test.each([
		["$1 and $2", "one and two"],
		["$4$3", "fourthree"],
		["missing: [$5] [$0]", "missing: [] []"],
		["$@", "one two three four"],
		["$ARGUMENTS!", "one two three four!"],
		["${@:2}", "two three four"],
		["${@:2:2}", "two three"],
		["${@:0}", "one two three four"],
		["${@:1:1}", "one"],
		["${@:9}", ""],
		["${@:3:10}", "three four"],
		["${@:2:0}", ""],
		["${1:-dflt} ${7:-dflt}", "one dflt"],
		["${@:-all}", "one two three four"],
		["${ARGUMENTS:-all}", "one two three four"],
		["cost: $ 5 and $x", "cost: $ 5 and $x"],
	])("%s", (template, expected) => {
		expect(substituteArgs(template, args)).toBe(expected);
	});

	test("defaults apply to missing and empty arguments, and to no arguments at all", () => {
		expect(substituteArgs("${1:-none} ${@:-nothing}", [])).toBe("none nothing");
		expect(substituteArgs("[$1] [$@] [${@:2}]", [])).toBe("[] [] []");
	});

	test("values are not substituted again", () => {
		expect(substituteArgs("$1 $2", ["$2", "${@:1}"])).toBe("$2 ${@:1}");
		expect(substituteArgs("${1:-$2}", [])).toBe("$2");
	});

	test("multi-digit positions", () => {
		const many = Array.from({ length: 12 }, (_, i) => `a${i + 1}`);
		expect(substituteArgs("$10 $12", many)).toBe("a10 a12");
	});
});

describe("templates", () => {
	const template = (name: string, content: string): PromptTemplate => ({
		name,
		description: "",
		content,
		sourceInfo: info,
		filePath: `/${name}.md`,
	});

	test("/name args expands; other text is unchanged", () => {
		const list = [template("review", "Review $1 focusing on ${2:-everything}.")];
		expect(expandPromptTemplate('/review "src/a b.ts" speed', list)).toBe("Review src/a b.ts focusing on speed.");
		expect(expandPromptTemplate("/review", list)).toBe("Review  focusing on everything.");
		expect(expandPromptTemplate("/reviewer x", list)).toBe("/reviewer x");
		expect(expandPromptTemplate("please /review", list)).toBe("please /review");
	});

	test("description from frontmatter, else the first non-empty line cut at 60 characters; argument-hint kept", () => {
		const dir = makeTempDir();
		writeTree(dir, {
			"a.md": '---\ndescription: Review changes\nargument-hint: "[focus]"\n---\nBody $1',
			"b.md": `\n\n${"x".repeat(70)}\nmore`,
			"c.md": "short line\n",
		});
		const a = loadPromptFile({ path: join(dir, "a.md"), sourceInfo: info }).template;
		expect(a).toMatchObject({ name: "a", description: "Review changes", argumentHint: "[focus]", content: "Body $1" });
		const b = loadPromptFile({ path: join(dir, "b.md"), sourceInfo: info }).template;
		expect(b?.description).toBe(`${"x".repeat(60)}...`);
		expect(loadPromptFile({ path: join(dir, "c.md"), sourceInfo: info }).template?.description).toBe("short line");
	});

	test("broken frontmatter is reported and the template skipped", () => {
		const dir = makeTempDir();
		writeTree(dir, { "bad.md": "---\ndescription: a: b\n---\nx" });
		const result = loadPromptFile({ path: join(dir, "bad.md"), sourceInfo: info });
		expect(result.template).toBeUndefined();
		expect(result.diagnostics[0]?.message).toMatch(/^prompt template not loaded: invalid frontmatter/);
	});
});

describe("template discovery", () => {
	function setup() {
		const home = makeTempDir();
		const agentDir = join(home, "agent");
		const cwd = join(home, "project");
		writeTree(agentDir, {
			"prompts/global.md": "global",
			"prompts/sub/nested.md": "not loaded: conventional folders are flat",
			"prompts/notes.txt": "ignored",
			"settings.json": JSON.stringify({ prompts: ["../shared"] }),
		});
		writeTree(home, { "shared/deep/settings-nested.md": "settings folders are searched recursively" });
		writeTree(cwd, { ".pi/prompts/local.md": "local", "extra/cli.md": "cli", "extra/sub/no.md": "flat" });
		return { home, agentDir, cwd };
	}
	const names = (w: ReturnType<typeof setup>, extra: object = {}, projectTrusted = true) =>
		new ResourceLoader({
			cwd: w.cwd,
			agentDir: w.agentDir,
			projectTrusted,
			settingsFiles: loadSettingsFiles({ agentDir: w.agentDir, cwd: w.cwd, projectTrusted }).files,
			env: { HOME: w.home },
			...extra,
		})
			.getPrompts()
			.prompts.map((p) => p.name);

	test("agent dir, .pi/prompts, settings and --prompt-template", () => {
		const w = setup();
		expect(names(w, { promptPaths: ["extra"] })).toEqual(["settings-nested", "local", "global", "cli"]);
	});

	test("noPromptTemplates keeps only explicit paths; untrusted projects lose .pi/prompts", () => {
		const w = setup();
		expect(names(w, { noPromptTemplates: true, promptPaths: ["extra/cli.md"] })).toEqual(["cli"]);
		expect(names(w, {}, false)).toEqual(["settings-nested", "global"]);
	});
});
