/** The built-in tool set for a session, by name, and the default selection (read, bash, edit, write). */
import { type BashToolOptions, createBashTool } from "./bash.ts";
import { createEditTool } from "./edit.ts";
import { createFindTool } from "./find.ts";
import { createGrepTool } from "./grep.ts";
import { createLsTool } from "./ls.ts";
import { createPowerShellTool } from "./powershell.ts";
import { createReadTool } from "./read.ts";
import { FileReadTracker } from "./read-tracker.ts";
import type { BuiltinTool, BuiltinToolName } from "./types.ts";
import { createWriteTool } from "./write.ts";

export const DEFAULT_ACTIVE_TOOLS: readonly BuiltinToolName[] = ["read", "bash", "edit", "write"];
export const BUILTIN_TOOL_NAMES: readonly BuiltinToolName[] = [
	"read",
	"bash",
	"powershell",
	"edit",
	"write",
	"grep",
	"find",
	"ls",
];

export interface BuiltinToolsOptions {
	shellPath?: string;
	/** Prepended to every bash command (settings `shellCommandPrefix`). */
	commandPrefix?: string;
	/** Environment for bash commands (defaults to this process's). */
	env?: NodeJS.ProcessEnv;
	/** The session bash commands run in (their `PI_*` variables). */
	sessionInfo?: BashToolOptions["sessionInfo"];
	/** Fit images the read tool attaches to the inline size limits (settings `images.autoResize`; default true). */
	autoResizeImages?: boolean;
	/** Whether the session's current model takes images (the read tool notes when it does not). */
	modelAcceptsImages?: () => boolean | undefined;
}

export function createBuiltinTools(cwd: string, options: BuiltinToolsOptions = {}): Map<BuiltinToolName, BuiltinTool> {
	const bash = createBashTool(cwd, {
		...(options.shellPath ? { shellPath: options.shellPath } : {}),
		...(options.commandPrefix ? { commandPrefix: options.commandPrefix } : {}),
		...(options.env ? { env: options.env } : {}),
		...(options.sessionInfo ? { sessionInfo: options.sessionInfo } : {}),
	});
	// Shared by read, edit and write: edit refuses a file that changed on disk since the model read it.
	const tracker = new FileReadTracker();
	const tools: BuiltinTool[] = [
		createReadTool(cwd, {
			tracker,
			...(options.autoResizeImages === false ? { autoResizeImages: false } : {}),
			...(options.modelAcceptsImages ? { modelAcceptsImages: options.modelAcceptsImages } : {}),
		}),
		bash,
		// Offered (off by default) on every platform, as in pi 0.87.1; it runs `pwsh`/`powershell` when enabled.
		createPowerShellTool(cwd, options.sessionInfo ? { sessionInfo: options.sessionInfo } : {}),
		createEditTool(cwd, { tracker }),
		createWriteTool(cwd, { tracker }),
		createGrepTool(cwd),
		createFindTool(cwd),
		createLsTool(cwd),
	];
	return new Map(tools.map((t) => [t.name as BuiltinToolName, t]));
}
