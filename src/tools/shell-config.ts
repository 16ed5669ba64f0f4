/**
 * pi's SDK shell lookups: `getShellConfig` (the bash that runs commands, with the arguments that take the command)
 * and `getPowerShellConfig` (Windows only). Unlike `resolveShell`, nothing is cached: each call looks again.
 */
import { existsSync } from "../util/index.ts";
import { findExecutable } from "./shell.ts";

export interface SdkShellConfig {
	shell: string;
	args: string[];
	/** "stdin": the command goes to the shell's standard input (the legacy WSL `bash.exe` takes no `-c`). */
	commandTransport?: "stdin";
}

function isLegacyWslBash(path: string): boolean {
	return /^[a-z]:\\windows\\(?:system32|sysnative)\\bash\.exe$/.test(path.replace(/\//g, "\\").toLowerCase());
}

function bashConfig(shell: string): SdkShellConfig {
	return isLegacyWslBash(shell) ? { shell, args: ["-s"], commandTransport: "stdin" } : { shell, args: ["-c"] };
}

/**
 * The shell for commands: `customShellPath` when given (it must exist), else on Windows Git Bash (Program Files)
 * or `bash.exe` on PATH, else `/bin/bash`, `bash` on PATH, and finally `sh`.
 */
export function getShellConfig(customShellPath?: string): SdkShellConfig {
	if (customShellPath) {
		if (existsSync(customShellPath)) return bashConfig(customShellPath);
		throw new Error(`Custom shell path not found: ${customShellPath}`);
	}
	if (process.platform === "win32") {
		const searched: string[] = [];
		for (const base of [process.env.ProgramFiles, process.env["ProgramFiles(x86)"]]) {
			if (base) searched.push(`${base}\\Git\\bin\\bash.exe`);
		}
		const found = searched.find((path) => existsSync(path)) ?? findExecutable("bash.exe");
		if (found) return bashConfig(found);
		throw new Error(
			"No bash shell found. Options:\n  1. Install Git for Windows: https://git-scm.com/download/win\n" +
				"  2. Add your bash to PATH (Cygwin, MSYS2, etc.)\n  3. Set shellPath in settings.json\n\n" +
				`Searched Git Bash in:\n${searched.map((p) => `  ${p}`).join("\n")}`,
		);
	}
	if (existsSync("/bin/bash")) return bashConfig("/bin/bash");
	const onPath = findExecutable("bash");
	return onPath ? bashConfig(onPath) : { shell: "sh", args: ["-c"] };
}

export const POWERSHELL_ARGS: readonly string[] = [
	"-NoProfile",
	"-NonInteractive",
	"-ExecutionPolicy",
	"Bypass",
	"-Command",
];

/** PowerShell on Windows (PowerShell 7's `pwsh.exe` first, then `powershell.exe`); throws elsewhere. */
export function getPowerShellConfig(): { shell: string; args: string[] } {
	if (process.platform !== "win32") throw new Error("The powershell tool is only available on Windows.");
	const shell = findExecutable("pwsh.exe") ?? findExecutable("powershell.exe");
	if (!shell) {
		throw new Error("No PowerShell executable found. Install PowerShell or add powershell.exe/pwsh.exe to PATH.");
	}
	return { shell, args: [...POWERSHELL_ARGS] };
}
