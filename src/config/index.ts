export {
	agentPaths,
	CONFIG_DIR_NAME,
	ENV_AGENT_DIR,
	ENV_SESSION_DIR,
	getAgentDir,
	getProjectConfigDir,
	projectPaths,
} from "./paths.ts";
export {
	loadStartupSettings,
	mergeSettings,
	resolveSettingsPath,
	type SettingsFile,
	type SettingsLoad,
	type SettingsScope,
	StartupSettings,
} from "./settings-file.ts";
