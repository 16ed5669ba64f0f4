/** TypeBox's builders and checkers, gathered so `typebox()` can load them on first use. Import only from there. */
export { Kind, Type } from "@sinclair/typebox";
export { TypeCompiler } from "@sinclair/typebox/compiler";
export { Errors, ValueErrorType } from "@sinclair/typebox/errors";
export { Check, Convert } from "@sinclair/typebox/value";
