/**
 * pi's `DefaultResourceLoader`: the standard discovery of extensions, skills, prompt templates, themes, context
 * files and SYSTEM/APPEND_SYSTEM prompts for a cwd, with the SDK's additions (extra paths, inline extension
 * factories, `no*` switches, a given system prompt) and per-kind override hooks. Nothing is read until `reload()`.
 */
import { join, resolve } from "node:path";
import { CONFIG_DIR_NAME, resolveSettingsPath, type SettingsFile, SettingsManager } from "../config/index.ts";
import type { EventBus, ExtensionEntry } from "../extensions/index.ts";
import { createExtensionRuntime } from "../extensions/index.ts";
import {
	type ContextFile,
	type PromptTemplate,
	type ResourceDiagnostic,
	ResourceLoader,
	type Skill,
	type Theme,
} from "../resources/index.ts";
import { existsSync, readFileSync } from "../util/index.ts";
import { installedCandidates, packageExtensionEntries, settingsPackages } from "./extension-packages.ts";
import {
	carryExtensionHandles,
	type ExtensionModules,
	type InlineExtension,
	type LoadExtensionsResult,
	loadExtensionSet,
} from "./sdk-extensions.ts";

type Listed<K extends string, T> = { [P in K]: T[] } & { diagnostics: ResourceDiagnostic[] };
type AgentsFiles = { agentsFiles: { path: string; content: string }[] };

export interface DefaultResourceLoaderOptions {
	cwd: string;
	agentDir: string;
	settingsManager?: SettingsManager;
	eventBus?: EventBus;
	additionalExtensionPaths?: string[];
	additionalSkillPaths?: string[];
	additionalPromptTemplatePaths?: string[];
	additionalThemePaths?: string[];
	extensionFactories?: InlineExtension[];
	noExtensions?: boolean;
	noSkills?: boolean;
	noPromptTemplates?: boolean;
	noThemes?: boolean;
	noContextFiles?: boolean;
	/** Text, or a file whose content is the system prompt (replaces SYSTEM.md). */
	systemPrompt?: string;
	/** Texts or files (replace APPEND_SYSTEM.md). */
	appendSystemPrompt?: string[];
	extensionsOverride?: (base: LoadExtensionsResult) => LoadExtensionsResult;
	skillsOverride?: (base: Listed<"skills", Skill>) => Listed<"skills", Skill>;
	promptsOverride?: (base: Listed<"prompts", PromptTemplate>) => Listed<"prompts", PromptTemplate>;
	themesOverride?: (base: Listed<"themes", Theme>) => Listed<"themes", Theme>;
	agentsFilesOverride?: (base: AgentsFiles) => AgentsFiles;
	systemPromptOverride?: (base: string | undefined) => string | undefined;
	appendSystemPromptOverride?: (base: string[]) => string[];
}

export interface ResourceExtensionPaths {
	skillPaths?: Array<{ path: string; metadata?: unknown }>;
	promptPaths?: Array<{ path: string; metadata?: unknown }>;
	themePaths?: Array<{ path: string; metadata?: unknown }>;
}

/** A value naming an existing file means the file's text; anything else is the text itself. */
function textOrFile(input: string | undefined): string | undefined {
	if (!input) return undefined;
	if (!existsSync(input)) return input;
	try {
		const text = readFileSync(input, "utf8");
		return text.startsWith("\uFEFF") ? text.slice(1) : text;
	} catch {
		return input;
	}
}

export class DefaultResourceLoader {
	private readonly cwd: string;
	private readonly agentDir: string;
	private readonly settingsManager: SettingsManager;
	private resources: ResourceLoader | undefined;
	private extensionsResult: LoadExtensionsResult = { extensions: [], errors: [], runtime: createExtensionRuntime() };
	private agentsFiles: AgentsFiles["agentsFiles"] = [];
	private systemPrompt: string | undefined;
	private systemPromptPath: string | undefined;
	private appendSystemPrompt: string[] = [];
	private appendSystemPromptPaths: string[] = [];
	private extended = { skillPaths: [] as string[], promptPaths: [] as string[], themePaths: [] as string[] };

