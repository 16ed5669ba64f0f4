/**
 * The package manager's progress events as the command line shows them: one line per step (resolving, downloading,
 * cloning, linking), warnings on stderr; the end of a step is said by the command's own last line.
 */
import { SettingsStore } from "../../config/index.ts";
import type { PackageManager, PackageProgress } from "../../packages/index.ts";
import type { PackageCommandDeps } from "./deps.ts";

function progressLine(event: Exclude<PackageProgress, { type: "warning" }>): string | undefined {
	switch (event.type) {
		case "resolving":
			return `Resolving ${event.source}...`;
		case "downloading":
			return `Downloading ${event.source}${event.detail ? ` (${event.detail})` : ""}...`;
		case "linking":
			return `Linking ${event.source}...`;
		case "cloning":
			return `Cloning ${event.repo}...`;
		case "done":
			// The command's own last line (`Installed …`, `Removed …`, `Updated …`) says it.
			return undefined;
	}
}

export function progressPrinter(out: (line: string) => void, err: (line: string) => void) {
	return (event: PackageProgress): void => {
		if (event.type === "warning") {
			err(`Warning: ${event.message}`);
			return;
		}
		const line = progressLine(event);
		if (line) out(line);
	};
}

/** `Error: <message>` (a message that already says so is left as it is). */
export function errorLine(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return /^error\b/i.test(message) ? message : `Error: ${message}`;
}

/**
 * The settings store (project settings only when `trusted`) and the package manager a command works with; settings
 * problems are warnings on stderr, progress goes through `progressPrinter`.
 */
export async function openManager(
	deps: PackageCommandDeps,
	trusted: boolean,
): Promise<{ store: SettingsStore; manager: PackageManager }> {
	const store = new SettingsStore({ agentDir: deps.agentDir, cwd: deps.cwd, projectTrusted: trusted });
	for (const line of store.diagnostics) deps.err(`Warning: ${line}`);
	const manager = await deps.createManager({
		agentDir: deps.agentDir,
		cwd: deps.cwd,
		store,
		onProgress: progressPrinter(deps.out, deps.err),
	});
	return { store, manager };
}
