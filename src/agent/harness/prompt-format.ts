/**
 * Pure text helpers of pi-agent-core for explicit invocations: shell-style argument splitting, `$1`/`$@`/
 * `$ARGUMENTS`/`${@:N[:L]}` substitution, the skill block sent for `/skill:name`, and the skill list for the
 * system prompt.
 */
import type { PromptTemplate, Skill } from "./env-types.ts";

/** Split on spaces and tabs; single or double quotes group words (quotes removed, no escapes). */
export function parseCommandArgs(argsString: string): string[] {
	const args: string[] = [];
	let word = "";
	let quote: string | undefined;
	for (const ch of argsString) {
		if (quote) {
			if (ch === quote) quote = undefined;
			else word += ch;
		} else if (ch === '"' || ch === "'") {
			quote = ch;
		} else if (ch === " " || ch === "\t") {
			if (word) args.push(word);
			word = "";
		} else {
			word += ch;
		}
	}
	if (word) args.push(word);
	return args;
}

/** Fill a template's placeholders: positional `$N` first, then slices, then `$ARGUMENTS` and `$@`. */
export function substituteArgs(content: string, args: string[]): string {
	const all = args.join(" ");
	return content
		.replace(/\$(\d+)/g, (_, n: string) => args[Number.parseInt(n, 10) - 1] ?? "")
		.replace(/\$\{@:(\d+)(?::(\d+))?\}/g, (_, from: string, count: string | undefined) => {
			const start = Math.max(0, Number.parseInt(from, 10) - 1);
			const end = count ? start + Number.parseInt(count, 10) : undefined;
			return args.slice(start, end).join(" ");
		})
		.replace(/\$ARGUMENTS/g, () => all)
		.replace(/\$@/g, () => all);
}

export function formatPromptTemplateInvocation(template: PromptTemplate, args: string[] = []): string {
	return substituteArgs(template.content, args);
}

/** Directory part of an environment path (`/` for a top-level file, `C:\` kept for drive roots). */
export function envDirname(path: string): string {
	const trimmed = path.replace(/[\\/]+$/, "");
	const cut = Math.max(trimmed.lastIndexOf("/"), trimmed.lastIndexOf("\\"));
	if (cut === 2 && trimmed[1] === ":") return trimmed.slice(0, 3);
	return cut <= 0 ? "/" : trimmed.slice(0, cut);
}

/** The `<skill>` block a skill invocation sends, with any extra user instructions after it. */
export function formatSkillInvocation(skill: Skill, additionalInstructions?: string): string {
	const block =
		`<skill name="${skill.name}" location="${skill.filePath}">\n` +
		`References are relative to ${envDirname(skill.filePath)}.\n\n${skill.content}\n</skill>`;
	return additionalInstructions ? `${block}\n\n${additionalInstructions}` : block;
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch] as string);

/** What the model is told of a skill in the system prompt. */
export interface ListedSkill {
	name: string;
	description: string;
	filePath: string;
	disableModelInvocation?: boolean;
}

/**
 * The skills section of a system prompt: `intro` lines, then `<available_skills>` with each model-invocable skill's
 * name, description and file (XML-escaped); "" when no skill is model-invocable. Both pi-agent-core's and the
 * coding agent's prompts are built with it.
 */
export function availableSkillsSection(skills: readonly ListedSkill[], intro: readonly string[]): string {
	const visible = skills.filter((skill) => !skill.disableModelInvocation);
	if (visible.length === 0) return "";
	const lines = [...intro, "", "<available_skills>"];
	for (const skill of visible) {
		lines.push(
			"  <skill>",
			`    <name>${escapeXml(skill.name)}</name>`,
			`    <description>${escapeXml(skill.description)}</description>`,
			`    <location>${escapeXml(skill.filePath)}</location>`,
			"  </skill>",
		);
	}
	lines.push("</available_skills>");
	return lines.join("\n");
}

/** The system-prompt section listing the model-invocable skills ("" when there are none). */
export function formatSkillsForSystemPrompt(skills: Skill[]): string {
	return availableSkillsSection(skills, [
		"Each skill below holds detailed instructions for one kind of task; only its summary is listed here.",
		"When a task fits a skill's description, read the whole skill file first and follow it.",
		"Relative paths inside a skill file are relative to the folder that contains it: turn them into absolute paths before using them in tool calls.",
	]);
}
