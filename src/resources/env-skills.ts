/**
 * pi-agent-core's skill loader over an execution environment. Each input directory is walked: a directory with a
 * `SKILL.md` is one skill (nothing below it is searched); otherwise its subdirectories are walked (sorted, skipping
 * dot entries and node_modules) and, at the top level only, `.md` files with a description are skills too.
 * `.gitignore`, `.ignore` and `.fdignore` rules apply below the directory that holds them. Invalid names and
 * descriptions are warnings; a skill without a description is skipped.
 */
import type { Context, ExecutionEnv, Skill } from "../agent/index.ts";
import { type IgnoreRule, parseIgnoreLine } from "../tools/index.ts";
import { parseEnvFrontmatter } from "./env-frontmatter.ts";
import { resolveEnvKind } from "./env-prompts.ts";

export type SkillDiagnosticCode =
	| "file_info_failed"
	| "list_failed"
	| "read_failed"
	| "parse_failed"
	| "invalid_metadata";
export interface SkillDiagnostic {
	type: "warning";
	code: SkillDiagnosticCode;
	message: string;
	path: string;
}

const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;
const IGNORE_FILES = [".gitignore", ".ignore", ".fdignore"];

type Warn = (code: SkillDiagnosticCode, message: string, path: string) => void;

function relativeTo(root: string, path: string): string {
	const r = root.replace(/\\/g, "/").replace(/\/+$/, "");
	const p = path.replace(/\\/g, "/").replace(/\/+$/, "");
	if (p === r) return "";
	return p.startsWith(`${r}/`) ? p.slice(r.length + 1) : p.replace(/^\/+/, "");
}

/** One ignore pattern re-rooted at the walk root (`prefix` is the holding directory, relative, with `/`). */
function rerooted(line: string, prefix: string): string | undefined {
	const trimmed = line.trim();
	if (!trimmed || (trimmed.startsWith("#") && !trimmed.startsWith("\\#"))) return undefined;
	let pattern = line;
	const negate = pattern.startsWith("!");
	if (negate) pattern = pattern.slice(1);
	else if (pattern.startsWith("\\!")) pattern = pattern.slice(1);
	if (pattern.startsWith("/")) pattern = pattern.slice(1);
	return `${negate ? "!" : ""}${prefix}${pattern}`;
}

class IgnoreRules {
	private readonly rules: IgnoreRule[] = [];
	add(patterns: string[]): void {
		for (const pattern of patterns) {
			const rule = parseIgnoreLine(pattern);
			if (rule) this.rules.push(rule);
		}
	}
	/** `path` is relative to the walk root; directories end in `/`. */
	ignores(path: string): boolean {
		const isDir = path.endsWith("/");
		const bare = isDir ? path.slice(0, -1) : path;
		let ignored = false;
		for (const rule of this.rules) {
			if (rule.dirOnly && !isDir) continue;
			if (rule.regex.test(bare)) ignored = !rule.negate;
		}
		return ignored;
	}
}

function nameProblems(name: string, parentDir: string): string[] {
	const problems: string[] = [];
	if (name !== parentDir) problems.push(`name "${name}" does not match parent directory "${parentDir}"`);
	if (name.length > MAX_NAME) problems.push(`name exceeds ${MAX_NAME} characters (${name.length})`);
	if (!/^[a-z0-9-]+$/.test(name))
		problems.push("name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)");
	if (name.startsWith("-") || name.endsWith("-")) problems.push("name must not start or end with a hyphen");
	if (name.includes("--")) problems.push("name must not contain consecutive hyphens");
	return problems;
}

function descriptionProblems(description: string | undefined): string[] {
	if (!description || description.trim() === "") return ["description is required"];
	if (description.length > MAX_DESCRIPTION)
		return [`description exceeds ${MAX_DESCRIPTION} characters (${description.length})`];
	return [];
}

async function loadSkillFile(
	env: ExecutionEnv,
	path: string,
	parentDir: string,
	warn: Warn,
	context: Context,
): Promise<Skill | undefined> {
	const declared =
		path
			.replace(/[\\/]+$/, "")
			.split(/[\\/]/)
			.pop() === "SKILL.md";
	const raw = await env.readTextFile(path, context);
	if (!raw.ok) {
		warn("read_failed", raw.error.message, path);
		return undefined;
	}
	const parsed = parseEnvFrontmatter(raw.value);
	if (!parsed.ok) {
		if (declared) warn("parse_failed", parsed.error.message, path);
		return undefined;
	}
	const { frontmatter, body } = parsed.value;
	const description = typeof frontmatter.description === "string" ? frontmatter.description : undefined;
	const hasDescription = description !== undefined && description.trim() !== "";
	if (!declared && !hasDescription) return undefined;
	for (const problem of descriptionProblems(description)) warn("invalid_metadata", problem, path);
	const name = (typeof frontmatter.name === "string" && frontmatter.name) || parentDir;
	for (const problem of nameProblems(name, parentDir)) warn("invalid_metadata", problem, path);
	if (!hasDescription) return undefined;
	return {
		name,
		description: description as string,
		content: body,
		filePath: path,
		disableModelInvocation: frontmatter["disable-model-invocation"] === true,
	};
}

