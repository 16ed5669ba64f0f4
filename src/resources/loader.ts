/**
 * The resource loader: one place that finds skills, prompt templates and themes (see discovery.ts for the sources
 * and their order), drops repeats of the same file, keeps the first resource of each name (later ones are reported
 * as collisions), and collects every problem as a diagnostic. It also reads context files and SYSTEM.md /
 * APPEND_SYSTEM.md. Extensions can add paths at run time (`resources_discover`); adding them re-runs the merge.
 * Everything project-local is read only while `projectTrusted` is true.
 */
import { basename, dirname } from "node:path";
import type { SettingsFile } from "../config/index.ts";
import { loadContextFiles, loadSystemPromptFiles, type SystemPromptFiles } from "./context-files.ts";
import { discoverCandidates, type ExplicitPaths, type ResourceKind } from "./discovery.ts";
import { expandPromptTemplate, loadPromptFile } from "./prompts.ts";
import { expandSkillCommand, loadSkillFile } from "./skills.ts";
import { type ColorSupport, detectColorSupport, Theme } from "./theme.ts";
import { BUILTIN_THEME_NAMES, builtinThemes, loadThemeFile, type ThemeDefinition } from "./theme-json.ts";
import type {
	ContextFile,
	PromptTemplate,
	ResourceCandidate,
	ResourceDiagnostic,
	ResourcesDiscoverResult,
	ResourceType,
	Skill,
	SourceInfo,
} from "./types.ts";

export interface ResourceLoaderOptions {
	cwd: string;
	agentDir: string;
	/** Project `.pi/` resources, project `.agents/skills`, project settings lists and SYSTEM files need this. */
	projectTrusted: boolean;
	/** Settings files as loaded by config (global and project). */
	settingsFiles: readonly SettingsFile[];
	/** `--skill`, `--prompt-template`, `--theme` (relative to cwd). */
	skillPaths?: readonly string[];
	promptPaths?: readonly string[];
	themePaths?: readonly string[];
	/** Files of the packages given with `-e <folder>`, with their source info; they come before everything else. */
	packaged?: Partial<Record<ResourceKind, readonly ResourceCandidate[]>>;
	/** Files of the settings `packages`, with their source info; after the user folders (see discovery.ts). */
	installed?: Partial<Record<ResourceKind, readonly ResourceCandidate[]>>;
	noSkills?: boolean;
	noPromptTemplates?: boolean;
	noThemes?: boolean;
	noContextFiles?: boolean;
	/** For `~`, `~/.agents/skills` and colour detection; default `process.env`. */
	env?: NodeJS.ProcessEnv;
	/** Colour output of the themes; default: detected from `env`. */
	colorSupport?: ColorSupport;
}

interface Named {
	name: string;
	path: string;
	source: string;
}

/** Keeps the first item of each name; later ones become collision diagnostics. */
function firstByName<T>(
	items: readonly T[],
	type: ResourceType,
	describe: (item: T) => Named,
	diagnostics: ResourceDiagnostic[],
	taken: Map<string, Named> = new Map(),
): T[] {
	const kept: T[] = [];
	for (const item of items) {
		const me = describe(item);
		const winner = taken.get(me.name);
		if (!winner) {
			taken.set(me.name, me);
			kept.push(item);
			continue;
		}
		diagnostics.push({
			type: "collision",
			message: `${type} "${me.name}" ignored: the name is already taken by ${winner.path}`,
			path: me.path,
			collision: {
				resourceType: type,
				name: me.name,
				winnerPath: winner.path,
				loserPath: me.path,
				winnerSource: winner.source,
				loserSource: me.source,
			},
		});
	}
	return kept;
}

/**
 * Paths an extension contributed, labelled as pi 0.87.1 labels them: source `extension:<file name without .ts/.js>`
 * (`extension:<name>` for an inline `<name>`), base dir the extension's folder.
 */
function extensionGroup(extensionPath: string, paths: readonly string[]): ExplicitPaths {
	if (extensionPath.startsWith("<")) return { source: `extension:${extensionPath.replace(/[<>]/g, "")}`, paths };
	const name = basename(extensionPath).replace(/\.(ts|js)$/, "");
	return { source: `extension:${name}`, paths, baseDir: dirname(extensionPath) };
}

export class ResourceLoader {
	private options: ResourceLoaderOptions;
	private readonly extensionPaths: { extension: string; result: ResourcesDiscoverResult }[] = [];
	private skills: Skill[] = [];
	private prompts: PromptTemplate[] = [];
	/** Built on first use: the built-in themes are parsed only when someone asks for a theme. */
	private themes: (() => Theme[]) | Theme[] = [];
	private contextFiles: ContextFile[] = [];
	private systemFiles: SystemPromptFiles = {};
	private diagnostics: Record<"skills" | "prompts" | "themes" | "files", ResourceDiagnostic[]> = {
		skills: [],
		prompts: [],
		themes: [],
		files: [],
	};

	constructor(options: ResourceLoaderOptions) {
		this.options = { ...options };
		this.reload();
	}

	/** Re-reads everything from disk, optionally with a new trust state or settings files. */
	reload(changes: Partial<Pick<ResourceLoaderOptions, "projectTrusted" | "settingsFiles">> = {}): void {
		this.options = { ...this.options, ...changes };
		const { cwd, agentDir, projectTrusted, noContextFiles } = this.options;
		const files: ResourceDiagnostic[] = [];
		this.contextFiles = loadContextFiles({ cwd, agentDir, noContextFiles: noContextFiles === true }, files);
		this.systemFiles = loadSystemPromptFiles({ cwd, agentDir, projectTrusted }, files);
		this.diagnostics.files = files;
		this.merge();
	}

