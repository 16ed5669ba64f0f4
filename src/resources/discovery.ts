/**
 * Where skills, prompt templates and themes come from, in precedence order (the first file claiming a name wins):
 *   1. project settings lists (`<cwd>/.pi/settings.json`, paths relative to `.pi/`)      — trusted projects only
 *   2. global settings lists (`<agentDir>/settings.json`, paths relative to the agent dir)
 *   3. project folders: `.pi/skills|prompts|themes`, and for skills every `.agents/skills` from cwd up to the git
 *      root (or the filesystem root)                                                      — trusted projects only
 *   4. user folders: `<agentDir>/skills|prompts|themes`, and for skills `~/.agents/skills`
 *   4b. the packages of settings `packages` (project entries first; source info origin "package")
 *   5. command-line paths (`--skill`, `--prompt-template`, `--theme`, relative to cwd)
 *   6. paths contributed by extensions (`resources_discover`)
 *   0. (before all of these) the files of the packages given with `-e <folder>`
 * This is pi 0.87.1's order: project resources win over user ones. `noSkills` & co. drop 1-4b (explicit paths
 * still load). Settings lists may also hold patterns (see util/resource-patterns.ts); their `!`/`+`/`-` entries filter the same
 * scope's folders of step 3 or 4.
 *
 * Folder rules: skills folders yield `SKILL.md` files (and loose `.md` files at their top, except in
 * `.agents/skills`); conventional prompt/theme folders and command-line folders give their direct `.md`/`.json`
 * children; folders named in settings are searched recursively.
 */
import { dirname, isAbsolute, resolve } from "node:path";
import {
	agentPaths,
	agentsSkillsDir,
	getProjectConfigDir,
	projectPaths,
	resolveSettingsPath,
	type SettingsFile,
	userAgentsSkillsDir,
} from "../config/index.ts";
import { applyPatterns, enabledByOverrides, expandHome, isPatternEntry } from "../util/index.ts";
import {
	ancestorsUpTo,
	canonicalPath,
	collectFilesByExtension,
	collectSkillFiles,
	findGitRoot,
	kindOf,
} from "./collect.ts";
import type { ResourceCandidate, ResourceDiagnostic, SourceInfo, SourceScope } from "./types.ts";

export type ResourceKind = "skills" | "prompts" | "themes";

const EXTENSION: Record<ResourceKind, string> = { skills: ".md", prompts: ".md", themes: ".json" };

export interface ExplicitPaths {
	/** `cli` or `extension:<name>`. */
	source: string;
	paths: readonly string[];
	/** The base dir every file of the group reports (default: the named folder, or a file's folder). */
	baseDir?: string;
}

export interface DiscoveryOptions {
	cwd: string;
	agentDir: string;
	projectTrusted: boolean;
	settingsFiles: readonly SettingsFile[];
	/** Skip settings lists and conventional folders (`--no-skills` etc.). */
	noDiscovery: boolean;
	/** Files of the packages given with `-e`: they come first, as in pi (kept with `--no-skills` & co.). */
	packaged?: readonly ResourceCandidate[];
	/** Files of the settings `packages`, after the user folders (dropped with `noDiscovery`). */
	installed?: readonly ResourceCandidate[];
	/** Command-line paths, then extension paths, in order. */
	explicit: readonly ExplicitPaths[];
	env?: NodeJS.ProcessEnv;
	/** Also list the files settings patterns turn off (marked `disabled`), as pi's package manager lists them. */
	includeDisabled?: boolean;
}

/** Files of one folder, by the rules for where the folder came from. */
function filesIn(kind: ResourceKind, dir: string, origin: "auto" | "settings" | "explicit" | "agents"): string[] {
	if (kind === "skills") return collectSkillFiles(dir, origin !== "agents");
	return collectFilesByExtension(dir, EXTENSION[kind], origin === "settings");
}