	constructor(
		private readonly options: DefaultResourceLoaderOptions,
		private readonly modules?: ExtensionModules,
	) {
		this.cwd = resolve(options.cwd);
		this.agentDir = resolve(options.agentDir);
		this.settingsManager = options.settingsManager ?? SettingsManager.create(this.cwd, this.agentDir);
	}

	private settingsFiles(): SettingsFile[] {
		const files: SettingsFile[] = [
			{
				scope: "global",
				path: join(this.agentDir, "settings.json"),
				baseDir: this.agentDir,
				settings: this.settingsManager.getGlobalSettings(),
			},
		];
		if (this.settingsManager.isProjectTrusted()) {
			const baseDir = join(this.cwd, CONFIG_DIR_NAME);
			files.push({
				scope: "project",
				path: join(baseDir, "settings.json"),
				baseDir,
				settings: this.settingsManager.getProjectSettings(),
			});
		}
		return files;
	}

	/** Reads everything again (settings first). `resolveProjectTrust` decides trust before project resources load. */
	async reload(
		reloadOptions: {
			resolveProjectTrust?: (input: { extensionsResult: LoadExtensionsResult }) => Promise<boolean>;
		} = {},
	): Promise<void> {
		const o = this.options;
		if (reloadOptions.resolveProjectTrust) {
			this.settingsManager.setProjectTrusted(false);
			await this.settingsManager.reload();
			const preTrust = await this.loadExtensions();
			this.settingsManager.setProjectTrusted(await reloadOptions.resolveProjectTrust({ extensionsResult: preTrust }));
		}
		await this.settingsManager.reload();
		// Settings `packages` that are installed (the SDK installs nothing; a missing one is an error entry).
		const packages = await settingsPackages(
			this.settingsFiles(),
			{ cwd: this.cwd, agentDir: this.agentDir, isHostPackage: this.modules?.isHostPackage ?? (() => false) },
			{},
		);
		const loaded = await this.loadExtensions(packageExtensionEntries(packages));
		loaded.errors.push(...packages.diagnostics.map((line) => ({ path: "<packages>", error: line })));
		this.extensionsResult = o.extensionsOverride ? o.extensionsOverride(loaded) : loaded;
		carryExtensionHandles(loaded, this.extensionsResult);
		this.resources = new ResourceLoader({
			cwd: this.cwd,
			agentDir: this.agentDir,
			projectTrusted: this.settingsManager.isProjectTrusted(),
			settingsFiles: this.settingsFiles(),
			skillPaths: o.additionalSkillPaths ?? [],
			promptPaths: o.additionalPromptTemplatePaths ?? [],
			themePaths: o.additionalThemePaths ?? [],
			noSkills: o.noSkills === true,
			noPromptTemplates: o.noPromptTemplates === true,
			noThemes: o.noThemes === true,
			noContextFiles: o.noContextFiles === true,
			installed: installedCandidates(packages),
		});
		this.extended = { skillPaths: [], promptPaths: [], themePaths: [] };
		const agentsFiles = {
			agentsFiles: this.resources.getContextFiles().map((f: ContextFile) => ({ path: f.path, content: f.content })),
		};
		this.agentsFiles = (o.agentsFilesOverride ? o.agentsFilesOverride(agentsFiles) : agentsFiles).agentsFiles;
		const files = this.resources.getSystemPromptFiles();
		const systemSource = o.systemPrompt ?? files.systemPrompt?.path;
		const base = textOrFile(systemSource);
		this.systemPrompt = o.systemPromptOverride ? o.systemPromptOverride(base) : base;
		this.systemPromptPath = systemSource && existsSync(systemSource) ? resolve(systemSource) : undefined;
		const appendSources = o.appendSystemPrompt ?? (files.appendSystemPrompt ? [files.appendSystemPrompt.path] : []);
		const appended = appendSources.map(textOrFile).filter((text): text is string => text !== undefined);
		this.appendSystemPrompt = o.appendSystemPromptOverride ? o.appendSystemPromptOverride(appended) : appended;
		this.appendSystemPromptPaths = appendSources
			.filter((source) => existsSync(source))
			.map((source) => resolve(source));
	}

