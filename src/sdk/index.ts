export { type CliEntry, type MainOptions, type PiArgs, type PiArgsDiagnostic, provideCliEntry } from "./cli-entry.ts";
export { HOST_PACKAGES, loadVirtualModules, VIRTUAL_SPECIFIERS } from "./virtual-modules.ts";
