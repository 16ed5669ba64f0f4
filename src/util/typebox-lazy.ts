/**
 * TypeBox's checking half — `Value` (check, errors, convert) and `TypeCompiler`, with their error messages — on
 * first use. Building schemas (`Type.*`) is cheap and happens at start-up; checking code is a large module graph
 * that many runs never touch, or touch only after the first request is on its way. A `require` of a bundled ES
 * module is evaluated when it first runs, not when the binary starts (Bun's bundler wraps it for that), and Bun
 * and Node both resolve it synchronously.
 */
type ValueModule = typeof import("@sinclair/typebox/value");
type CompilerModule = typeof import("@sinclair/typebox/compiler");

let valueModule: ValueModule | undefined;
let compilerModule: CompilerModule | undefined;

/** TypeBox's `Value` namespace. */
export function typeboxValue(): ValueModule["Value"] {
	valueModule ??= require("@sinclair/typebox/value") as ValueModule;
	return valueModule.Value;
}

/** TypeBox's `TypeCompiler`. */
export function typeboxCompiler(): CompilerModule["TypeCompiler"] {
	compilerModule ??= require("@sinclair/typebox/compiler") as CompilerModule;
	return compilerModule.TypeCompiler;
}
