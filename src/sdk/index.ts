export { type CliEntry, type MainOptions, type PiArgs, type PiArgsDiagnostic, provideCliEntry } from "./cli-entry.ts";
export { type InteractiveStyles, loadInteractiveStyles } from "./interactive-styles.ts";
export { HOST_PACKAGES, loadVirtualModules, VIRTUAL_SPECIFIERS } from "./virtual-modules.ts";