export function discoverCandidates(
	kind: ResourceKind,
	options: DiscoveryOptions,
): { candidates: ResourceCandidate[]; diagnostics: ResourceDiagnostic[] } {
	const candidates: ResourceCandidate[] = [];
	const diagnostics: ResourceDiagnostic[] = [];
	const seen = new Set<string>();
	const add = (path: string, info: Omit<SourceInfo, "path">, enabled = true) => {
		if (!enabled && !options.includeDisabled) return;
		const key = canonicalPath(path);
		if (seen.has(key)) return;
		seen.add(key);
		candidates.push({ path, sourceInfo: { path, ...info }, ...(enabled ? {} : { disabled: true as const }) });
	};
	for (const candidate of options.packaged ?? []) add(candidate.path, candidate.sourceInfo);
	const files = options.settingsFiles.filter((f) => f.scope === "global" || (options.projectTrusted && !f.restricted));
	const listOf = (file: SettingsFile | undefined) =>
		file ? ((file.settings[kind] as string[] | undefined) ?? []) : [];
	const project = files.find((f) => f.scope === "project");
	const global = files.find((f) => f.scope === "global");

	if (!options.noDiscovery) {
		for (const file of [project, global]) {
			if (!file) continue;
			const scope: SourceScope = file.scope === "project" ? "project" : "user";
			const entries = listOf(file);
			const listed: string[] = [];
			for (const entry of entries.filter((e) => !isPatternEntry(e))) {
				const path = resolveSettingsPath(entry, file.baseDir);
				const found = kindOf(path);
				if (found === "dir") listed.push(...filesIn(kind, path, "settings"));
				else if (found === "file") listed.push(path);
				else
					diagnostics.push({ type: "warning", message: `"${kind}" entry "${entry}" does not exist`, path: file.path });
			}
			const enabled = applyPatterns(listed, entries, file.baseDir);
			for (const path of listed) {
				add(path, { source: "local", scope, origin: "top-level", baseDir: file.baseDir }, enabled.has(path));
			}
		}
		const auto = (
			dir: string,
			origin: "auto" | "agents",
			scope: SourceScope,
			file: SettingsFile | undefined,
			base: string,
		) => {
			const entries = listOf(file);
			for (const path of filesIn(kind, dir, origin)) {
				add(
					path,
					{ source: "auto", scope, origin: "top-level", baseDir: base },
					enabledByOverrides(path, entries, base),
				);
			}
		};
		if (options.projectTrusted) {
			const base = getProjectConfigDir(options.cwd);
			auto(projectDir(kind, options.cwd), "auto", "project", project, base);
			if (kind === "skills") {
				const userSkills = canonicalPath(userAgentsSkillsDir(options.env));
				for (const dir of ancestorsUpTo(options.cwd, findGitRoot(options.cwd))) {
					const skills = agentsSkillsDir(dir);
					if (canonicalPath(skills) === userSkills) continue;
					auto(skills, "agents", "project", project, dirname(skills));
				}
			}
		}
		auto(userDir(kind, options.agentDir), "auto", "user", global, options.agentDir);
		if (kind === "skills") {
			const skills = userAgentsSkillsDir(options.env);
			auto(skills, "agents", "user", global, dirname(skills));
		}
		for (const candidate of options.installed ?? []) add(candidate.path, candidate.sourceInfo);
	}

	for (const group of options.explicit) {
		for (const entry of group.paths) {
			const expanded = expandHome(entry, options.env);
			const path = isAbsolute(expanded) ? expanded : resolve(options.cwd, expanded);
			const info = { source: group.source, scope: "temporary" as const, origin: "top-level" as const };
			const found = kindOf(path);
			if (found === "dir") {
				for (const file of filesIn(kind, path, "explicit")) add(file, { ...info, baseDir: group.baseDir ?? path });
			} else if (found === "file" && path.endsWith(EXTENSION[kind])) {
				add(path, { ...info, baseDir: group.baseDir ?? dirname(path) });
			} else {
				const problem = found === "file" ? `is not a ${EXTENSION[kind]} file` : "does not exist";
				diagnostics.push({ type: "warning", message: `${kindLabel(kind)} path ${problem}`, path });
			}
		}
	}
	return { candidates, diagnostics };
}

function projectDir(kind: ResourceKind, cwd: string): string {
	return kind === "skills"
		? projectPaths.skills(cwd)
		: kind === "prompts"
			? projectPaths.prompts(cwd)
			: projectPaths.themes(cwd);
}

function userDir(kind: ResourceKind, agentDir: string): string {
	return kind === "skills"
		? agentPaths.skills(agentDir)
		: kind === "prompts"
			? agentPaths.prompts(agentDir)
			: agentPaths.themes(agentDir);
}

function kindLabel(kind: ResourceKind): string {
	return kind === "skills" ? "skill" : kind === "prompts" ? "prompt template" : "theme";
}
