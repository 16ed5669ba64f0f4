/**
 * TypeBox 1.x — the npm package `typebox`, which pi 0.87.1 maps its `typebox` specifiers (and pi-ai's `Type`) to —
 * loaded on first use. Its modules take tens of milliseconds to build, so nothing loads them until an extension
 * imports `typebox`, `Type` from pi-ai, or a tool schema without @sinclair/typebox 0.34's `Kind` is checked.
 * `require` (not `import()`) because callers are synchronous; the bundler keeps the modules in the binary.
 */
import type * as TypeBox1 from "./typebox1-impl.ts";

let loaded: typeof TypeBox1 | undefined;

/** The namespaces of `typebox`, `typebox/compile` and `typebox/value` (TypeBox 1.x). */
export function typebox1(): typeof TypeBox1 {
	loaded ??= require("./typebox1-impl.ts") as typeof TypeBox1;
	return loaded;
}
