/** `@mariozechner/pi-coding-agent` / `@earendil-works/pi-coding-agent`: what extensions and SDK users import. */
export { CONFIG_DIR_NAME, getAgentDir } from "../config/index.ts";
export {
	type CommandDefinition,
	createEventBus,
	type EventBus,
	type ExecOptions,
	type ExecResult,
	type ExtensionAPI,
	type ExtensionFactory,
	type FlagDefinition,
	type ToolDefinition,
} from "../extensions/index.ts";
export { PI_COMPAT_VERSION, VERSION } from "../util/index.ts";
