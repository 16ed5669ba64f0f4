/**
 * What the package commands work with, passed in (seams): where they run, where they write, and the package
 * manager they drive. `defaultPackageDeps` wires the real ones; tests pass their own manager.
 */
import type { SettingsStore } from "../../config/index.ts";
import type { PackageFilters, PackageManager, PackageProgress, PackageResources } from "../../packages/index.ts";
import { writeStderr, writeStdout } from "../../util/index.ts";
import { createRealManager } from "./manager-factory.ts";
import { packageProvides } from "./provides.ts";

export interface ManagerOptions {
	agentDir: string;
	cwd: string;
	store: SettingsStore;
	onProgress: (event: PackageProgress) => void;
}

export interface PackageCommandDeps {
	cwd: string;
	agentDir: string;
	/** Whether stdin and stdout are a terminal (`pi config`'s screen needs one). */
	terminal: boolean;
	/** One line to stdout / stderr (no newline). */
	out(line: string): void;
	err(line: string): void;
	createManager(options: ManagerOptions): PackageManager | Promise<PackageManager>;
	/** What a package folder provides under its settings filters (all of it without filters). */
	provides(root: string, filters?: PackageFilters, options?: { local?: boolean }): PackageResources;
	/** pi's own update (`pi update`, `--self`, the second half of `--all`); returns the exit code. */
	selfUpdate(options: { force: boolean; rollback: boolean; version?: string }): Promise<number>;
}

export function defaultPackageDeps(options: {
	cwd: string;
	agentDir: string;
	selfUpdate: PackageCommandDeps["selfUpdate"];
}): PackageCommandDeps {
	return {
		cwd: options.cwd,
		agentDir: options.agentDir,
		terminal: process.stdin.isTTY === true && process.stdout.isTTY === true,
		out: (line) => writeStdout(`${line}\n`),
		err: (line) => writeStderr(`${line}\n`),
		createManager: createRealManager,
		provides: packageProvides,
		selfUpdate: options.selfUpdate,
	};
}