	/** Adds (or replaces) the paths one extension returned from `resources_discover`, then re-merges. */
	addExtensionResources(extensionPath: string, result: ResourcesDiscoverResult): void {
		const existing = this.extensionPaths.findIndex((e) => e.extension === extensionPath);
		if (existing !== -1) this.extensionPaths.splice(existing, 1);
		this.extensionPaths.push({ extension: extensionPath, result });
		this.merge();
	}

	/** Forgets extension-contributed paths (before extensions are reloaded), then re-merges. */
	clearExtensionResources(): void {
		this.extensionPaths.length = 0;
		this.merge();
	}

	private candidates(kind: ResourceKind, diagnostics: ResourceDiagnostic[]): ResourceCandidate[] {
		const o = this.options;
		const cli = kind === "skills" ? o.skillPaths : kind === "prompts" ? o.promptPaths : o.themePaths;
		const field = kind === "skills" ? "skillPaths" : kind === "prompts" ? "promptPaths" : "themePaths";
		const explicit: ExplicitPaths[] = [{ source: "cli", paths: cli ?? [] }];
		for (const e of this.extensionPaths) explicit.push(extensionGroup(e.extension, e.result[field] ?? []));
		const noDiscovery = kind === "skills" ? o.noSkills : kind === "prompts" ? o.noPromptTemplates : o.noThemes;
		const found = discoverCandidates(kind, {
			cwd: o.cwd,
			agentDir: o.agentDir,
			projectTrusted: o.projectTrusted,
			settingsFiles: o.settingsFiles,
			noDiscovery: noDiscovery === true,
			packaged: o.packaged?.[kind] ?? [],
			installed: o.installed?.[kind] ?? [],
			explicit,
			...(o.env ? { env: o.env } : {}),
		});
		diagnostics.push(...found.diagnostics);
		return found.candidates;
	}

	private merge(): void {
		const skillDiagnostics: ResourceDiagnostic[] = [];
		const skills = this.candidates("skills", skillDiagnostics).flatMap((c) => {
			const loaded = loadSkillFile(c);
			skillDiagnostics.push(...loaded.diagnostics);
			return loaded.skill ? [loaded.skill] : [];
		});
		const describe = (item: { name: string; filePath: string; sourceInfo: SourceInfo }) => ({
			name: item.name,
			path: item.filePath,
			source: item.sourceInfo.source,
		});
		this.skills = firstByName(skills, "skill", describe, skillDiagnostics);
		this.diagnostics.skills = skillDiagnostics;

		const promptDiagnostics: ResourceDiagnostic[] = [];
		const prompts = this.candidates("prompts", promptDiagnostics).flatMap((c) => {
			const loaded = loadPromptFile(c);
			promptDiagnostics.push(...loaded.diagnostics);
			return loaded.template ? [loaded.template] : [];
		});
		this.prompts = firstByName(prompts, "prompt", describe, promptDiagnostics);
		this.diagnostics.prompts = promptDiagnostics;

		const themeDiagnostics: ResourceDiagnostic[] = [];
		const definitions = this.candidates("themes", themeDiagnostics).flatMap((c) => {
			const loaded = loadThemeFile(c);
			themeDiagnostics.push(...loaded.diagnostics);
			return loaded.definition ? [loaded.definition] : [];
		});
		const taken = new Map(
			BUILTIN_THEME_NAMES.map((name) => [name, { name, path: `(built-in ${name})`, source: "builtin" }]),
		);
		const themeOf = (d: ThemeDefinition) => ({
			name: d.name,
			path: d.sourcePath ?? d.name,
			source: d.sourceInfo?.source ?? "",
		});
		const custom = firstByName(definitions, "theme", themeOf, themeDiagnostics, taken);
		const support = this.options.colorSupport ?? detectColorSupport(this.options.env ?? process.env);
		this.themes = () => [...Object.values(builtinThemes()), ...custom].map((d) => new Theme(d, support));
		this.diagnostics.themes = themeDiagnostics;
	}

	getSkills(): { skills: Skill[]; diagnostics: ResourceDiagnostic[] } {
		return { skills: [...this.skills], diagnostics: [...this.diagnostics.skills] };
	}

	getPrompts(): { prompts: PromptTemplate[]; diagnostics: ResourceDiagnostic[] } {
		return { prompts: [...this.prompts], diagnostics: [...this.diagnostics.prompts] };
	}

	private themeList(): Theme[] {
		if (typeof this.themes === "function") this.themes = this.themes();
		return this.themes;
	}

	/** Built-in `dark` and `light` first, then loaded themes. */
	getThemes(): { themes: Theme[]; diagnostics: ResourceDiagnostic[] } {
		return { themes: [...this.themeList()], diagnostics: [...this.diagnostics.themes] };
	}

	getTheme(name: string): Theme | undefined {
		return this.themeList().find((t) => t.name === name);
	}

	getContextFiles(): ContextFile[] {
		return [...this.contextFiles];
	}

	getSystemPromptFiles(): SystemPromptFiles {
		return { ...this.systemFiles };
	}

	/** Every problem found at the last merge: files, skills, prompts, themes. */
	getDiagnostics(): ResourceDiagnostic[] {
		const d = this.diagnostics;
		return [...d.files, ...d.skills, ...d.prompts, ...d.themes];
	}

	/** `/skill:name args` or `/template args` → the text sent to the model; other text unchanged. */
	expandInput(text: string, onSkillError?: (skill: Skill, message: string) => void): string {
		const skill = expandSkillCommand(text, this.skills, onSkillError);
		return skill !== text ? skill : expandPromptTemplate(text, this.prompts);
	}
}
