/**
 * Locating ripgrep and fd. Nothing is ever downloaded: an `rg` / `fd` (or Debian's `fdfind`) on PATH is used when
 * it works and supports the flags we pass; otherwise the tools fall back to their own implementation. Each probe
 * runs once per process.
 */
import { childProcess } from "../util/index.ts";
import { findExecutable } from "./shell.ts";

let rgPath: string | null | undefined;
let fdPath: string | null | undefined;

function helpText(path: string, args: string[]): string | undefined {
	try {
		const result = childProcess().spawnSync(path, args, {
			encoding: "utf8",
			timeout: 5000,
			stdio: ["ignore", "pipe", "pipe"],
		});
		return result.status === 0 ? `${result.stdout}${result.stderr}` : undefined;
	} catch {
		// Not runnable: treat as missing.
		return undefined;
	}
}

/** Path of a working ripgrep with `--no-require-git`, or undefined. */
export function findRipgrep(): string | undefined {
	if (rgPath === undefined) {
		const candidate = findExecutable("rg");
		rgPath = candidate && helpText(candidate, ["--help"])?.includes("--no-require-git") ? candidate : null;
	}
	return rgPath ?? undefined;
}

/** Path of a working fd (or fdfind) with `--no-require-git`, or undefined. */
export function findFd(): string | undefined {
	if (fdPath === undefined) {
		fdPath = null;
		for (const name of ["fd", "fdfind"]) {
			const candidate = findExecutable(name);
			if (candidate && helpText(candidate, ["--help"])?.includes("--no-require-git")) {
				fdPath = candidate;
				break;
			}
		}
	}
	return fdPath ?? undefined;
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new Error("Operation aborted");
}
