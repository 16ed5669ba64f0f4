/** TypeBox's checking half, gathered so `typeboxChecks()` can load it on first use. Import it only from there. */
export { TypeCompiler } from "@sinclair/typebox/compiler";
export { Errors, ValueErrorType } from "@sinclair/typebox/errors";
export { Check, Convert } from "@sinclair/typebox/value";
