/**
 * The real package manager: the packages layer's `createPackageManager` (installs through Bun's package manager
 * inside this binary, or `npmCommand`).
 */
import { createPackageManager, type PackageManager } from "../../packages/index.ts";
import type { ManagerOptions } from "./deps.ts";

export const createRealManager = (options: ManagerOptions): PackageManager => createPackageManager(options);