	private async loadExtensions(packageEntries: ExtensionEntry[] = []): Promise<LoadExtensionsResult> {
		const o = this.options;
		const settingsPaths = this.settingsFiles().flatMap((file) =>
			(file.settings.extensions ?? []).map((entry) => resolveSettingsPath(entry, file.baseDir)),
		);
		const options = {
			cwd: this.cwd,
			agentDir: this.agentDir,
			includeProject: this.settingsManager.isProjectTrusted(),
			settingsPaths,
			paths: o.additionalExtensionPaths ?? [],
			noDiscovery: o.noExtensions === true,
			packageEntries,
			factories: o.extensionFactories ?? [],
			...(o.eventBus ? { eventBus: o.eventBus } : {}),
		};
		if (!this.modules) {
			return {
				extensions: [],
				errors: [{ path: "<sdk>", error: "extension loading is not available here" }],
				runtime: createExtensionRuntime(),
			};
		}
		const result = await loadExtensionSet(options, this.modules);
		for (const path of options.paths) {
			const resolved = resolve(this.cwd, path);
			if (!existsSync(resolved))
				result.errors.push({ path: resolved, error: `Extension path does not exist: ${resolved}` });
		}
		return result;
	}

	getExtensions(): LoadExtensionsResult {
		return this.extensionsResult;
	}

	getSkills(): Listed<"skills", Skill> {
		const base = this.resources?.getSkills() ?? { skills: [], diagnostics: [] };
		return this.options.skillsOverride ? this.options.skillsOverride(base) : base;
	}

	getPrompts(): Listed<"prompts", PromptTemplate> {
		const base = this.resources?.getPrompts() ?? { prompts: [], diagnostics: [] };
		return this.options.promptsOverride ? this.options.promptsOverride(base) : base;
	}

	getThemes(): Listed<"themes", Theme> {
		const base = this.resources?.getThemes() ?? { themes: [], diagnostics: [] };
		return this.options.themesOverride ? this.options.themesOverride(base) : base;
	}

	getAgentsFiles(): AgentsFiles {
		return { agentsFiles: this.agentsFiles };
	}

	getSystemPrompt(): string | undefined {
		return this.systemPrompt;
	}

	getSystemPromptSource(): { path: string } | undefined {
		return this.systemPromptPath ? { path: this.systemPromptPath } : undefined;
	}

	getAppendSystemPrompt(): string[] {
		return this.appendSystemPrompt;
	}

	getAppendSystemPromptSources(): { path: string }[] {
		return this.appendSystemPromptPaths.map((path) => ({ path }));
	}

	/** `/skill:name` and prompt templates expanded in a prompt's text, as the session sends it. */
	expandInput(text: string): string {
		return this.resources ? this.resources.expandInput(text) : text;
	}

	/** Adds skill, prompt and theme paths (as extensions contribute them); they join after the ones found so far. */
	extendResources(paths: ResourceExtensionPaths): void {
		const add = (list: string[], items: ResourceExtensionPaths["skillPaths"]) => {
			for (const { path } of items ?? [])
				if (!list.includes(resolve(this.cwd, path))) list.push(resolve(this.cwd, path));
		};
		add(this.extended.skillPaths, paths.skillPaths);
		add(this.extended.promptPaths, paths.promptPaths);
		add(this.extended.themePaths, paths.themePaths);
		this.resources?.addExtensionResources("<sdk>", { ...this.extended });
	}
}
