/**
 * Which shell runs `bash` commands, how to find executables on PATH, and how to end a command together with
 * everything it started. Commands are spawned detached, so the shell leads its own process group and one
 * group-wide SIGKILL reaches its children and grandchildren.
 */

import { delimiter, join } from "node:path";
import { accessSync, childProcess, existsSync, fsConstants, statSync } from "../util/index.ts";

export interface ShellConfig {
	/** The shell executable. */
	shell: string;
	/** Arguments placed before the command text (the command is passed as the last argument). */
	args: string[];
}

const isWindows = process.platform === "win32";

function isExecutableFile(path: string): boolean {
	try {
		if (!statSync(path).isFile()) return false;
		if (isWindows) return true;
		accessSync(path, fsConstants().X_OK);
		return true;
	} catch {
		// Missing or not executable: not a candidate.
		return false;
	}
}

/** The first executable called `name` on PATH (with PATHEXT suffixes on Windows), or undefined. */
export function findExecutable(name: string, pathValue = process.env.PATH ?? ""): string | undefined {
	const suffixes = isWindows ? ["", ...(process.env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";")] : [""];
	for (const dir of pathValue.split(delimiter)) {
		if (!dir) continue;
		for (const suffix of suffixes) {
			const candidate = join(dir, name + suffix);
			if (isExecutableFile(candidate)) return candidate;
		}
	}
	return undefined;
}

function windowsGitBash(): string | undefined {
	for (const base of [process.env.ProgramFiles, process.env["ProgramFiles(x86)"]]) {
		if (!base) continue;
		const candidate = join(base, "Git", "bin", "bash.exe");
		if (existsSync(candidate)) return candidate;
	}
	return findExecutable("bash.exe");
}

let defaultShell: ShellConfig | undefined;

/**
 * The shell to run commands with: the configured `shellPath` (must exist), else Git Bash on Windows, else
 * `/bin/bash`, `bash` on PATH, and finally `sh`.
 */
export function resolveShell(shellPath?: string): ShellConfig {
	if (shellPath) {
		if (!existsSync(shellPath)) throw new Error(`Custom shell path not found: ${shellPath}`);
		return { shell: shellPath, args: ["-c"] };
	}
	if (defaultShell) return defaultShell;
	let shell: string | undefined;
	if (isWindows) {
		shell = windowsGitBash();
		if (!shell) throw new Error("No bash shell found. Install Git for Windows or set shellPath in settings.");
	} else {
		shell = isExecutableFile("/bin/bash") ? "/bin/bash" : (findExecutable("bash") ?? findExecutable("sh") ?? "sh");
	}
	defaultShell = { shell, args: ["-c"] };
	return defaultShell;
}

/** Kills a process and (on Unix) its whole process group; a process that is already gone is not an error. */
export function killProcessTree(pid: number): void {
	if (isWindows) {
		try {
			childProcess().spawn("taskkill", ["/F", "/T", "/PID", String(pid)], { stdio: "ignore", detached: true });
		} catch {
			// taskkill unavailable: nothing more we can do.
		}
		return;
	}
	try {
		process.kill(-pid, "SIGKILL");
		return;
	} catch {
		// Not a group leader (or the group is gone): fall back to the single process.
	}
	try {
		process.kill(pid, "SIGKILL");
	} catch {
		// Already exited.
	}
}
