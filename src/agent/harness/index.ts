export * from "./context.ts";
export type * from "./env-types.ts";
export * from "./messages.ts";
export { applyShellOutputUpdate, sanitizeShellOutput } from "./output-update.ts";
export * from "./prompt-format.ts";
export * from "./result.ts";
export * from "./telemetry.ts";
export * from "./telemetry-schemas.ts";
