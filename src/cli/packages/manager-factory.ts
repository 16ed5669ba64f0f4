/**
 * The real package manager: the packages layer's `createPackageManager` (installs through Bun's package manager
 * inside this binary, or `npmCommand`). Looked up by name so this command line builds before and after the
 * installer lands; when it is missing the command says so in one line.
 */
import type { PackageManager } from "../../packages/index.ts";
import { UserError } from "../../util/index.ts";
import type { ManagerOptions } from "./deps.ts";

type Factory = (options: ManagerOptions) => PackageManager;

export async function createRealManager(options: ManagerOptions): Promise<PackageManager> {
	const packages = (await import("../../packages/index.ts")) as unknown as { createPackageManager?: Factory };
	if (typeof packages.createPackageManager !== "function")
		throw new UserError("Error: this pi was built without its package installer (createPackageManager is missing)");
	return packages.createPackageManager(options);
}