async function addIgnoreFiles(
	env: ExecutionEnv,
	rules: IgnoreRules,
	dir: string,
	root: string,
	warn: Warn,
	context: Context,
): Promise<void> {
	const rel = relativeTo(root, dir);
	const prefix = rel ? `${rel}/` : "";
	for (const name of IGNORE_FILES) {
		const joined = await env.joinPath([dir, name], context);
		if (!joined.ok) {
			warn("file_info_failed", joined.error.message, dir);
			continue;
		}
		const info = await env.fileInfo(joined.value, context);
		if (!info.ok) {
			if (info.error.code !== "not_found") warn("file_info_failed", info.error.message, joined.value);
			continue;
		}
		if (info.value.kind !== "file") continue;
		const text = await env.readTextFile(joined.value, context);
		if (!text.ok) {
			warn("read_failed", text.error.message, joined.value);
			continue;
		}
		rules.add(text.value.split(/\r?\n/).flatMap((line) => rerooted(line, prefix) ?? []));
	}
}

async function walk(
	env: ExecutionEnv,
	dir: string,
	top: boolean,
	rules: IgnoreRules,
	root: string,
	warn: Warn,
	skills: Skill[],
	context: Context,
): Promise<void> {
	const dirInfo = await env.fileInfo(dir, context);
	if (!dirInfo.ok) {
		if (dirInfo.error.code !== "not_found") warn("file_info_failed", dirInfo.error.message, dir);
		return;
	}
	if ((await resolveEnvKind(env, dirInfo.value, warn, context)) !== "directory") return;
	await addIgnoreFiles(env, rules, dir, root, warn, context);
	const listed = await env.listDir(dir, context);
	if (!listed.ok) {
		warn("list_failed", listed.error.message, dir);
		return;
	}
	const entries = listed.value;
	const dirName = dirInfo.value.name;
	const skillFile = entries.find((entry) => entry.name === "SKILL.md");
	if (skillFile) {
		if ((await resolveEnvKind(env, skillFile, warn, context)) !== "file") return walkChildren();
		if (rules.ignores(relativeTo(root, skillFile.path))) return walkChildren();
		const skill = await loadSkillFile(env, skillFile.path, dirInfo.value.name, warn, context);
		if (skill) skills.push(skill);
		return;
	}
	return walkChildren();

	async function walkChildren(): Promise<void> {
		for (const entry of [...entries].sort((a, b) => a.name.localeCompare(b.name))) {
			if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
			const kind = await resolveEnvKind(env, entry, warn, context);
			if (!kind) continue;
			const rel = relativeTo(root, entry.path);
			if (rules.ignores(kind === "directory" ? `${rel}/` : rel)) continue;
			if (kind === "directory") {
				await walk(env, entry.path, false, rules, root, warn, skills, context);
			} else if (top && entry.name.endsWith(".md")) {
				const skill = await loadSkillFile(env, entry.path, dirName, warn, context);
				if (skill) skills.push(skill);
			}
		}
	}
}

export async function loadSkills(
	env: ExecutionEnv,
	dirs: string | string[],
	context: Context,
): Promise<{ skills: Skill[]; diagnostics: SkillDiagnostic[] }> {
	const skills: Skill[] = [];
	const diagnostics: SkillDiagnostic[] = [];
	const warn: Warn = (code, message, path) => diagnostics.push({ type: "warning", code, message, path });
	for (const dir of Array.isArray(dirs) ? dirs : [dirs]) {
		const info = await env.fileInfo(dir, context);
		if (!info.ok) {
			if (info.error.code !== "not_found") warn("file_info_failed", info.error.message, dir);
			continue;
		}
		if ((await resolveEnvKind(env, info.value, warn, context)) !== "directory") continue;
		await walk(env, info.value.path, true, new IgnoreRules(), info.value.path, warn, skills, context);
	}
	return { skills, diagnostics };
}

/** `loadSkills` per input, with each input's `source` attached to its skills and warnings. */
export async function loadSourcedSkills<TSource, TSkill extends Skill = Skill>(
	env: ExecutionEnv,
	inputs: Array<{ path: string; source: TSource }>,
	mapSkill: ((skill: Skill, source: TSource, context: Context) => TSkill) | undefined,
	context: Context,
): Promise<{
	skills: Array<{ skill: TSkill; source: TSource }>;
	diagnostics: Array<SkillDiagnostic & { source: TSource }>;
}> {
	const skills: Array<{ skill: TSkill; source: TSource }> = [];
	const diagnostics: Array<SkillDiagnostic & { source: TSource }> = [];
	for (const { path, source } of inputs) {
		const loaded = await loadSkills(env, path, context);
		for (const skill of loaded.skills)
			skills.push({ skill: mapSkill ? mapSkill(skill, source, context) : (skill as TSkill), source });
		for (const diagnostic of loaded.diagnostics) diagnostics.push({ ...diagnostic, source });
	}
	return { skills, diagnostics };
}
