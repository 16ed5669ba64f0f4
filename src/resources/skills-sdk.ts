/**
 * pi's SDK skill and context-file loaders: `loadSkillsFromDir` (one folder), `loadSkills` (the user and project
 * skill folders and/or given paths, first name wins, collisions reported) and `loadProjectContextFiles` (the
 * agent dir's context file, then those from the filesystem root down to cwd).
 */
import { join, resolve, sep } from "node:path";
import { CONFIG_DIR_NAME, getAgentDir } from "../config/index.ts";
import { expandHome, statSync } from "../util/index.ts";
import { canonicalPath, collectSkillFiles, kindOf } from "./collect.ts";
import { loadContextFiles } from "./context-files.ts";
import { loadSkillFile } from "./skills.ts";
import { createSyntheticSourceInfo } from "./source-info.ts";
import type { ResourceDiagnostic, Skill, SourceInfo } from "./types.ts";

export interface LoadSkillsResult {
	skills: Skill[];
	diagnostics: ResourceDiagnostic[];
}

export interface LoadSkillsFromDirOptions {
	dir: string;
	/** "user", "project", "path", or any other label (kept as the skills' `sourceInfo.source`). */
	source: string;
}

export interface LoadSkillsOptions {
	cwd: string;
	agentDir: string;
	skillPaths: string[];
	/** Also load `<agentDir>/skills` and `<cwd>/.pi/skills`. */
	includeDefaults: boolean;
}

function skillSourceInfo(path: string, baseDir: string, source: string): SourceInfo {
	if (source === "user" || source === "project")
		return createSyntheticSourceInfo(path, { source: "local", scope: source, baseDir });
	if (source === "path") return createSyntheticSourceInfo(path, { source: "local", baseDir });
	return createSyntheticSourceInfo(path, { source, baseDir });
}

function loadFiles(files: string[], source: string): LoadSkillsResult {
	const skills: Skill[] = [];
	const diagnostics: ResourceDiagnostic[] = [];
	for (const path of files) {
		const baseDir = resolve(path, "..");
		const load = loadSkillFile({ path, sourceInfo: skillSourceInfo(path, baseDir, source) });
		if (load.skill) skills.push(load.skill);
		diagnostics.push(...load.diagnostics);
	}
	return { skills, diagnostics };
}

/** Skills of one folder: its `SKILL.md`, else loose `.md` files at the top and `SKILL.md` files below. */
export function loadSkillsFromDir(options: LoadSkillsFromDirOptions): LoadSkillsResult {
	return loadFiles(collectSkillFiles(options.dir, true), options.source);
}

const isUnder = (path: string, root: string) =>
	path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

export function loadSkills(options: LoadSkillsOptions): LoadSkillsResult {
	const cwd = resolve(expandHome(options.cwd));
	const agentDir = resolve(expandHome(options.agentDir ?? getAgentDir()));
	const userDir = join(agentDir, "skills");
	const projectDir = join(cwd, CONFIG_DIR_NAME, "skills");
	const byName = new Map<string, Skill>();
	const files = new Set<string>();
	const diagnostics: ResourceDiagnostic[] = [];
	const collisions: ResourceDiagnostic[] = [];
	const add = (result: LoadSkillsResult) => {
		diagnostics.push(...result.diagnostics);
		for (const skill of result.skills) {
			const real = canonicalPath(skill.filePath);
			if (files.has(real)) continue;
			const winner = byName.get(skill.name);
			if (winner) {
				collisions.push({
					type: "collision",
					message: `name "${skill.name}" collision`,
					path: skill.filePath,
					collision: {
						resourceType: "skill",
						name: skill.name,
						winnerPath: winner.filePath,
						loserPath: skill.filePath,
					},
				});
			} else {
				byName.set(skill.name, skill);
				files.add(real);
			}
		}
	};
	if (options.includeDefaults) {
		add(loadSkillsFromDir({ dir: userDir, source: "user" }));
		add(loadSkillsFromDir({ dir: projectDir, source: "project" }));
	}
	for (const raw of options.skillPaths) {
		const path = resolve(cwd, expandHome(raw.trim()));
		const kind = kindOf(path);
		if (kind === "missing") {
			diagnostics.push({ type: "warning", message: "skill path does not exist", path });
			continue;
		}
		const source =
			!options.includeDefaults && isUnder(path, userDir)
				? "user"
				: !options.includeDefaults && isUnder(path, projectDir)
					? "project"
					: "path";
		try {
			if (statSync(path).isDirectory()) add(loadSkillsFromDir({ dir: path, source }));
			else if (path.endsWith(".md")) {
				const result = loadFiles([path], source);
				if (result.skills.length > 0) add(result);
				else diagnostics.push(...result.diagnostics);
			} else diagnostics.push({ type: "warning", message: "skill path is not a markdown file", path });
		} catch (error) {
			diagnostics.push({ type: "warning", message: (error as Error).message, path });
		}
	}
	return { skills: [...byName.values()], diagnostics: [...diagnostics, ...collisions] };
}

/** The context files (AGENTS.md & co.) pi would give the model for `cwd`, in prompt order. */
export function loadProjectContextFiles(options: {
	cwd: string;
	agentDir: string;
}): { path: string; content: string }[] {
	return loadContextFiles({ cwd: resolve(options.cwd), agentDir: resolve(options.agentDir) }).map(
		({ path, content }) => ({
			path,
			content,
		}),
	);
}
