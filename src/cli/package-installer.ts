/**
 * The installer start-up uses for packages that are not installed yet (settings `packages`, `-e npm:…`): the
 * package manager, made on first need only (a start-up whose packages are all installed, or that has none, makes
 * none). Its progress goes to stderr (stdout may carry RPC or JSON output).
 */
import type { SettingsStore } from "../config/index.ts";
import { createPackageManager, type PackageInstaller, type PackageProgress } from "../packages/index.ts";

export interface InstallerContext {
	agentDir: string;
	cwd: string;
	store: SettingsStore;
	err: (text: string) => void;
}

function progressLine(event: PackageProgress): string | undefined {
	if (event.type === "warning") return event.message;
	if (event.type === "resolving") return `Installing ${event.source}...`;
	return undefined;
}

export function lazyInstaller(context: InstallerContext): () => Promise<PackageInstaller> {
	let made: Promise<PackageInstaller> | undefined;
	return () => {
		made ??= Promise.resolve(
			createPackageManager({
				agentDir: context.agentDir,
				cwd: context.cwd,
				store: context.store,
				onProgress: (event) => {
					const line = progressLine(event);
					if (line) context.err(`${line}\n`);
				},
			}),
		);
		return made;
	};
}
