export { applyPatterns, enabledByOverrides, isOverrideEntry, isPatternEntry } from "../util/index.ts";
export { adjustChalkLevel, chalk, loadChalk, useChalk } from "./chalk.ts";
export { ancestorsUpTo, canonicalPath, findGitRoot } from "./collect.ts";
export {
	type ContextFilesOptions,
	contextFileIn,
	loadContextFiles,
	loadSystemPromptFiles,
	type SystemPromptFiles,
	type SystemPromptFilesOptions,
} from "./context-files.ts";
export {
	chooseThemeName,
	currentTheme,
	type InitThemeOptions,
	initTheme,
	setCurrentTheme,
	type ThemeSource,
	terminalBackground,
} from "./current-theme.ts";
export { type DiscoveryOptions, discoverCandidates, type ExplicitPaths, type ResourceKind } from "./discovery.ts";
export {
	loadPromptTemplates as loadEnvPromptTemplates,
	loadSourcedPromptTemplates,
	type PromptTemplateDiagnostic,
	type PromptTemplateDiagnosticCode,
} from "./env-prompts.ts";
export {
	loadSkills as loadEnvSkills,
	loadSourcedSkills,
	type SkillDiagnostic,
	type SkillDiagnosticCode,
} from "./env-skills.ts";
export { type Frontmatter, parseFrontmatter, stripFrontmatter } from "./frontmatter.ts";
export { ResourceLoader, type ResourceLoaderOptions } from "./loader.ts";
export {
	expandPromptTemplate,
	loadPromptFile,
	type PromptLoad,
	parseCommandArgs,
	substituteArgs,
} from "./prompts.ts";
export {
	expandSkillCommand,
	formatSkillsForPrompt,
	loadSkillFile,
	MAX_SKILL_DESCRIPTION_LENGTH,
	MAX_SKILL_NAME_LENGTH,
	type ParsedSkillBlock,
	parseSkillBlock,
	SKILL_COMMAND_PREFIX,
	type SkillLoad,
	validateSkillName,
} from "./skills.ts";
export {
	type LoadSkillsFromDirOptions,
	type LoadSkillsOptions,
	type LoadSkillsResult,
	loadProjectContextFiles,
	loadSkills,
	loadSkillsFromDir,
} from "./skills-sdk.ts";
export { createSyntheticSourceInfo } from "./source-info.ts";
export { type ColorMode, type ColorSupport, detectColorSupport, hexToAnsi256, Theme } from "./theme.ts";
export {
	builtinThemes,
	loadThemeFile,
	parseThemeJson,
	resolveColor,
	type ThemeDefinition,
	type ThemeParseOptions,
} from "./theme-json.ts";
export {
	BUILTIN_THEME_JSON,
	type ColorValue,
	OPTIONAL_TOKEN_FALLBACK,
	THEME_BG_TOKENS,
	THEME_EXPORT_KEYS,
	THEME_FG_TOKENS,
	type ThemeBg,
	type ThemeColor,
	type ThemeExportKey,
	type ThemeJson,
	type ThemeToken,
} from "./theme-tokens.ts";
export {
	decideProjectTrust,
	hasProtectedProjectResources,
	parentTrustPath,
	type TrustDecision,
	type TrustDecisionInput,
	type TrustEntry,
	type TrustMode,
	type TrustReason,
	TrustStore,
} from "./trust.ts";
export {
	hasTrustRequiringProjectResources,
	type ProjectTrustDecision,
	ProjectTrustStore,
	type ProjectTrustStoreEntry,
	type ProjectTrustUpdate,
} from "./trust-store-sync.ts";
export {
	type ContextFile,
	formatResourceDiagnostic,
	type PromptTemplate,
	type ResourceCandidate,
	type ResourceCollision,
	type ResourceDiagnostic,
	type ResourcesDiscoverResult,
	type ResourceType,
	type Skill,
	type SourceInfo,
	type SourceOrigin,
	type SourceScope,
} from "./types.ts";
export { parseYaml, YamlError } from "./yaml.ts";
