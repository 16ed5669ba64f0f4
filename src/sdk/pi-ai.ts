/**
 * `@mariozechner/pi-ai` / `@earendil-works/pi-ai` (and `/compat`): the LLM layer as extensions and SDK users see
 * it — types, `stream`/`complete`/`streamSimple`/`completeSimple`, the API registry, providers, the model
 * catalogue, credentials helpers, error classification, the faux provider, and TypeBox's `Type` with `StringEnum`.
 */

export type { Static, TSchema } from "@sinclair/typebox";
export { Type } from "@sinclair/typebox";
export { type ValidationResult, validateToolArguments } from "../agent/index.ts";
export * from "../ai/index.ts";
export { uuidv7 } from "../util/index.ts";
export { StringEnum } from "./string-enum.ts";
