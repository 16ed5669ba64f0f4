/**
 * The system prompt the compiled binary sends (the `system` field of the Anthropic request the mock LLM records):
 * the default prompt, `--tools`/`--no-tools`, `--system-prompt` and repeated `--append-system-prompt`, each as text
 * or as a file path.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { runPiAsync, writeMockModels } from "../helpers/binary.ts";
import { makeTempDir, writeTree } from "../helpers/tmp.ts";
import { startMockLlm } from "../support/mock-llm/index.ts";

const server = startMockLlm();
afterAll(() => server.stop());

/** Runs `pi -p <args> hi` in a fresh home and project; returns the system prompt text of the one request. */
async function systemPrompt(
	args: string[],
	files: Record<string, string> = {},
): Promise<{ text: string; cwd: string }> {
	const home = makeTempDir("pi-home-");
	writeMockModels(home, server.url);
	const cwd = makeTempDir("pi-proj-");
	writeTree(cwd, files);
	const before = server.requests.length;
	server.push({ kind: "reply", text: "ok" });
	const run = await runPiAsync(["-p", ...args, "hi"], { home, cwd });
	expect(run.stderr).toBe("");
	expect(run.exitCode).toBe(0);
	const requests = server.requests.slice(before);
	expect(requests).toHaveLength(1);
	const system = requests[0]?.body.system as { type: string; text: string }[];
	expect(system).toHaveLength(1);
	return { text: system[0]?.text ?? "", cwd };
}

describe("system prompt through the binary", () => {
	test("default: the preamble, then the tools with their snippets, the rules and the cwd, each tagged", async () => {
		const { text, cwd } = await systemPrompt([]);
		expect(text).toContain(
			[
				"<tools>",
				"- read: Read file contents",
				"- bash: Execute bash commands (ls, grep, find, etc.)",
				"- edit: Make precise file edits with exact text replacement, including multiple disjoint edits in one call",
				"- write: Create or overwrite files",
			].join("\n"),
		);
		expect(text).not.toContain("- grep:");
		expect(text).toContain("<rules>\n");
		expect(text).toContain("- Use read to look at files instead of cat, head, tail or sed.");
		expect(text).toContain("- Use write only to create a new file or to replace a file's entire content.");
		expect(text).toContain("- Use bash for file operations such as listing, searching and finding files");
		expect(text.endsWith(`<cwd>\n${cwd}\n</cwd>`)).toBe(true);
	});

	test("--tools read,grep lists only those tools and their guidelines", async () => {
		const { text } = await systemPrompt(["--tools", "read,grep"]);
		expect(text).toContain(
			"<tools>\n- read: Read file contents\n- grep: Search file contents for patterns (respects .gitignore)\n",
		);
		expect(text).not.toContain("- bash:");
		expect(text).not.toContain("edits[].oldText");
	});

	test("--no-tools lists no tools", async () => {
		const { text } = await systemPrompt(["--no-tools"]);
		expect(text).toContain("<tools>\n(none)\n");
		expect(text).toContain("<cwd>");
	});

	test("--system-prompt text is the preamble (no tools or rules); the cwd still follows", async () => {
		const { text, cwd } = await systemPrompt(["--system-prompt", "You are a terse pirate."]);
		expect(text).toBe(`You are a terse pirate.\n\n<cwd>\n${cwd}\n</cwd>`);
	});

	test("--system-prompt with a file path uses the file's contents", async () => {
		const { text } = await systemPrompt(["--system-prompt", "prompt.md"], { "prompt.md": "From the file.\n" });
		expect(text.startsWith("From the file.\n\n")).toBe(true);
		expect(text).not.toContain("prompt.md");
	});

	test("--append-system-prompt is repeatable, text and files, in order, after the default prompt", async () => {
		const { text } = await systemPrompt(
			["--append-system-prompt", "First: plain text.", "--append-system-prompt", "extra/more.md"],
			{ "extra/more.md": "Second: from a file.\n" },
		);
		const first = text.indexOf("<addendum>\nFirst: plain text.");
		const second = text.indexOf("Second: from a file.");
		expect(first).toBeGreaterThan(text.indexOf("</rules>"));
		expect(second).toBeGreaterThan(first);
		expect(second).toBeLessThan(text.indexOf("<cwd>"));
		expect(text).not.toContain("extra/more.md");
	});

	test("--system-prompt and --append-system-prompt together", async () => {
		const { text } = await systemPrompt(["--system-prompt", "Base.", "--append-system-prompt", "Added."]);
		expect(text.startsWith("Base.\n\n<addendum>\nAdded.\n</addendum>\n\n<cwd>\n")).toBe(true);
	});
});
