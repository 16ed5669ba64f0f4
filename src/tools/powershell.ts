/**
 * The `powershell` tool (Windows): the `bash` tool's behaviour — streaming, truncation, timeout, abort — over
 * PowerShell 7 (`pwsh.exe`) or Windows PowerShell, with output forced to UTF-8. Elsewhere each command fails with
 * "The powershell tool is only available on Windows."
 */
import {
	type BashOperations,
	type BashToolDetails,
	type BashToolOptions,
	createLocalBashOperations,
	createShellTool,
	SESSION_ENV_GUIDELINE,
} from "./bash.ts";
import type { bashSchema } from "./schemas.generated.ts";
import { getPowerShellConfig } from "./shell-config.ts";
import type { BuiltinTool } from "./types.ts";

const UTF8_OUTPUT = "try { [Console]::OutputEncoding=[System.Text.Encoding]::UTF8 } catch {}\n";

export type PowerShellOperations = BashOperations;
export type PowerShellToolDetails = BashToolDetails;
export type PowerShellToolOptions = Pick<BashToolOptions, "operations" | "spawnHook" | "sessionInfo">;

/** Runs commands with this machine's PowerShell. */
export function createLocalPowerShellOperations(): PowerShellOperations {
	const local = createLocalBashOperations({ shell: getPowerShellConfig });
	return { exec: (command, cwd, options) => local.exec(`${UTF8_OUTPUT}${command}`, cwd, options) };
}

export function createPowerShellTool(
	cwd: string,
	options: PowerShellToolOptions = {},
): BuiltinTool<typeof bashSchema, PowerShellToolDetails | undefined> {
	return createShellTool(
		cwd,
		{
			name: "powershell",
			description:
				"Execute a PowerShell command in the current working directory. Returns stdout and stderr combined. " +
				"Output is truncated to the last 2000 lines or 50KB (whichever is hit first); when truncated, the full " +
				"output is saved to a temp file. Optionally provide a timeout in seconds.",
			promptSnippet: "Execute PowerShell commands",
			promptGuidelines: [SESSION_ENV_GUIDELINE],
		},
		{ ...options, operations: options.operations ?? createLocalPowerShellOperations() },
	);
}
