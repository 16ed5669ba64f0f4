/**
 * The default system prompt: who the assistant is, the active tools with their one-line snippets, the guidelines
 * those tools add, project context files, and the working directory and date. `customPrompt` (from
 * `--system-prompt` or SYSTEM.md) replaces the opening; `appendSystemPrompt` parts are added at the end.
 */

export interface PromptTool {
	name: string;
	promptSnippet?: string;
	promptGuidelines?: string[];
}

export interface ContextFile {
	path: string;
	content: string;
}

export interface SystemPromptOptions {
	cwd: string;
	tools: PromptTool[];
	customPrompt?: string;
	appendSystemPrompt?: string[];
	contextFiles?: ContextFile[];
	/** Already formatted skills block (from the resources layer), if any. */
	skillsBlock?: string;
	/** The skills behind `skillsBlock`, as the resources layer loaded them (reported to extensions). */
	skills?: unknown[];
	date?: Date;
}

const INTRO = `You are an expert coding assistant working in the user's project through the tools listed below. You read \
code before changing it, make focused changes, run commands to check your work, and report what you did plainly.`;

export function buildSystemPrompt(options: SystemPromptOptions): string {
	const parts: string[] = [];
	// An empty custom prompt (e.g. `--system-prompt ""` or a blank SYSTEM.md) keeps the default, as in pi.
	const custom = options.customPrompt?.trim();
	if (custom) {
		parts.push(custom);
	} else {
		parts.push(INTRO);
		const listed = options.tools.filter((t) => t.promptSnippet);
		if (listed.length > 0) {
			parts.push(`Available tools:\n${listed.map((t) => `- ${t.name}: ${t.promptSnippet}`).join("\n")}`);
		}
		parts.push(
			`Guidelines:\n${guidelines(options.tools)
				.map((g) => `- ${g}`)
				.join("\n")}`,
		);
	}
	for (const extra of options.appendSystemPrompt ?? []) {
		if (extra.trim() !== "") parts.push(extra.trim());
	}
	if (options.contextFiles && options.contextFiles.length > 0) {
		const files = options.contextFiles.map((f) => `<file path="${f.path}">\n${f.content.trim()}\n</file>`);
		parts.push(`Project context (instructions from the user's context files):\n${files.join("\n")}`);
	}
	if (options.skillsBlock) parts.push(options.skillsBlock);
	const date = (options.date ?? new Date()).toISOString().slice(0, 10);
	parts.push(`Current date: ${date}\nCurrent working directory: ${options.cwd}`);
	return parts.join("\n\n");
}

function guidelines(tools: PromptTool[]): string[] {
	const names = new Set(tools.map((t) => t.name));
	const out: string[] = [];
	const hasSearchTools = names.has("grep") || names.has("find") || names.has("ls");
	if (names.has("bash") && !hasSearchTools) out.push("Use bash for file operations such as ls, rg and find");
	if (names.has("bash") && hasSearchTools)
		out.push("Prefer the grep, find and ls tools over bash for searching and listing");
	for (const tool of tools) for (const line of tool.promptGuidelines ?? []) if (!out.includes(line)) out.push(line);
	out.push("Keep answers short and to the point");
	out.push("Name file paths clearly when you talk about files");
	return out;
}

/**
 * The options in the shape pi's extensions see them (`before_agent_start.systemPromptOptions`,
 * `ctx.getSystemPromptOptions()`): selected tool names, their snippets and guidelines keyed by tool, the appended
 * text, context files and skills. Extensions read it; changing it does not change the prompt.
 */
export function describeSystemPrompt(options: SystemPromptOptions): Record<string, unknown> {
	const toolSnippets: Record<string, string> = {};
	const toolGuidelines: Record<string, string[]> = {};
	for (const tool of options.tools) {
		if (tool.promptSnippet) toolSnippets[tool.name] = tool.promptSnippet;
		if (tool.promptGuidelines && tool.promptGuidelines.length > 0)
			toolGuidelines[tool.name] = [...tool.promptGuidelines];
	}
	return {
		cwd: options.cwd,
		...(options.customPrompt !== undefined ? { customPrompt: options.customPrompt } : {}),
		selectedTools: options.tools.map((tool) => tool.name),
		toolSnippets,
		toolGuidelines,
		promptGuidelines: [],
		appendSystemPrompt: (options.appendSystemPrompt ?? []).filter((part) => part.trim() !== "").join("\n\n"),
		sections: {},
		contextFiles: (options.contextFiles ?? []).map((file) => ({ path: file.path, content: file.content })),
		skills: [...(options.skills ?? [])],
	};
}
