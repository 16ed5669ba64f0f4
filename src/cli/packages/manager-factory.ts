/**
 * The real package manager: the packages layer's `createPackageManager` (installs through Bun's package manager
 * inside this binary, or `npmCommand`), loaded on first use.
 */
import type { PackageManager } from "../../packages/index.ts";
import type { ManagerOptions } from "./deps.ts";

export async function createRealManager(options: ManagerOptions): Promise<PackageManager> {
	const { createPackageManager } = await import("../../packages/index.ts");
	return createPackageManager(options);
}
