import { describe, expect, test } from "bun:test";
import {
	buildSystemPrompt,
	buildSystemPromptSections,
	buildSystemPromptState,
	diffSystemPromptSections,
	normalizeSystemPromptOptions,
} from "../../../src/runtime/system-prompt.ts";

const tools = {
	selectedTools: ["read", "bash", "edit"],
	toolSnippets: { read: "Read files", bash: "Run commands", edit: "Edit files", grep: "Search" },
	toolGuidelines: { bash: ["Quote paths"], edit: ["Read before editing", "Quote paths"], grep: ["unused"] },
};

describe("system prompt sections (pi 0.86+ structure)", () => {
	test("default order: preamble, tools, rules, cwd; every section but the preamble is tagged with its name", () => {
		const sections = buildSystemPromptSections({ cwd: "/work", ...tools });
		expect(Object.keys(sections)).toEqual(["preamble", "tools", "rules", "cwd"]);
		expect(sections.preamble?.startsWith("<")).toBe(false);
		expect(sections.cwd).toBe("<cwd>\n/work\n</cwd>");
		expect(sections.tools).toContain("- read: Read files\n- bash: Run commands\n- edit: Edit files");
		expect(sections.tools).not.toContain("grep");
		expect(sections.tools?.startsWith("<tools>\n")).toBe(true);
		// Guidelines of the selected tools, each once; then the prompt's own.
		const rules = sections.rules ?? "";
		expect(rules.match(/Quote paths/g)?.length).toBe(1);
		expect(rules).toContain("- Read before editing");
		expect(rules).not.toContain("unused");
		expect(rules).toContain("for file operations");
	});

	test("search tools drop the shell advice; no snippets lists (none)", () => {
		const sections = buildSystemPromptSections({ cwd: "/w", selectedTools: ["bash", "grep"] });
		expect(sections.rules).not.toContain("file operations");
		expect(sections.tools).toContain("(none)");
	});

	test("a custom prompt is the preamble, with no tools or rules; the rest follows in order", () => {
		const sections = buildSystemPromptSections({
			cwd: "C:\\proj",
			customPrompt: "You are a pirate.",
			appendSystemPrompt: "Also rhyme.",
			contextFiles: [{ path: "/p/AGENTS.md", content: "Use tabs." }],
			sections: { mode: "plan", empty: "" },
			...tools,
		});
		expect(Object.keys(sections)).toEqual(["preamble", "addendum", "project_context", "cwd", "mode"]);
		expect(sections.preamble).toBe("You are a pirate.");
		expect(sections.addendum).toBe("<addendum>\nAlso rhyme.\n</addendum>");
		expect(sections.project_context).toContain('<project_instructions path="/p/AGENTS.md">\nUse tabs.\n');
		expect(sections.cwd).toBe("<cwd>\nC:/proj\n</cwd>");
		expect(sections.mode).toBe("<mode>\nplan\n</mode>");
	});

	test("an empty custom prompt keeps the default preamble (as pi does)", () => {
		const base = buildSystemPromptSections({ cwd: "/w" });
		expect(buildSystemPromptSections({ cwd: "/w", customPrompt: "" }).preamble).toBe(base.preamble);
	});

	test("skills are listed when read or bash is selected", () => {
		const skills = [{ name: "pdf", description: "PDF work", filePath: "/s/pdf/SKILL.md", baseDir: "/s/pdf" }];
		expect(buildSystemPromptSections({ cwd: "/w", selectedTools: ["read"], skills }).skills).toContain("pdf");
		expect(buildSystemPromptSections({ cwd: "/w", selectedTools: ["edit"], skills }).skills).toBeUndefined();
	});

	test("an invalid extension section name is refused with the name", () => {
		expect(() => buildSystemPromptSections({ cwd: "/w", sections: { preamble: "x" } })).toThrow(
			"Invalid system prompt section name: preamble",
		);
		expect(() => buildSystemPromptSections({ cwd: "/w", sections: { "Bad Name": "x" } })).toThrow("Bad Name");
	});

	test("the rendered prompt is the sections joined by blank lines; a forced prompt is opaque content", () => {
		const options = { cwd: "/w", customPrompt: "P" };
		expect(buildSystemPrompt(options)).toBe("P\n\n<cwd>\n/w\n</cwd>");
		expect(buildSystemPromptState({ ...options, forceSystemPrompt: "F" })).toEqual({ content: "F" });
		expect(buildSystemPrompt({ ...options, forceSystemPrompt: "F" })).toBe("F");
	});

	test("normalized options hold every collection, copied", () => {
		const input = { cwd: "/w", toolGuidelines: { a: ["x"] } };
		const normalized = normalizeSystemPromptOptions(input);
		expect(normalized.selectedTools).toEqual(["read", "bash", "edit", "write"]);
		normalized.toolGuidelines.a?.push("y");
		expect(input.toolGuidelines.a).toEqual(["x"]);
		expect(normalized.appendSystemPrompt).toBe("");
	});

	test("diff: changed and new sections, null for removed ones, undefined when equal", () => {
		expect(diffSystemPromptSections({ a: "1", b: "2" }, { a: "1", b: "2" })).toBeUndefined();
		expect(diffSystemPromptSections({ a: "1", b: "2" }, { a: "1", b: "3", c: "4" })).toEqual({ b: "3", c: "4" });
		expect(diffSystemPromptSections({ a: "1", b: "2" }, { a: "1" })).toEqual({ b: null });
	});
});
