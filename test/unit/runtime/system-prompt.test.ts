import { describe, expect, test } from "bun:test";
import { buildSystemPrompt, type PromptTool } from "../../../src/runtime/system-prompt.ts";

const date = new Date("2025-03-04T10:00:00Z");
const read: PromptTool = { name: "read", promptSnippet: "Read files", promptGuidelines: ["Read before editing."] };
const bash: PromptTool = { name: "bash", promptSnippet: "Run commands" };
const grep: PromptTool = { name: "grep", promptSnippet: "Search contents" };
const hidden: PromptTool = { name: "secret", promptGuidelines: ["Hidden tools still add guidelines."] };

describe("buildSystemPrompt", () => {
	test("default: tools with snippets, their guidelines, then date and cwd last", () => {
		const prompt = buildSystemPrompt({ cwd: "/repo/p", tools: [read, bash, hidden], date });
		expect(prompt).toContain("Available tools:\n- read: Read files\n- bash: Run commands\n\nGuidelines:\n");
		expect(prompt).not.toContain("- secret:");
		expect(prompt).toContain("- Read before editing.");
		expect(prompt).toContain("- Hidden tools still add guidelines.");
		expect(prompt).toContain("- Use bash for file operations such as ls, rg and find");
		expect(prompt.endsWith("Current date: 2025-03-04\nCurrent working directory: /repo/p")).toBe(true);
	});

	test("with search tools the bash advice changes; a guideline shared by two tools appears once", () => {
		const twin: PromptTool = { name: "twin", promptGuidelines: ["Read before editing."] };
		const prompt = buildSystemPrompt({ cwd: "/w", tools: [read, twin, bash, grep], date });
		expect(prompt).toContain("- Prefer the grep, find and ls tools over bash for searching and listing");
		expect(prompt).not.toContain("Use bash for file operations");
		expect(prompt.split("- Read before editing.")).toHaveLength(2);
	});

	test("no tools: no tool list", () => {
		expect(buildSystemPrompt({ cwd: "/w", tools: [], date })).not.toContain("Available tools:");
	});

	test("a custom prompt replaces the opening; appended parts, context files, date and cwd follow in order", () => {
		const prompt = buildSystemPrompt({
			cwd: "/w",
			tools: [read],
			customPrompt: "  You are a pirate.\n",
			appendSystemPrompt: ["First addition.", "  ", "Second addition."],
			contextFiles: [{ path: "/w/AGENTS.md", content: "Use tabs." }],
			date,
		});
		expect(prompt).toBe(
			[
				"You are a pirate.",
				"First addition.",
				"Second addition.",
				'Project context (instructions from the user\'s context files):\n<file path="/w/AGENTS.md">\nUse tabs.\n</file>',
				"Current date: 2025-03-04\nCurrent working directory: /w",
			].join("\n\n"),
		);
	});

	test("an empty custom prompt keeps the default opening (as pi does)", () => {
		for (const customPrompt of ["", " \n"]) {
			expect(buildSystemPrompt({ cwd: "/w", tools: [read], customPrompt, date })).toContain(
				"Available tools:\n- read: Read files",
			);
		}
	});
});
