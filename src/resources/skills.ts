/**
 * Skills in the Agent Skills format: a `SKILL.md` (or a loose `.md` in a skills folder root) with YAML frontmatter.
 *
 * Leniency follows pi 0.87.1 (docs/skills.md): a `SKILL.md` whose frontmatter does not parse, or that has no
 * description, is not loaded (with a warning); name-rule problems, an over-long description and badly typed
 * optional fields only warn. A name that differs from the folder name is accepted silently, as in pi. Loose `.md`
 * files that are not skills (no frontmatter description) are skipped without a warning. Unknown fields are ignored.
 */

import { basename, dirname } from "node:path";
import { availableSkillsSection } from "../agent/index.ts";
import { errorMessage, readFileSync } from "../util/index.ts";
import { stem } from "./collect.ts";
import { parseFrontmatter, stripFrontmatter } from "./frontmatter.ts";
import type { ResourceCandidate, ResourceDiagnostic, Skill } from "./types.ts";

export const MAX_SKILL_NAME_LENGTH = 64;
export const MAX_SKILL_DESCRIPTION_LENGTH = 1024;
export const MAX_SKILL_COMPATIBILITY_LENGTH = 500;
export const SKILL_COMMAND_PREFIX = "/skill:";

/** Problems with a skill name under the Agent Skills rules (empty when it is valid). */
export function validateSkillName(name: string): string[] {
	const problems: string[] = [];
	if (name.length > MAX_SKILL_NAME_LENGTH) {
		problems.push(`name is longer than ${MAX_SKILL_NAME_LENGTH} characters (${name.length})`);
	}
	if (!/^[a-z0-9-]*$/.test(name)) problems.push("name may contain only lowercase letters a-z, digits and hyphens");
	if (name.startsWith("-") || name.endsWith("-")) problems.push("name may not start or end with a hyphen");
	if (name.includes("--")) problems.push("name may not contain two hyphens in a row");
	return problems;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export interface SkillLoad {
	skill?: Skill;
	diagnostics: ResourceDiagnostic[];
}

/** Reads and validates one skill file. */
export function loadSkillFile(candidate: ResourceCandidate): SkillLoad {
	const { path, sourceInfo } = candidate;
	const isSkillMd = basename(path) === "SKILL.md";
	const diagnostics: ResourceDiagnostic[] = [];
	const warn = (message: string) => diagnostics.push({ type: "warning", message, path });
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		warn(`cannot read skill: ${errorMessage(error)}`);
		return { diagnostics };
	}
	let fm: Record<string, unknown>;
	try {
		fm = parseFrontmatter(text).frontmatter;
	} catch (error) {
		if (isSkillMd) warn(`skill not loaded: invalid frontmatter: ${errorMessage(error)}`);
		return { diagnostics };
	}
	const rawDescription = fm.description;
	const description = typeof rawDescription === "string" ? rawDescription.trim() : "";
	if (!isSkillMd && description === "") return { diagnostics };

	const fallbackName = isSkillMd ? basename(dirname(path)) : stem(path);
	let name = fallbackName;
	if (typeof fm.name === "string" && fm.name.trim() !== "") name = fm.name.trim();
	else if (fm.name !== undefined && fm.name !== null) warn(`"name" must be a string; using "${fallbackName}"`);
	for (const problem of validateSkillName(name)) warn(`skill "${name}": ${problem}`);

	if (description === "") {
		warn(`skill "${name}" not loaded: "description" is required`);
		return { diagnostics };
	}
	if (description.length > MAX_SKILL_DESCRIPTION_LENGTH) {
		warn(
			`skill "${name}": description is longer than ${MAX_SKILL_DESCRIPTION_LENGTH} characters (${description.length})`,
		);
	}

	const skill: Skill = {
		name,
		description,
		filePath: path,
		baseDir: dirname(path),
		sourceInfo,
		disableModelInvocation: fm["disable-model-invocation"] === true,
	};
	const dmi = fm["disable-model-invocation"];
	if (dmi !== undefined && dmi !== null && typeof dmi !== "boolean") {
		warn(`skill "${name}": "disable-model-invocation" must be true or false; ignored`);
	}
	optionalFields(fm, skill, (field, expected) => warn(`skill "${name}": "${field}" must be ${expected}; ignored`));
	if ((skill.compatibility?.length ?? 0) > MAX_SKILL_COMPATIBILITY_LENGTH) {
		warn(`skill "${name}": compatibility is longer than ${MAX_SKILL_COMPATIBILITY_LENGTH} characters`);
	}
	return { skill, diagnostics };
}

