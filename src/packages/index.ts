export { createPackageManager, type PackageManagerOptions } from "./manager.ts";
export * from "./paths.ts";
export * from "./resolve.ts";
export * from "./resources.ts";
export { spawnRunner } from "./runner.ts";
export { baseDirOf, settingsSource } from "./settings-entries.ts";
export * from "./source.ts";
export * from "./types.ts";
