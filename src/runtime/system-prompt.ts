/**
 * The system prompt as pi 0.86+ structures it: named, independently replaceable sections that the transcript's
 * system messages carry and patch. `preamble` (who the assistant is, or the custom prompt of `--system-prompt` /
 * SYSTEM.md) comes first; then `tools` (each selected tool's one-line snippet), `rules` (guidelines), `addendum`
 * (APPEND_SYSTEM.md / `--append-system-prompt`), `project_context` (AGENTS.md files), `skills`, `cwd`, and any
 * `sections` an extension adds. Every section but the preamble is wrapped in a tag of its name. A forced prompt
 * (a `before_agent_start` handler's `systemPrompt`) replaces all of it as opaque content.
 */
import { getSystemMessageText, type SystemMessage } from "../ai/index.ts";
import type { NormalizedSystemPromptOptions, SystemPromptOptions } from "../extensions/index.ts";
import { formatSkillsForPrompt, type Skill } from "../resources/index.ts";

export type { NormalizedSystemPromptOptions, SystemPromptOptions };

const SECTION_NAME = /^[a-z][a-z0-9_-]*$/;
const DEFAULT_TOOLS = ["read", "bash", "edit", "write"];

const PREAMBLE = `You are an expert coding assistant working in the user's project through the tools listed below. You read \
code before changing it, make focused changes, run commands to check your work, and report what you did plainly.`;

/** Every collection present and copied, so `before_agent_start` handlers can edit the options in place. */
export function normalizeSystemPromptOptions(input: SystemPromptOptions): NormalizedSystemPromptOptions {
	return {
		...(input.customPrompt !== undefined ? { customPrompt: input.customPrompt } : {}),
		...(input.forceSystemPrompt !== undefined ? { forceSystemPrompt: input.forceSystemPrompt } : {}),
		selectedTools: [...(input.selectedTools ?? DEFAULT_TOOLS)],
		toolSnippets: { ...input.toolSnippets },
		toolGuidelines: Object.fromEntries(
			Object.entries(input.toolGuidelines ?? {}).map(([name, lines]) => [name, [...lines]]),
		),
		promptGuidelines: [...(input.promptGuidelines ?? [])],
		appendSystemPrompt: input.appendSystemPrompt ?? "",
		sections: { ...input.sections },
		cwd: input.cwd,
		contextFiles: (input.contextFiles ?? []).map((file) => ({ ...file })),
		skills: (input.skills ?? []).map((skill) => ({ ...(skill as object) })),
	};
}

function rules(options: NormalizedSystemPromptOptions): string {
	const out: string[] = [];
	const add = (rule: string) => {
		const line = rule.trim();
		if (line && !out.includes(line)) out.push(line);
	};
	const selected = new Set(options.selectedTools);
	const searchTools = selected.has("grep") || selected.has("find") || selected.has("ls");
	const shells = ["bash", "powershell"].filter((name) => selected.has(name));
	if (shells.length > 0 && !searchTools) {
		add(`Use ${shells.join(" or ")} for file operations such as listing, searching and finding files`);
	}
	for (const name of options.selectedTools) for (const rule of options.toolGuidelines[name] ?? []) add(rule);
	for (const rule of options.promptGuidelines) add(rule);
	add("Keep answers short and to the point");
	add("Name file paths clearly when you talk about files");
	return out.map((rule) => `- ${rule}`).join("\n");
}

function projectContext(files: NormalizedSystemPromptOptions["contextFiles"]): string {
	const blocks = files.map((f) => `<project_instructions path="${f.path}">\n${f.content}\n</project_instructions>`);
	return ["Instructions from the project's context files:", ...blocks].join("\n\n");
}

/**
 * The ordered sections of the prompt for `input`. An extension section named `preamble`, or whose name is not
 * lower-case letters, digits, `_` and `-` starting with a letter, is refused with an error naming it.
 */
export function buildSystemPromptSections(input: SystemPromptOptions): Record<string, string> {
	const options = normalizeSystemPromptOptions(input);
	for (const name of Object.keys(options.sections)) {
		if (!SECTION_NAME.test(name) || name === "preamble") throw new Error(`Invalid system prompt section name: ${name}`);
	}
	const body: Record<string, string> = {};
	let preamble = options.customPrompt;
	if (!preamble) {
		preamble = PREAMBLE;
		const listed = options.selectedTools.filter((name) => options.toolSnippets[name]);
		const list =
			listed.length > 0 ? listed.map((name) => `- ${name}: ${options.toolSnippets[name]}`).join("\n") : "(none)";
		body.tools = `${list}\n\nThe project may give you more tools than the ones listed here.`;
		body.rules = rules(options);
	}
	if (options.appendSystemPrompt) body.addendum = options.appendSystemPrompt;
	if (options.contextFiles.length > 0) body.project_context = projectContext(options.contextFiles);
	const skillTool = (["read", "bash"] as const).find((name) => options.selectedTools.includes(name));
	if (skillTool && options.skills.length > 0) {
		const skills = formatSkillsForPrompt(options.skills as Skill[], skillTool).trim();
		if (skills) body.skills = skills;
	}
	body.cwd = options.cwd.replace(/\\/g, "/");
	for (const [name, content] of Object.entries(options.sections)) if (content) body[name] = content;
	const sections: Record<string, string> = { preamble };
	for (const [name, content] of Object.entries(body)) sections[name] = `<${name}>\n${content}\n</${name}>`;
	return sections;
}

/** The whole prompt state: a forced prompt as opaque content, otherwise empty content and the sections. */
export function buildSystemPromptState(input: SystemPromptOptions): Pick<SystemMessage, "content" | "sections"> {
	if (input.forceSystemPrompt !== undefined) return { content: input.forceSystemPrompt };
	return { content: "", sections: buildSystemPromptSections(input) };
}

/** The prompt text, rendered as the transcript's system message replays it. */
export function buildSystemPrompt(input: SystemPromptOptions): string {
	return getSystemMessageText(buildSystemPromptState(input));
}

/**
 * The `sections` patch from the sections the model has (replayed from the transcript) to the wanted ones:
 * changed or new sections, `null` for removed ones; undefined when nothing changed.
 */
export function diffSystemPromptSections(
	previous: Readonly<Record<string, string | null>>,
	current: Readonly<Record<string, string>>,
): Record<string, string | null> | undefined {
	const patch: Record<string, string | null> = {};
	for (const [name, text] of Object.entries(current)) if (previous[name] !== text) patch[name] = text;
	for (const name of Object.keys(previous)) if (current[name] === undefined) patch[name] = null;
	return Object.keys(patch).length > 0 ? patch : undefined;
}