function optionalFields(
	fm: Record<string, unknown>,
	skill: Skill,
	bad: (field: string, expected: string) => void,
): void {
	const present = (key: string) => fm[key] !== undefined && fm[key] !== null;
	if (present("license")) {
		if (typeof fm.license === "string") skill.license = fm.license;
		else bad("license", "a string");
	}
	if (present("compatibility")) {
		if (typeof fm.compatibility === "string") skill.compatibility = fm.compatibility;
		else bad("compatibility", "a string");
	}
	if (present("metadata")) {
		if (isRecord(fm.metadata)) skill.metadata = fm.metadata;
		else bad("metadata", "a mapping of keys to values");
	}
	if (present("allowed-tools")) {
		const tools = fm["allowed-tools"];
		if (typeof tools === "string") skill.allowedTools = tools.split(/\s+/).filter(Boolean);
		else if (Array.isArray(tools) && tools.every((t) => typeof t === "string")) skill.allowedTools = tools;
		else bad("allowed-tools", "a space-separated string or a list of strings");
	}
}

/**
 * The system-prompt block advertising skills (name, description, location) to the model; skills with
 * `disable-model-invocation` are left out. Empty when no skill is visible.
 */
export function formatSkillsForPrompt(skills: readonly Skill[], readTool: "read" | "bash" = "read"): string {
	const how =
		readTool === "read"
			? "When a task fits a skill's description, read its file with the read tool before starting"
			: "When a task fits a skill's description, print its file with bash before starting";
	return availableSkillsSection(skills, [
		"Skills below hold detailed instructions for particular kinds of work; only their summaries are listed here.",
		`${how}, then follow it. Relative paths inside a skill are relative to the folder containing its file.`,
	]);
}

/**
 * `/skill:name args` → the message pi sends: the skill body (frontmatter removed) wrapped in
 * `<skill name="…" location="…">`, a line saying where references resolve, and the arguments after a blank line.
 * Text that is not a skill command, or names an unknown skill, is returned unchanged; so is a skill whose file can
 * no longer be read (then `onError` hears about it).
 */
export function expandSkillCommand(
	text: string,
	skills: readonly Skill[],
	onError?: (skill: Skill, message: string) => void,
): string {
	if (!text.startsWith(SKILL_COMMAND_PREFIX)) return text;
	const space = text.indexOf(" ");
	const name = space === -1 ? text.slice(SKILL_COMMAND_PREFIX.length) : text.slice(SKILL_COMMAND_PREFIX.length, space);
	const args = space === -1 ? "" : text.slice(space + 1).trim();
	const skill = skills.find((s) => s.name === name);
	if (!skill) return text;
	let body: string;
	try {
		body = stripFrontmatter(readFileSync(skill.filePath, "utf8")).trim();
	} catch (error) {
		onError?.(skill, errorMessage(error));
		return text;
	}
	const block = `<skill name="${skill.name}" location="${skill.filePath}">\nReferences are relative to ${skill.baseDir}.\n\n${body}\n</skill>`;
	return args ? `${block}\n\n${args}` : block;
}

export interface ParsedSkillBlock {
	name: string;
	location: string;
	content: string;
	userMessage: string | undefined;
}

/**
 * The parts of a message made by `expandSkillCommand`: the skill's name and location, the text inside the
 * `<skill>` block, and what the user wrote after it (undefined when nothing). Null for any other text.
 */
export function parseSkillBlock(text: string): ParsedSkillBlock | null {
	const match = /^<skill name="([^"]+)" location="([^"]+)">\n([\s\S]*?)\n<\/skill>(?:\n\n([\s\S]+))?$/.exec(text);
	if (!match) return null;
	return {
		name: match[1] as string,
		location: match[2] as string,
		content: match[3] as string,
		userMessage: match[4]?.trim() || undefined,
	};
}
