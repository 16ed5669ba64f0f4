export {
	type JsonObject,
	type JsonRead,
	LOCK_STALE_MS,
	readJsonObject,
	updateJsonFile,
	writeFileAtomic,
} from "./json-file.ts";
export { getDocsPath, getExamplesPath, getPackageDir, getReadmePath } from "./package-paths.ts";
export {
	APPEND_SYSTEM_PROMPT_FILE,
	agentPaths,
	agentsSkillsDir,
	CONFIG_DIR_NAME,
	CONTEXT_FILE_NAMES,
	ENV_AGENT_DIR,
	ENV_SESSION_DIR,
	getAgentDir,
	getProjectConfigDir,
	projectPaths,
	SYSTEM_PROMPT_FILE,
	TRUST_GATED_PROJECT_ENTRIES,
	userAgentsSkillsDir,
} from "./paths.ts";
export {
	type LoadSettingsOptions,
	loadSettingsFiles,
	loadStartupSettings,
	mergeSettings,
	readSettingsFile,
	resolveSettingsPath,
	type SettingsFile,
	type SettingsLoad,
	type SettingsScope,
	type StartupSettings,
} from "./settings-file.ts";
export { SettingsManager } from "./settings-manager.ts";
export type { SettingsError, SettingsManagerCreateOptions } from "./settings-manager-core.ts";
export { settingsSchema } from "./settings-schema.generated.ts";
export type {
	DefaultProjectTrust,
	PackageSourceSetting,
	Settings,
	ThinkingLevelSetting,
} from "./settings-schema.ts";
export { GLOBAL_ONLY_KEYS } from "./settings-scope.ts";
export {
	FileSettingsStorage,
	InMemorySettingsStorage,
	type SettingsManagerScope,
	type SettingsStorage,
	takeFileLockSync,
} from "./settings-storage.ts";
export { type SettingsKeyPath, SettingsStore, type SettingsStoreOptions } from "./settings-store.ts";
export {
	checkSettingValue,
	deepMerge,
	migrateSettings,
	type ResolvedSettings,
	resolveSettings,
	SETTINGS_DEFAULTS,
	type SettingsProblem,
	validateSettings,
} from "./settings-values.ts";
export {
	CredentialSynchronizationError,
	type CredentialSynchronizationOperation,
	readStoredCredential,
} from "./stored-credential.ts";
