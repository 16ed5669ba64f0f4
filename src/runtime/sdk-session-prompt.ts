/**
 * What an SDK session's system prompt is built from, in pi's shape: the resource loader's system prompt (given or
 * SYSTEM.md) and appended parts, its context files and skills, the active tools and every tool's snippet and
 * guidelines.
 */
import { join } from "node:path";
import type { AgentTool } from "../agent/index.ts";
import { getDocsPath } from "../config/index.ts";
import type { SdkResourceLoader } from "./sdk-session.ts";
import type { SystemPromptOptions } from "./system-prompt.ts";

interface PromptMetadata {
	promptSnippet?: string;
	promptGuidelines?: string[];
}

/** A tool snippet on one line (pi folds line breaks and runs of spaces). */
function oneLine(text: string | undefined): string | undefined {
	const line = text?.replace(/\s+/g, " ").trim();
	return line ? line : undefined;
}

export function sdkPromptOptions(
	cwd: string,
	loader: SdkResourceLoader,
	active: AgentTool<any>[],
	all: AgentTool<any>[],
): SystemPromptOptions {
	const toolSnippets: Record<string, string> = {};
	const toolGuidelines: Record<string, string[]> = {};
	for (const tool of all as (AgentTool<any> & PromptMetadata)[]) {
		const snippet = oneLine(tool.promptSnippet);
		if (snippet) toolSnippets[tool.name] = snippet;
		const lines = [...new Set((tool.promptGuidelines ?? []).map((line) => line.trim()).filter(Boolean))];
		if (lines.length > 0) toolGuidelines[tool.name] = lines;
	}
	const customPrompt = loader.getSystemPrompt();
	return {
		cwd,
		...(customPrompt !== undefined ? { customPrompt } : {}),
		appendSystemPrompt: loader
			.getAppendSystemPrompt()
			.filter((part) => part.trim() !== "")
			.join("\n\n"),
		selectedTools: active.map((tool) => tool.name),
		toolSnippets,
		toolGuidelines,
		contextFiles: loader.getAgentsFiles().agentsFiles,
		skills: loader.getSkills().skills,
	};
}

/** pi's pointer to its provider and model docs, after "No models available." and "No model selected.". */
export function loginHelp(): string {
	const docs = getDocsPath();
	return [
		"Use /login to log into a provider via OAuth or API key. See:",
		`  ${join(docs, "providers.md")}`,
		`  ${join(docs, "models.md")}`,
	].join("\n");
}
